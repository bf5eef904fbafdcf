// Package subtests holds tests with subtests (t.Run), which the explorer
// explores one subtest at a time, as go test -run 'TestX/case' runs them.
package subtests

import (
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
)

// pattern is a small race-free concurrency pattern run by n goroutines;
// it returns what every schedule computes.
type pattern func(n int) int

func mutexCounter(n int) int {
	var mu sync.Mutex
	var wg sync.WaitGroup
	count := 0
	for range n {
		wg.Add(1)
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

func channelSum(n int) int {
	ch := make(chan int)
	for i := range n {
		go func() { ch <- 1 + i - i }()
	}
	sum := 0
	for range n {
		sum += <-ch
	}
	return sum
}

func atomicAdds(n int) int {
	var v atomic.Int64
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			v.Add(1)
		}()
	}
	wg.Wait()
	return int(v.Load())
}

func semaphore(n int) int {
	sem := make(chan struct{}, 1)
	done := make(chan int, n)
	for range n {
		go func() {
			sem <- struct{}{}
			done <- 1
			<-sem
		}()
	}
	sum := 0
	for range n {
		sum += <-done
	}
	return sum
}

// TestTable is a table of 12 subtests: each explores in a few
// executions, all of them together multiply.
func TestTable(t *testing.T) {
	cases := []struct {
		name string
		n    int
		f    pattern
	}{
		{"mutex counter", 3, mutexCounter},
		{"channel sum", 3, channelSum},
		{"atomic adds", 3, atomicAdds},
		{"semaphore", 3, semaphore},
		{"mutex counter", 2, mutexCounter},
		{"channel sum", 2, channelSum},
		{"atomic adds", 2, atomicAdds},
		{"semaphore", 2, semaphore},
		{"mutex counter", 3, mutexCounter},
		{"channel sum", 3, channelSum},
		{"atomic adds", 3, atomicAdds},
		{"semaphore", 3, semaphore},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.f(tc.n); got != tc.n {
				t.Errorf("%s(%d) = %d", tc.name, tc.n, got)
			}
		})
	}
}

// TestDeadlock has a subtest whose two goroutines take two locks in
// opposite orders: a deadlock on some schedules.
func TestDeadlock(t *testing.T) {
	t.Run("ok", func(t *testing.T) {
		if got := mutexCounter(2); got != 2 {
			t.Errorf("got %d", got)
		}
	})
	t.Run("lock order", func(t *testing.T) {
		var a, b sync.Mutex
		var wg sync.WaitGroup
		wg.Add(2)
		go func() {
			defer wg.Done()
			a.Lock()
			b.Lock() // at:ab
			b.Unlock()
			a.Unlock()
		}()
		go func() {
			defer wg.Done()
			b.Lock()
			a.Lock() // at:ba
			a.Unlock()
			b.Unlock()
		}()
		wg.Wait()
	})
}

// TestNames has subtests named as testing rewrites and disambiguates
// them; each records its name.
func TestNames(t *testing.T) {
	var got []string
	for _, name := range []string{"dup", "dup", "dup", "dup#01", "", "", "a b", "tab\there", "bell\a"} {
		t.Run(name, func(t *testing.T) { got = append(got, t.Name()) })
	}
	_ = got
}

// TestNested has two levels of subtests.
func TestNested(t *testing.T) {
	for _, outer := range []string{"x", "y"} {
		t.Run(outer, func(t *testing.T) {
			for i := range 2 {
				t.Run(fmt.Sprint("inner", i), func(t *testing.T) {
					if got := mutexCounter(2); got != 2 {
						t.Errorf("got %d", got)
					}
				})
			}
		})
	}
}

// TestParentGoroutine starts a goroutine before its subtests: which
// subtests run could depend on the schedule, so it is explored whole.
func TestParentGoroutine(t *testing.T) {
	done := make(chan bool)
	go func() { done <- true }()
	t.Run("a", func(t *testing.T) {})
	t.Run("b", func(t *testing.T) {})
	<-done
}

// TestParallelSubtests has parallel subtests.
func TestParallelSubtests(t *testing.T) {
	var mu sync.Mutex
	total := 0
	for i := range 3 {
		t.Run(fmt.Sprint("p", i), func(t *testing.T) {
			t.Parallel()
			mu.Lock()
			total++
			mu.Unlock()
		})
	}
}

// TestFailing fails in one of its subtests.
func TestFailing(t *testing.T) {
	t.Run("good", func(t *testing.T) {})
	t.Run("bad", func(t *testing.T) { t.Error("bad result") })
}

// TestNoSubtests has none: it is explored whole.
func TestNoSubtests(t *testing.T) {
	if got := mutexCounter(2); got != 2 {
		t.Errorf("got %d", got)
	}
}

var shared int

// TestParallelRace has two parallel subtests that race, and a sequential
// one: explored one subtest at a time, the race would be missed.
func TestParallelRace(t *testing.T) {
	t.Run("seq", func(t *testing.T) {})
	for i := range 2 {
		t.Run(fmt.Sprint("w", i), func(t *testing.T) {
			t.Parallel()
			shared = i
		})
	}
}

// TestCollect checks what its subtests did: with only one of them run,
// its own check fails, which a run of all of them does not.
func TestCollect(t *testing.T) {
	var got []int
	for i := range 3 {
		t.Run(fmt.Sprint("c", i), func(t *testing.T) { got = append(got, i) })
	}
	if len(got) != 0 && len(got) != 3 {
		t.Errorf("got %v", got)
	}
}

// TestSteps has a subtest that needs what the one before it did: alone,
// it fails, after it, not. Another subtest fails on its own.
func TestSteps(t *testing.T) {
	var mu sync.Mutex
	store := map[string]int{}
	t.Run("put", func(t *testing.T) {
		mu.Lock()
		store["k"] = 1
		mu.Unlock()
	})
	t.Run("get", func(t *testing.T) {
		mu.Lock()
		defer mu.Unlock()
		if store["k"] != 1 {
			t.Error("k not stored")
		}
	})
	t.Run("broken", func(t *testing.T) { t.Error("broken") })
}
