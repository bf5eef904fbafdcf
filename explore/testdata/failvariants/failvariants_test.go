// Package failvariants holds a test whose failure messages print values
// the schedule decides: each failing call is one bug, whatever it prints.
package failvariants

import (
	"sync"
	"testing"
)

// TestOrder expects the goroutines to append in the order they were
// started: the first check fails, with the order it saw, on every
// schedule in which goroutine 0 is not first; the second on the one
// in which 0 is first and 2 second.
func TestOrder(t *testing.T) {
	var (
		mu    sync.Mutex
		order []int
		wg    sync.WaitGroup
	)
	for i := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mu.Lock()
			order = append(order, i)
			mu.Unlock()
		}()
	}
	wg.Wait()
	if order[0] != 0 {
		t.Errorf("first is %d, order %v", order[0], order)
	} else if order[1] == 2 {
		t.Errorf("2 before 1")
	}
}
