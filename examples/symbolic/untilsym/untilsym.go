// Package untilsym is the symbolic until example of the Java thesis
// ("Verifying LTL Specification for Finite Java Programs", §4.2): the
// spec field == 0 U z > 0 holds for the concrete call myMethod(5), and is
// violated for some inputs, which only a symbolic exploration finds.
package untilsym

// Field is the thesis's @Symbolic static field.
//
//ltl:symbolic
var Field int

// myMethod is the thesis's method: z is param unless param <= 0 and
// Field > 0.
func myMethod(param int) int {
	var z int
	if param <= 0 && Field > 0 {
		z = Field - param + 1
	} else {
		z = param
	}
	return z // error when param <= 0 && Field <= 0
}

// Until calls myMethod and checks field == 0 U z > 0 over the two states
// of the run — the call (z not computed yet, so z > 0 is false there) and
// the return: the spec holds iff Field == 0 at the call and z > 0 at the
// return. (Written as an assertion; package untilltl checks the same spec
// as an //ltl:spec whose atoms the explorer decides with Z3.)
//
//ltl:symbolic
func Until(param int) int {
	fieldAtCall := Field
	z := myMethod(param)
	if fieldAtCall != 0 || z <= 0 {
		panic("LTL violated: field == 0 U myMethod(int).z > 0")
	}
	return z
}
