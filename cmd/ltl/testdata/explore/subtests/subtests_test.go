// Package subtests has tests with subtests, which ltl explore explores
// one by one.
package subtests

import (
	"sync"
	"testing"
)

func count(n int) int {
	var mu sync.Mutex
	var wg sync.WaitGroup
	c := 0
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

func TestTable(t *testing.T) {
	for _, tc := range []struct {
		name string
		n    int
	}{{"two workers", 2}, {"three workers", 3}, {"two workers", 2}} {
		t.Run(tc.name, func(t *testing.T) {
			if got := count(tc.n); got != tc.n {
				t.Errorf("count(%d) = %d", tc.n, got)
			}
		})
	}
}

func TestDeadlock(t *testing.T) {
	t.Run("ok", func(t *testing.T) { count(2) })
	t.Run("lock order", func(t *testing.T) {
		var a, b sync.Mutex
		var wg sync.WaitGroup
		wg.Add(2)
		go func() {
			defer wg.Done()
			a.Lock()
			b.Lock()
			b.Unlock()
			a.Unlock()
		}()
		go func() {
			defer wg.Done()
			b.Lock()
			a.Lock()
			a.Unlock()
			b.Unlock()
		}()
		wg.Wait()
	})
}
