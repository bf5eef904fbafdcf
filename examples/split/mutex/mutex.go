// Package mutex is a mutual-exclusion protocol: every worker goroutine
// takes mu around its critical section, where it counts itself in inCS.
package mutex

import "sync"

var mu sync.Mutex

// inCS counts the goroutines in the critical section. The range is a
// promise the check verifies: no goroutine ever makes inCS leave 0..3.
//
//ltl:range inCS 0..3
var inCS int

// At most one goroutine is in the critical section:
//
//ltl:spec mutex G("inCS <= 1")
//
// A goroutine in the critical section eventually leaves it:
//
//ltl:spec leaves G(crit -> F !crit)

// worker enters the critical section over and over.
func worker() {
	for {
		mu.Lock()
		//ltl:event crit
		inCS++
		inCS--
		mu.Unlock()
	}
}
