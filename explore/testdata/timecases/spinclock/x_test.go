package spinclock

import (
	"testing"
	"time"
)

// A goroutine that polls with select/default never blocks: the clock
// must still advance so that the Sleep returns.
func TestPollerStarvesTheClock(t *testing.T) {
	stop := make(chan struct{})
	n := 0
	go func() {
		for {
			select {
			case <-stop:
				return
			default:
				_ = n + 1 // unsynchronized read
			}
		}
	}()
	time.Sleep(time.Millisecond)
	n = 1 // races with the poller's read
	close(stop)
}
