// Package untilltl is the Java thesis's symbolic until example
// ("Verifying LTL Specification for Finite Java Programs", §4.2, Fig. 15)
// with its LTL spec checked as a spec, not as an assertion (package
// untilsym has the assertion form): field == 0 U myMethod(int).z > 0.
//
// The thesis's z is a local of myMethod; here Z is the package variable
// main stores myMethod's result in, so a state predicate can read it. The
// spec is checked on the states of the run: the start (Z is 0) and after
// main's assignment. With the concrete input 5 (and field 0) it holds; with
// symbolic inputs the explorer decides the atoms with Z3 on the path
// condition, forking where both outcomes are feasible, and finds the
// inputs that violate it.
package untilltl

// Field is the thesis's @Symbolic static field.
//
//ltl:symbolic
var Field int

// Z is myMethod's result once main has stored it (0 before).
var Z int

//ltl:prop fieldZero Field == 0
//ltl:prop zPositive Z > 0
//ltl:spec until fieldZero U zPositive

// myMethod is the thesis's method: z is param unless param <= 0 and
// Field > 0.
func myMethod(param int) int {
	var z int
	if param <= 0 && Field > 0 {
		z = Field - param + 1
	} else {
		z = param
	}
	return z // the thesis: "error when param <= 0 && field <= 0"
}

// Main is the thesis's main with the argument of myMethod as an input.
//
//ltl:symbolic
func Main(param int) {
	Z = myMethod(param)
}
