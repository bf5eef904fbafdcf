package doubleclose

import (
	"sync"
	"testing"
)

func run(t *testing.T, fail func(*Group)) {
	g := NewGroup()
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			fail(g) // both workers fail
		}()
	}
	wg.Wait()
	select {
	case <-g.Failed():
	default:
		t.Error("group not marked failed")
	}
}

// Scenario panics with "close of closed channel" when both workers pass
// the check before either closes.
func Scenario(t *testing.T) { run(t, (*Group).Fail) }

func TestFixed(t *testing.T) { run(t, (*Group).SafeFail) }
