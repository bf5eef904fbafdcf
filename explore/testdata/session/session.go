// Package session holds small programs for the temporal debugger's
// tests (session_test.go): each makes one search option change the
// outcome of a step.
package session

import (
	"runtime"

	"github.com/henceforth-go/henceforth/examples/explore/philosophers"
)

// y and z are set once each by Commute's goroutines.
var y, z int

// SetY and SetZ commute: both orders reach the same state through
// different intermediate states. Then each yields forever, which leaves
// the state unchanged (so no state is terminal: terminal states are never
// matched).
func SetY() {
	//ltl:event sety
	y = 1
	for {
		runtime.Gosched()
	}
}

func SetZ() {
	//ltl:event setz
	z = 1
	for {
		runtime.Gosched()
	}
}

// Commute runs SetY and SetZ concurrently.
func Commute() {
	y, z = 0, 0
	go SetY()
	go SetZ()
	select {}
}

// x is rewritten with its own value by A and B forever.
var x int

// A and B loop forever; once each has run once, every move of either
// leaves the state unchanged (a self-loop).
func A() {
	for {
		//ltl:event a
		x = 1
	}
}

func B() {
	for {
		//ltl:event b
		x = 1
	}
}

// Loop runs A and B.
func Loop() {
	x = 0
	go A()
	go B()
	select {}
}

// Philosophers5 is five dining philosophers taking the left fork first:
// all holding their left fork is a deadlock. Mutexes, a WaitGroup and
// closures have no fingerprint, so a search cannot match its states.
func Philosophers5() {
	philosophers.Dine(5, false)
}
