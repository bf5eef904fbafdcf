// Package symhard has a branch the solver cannot decide quickly: which
// two 32-bit numbers multiply to a 64-bit semiprime (factoring).
package symhard

// Factor panics if a*b is the product of the two largest 32-bit primes.
//
//ltl:symbolic
func Factor(a, b uint32) {
	if a > 1 && b > 1 && uint64(a)*uint64(b) == 4294967291*4294967279 {
		panic("factored")
	}
}

// Branches8 has 8 independent symbolic branches: 2^8 feasible paths
// (BenchmarkSymbolicPaths).
//
//ltl:symbolic
func Branches8(x0, x1, x2, x3, x4, x5, x6, x7 int) int {
	r := 0
	if x0*3 > 7 {
		r++
	}
	if x1*3 > 8 {
		r++
	}
	if x2*3 > 9 {
		r++
	}
	if x3*3 > 10 {
		r++
	}
	if x4*3 > 11 {
		r++
	}
	if x5*3 > 12 {
		r++
	}
	if x6*3 > 13 {
		r++
	}
	if x7*3 > 14 {
		r++
	}
	return r
}

// Branches10 adds two branches to Branches8: 2^10 feasible paths.
//
//ltl:symbolic
func Branches10(x0, x1, x2, x3, x4, x5, x6, x7, x8, x9 int) int {
	r := Branches8(x0, x1, x2, x3, x4, x5, x6, x7)
	if x8*3 > 15 {
		r++
	}
	if x9*3 > 16 {
		r++
	}
	return r
}
