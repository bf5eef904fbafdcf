package singleton

import (
	"sync"
	"testing"
)

func run(t *testing.T, get func() *Instance) {
	Reset()
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() { defer wg.Done(); get() }()
	}
	wg.Wait()
	if n := Created(); n != 1 {
		t.Errorf("getSingleton called %d times, want 1", n)
	}
}

// Scenario creates two instances when both goroutines pass the nil check
// before either assigns.
func Scenario(t *testing.T) { run(t, Get) }

func TestFixed(t *testing.T) { run(t, SafeGet) }
