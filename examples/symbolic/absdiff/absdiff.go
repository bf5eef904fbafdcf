// Package absdiff is the symbolic execution example of the Java thesis
// (§2.6, Fig. 5): result = |x - y| with the assertion result > 0. Of the
// four paths, three are feasible and one (x > y with result <= 0) is
// infeasible; the assertion fails on x == y.
package absdiff

// AbsDiff computes |x - y| in int from 16-bit inputs, so no arithmetic
// wraps: exactly the thesis's three feasible paths.
//
//ltl:symbolic
func AbsDiff(x, y int16) int {
	a, b := int(x), int(y)
	var result int
	if a > b {
		result = a - b
	} else {
		result = b - a
	}
	if result <= 0 {
		panic("assertion failed: result > 0")
	}
	return result
}

// AbsDiffWrap is the same on int: with Go's wrap-around arithmetic the
// fourth path is feasible too (x - y overflows for x = MaxInt, y = -1).
//
//ltl:symbolic
func AbsDiffWrap(x, y int) int {
	var result int
	if x > y {
		result = x - y
	} else {
		result = y - x
	}
	if result <= 0 {
		panic("assertion failed: result > 0")
	}
	return result
}
