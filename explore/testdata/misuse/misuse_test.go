// Package misuse holds tests that misuse package testing or sync in ways
// Go's testing package or runtime reports, each with a fixed variant
// (same name + "Fixed") that passes on every schedule. A "// at:NAME"
// comment marks the line each finding is reported at.
package misuse

import (
	"runtime"
	"sync"
	"testing"
	"time"
)

// late runs f on a goroutine that sleeps first, so that it runs after
// the test has returned (the explorer keeps running goroutines then).
func late(f func()) {
	go func() {
		time.Sleep(time.Millisecond)
		f()
	}()
}

// --- testing: calls after the test has completed -------------------------

// Log, Logf, Error, Errorf, Fatal, Fatalf, Skip and Skipf log first:
// testing's log panics with "Log in goroutine after T has completed: msg"
// once the test and all its parents are done.

func TestLateLogf(t *testing.T) {
	late(func() { t.Logf("late %d", 1) }) // at:logf
}

func TestLateLogfFixed(t *testing.T) {
	done := make(chan bool)
	go func() {
		t.Logf("on time %d", 1)
		close(done)
	}()
	<-done
}

// Later lines of a multi-line message are indented, as testing does.
func TestLateLogLines(t *testing.T) {
	late(func() { t.Log("first\nsecond") }) // at:lines
}

func TestLateError(t *testing.T) {
	late(func() { t.Error("late error") }) // at:error
}

func TestLateErrorf(t *testing.T) {
	late(func() { t.Errorf("late %s", "errorf") }) // at:errorf
}

func TestLateFatal(t *testing.T) {
	late(func() { t.Fatal("late fatal") }) // at:fatal
}

func TestLateFatalf(t *testing.T) {
	late(func() { t.Fatalf("late %s", "fatalf") }) // at:fatalf
}

func TestLateSkip(t *testing.T) {
	late(func() { t.Skip("late skip") }) // at:skip
}

func TestLateSkipf(t *testing.T) {
	late(func() { t.Skipf("late %s", "skipf") }) // at:skipf
}

// Fail and FailNow panic with "Fail in goroutine after T has completed",
// T being the outermost completed test: the run's root test, whose name
// is empty, once the top-level test has completed.

func TestLateFail(t *testing.T) {
	late(func() { t.Fail() }) // at:fail
}

func TestLateFailNow(t *testing.T) {
	late(func() { t.FailNow() }) // at:failnow
}

func TestLateFailNowFixed(t *testing.T) {
	failed := make(chan bool)
	go func() { failed <- false }()
	if <-failed {
		t.FailNow()
	}
}

// SkipNow does not check: the late goroutine just exits.
func TestLateSkipNow(t *testing.T) {
	late(func() { t.SkipNow() })
}

// A subtest has completed, its parent has not: Error logs to the parent,
// then Fail panics naming the subtest.
func TestLateErrorInSubtest(t *testing.T) {
	done := make(chan bool)
	t.Run("sub", func(t *testing.T) {
		late(func() {
			t.Error("late") // at:suberror
			done <- true
		})
	})
	<-done
}

// The same Log is written to the parent's output: no panic.
func TestLateLogInSubtest(t *testing.T) {
	done := make(chan bool)
	t.Run("sub", func(t *testing.T) {
		late(func() {
			t.Log("late")
			done <- true
		})
	})
	<-done
}

// Once the parent has completed too, the subtest's Log panics.
func TestLateLogInSubtestAfterParent(t *testing.T) {
	t.Run("sub", func(t *testing.T) {
		late(func() { t.Log("late") }) // at:sublog
	})
}

func TestLateErrorInSubtestFixed(t *testing.T) {
	done := make(chan bool)
	t.Run("sub", func(t *testing.T) {
		go func() {
			t.Log("on time")
			done <- true
		}()
		<-done
	})
}

// --- testing: FailNow, SkipNow and runtime.Goexit -----------------------

// FailNow (here through Fatal) from a goroutine other than the test's
// stops that goroutine only (runtime.Goexit; WaitGroup.Go's Done still
// runs): the test goes on and fails.
func TestFatalInGoroutine(t *testing.T) {
	var wg sync.WaitGroup
	wg.Go(func() {
		t.Fatal("from goroutine") // at:fatalgo
	})
	wg.Wait()
	t.Log("the test goes on")
}

