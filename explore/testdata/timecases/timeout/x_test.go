package timeout

import (
	"sync"
	"testing"
	"time"
)

// A timeout of a second does not expire while the workers can still make
// progress: the test passes (no spurious "timeout" finding).
func TestWorkBeforeTimeout(t *testing.T) {
	var mu sync.Mutex
	total := 0
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := 0; i < 5; i++ {
			mu.Lock()
			total += i
			mu.Unlock()
		}
	}()
	select {
	case <-done:
	case <-time.After(time.Second):
		t.Fatal("timeout")
	}
}

// The work blocks forever: the timeout fires, and the test fails.
func TestWorkStuckTimeout(t *testing.T) {
	done := make(chan struct{})
	go func() {
		<-make(chan int)
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(time.Second):
		t.Fatal("timeout")
	}
}
