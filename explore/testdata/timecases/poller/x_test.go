package poller

import "testing"

// Every schedule deadlocks (the dispatcher waits for its own signal),
// while a poller spins: a scheduler that lets the poller run forever never
// sees it.
func TestPollerHidesDeadlock(t *testing.T) {
	stop, inbox, stopped := make(chan struct{}), make(chan int), make(chan struct{})
	go func() { // poller
		for {
			select {
			case <-stop:
				return
			default:
			}
		}
	}()
	go func() { // dispatcher
		<-inbox
		close(stop)
		<-stopped // waits for itself: blocks forever
		close(stopped)
	}()
	inbox <- 1
	<-stopped
}
