// Package parallel holds tests with parallel subtests (t.Parallel): they
// run concurrently, after their parent's function returned, and the
// parent completes (its cleanups run) after they all finished, as go test
// runs them. A "// at:NAME" comment marks the line a finding is reported
// at.
package parallel

import (
	"runtime"
	"slices"
	"sync"
	"testing"
)

// --- races between parallel subtests ---------------------------------------

var shared int

// Two parallel subtests write a shared variable: a data race.
func TestParallelRace(t *testing.T) {
	shared = 0
	t.Run("a", func(t *testing.T) {
		t.Parallel()
		shared++ // at:racea
	})
	t.Run("b", func(t *testing.T) {
		t.Parallel()
		shared++ // at:raceb
	})
}

// The same with a mutex: no race, on every schedule.
func TestParallelRaceFixed(t *testing.T) {
	var mu sync.Mutex
	shared = 0
	t.Run("a", func(t *testing.T) {
		t.Parallel()
		mu.Lock()
		shared++
		mu.Unlock()
	})
	t.Run("b", func(t *testing.T) {
		t.Parallel()
		mu.Lock()
		shared++
		mu.Unlock()
	})
	t.Cleanup(func() {
		if shared != 2 {
			t.Errorf("shared = %d, want 2", shared)
		}
	})
}

// Subtests that do not call t.Parallel run one after the other: no race.
func TestSequentialSubtests(t *testing.T) {
	var order []string
	shared = 0
	t.Run("a", func(t *testing.T) {
		shared++
		order = append(order, "a")
	})
	t.Run("b", func(t *testing.T) {
		shared++
		order = append(order, "b")
	})
	if shared != 2 || !slices.Equal(order, []string{"a", "b"}) {
		t.Errorf("shared = %d, order %v", shared, order)
	}
}

// A goroutine the parent starts after t.Run races with the parallel
// subtest's body: t.Run's return is ordered after what the subtest did
// before t.Parallel only.
func TestParallelRaceWithParentGoroutine(t *testing.T) {
	done := make(chan bool)
	t.Run("a", func(t *testing.T) {
		shared = 1 // before t.Parallel: ordered before t.Run's return
		t.Parallel()
		shared = 2 // at:goracesub
	})
	go func() {
		shared = 3 // at:goracego
		done <- true
	}()
	t.Cleanup(func() { <-done })
}

// --- order ----------------------------------------------------------------

// Each parallel subtest appends its name; the parent's cleanup, which runs
// after both, expects a before b: the other order fails.
func TestParallelOrder(t *testing.T) {
	var mu sync.Mutex
	var order []string
	add := func(s string) {
		mu.Lock()
		order = append(order, s)
		mu.Unlock()
	}
	t.Cleanup(func() {
		if !slices.Equal(order, []string{"a", "b"}) {
			t.Errorf("order %v, want [a b]", order) // at:order
		}
	})
	t.Run("a", func(t *testing.T) {
		t.Parallel()
		add("a")
	})
	t.Run("b", func(t *testing.T) {
		t.Parallel()
		add("b")
	})
}

// Three parallel subtests append their names: the cleanup reports the
// order, so every order (six) is a finding of its own.
func TestParallelThreeOrders(t *testing.T) {
	var mu sync.Mutex
	var order []string
	t.Cleanup(func() { t.Errorf("order %v", order) })
	for _, name := range []string{"a", "b", "c"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			mu.Lock()
			order = append(order, name)
			mu.Unlock()
		})
	}
}

