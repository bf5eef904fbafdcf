package sleephb

import (
	"testing"
	"time"
)

// time.Sleep is not synchronization in Go's memory model; the race
// detector reports the write and the read below.
func TestSleepIsNotSynchronization(t *testing.T) {
	ready := false
	go func() {
		ready = true
	}()
	time.Sleep(10 * time.Millisecond)
	if !ready {
		t.Log("not ready yet")
	}
}

// The fixed version: the goroutine's close, not a sleep, orders the write
// before the read.
func TestSleepIsNotSynchronizationFixed(t *testing.T) {
	ready := false
	done := make(chan struct{})
	go func() {
		ready = true
		close(done)
	}()
	<-done
	if !ready {
		t.Error("not ready after done")
	}
}
