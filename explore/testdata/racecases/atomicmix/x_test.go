package atomicmix

import (
	"sync/atomic"
	"testing"
)

// One goroutine updates the counter atomically, the other reads it
// plainly: a data race for go test -race, never checked by the explorer.
func TestAtomicAndPlainAccess(t *testing.T) {
	var hits int64
	done := make(chan struct{})
	go func() {
		atomic.AddInt64(&hits, 1)
		close(done)
	}()
	if hits > 0 { // plain read, not ordered with the atomic add
		t.Log("already counted")
	}
	<-done
}

// The fixed version: both accesses are atomic.
func TestAtomicAndPlainAccessFixed(t *testing.T) {
	var hits int64
	done := make(chan struct{})
	go func() {
		atomic.AddInt64(&hits, 1)
		close(done)
	}()
	if atomic.LoadInt64(&hits) > 0 {
		t.Log("already counted")
	}
	<-done
}
