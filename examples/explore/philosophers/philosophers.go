// Package philosophers is Dijkstra's dining philosophers: each takes the
// left fork then the right one, and if all take their left fork at once
// none can eat.
package philosophers

import "sync"

// Dine lets n philosophers eat once each. With ordered == false every
// philosopher takes the left fork first (deadlocks in some schedules);
// with ordered == true each takes the lower-numbered fork first (the
// classic fix: a global lock order).
func Dine(n int, ordered bool) int {
	forks := make([]sync.Mutex, n)
	var wg sync.WaitGroup
	var mu sync.Mutex
	meals := 0
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			left, right := i, (i+1)%n
			if ordered && right < left {
				left, right = right, left
			}
			forks[left].Lock()
			forks[right].Lock()
			mu.Lock()
			meals++
			mu.Unlock()
			forks[right].Unlock()
			forks[left].Unlock()
		}()
	}
	wg.Wait()
	return meals
}