// Go's order: a non-parallel subtest runs inside t.Run; the parent's code
// after t.Run runs before the parallel subtests' bodies (t.Run returns
// when the subtest calls t.Parallel, with whether it failed so far); a
// parallel subtest's cleanups run when it ends; the parent's cleanups
// run after all of them. What happens before t.Parallel, in the parent
// before its function returns and in the subtests before they end is
// ordered for the race detector: no race here.
func TestParallelGoOrder(t *testing.T) {
	var mu sync.Mutex
	var log []string
	add := func(s string) {
		mu.Lock()
		log = append(log, s)
		mu.Unlock()
	}
	x := 0
	t.Cleanup(func() {
		add("parent cleanup")
		want := []string{"a before Parallel", "Run a returned true", "Run b returned true", "seq", "parent end"}
		if !slices.Equal(log[:5], want) {
			t.Errorf("log %v, want it to start with %v", log, want)
		}
		rest := log[5:]
		ia, ib, ic := slices.Index(rest, "a body"), slices.Index(rest, "b body"), slices.Index(rest, "a cleanup")
		if len(rest) != 4 || ia < 0 || ib < 0 || ic < ia || rest[3] != "parent cleanup" {
			t.Errorf("log %v: the subtests' bodies and cleanups, then the parent's cleanup", log)
		}
		if x != 3 {
			t.Errorf("x = %d, want 3", x)
		}
	})
	ok := t.Run("a", func(t *testing.T) {
		x = 1
		add("a before Parallel")
		t.Parallel()
		t.Cleanup(func() { add("a cleanup") })
		if x != 2 {
			t.Errorf("x = %d in a, want 2", x)
		}
		add("a body")
	})
	add("Run a returned " + boolString(ok))
	x++ // the subtest wrote x before t.Parallel
	ok = t.Run("b", func(t *testing.T) {
		t.Parallel()
		add("b body")
	})
	add("Run b returned " + boolString(ok))
	t.Run("seq", func(t *testing.T) { add("seq") })
	add("parent end")
	t.Cleanup(func() { x++ }) // after both subtests: no race with a's read
}

func boolString(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

// A subtest that fails before t.Parallel: t.Run returns false at once.
func TestParallelRunResult(t *testing.T) {
	ok := t.Run("a", func(t *testing.T) {
		t.Error("failed before Parallel")
		t.Parallel()
	})
	t.Logf("t.Run returned %v", ok)
}

// Parallel subtests of a parallel subtest are released when their
// parent's function returned, and the top-level test's cleanup runs
// after all of them.
func TestNestedParallel(t *testing.T) {
	var mu sync.Mutex
	var log []string
	add := func(s string) {
		mu.Lock()
		log = append(log, s)
		mu.Unlock()
	}
	t.Cleanup(func() {
		if len(log) != 4 || log[0] != "outer end" || log[3] != "outer cleanup" {
			t.Errorf("log %v", log)
		}
	})
	t.Run("outer", func(t *testing.T) {
		t.Parallel()
		t.Cleanup(func() { add("outer cleanup") })
		t.Run("x", func(t *testing.T) { t.Parallel(); add("x") })
		t.Run("y", func(t *testing.T) { t.Parallel(); add("y") })
		add("outer end")
	})
}

// The parent calls FailNow: its parallel subtests still run (testing
// releases them from tRunner's deferred function).
func TestParallelAfterParentFailNow(t *testing.T) {
	t.Run("p", func(t *testing.T) {
		t.Parallel()
		t.Log("the parallel subtest runs")
	})
	t.FailNow() // at:failnow
}

// --- misuse ---------------------------------------------------------------

func TestParallelTwice(t *testing.T) {
	t.Run("x", func(t *testing.T) {
		t.Parallel()
		t.Parallel() // at:twice
	})
}

// The explored test itself calls t.Parallel: it goes on.
func TestTopLevelParallel(t *testing.T) {
	t.Parallel()
	shared = 1
	t.Run("sub", func(t *testing.T) {
		t.Parallel()
		if shared != 2 {
			t.Errorf("shared = %d, want 2", shared)
		}
	})
	shared = 2
}

func TestTopLevelParallelTwice(t *testing.T) {
	t.Parallel()
	t.Parallel() // at:toptwice
}

// runtime.Goexit in a parallel subtest: its parent has finished, but the
// test is parallel, so testing panics rather than failing it.
func TestParallelGoexit(t *testing.T) {
	t.Run("p", func(t *testing.T) {
		t.Parallel()
		runtime.Goexit()
	})
}
