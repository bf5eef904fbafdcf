package xtestspec_test

import (
	"sync"
	"testing"

	"github.com/henceforth-go/henceforth/explore/testdata/xtestspec"
	"github.com/henceforth-go/henceforth/explore/testdata/xtestspec/dep"
)

// TestPutGet gets concurrently with the put: in the schedules where Get
// runs first, xtestspec's putFirst is violated.
func TestPutGet(t *testing.T) {
	var s xtestspec.Store
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		s.Put(1)
	}()
	s.Get()
	wg.Wait()
}

// TestPutThenGet puts before it gets: every spec holds.
func TestPutThenGet(t *testing.T) {
	var s xtestspec.Store
	s.Put(1)
	if s.Get() != 1 {
		t.Error("lost the value")
	}
}

// TestReadBeforeReset resets dep's level concurrently with a spend:
// where the spend reads the level first, dep's resetFirst is violated.
func TestReadBeforeReset(t *testing.T) {
	done := make(chan bool)
	go func() {
		dep.Reset(10)
		done <- true
	}()
	xtestspec.Spend(3)
	<-done
}

// TestOverspend spends 7 twice from 10 concurrently: where both checks
// pass before either update, dep's neverNegative is violated.
func TestOverspend(t *testing.T) {
	dep.Reset(10)
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			xtestspec.Spend(7)
		}()
	}
	wg.Wait()
}

// TestVisit opens a session and never closes it: session's closes is
// violated at the end of every path.
func TestVisit(t *testing.T) {
	xtestspec.Visit()
}

// TestVisitAndClose closes it.
func TestVisitAndClose(t *testing.T) {
	xtestspec.VisitAndClose()
}
