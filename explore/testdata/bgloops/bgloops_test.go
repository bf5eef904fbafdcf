package bgloops

import (
	"testing"
	"time"
)

// TestJanitor leaves the cache's janitor ticking: its finalizer never runs.
func TestJanitor(t *testing.T) {
	c := NewCache(time.Minute)
	c.Set("a", 1, time.Hour)
	if v, ok := c.Get("a"); !ok || v != 1 {
		t.Errorf("Get = %d, %v", v, ok)
	}
}

// TestPurge leaves the pool's purge loop ticking: the pool is not released.
func TestPurge(t *testing.T) {
	p := NewPool(time.Second)
	n := 0
	p.Submit(func() { n++ })
	if n != 1 {
		t.Errorf("n = %d", n)
	}
}

// TestPurgeReleased stops the purge loop.
func TestPurgeReleased(t *testing.T) {
	p := NewPool(time.Second)
	defer p.Release()
	p.Submit(func() {})
}

// TestSleeper leaves a sleeping loop running.
func TestSleeper(t *testing.T) {
	s := NewStats()
	s.mu.Lock()
	s.mu.Unlock()
}

// TestLeakNextToJanitor leaves a janitor ticking and a goroutine of its own
// blocked forever on a channel: that one is a leak.
func TestLeakNextToJanitor(t *testing.T) {
	NewCache(time.Minute)
	ch := make(chan int)
	go func() { ch <- 1 }()
}

// TestExpiry expects an item to expire once its time to live has passed.
func TestExpiry(t *testing.T) {
	c := NewCache(time.Minute)
	c.Set("a", 1, 10*time.Millisecond)
	time.Sleep(10 * time.Millisecond)
	if _, ok := c.Get("a"); ok {
		t.Error("the item has not expired")
	}
}

// TestLateLogInLoop logs from a loop after the test returned: the first
// round, which no goroutine waits for, runs after it.
func TestLateLogInLoop(t *testing.T) {
	go func() {
		for {
			time.Sleep(time.Millisecond)
			t.Log("late")
		}
	}()
}

// TestNowAfterSleep expects time to pass while it sleeps, by at least the
// sleep's duration, and by exactly as much on the clock of timers.
func TestNowAfterSleep(t *testing.T) {
	start := time.Now()
	expiry := start.Add(10 * time.Millisecond)
	time.Sleep(10 * time.Millisecond)
	now := time.Now()
	if !now.After(expiry) {
		t.Errorf("Now %v is not after %v", now, expiry)
	}
	if d := time.Since(start); d < 10*time.Millisecond || d > 11*time.Millisecond {
		t.Errorf("Since = %v", d)
	}
	if !time.Now().After(now) && !time.Now().Equal(now) {
		t.Error("time went back")
	}
	timer := time.NewTimer(time.Until(expiry.Add(5 * time.Millisecond)))
	fired := <-timer.C
	if fired.Before(expiry.Add(5 * time.Millisecond)) {
		t.Errorf("timer fired at %v, before its deadline", fired)
	}
}

// TestFastJanitor finds an item before its time to live has passed,
// although a 1ms janitor ticks while it looks up others.
func TestFastJanitor(t *testing.T) {
	c := NewCache(time.Millisecond)
	c.Set("d", 4, 30*time.Millisecond)
	<-time.After(25 * time.Millisecond)
	for range 4 {
		c.Get("x")
	}
	if _, ok := c.Get("d"); !ok {
		t.Error("d expired early")
	}
}
