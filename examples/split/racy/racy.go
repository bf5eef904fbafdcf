// Package racy is a broken mutual-exclusion protocol: a worker checks a
// shared flag and then sets it, so two workers can both see it clear.
package racy

import "sync"

var busy bool

// inCS counts the goroutines in the critical section.
//
//ltl:range inCS 0..3
var inCS int

//ltl:spec mutex G("inCS <= 1")

// worker enters the critical section once, if no other worker seems to be
// in it.
func worker() {
	if !busy { // check …
		busy = true // … then act: another worker may have checked in between
		//ltl:event crit
		inCS++
		inCS--
		busy = false
	}
}

// Demo runs two workers to completion: the explorer's entry for replaying
// a counterexample on the real code. (No test calls it: it races.)
func Demo() {
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			worker()
		}()
	}
	wg.Wait()
}
