package initleak

import "testing"

// TestUsesWorker leaves the package's worker running, as every test of the
// package does: that goroutine is not the test's leak.
func TestUsesWorker(t *testing.T) {
	n := 0
	Do(func() { n++ })
	if n != 1 {
		t.Errorf("n = %d", n)
	}
}

// TestLeaks starts a goroutine of its own that blocks forever.
func TestLeaks(t *testing.T) {
	ch := make(chan int)
	go func() { ch <- 1 }()
	Do(func() {})
}
