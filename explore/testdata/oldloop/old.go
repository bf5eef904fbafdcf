//go:build go1.21

// Package oldloop is compiled with Go 1.21 semantics (the build constraint
// sets the file's language version): a for loop has one shared variable.
package oldloop

import (
	"sync"
	"testing"
)

// SharedLoopVar sums what three closures see of the loop variable: 9 with
// one shared variable (Go before 1.22), 3 with a variable per iteration.
func SharedLoopVar(t *testing.T) {
	var fs []func() int
	for i := 0; i < 3; i++ {
		fs = append(fs, func() int { return i })
	}
	sum := 0
	for _, f := range fs {
		sum += f()
	}
	t.Errorf("sum %d", sum)
}

// GoroutineLoopVar starts goroutines that capture the shared loop
// variable; which values they see depends on the schedule.
func GoroutineLoopVar(t *testing.T) {
	var mu sync.Mutex
	seen := map[int]bool{}
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mu.Lock()
			seen[i] = true
			mu.Unlock()
		}()
	}
	wg.Wait()
	if !seen[0] || !seen[1] {
		t.Errorf("goroutines saw %v", seen)
	}
}