func TestFatalInGoroutineFixed(t *testing.T) {
	errs := make(chan error, 1)
	go func() { errs <- nil }()
	if err := <-errs; err != nil {
		t.Fatal(err)
	}
}

// SkipNow from another goroutine: that goroutine exits, the test goes on
// and is skipped. Go reports nothing else.
func TestSkipNowInGoroutine(t *testing.T) {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t.SkipNow()
	}()
	wg.Wait()
}

// A subtest calls FailNow of its parent: the subtest's goroutine exits by
// runtime.Goexit while the subtest has not finished and its parent has,
// so the subtest fails with "test executed panic(nil) or runtime.Goexit:
// subtest may have called FailNow on a parent test", and t.Run calls
// runtime.Goexit in the parent: the parent's Log is not reached.
func TestSubtestFailNowParent(t *testing.T) {
	t.Run("sub", func(st *testing.T) {
		t.FailNow() // at:parentfailnow
	})
	t.Log("not reached")
}

func TestSubtestFailNowParentFixed(t *testing.T) {
	t.Run("sub", func(st *testing.T) {
		if st.Failed() {
			st.FailNow()
		}
	})
	t.Log("reached")
}

// The test's goroutine calls runtime.Goexit itself: testing panics with
// "test executed panic(nil) or runtime.Goexit".
func TestGoexit(t *testing.T) { // at:goexit
	runtime.Goexit()
}

func TestGoexitFixed(t *testing.T) {
	if t.Failed() {
		runtime.Goexit()
	}
}

// --- sync.WaitGroup ---------------------------------------------------

func TestWaitGroupNegative(t *testing.T) {
	var wg sync.WaitGroup
	wg.Add(1)
	wg.Done()
	wg.Done() // at:negative
}

func TestWaitGroupNegativeFixed(t *testing.T) {
	var wg sync.WaitGroup
	wg.Add(2)
	wg.Done()
	wg.Done()
}

// The WaitGroup is reused (Add from zero) after a Done woke the waiter
// and before the waiter's Wait returned: the waiter panics.
func TestWaitGroupReused(t *testing.T) {
	var wg sync.WaitGroup
	wg.Add(1)
	done := make(chan bool)
	go func() {
		wg.Wait() // at:reused
		done <- true
	}()
	wg.Done()
	wg.Add(1)
	wg.Done()
	<-done
}

func TestWaitGroupReusedFixed(t *testing.T) {
	var wg sync.WaitGroup
	wg.Add(1)
	done := make(chan bool)
	go func() {
		wg.Wait()
		done <- true
	}()
	wg.Done()
	<-done
	wg.Add(1)
	wg.Done()
}

// An Add from zero while the Done that brought the counter to zero has
// not woken the registered waiter yet.
func TestWaitGroupAddDuringWait(t *testing.T) {
	var wg sync.WaitGroup
	wg.Add(1)
	done := make(chan bool)
	go func() {
		wg.Wait()
		done <- true
	}()
	go wg.Done()
	wg.Add(1) // at:addduringwait
	wg.Done()
	<-done
}

func TestWaitGroupAddDuringWaitFixed(t *testing.T) {
	var wg sync.WaitGroup
	wg.Add(1)
	done := make(chan bool)
	go func() {
		wg.Wait()
		done <- true
	}()
	go wg.Done()
	<-done
	wg.Add(1)
	wg.Done()
}

// --- sync.Mutex and sync.RWMutex: fatal errors -------------------------

func TestUnlockOfUnlockedMutex(t *testing.T) {
	var mu sync.Mutex
	mu.Lock()
	mu.Unlock()
	mu.Unlock() // at:unlock
}

func TestUnlockOfUnlockedMutexFixed(t *testing.T) {
	var mu sync.Mutex
	mu.Lock()
	mu.Unlock()
}

func TestRUnlockOfUnlockedRWMutex(t *testing.T) {
	var mu sync.RWMutex
	mu.Lock()
	mu.RUnlock() // at:runlock
}

func TestRUnlockOfUnlockedRWMutexFixed(t *testing.T) {
	var mu sync.RWMutex
	mu.RLock()
	mu.RUnlock()
}

func TestUnlockOfUnlockedRWMutex(t *testing.T) {
	var mu sync.RWMutex
	mu.RLock()
	mu.Unlock() // at:rwunlock
}

func TestUnlockOfUnlockedRWMutexFixed(t *testing.T) {
	var mu sync.RWMutex
	mu.Lock()
	mu.Unlock()
}
