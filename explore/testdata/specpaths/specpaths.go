// Package specpaths holds programs for the path semantics of spec
// checking (spec_test.go): states that exist only between two writes of
// goroutines that do not synchronize with each other, and paths that end
// in a panic, a deadlock or a bound.
package specpaths

import (
	"runtime"
	"sync"
	"sync/atomic"
)

var (
	muA, muB sync.Mutex
	a, b     int
)

//ltl:prop both a == 1 && b == 1
//ltl:spec neverBoth G(!both)

// Pulses sets a and b to 1 and back to 0, each under its own mutex in its
// own goroutine. Both are 1 only when both writes of 1 come before both
// resets: a state inside the two goroutines' transitions, which only
// interleavings of the writes themselves show.
func Pulses() {
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		muA.Lock()
		a = 1
		a = 0
		muA.Unlock()
	}()
	go func() {
		defer wg.Done()
		muB.Lock()
		b = 1
		b = 0
		muB.Unlock()
	}()
	wg.Wait()
}

// PulsesInTurn starts the second goroutine after the first finished:
// neverBoth holds.
func PulsesInTurn() {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		muA.Lock()
		a = 1
		a = 0
		muA.Unlock()
	}()
	wg.Wait()
	wg.Add(1)
	go func() {
		defer wg.Done()
		muB.Lock()
		b = 1
		b = 0
		muB.Unlock()
	}()
	wg.Wait()
}

//ltl:prop started call Work
//ltl:prop finished return Work
//ltl:spec workReturns G(started -> F finished)

// Work panics when asked to.
func Work(fail bool) {
	if fail {
		panic("work failed")
	}
}

// Fails calls Work, which panics: the path ends in the panic, not where
// the program would go on, so workReturns is not judged on it.
func Fails() {
	Work(true)
}

// Finishes calls Work, which returns.
func Finishes() {
	Work(false)
}

//ltl:prop waiting call Wait
//ltl:prop woken return Wait
//ltl:spec waitReturns G(waiting -> F woken)

// Wait receives from ch.
func Wait(ch chan int) int {
	return <-ch
}

// Deadlocks waits on a channel no one sends on: every goroutine is
// blocked forever, the path really ends there, and waitReturns is
// violated.
func Deadlocks() {
	Wait(make(chan int))
}

// Spins waits while another goroutine spins forever: every path is cut
// by the step bound, and waitReturns is not judged.
func Spins() {
	ch := make(chan int)
	go func() {
		for {
			runtime.Gosched()
		}
	}()
	Wait(ch)
}

// Churn writes a slice and a struct many times and a and b never: the
// predicate of neverBoth reads a and b only, so none of these writes is
// watched (the benchmark of watched writes compares it with NoSpecs).
func Churn() {
	s := make([]int, 1000)
	p := &pair{}
	churned = p
	for i := range 200 {
		for j := range s {
			s[j] = i + j
		}
		p.x, p.y = p.y, s[i]
	}
}

type pair struct{ x, y int }

var churned *pair

// Toggles writes a 1000 times in one goroutine: every write is watched
// (a scheduling point, and the predicates are evaluated after it).
func Toggles() {
	for i := range 1000 {
		a = i % 2
	}
}

var hits int64

//ltl:prop counted hits > 0
//ltl:prop reported call Report
//ltl:spec reportCounted G(reported -> counted)

// Report is the observed call.
func Report() {}

// CountAndReport counts twice atomically in two goroutines and reports in
// a third that does not wait for them: the report can come before both
// counts (only atomics write hits: the predicate changes at their steps).
func CountAndReport() {
	var wg sync.WaitGroup
	wg.Add(3)
	go func() { defer wg.Done(); atomic.AddInt64(&hits, 1) }()
	go func() { defer wg.Done(); atomic.AddInt64(&hits, 1) }()
	go func() { defer wg.Done(); Report() }()
	wg.Wait()
}

// CountThenReport reports after both counts: reportCounted holds.
func CountThenReport() {
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); atomic.AddInt64(&hits, 1) }()
	go func() { defer wg.Done(); atomic.AddInt64(&hits, 1) }()
	wg.Wait()
	Report()
}

var queue = make(chan int, 2)

//ltl:prop queued len(queue) > 0
//ltl:spec reportQueued G(reported -> queued)

// SendAndReport sends in one goroutine and reports in another that does
// not wait for it: the report can come before the send (the length of
// the channel changes at the send's step).
func SendAndReport() {
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); queue <- 1 }()
	go func() { defer wg.Done(); Report() }()
	wg.Wait()
}
