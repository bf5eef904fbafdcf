// Package allocpage calls testing.AllocsPerRun and the page-size
// functions, which the explorer models.
package allocpage

import (
	"os"
	"strings"
	"syscall"
	"testing"
)

// TestAllocsRunsF checks that AllocsPerRun calls f once more than runs
// (a warm-up), and bounds the count.
func TestAllocsRunsF(t *testing.T) {
	calls := 0
	n := testing.AllocsPerRun(10, func() { calls++ })
	if calls != 11 {
		t.Errorf("f ran %d times, want 11", calls)
	}
	if n > 1 {
		t.Errorf("AllocsPerRun = %v, want at most 1", n)
	}
}

// TestAllocsBlockingF runs a function that waits for a goroutine it
// starts.
func TestAllocsBlockingF(t *testing.T) {
	got := 0
	testing.AllocsPerRun(2, func() {
		ch := make(chan int)
		go func() { ch <- 1 }()
		got += <-ch
	})
	if got != 3 {
		t.Errorf("received %d values, want 3", got)
	}
}

// TestAllocsZeroRuns: AllocsPerRun divides by runs.
func TestAllocsZeroRuns(t *testing.T) {
	defer func() {
		err, _ := recover().(error)
		if err == nil || !strings.Contains(err.Error(), "integer divide by zero") {
			t.Errorf("recovered %v, want an integer division by zero", err)
		}
	}()
	testing.AllocsPerRun(0, func() {})
}

// TestPagesize checks the page size.
func TestPagesize(t *testing.T) {
	n := os.Getpagesize()
	if n <= 0 || n&(n-1) != 0 || n != syscall.Getpagesize() {
		t.Errorf("os.Getpagesize() = %d, syscall.Getpagesize() = %d", n, syscall.Getpagesize())
	}
}
