package tickquiet

import (
	"sync"
	"testing"
	"time"
)

// In Go the tick can come while the producer waits holding mu: both block
// forever, although nothing is blocked when the tick is due.
func TestTickWhileProducerHoldsLock(t *testing.T) {
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
	for i := 0; i < 10; i++ {
		mu.Lock()
		work <- i
		mu.Unlock()
	}
	close(done)
}
