package ltltest_test

import (
	"fmt"
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

// blockedWhileTicking is the tickhang case: the test blocks forever while
// a ticker runs (Go hangs until the test's -timeout).
func blockedWhileTicking(t *testing.T) {
	tick := time.NewTicker(time.Millisecond)
	defer tick.Stop()
	<-make(chan int)
}

// longTicking is the longrun case: a 1ms ticker until a 20s timeout
// (20000 ticks), then a block forever.
func longTicking(t *testing.T) {
	tick := time.NewTicker(time.Millisecond)
	timeout := time.After(20 * time.Second)
	for {
		select {
		case <-tick.C:
		case <-timeout:
			tick.Stop()
			<-make(chan int)
		}
	}
}

// lockedCache takes a read lock in the String method fmt calls.
type lockedCache struct{ mu sync.RWMutex }

func (c *lockedCache) String() string {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return "cache"
}

// readLockThroughFmt is the fmtnested case: if the writer queues between
// the two read locks, all three block forever.
func readLockThroughFmt(t *testing.T) {
	c := &lockedCache{}
	done := make(chan struct{})
	go func() { c.mu.Lock(); c.mu.Unlock(); close(done) }()
	c.mu.RLock()
	_ = fmt.Sprint(c)
	c.mu.RUnlock()
	<-done
}

func TestExploreTimersAndNestedLocks(t *testing.T) {
	ft := &namedT{name: "TestCase"}
	assert.False(t, ltltest.Explore(ft, blockedWhileTicking))
	assert.Contains(t, ft.output(), "the timers still set wake none of them")

	ft = &namedT{name: "TestCase"}
	assert.False(t, ltltest.Explore(ft, readLockThroughFmt))
	assert.Contains(t, ft.output(), "found 1 problem (deadlock)")

	if testing.Short() {
		t.Skip("20000 ticks in each execution")
	}
	ft = &namedT{name: "TestCase"}
	assert.False(t, ltltest.Explore(ft, longTicking))
	assert.Contains(t, ft.output(), "found 1 problem (deadlock)")
}

// janitor leaves a cache's janitor ticking, as a constructor that starts
// one and a test that never stops it do.
func janitor(t *testing.T) {
	var mu sync.Mutex
	items := map[string]time.Time{"a": time.Now().Add(time.Second)}
	stop := make(chan bool)
	go func() {
		tick := time.NewTicker(time.Minute)
		for {
			select {
			case <-tick.C:
				mu.Lock()
				for k, exp := range items {
					if time.Now().After(exp) {
						delete(items, k)
					}
				}
				mu.Unlock()
			case <-stop:
				tick.Stop()
				return
			}
		}
	}()
}

// A loop only timers wake is a background loop, not a leak, unless
// WithTimerLeaks asks.
func TestExploreTimerLeaks(t *testing.T) {
	ft := &namedT{name: "TestCase"}
	assert.True(t, ltltest.Explore(ft, janitor), ft.output())

	ft = &namedT{name: "TestCase"}
	assert.False(t, ltltest.Explore(ft, janitor, ltltest.WithTimerLeaks()))
	assert.Contains(t, ft.output(), "found 1 problem (leak)")
	assert.Contains(t, ft.output(), "still waiting for timers")
}
