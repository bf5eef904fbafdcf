// Package many has stress tests with many goroutines: the benchmarks of
// the explorer's cost per execution when the schedule space is far too
// large to enumerate.
package many

import "sync"

// Counter starts n goroutines that each increment a mutex-protected
// counter and call wg.Done; it returns the count.
func Counter(n int) int {
	var mu sync.Mutex
	var wg sync.WaitGroup
	count := 0
	wg.Add(n)
	for range n {
		go func() {
			defer wg.Done()
			mu.Lock()
			count++
			mu.Unlock()
		}()
	}
	wg.Wait()
	return count
}

// FanIn starts n goroutines that each send their index on one channel
// and sums what the caller receives.
func FanIn(n int) int {
	ch := make(chan int)
	for i := range n {
		go func() { ch <- i }()
	}
	sum := 0
	for range n {
		sum += <-ch
	}
	return sum
}

// Counter1000 is Counter with 1000 goroutines; it panics if an increment
// was lost.
func Counter1000() {
	if Counter(1000) != 1000 {
		panic("lost increment")
	}
}

// FanIn1000 is FanIn with 1000 goroutines; it panics if a value was lost.
func FanIn1000() {
	if FanIn(1000) != 1000*999/2 {
		panic("lost value")
	}
}

// Counter100 is Counter with 100 goroutines.
func Counter100() {
	if Counter(100) != 100 {
		panic("lost increment")
	}
}

// FanIn100 is FanIn with 100 goroutines.
func FanIn100() {
	if FanIn(100) != 100*99/2 {
		panic("lost value")
	}
}

// Counter200 is Counter with 200 goroutines.
func Counter200() {
	if Counter(200) != 200 {
		panic("lost increment")
	}
}

// FanIn3 is FanIn with 3 goroutines: DPOR completes it.
func FanIn3() {
	if FanIn(3) != 3 {
		panic("lost value")
	}
}
