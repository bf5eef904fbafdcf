// Package guard is a spec violated only for some inputs where no branch
// of the program tells those inputs apart: only the LTL guard does. The
// state predicate high (level > 100) depends on a symbolic input, so the
// explorer decides it with Z3 on the path condition and forks when both
// outcomes are feasible (the Java thesis's automaton choice generator).
package guard

// level is the controller's output level.
var level int

//ltl:prop high level > 100
//ltl:spec safe G !high

// Set scales a sensor reading to the output level without any check:
// the spec is violated exactly when 3*reading + 10 > 100.
//
//ltl:symbolic
func Set(reading int16) {
	level = 3*int(reading) + 10
}
