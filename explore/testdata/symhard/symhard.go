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
