package longrun

import (
	"testing"
	"time"
)

// 20 s of a 1 ms ticker is 20000 ticks before the deadlock after the
// timeout is reached.
func TestDeadlockAfterLongTimeout(t *testing.T) {
	tick := time.NewTicker(time.Millisecond)
	timeout := time.After(20 * time.Second)
	for {
		select {
		case <-tick.C:
		case <-timeout:
			tick.Stop()
			<-make(chan int) // blocks forever
		}
	}
}
