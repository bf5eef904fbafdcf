package ltltest_test

import (
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/henceforth-go/henceforth/ltltest"
)

// tickWhileLocked is tickquiet in two rounds: a tick can arrive while the
// sender holds mu; the ticker's goroutine then blocks in Lock and the
// sender in its send.
func tickWhileLocked(t *testing.T) {
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
		work <- i
		mu.Unlock()
	}
	close(done)
}

func TestExploreTickWhileLocked(t *testing.T) {
	ft := &namedT{name: "TestCase"}
	assert.False(t, ltltest.Explore(ft, tickWhileLocked))
	assert.Contains(t, ft.output(), "found 1 problem (deadlock)")

	// the clock of testing/synctest: timers expire only when nothing
	// else can move
	ft = &namedT{name: "TestCase"}
	assert.True(t, ltltest.Explore(ft, tickWhileLocked, ltltest.WithEarlyFire(0)), ft.output())
}

// pollerHidesDeadlock is the poller case: every schedule deadlocks (the
// dispatcher waits for its own signal) while a poller spins.
func pollerHidesDeadlock(t *testing.T) {
	stop, inbox, stopped := make(chan struct{}), make(chan int), make(chan struct{})
	go func() {
		for {
			select {
			case <-stop:
				return
			default:
			}
		}
	}()
	go func() {
		<-inbox
		close(stop)
		<-stopped
		close(stopped)
	}()
	inbox <- 1
	<-stopped
}

// pollerAndSleep is the spinclock case: the poller never blocks, the test
// sleeps, then writes what the poller reads.
func pollerAndSleep(t *testing.T) {
	stop := make(chan struct{})
	n := 0
	go func() {
		for {
			select {
			case <-stop:
				return
			default:
				_ = n + 1
			}
		}
	}()
	time.Sleep(time.Millisecond)
	n = 1
	close(stop)
}

func TestExplorePollers(t *testing.T) {
	ft := &namedT{name: "TestCase"}
	assert.False(t, ltltest.Explore(ft, pollerHidesDeadlock))
	assert.Contains(t, ft.output(), "found 1 problem (deadlock)")

	ft = &namedT{name: "TestCase"}
	assert.False(t, ltltest.Explore(ft, pollerAndSleep))
	assert.Contains(t, ft.output(), "found 1 problem (race)")
}
