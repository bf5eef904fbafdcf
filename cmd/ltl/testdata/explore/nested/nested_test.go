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

// TestNestedLock passes in every explored schedule; the Lock in String
// runs without a choice.
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
