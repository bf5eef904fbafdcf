// Package guard is a spec violated only for some inputs where no branch
// of the program tells those inputs apart: only the LTL guard does. The
// state predicate high (level > 100) depends on a symbolic input, so the
// explorer decides it with Z3 on the path condition and forks when both
// outcomes are feasible (the Java thesis's automaton choice generator),
// as it does for an if on a symbolic condition.
package guard

import "sync"

// level is the controller's output level.
var level int

//ltl:prop high level > 100
//ltl:spec safe G !high

// Set scales a sensor reading to the output level without any check:
// the spec is violated exactly when 3*reading + 10 > 100, i.e. for every
// reading above 30 (int is wider than int16: no overflow).
//
//ltl:symbolic
func Set(reading int16) {
	level = 3*int(reading) + 10
}

// mu guards level in Pulse.
var mu sync.Mutex

// Pulse raises the level in a worker goroutine and resets it after the
// worker is done: the violating state is transient — every path ends
// with level 0 — and only the states between the worker's unlock and
// the reset show it.
//
//ltl:symbolic
func Pulse(reading int16) {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		mu.Lock()
		level = 3*int(reading) + 10
		mu.Unlock()
	}()
	wg.Wait()
	mu.Lock()
	level = 0
	mu.Unlock()
}

// SetScaled maps the full range of an 8-bit reading onto 0..100: the
// spec holds for every input (Z3 finds high infeasible on the only path).
//
//ltl:symbolic
func SetScaled(reading uint8) {
	level = int(reading) * 100 / 255
}

// SetClamped is Set fixed: the level is clamped to 100.
//
//ltl:symbolic
func SetClamped(reading int16) {
	v := 3*int(reading) + 10
	if v > 100 {
		v = 100
	}
	level = v
}

// Level returns the current level (for native re-execution in tests).
func Level() int { return level }

// High evaluates the state predicate high natively.
func High() bool { return level > 100 }
