package tickquiet2

import (
	"sync"
	"testing"
	"time"
)

// tickquiet with two rounds: in Go the tick can come while the producer
// waits holding mu: both block forever, although nothing is blocked when
// the tick is due.
func TestTickWhileProducerHoldsLockTwice(t *testing.T) {
	var mu sync.Mutex
	work, done := make(chan int), make(chan struct{})
	go func() {
		tick := time.NewTicker(time.Nanosecond)
		defer tick.Stop()
		for {
			select {
			case <-work:
			case <-tick.C:
				mu.Lock() // housekeeping under the lock
				mu.Unlock()
			case <-done:
				return
			}
		}
	}()
	for i := 0; i < 2; i++ {
		mu.Lock()
		work <- i
		mu.Unlock()
	}
	close(done)
}

// The fix: the producer sends outside the lock.
func TestTickWhileProducerHoldsLockTwiceFixed(t *testing.T) {
	var mu sync.Mutex
	work, done := make(chan int), make(chan struct{})
	go func() {
		tick := time.NewTicker(time.Nanosecond)
		defer tick.Stop()
		for {
			select {
			case <-work:
			case <-tick.C:
				mu.Lock()
				mu.Unlock()
			case <-done:
				return
			}
		}
	}()
	for i := 0; i < 2; i++ {
		mu.Lock()
		mu.Unlock()
		work <- i
	}
	close(done)
}
