// Package counter is a lost update: concurrent increments of a shared
// counter without synchronization (a read-modify-write race). It is found
// only with Options.Shared.
package counter

import "sync"

// Count increments a counter from n goroutines, unsynchronized.
func Count(n int) int {
	c := 0
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c++
		}()
	}
	wg.Wait()
	return c
}

// SafeCount protects the counter with a mutex.
func SafeCount(n int) int {
	c := 0
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mu.Lock()
			c++
			mu.Unlock()
		}()
	}
	wg.Wait()
	return c
}
