package nested

import (
	"fmt"
	"sync"
	"testing"
)

type guarded struct {
	mu *sync.Mutex
	n  *int
}

func (g guarded) String() string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return fmt.Sprint(*g.n)
}

// TestNestedLock passes in every explored schedule; the Lock in String is
// a scheduling point (Sprintf may see 0 or 1).
func TestNestedLock(t *testing.T) {
	var mu sync.Mutex
	n := 0
	done := make(chan bool)
	go func() {
		mu.Lock()
		n++
		mu.Unlock()
		done <- true
	}()
	if s := fmt.Sprintf("%v", guarded{&mu, &n}); s != "0" && s != "1" {
		t.Errorf("got %s", s)
	}
	<-done
}

// cache's String method takes a second read lock.
type cache struct{ mu sync.RWMutex }

func (c *cache) String() string {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return "cache"
}

// TestNestedReadLock deadlocks when the writer queues between the two
// RLocks.
func TestNestedReadLock(t *testing.T) {
	c := &cache{}
	done := make(chan struct{})
	go func() { c.mu.Lock(); c.mu.Unlock(); close(done) }()
	c.mu.RLock()
	_ = fmt.Sprint(c)
	c.mu.RUnlock()
	<-done
}
