package spinwait

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestFreeLockBeforeTimeout frees the lock a goroutine spins on, then
// gives it a second to take it: in Go it takes microseconds.
func TestFreeLockBeforeTimeout(t *testing.T) {
	var l SpinLock
	l.Lock()
	done := make(chan struct{})
	go func() {
		l.Lock()
		l.Unlock()
		close(done)
	}()
	time.Sleep(10 * time.Millisecond)
	l.Unlock()
	select {
	case <-done:
	case <-time.After(time.Second):
		t.Fatal("the spinning goroutine did not take the free lock within a second")
	}
}

// TestIdleWorkersRetired returns while a worker may still spin for the
// pool's lock; the purge loop retires it once it is idle, so no goroutine
// of the test is blocked forever.
func TestIdleWorkersRetired(t *testing.T) {
	p := NewPool(time.Second)
	var wg sync.WaitGroup
	wg.Add(2)
	p.Submit(wg.Done)
	p.Submit(wg.Done)
	wg.Wait()
}

// TestSpinUntilSleeperWakes spins until a goroutine that sleeps a second
// sets a flag: the clock must advance while the spinner only polls.
func TestSpinUntilSleeperWakes(t *testing.T) {
	var flag atomic.Bool
	done := make(chan struct{})
	go func() {
		time.Sleep(time.Second)
		flag.Store(true)
	}()
	go Spinner(&flag, done)
	<-done
}

// TestSpinUntilDeadline spins on time.Now until a deadline passes while a
// timer is set: the clock advances although the spinner never blocks.
func TestSpinUntilDeadline(t *testing.T) {
	timer := time.AfterFunc(time.Second, func() {})
	defer timer.Stop()
	deadline := time.Now().Add(250 * time.Millisecond)
	for time.Now().Before(deadline) {
		runtime.Gosched()
	}
}

// TestPollOnceBeforeTimeout polls a context once, right after a read,
// before its deadline: a first poll is not a goroutine waiting for time.
func TestPollOnceBeforeTimeout(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	var n atomic.Int32
	n.Load()
	select {
	case <-ctx.Done():
		t.Fatal("the deadline passed before the first poll")
	default:
	}
}
