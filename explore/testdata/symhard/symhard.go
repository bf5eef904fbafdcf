// Package symhard has a branch the solver cannot decide quickly: which
// two 64-bit numbers multiply to a 128-bit semiprime (factoring).
package symhard

// Factor panics if a*b, as a 128-bit product, is the product of the two
// largest 64-bit primes: no solver factors that by luck within a
// millisecond, however late its timer fires.
//
//ltl:symbolic
func Factor(a, b uint64) {
	hi, lo := mul128(a, b)
	if a > 1 && b > 1 && hi == 0xffffffffffffff72 && lo == 0x1321 {
		panic("factored")
	}
}

// mul128 returns the 128-bit product of a and b as its high and low
// words (math/bits.Mul64, written out: the explorer runs math/bits
// natively, which would fix symbolic arguments to values).
func mul128(a, b uint64) (hi, lo uint64) {
	const mask32 = 1<<32 - 1
	a0, a1 := a&mask32, a>>32
	b0, b1 := b&mask32, b>>32
	w0 := a0 * b0
	t := a1*b0 + w0>>32
	w1, w2 := t&mask32, t>>32
	w1 += a0 * b1
	return a1*b1 + w2 + w1>>32, a * b
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
