package fds

import "math/bits"

// Bit returns the BDD of bit b (0 = least significant) of v's encoding, of
// the primed copy if next.
func (v *Var) Bit(b int, next bool) BDD { return v.sp.Level(v.Levels(next)[b]) }

// True returns the BDD "v is true" (v must be Boolean; for an integer it is
// "v ≠ Lo").
func (v *Var) True(next bool) BDD {
	if v.isBool {
		return v.Bit(0, next)
	}
	return v.Eq(v.lo, next).Not().And(v.Dom(next))
}

// Eq returns the BDD "v = k" over the unprimed copy, or the primed one if
// next. It is false when k is outside v's range.
func (v *Var) Eq(k int, next bool) BDD {
	s := v.sp
	if k < v.lo || k > v.hi {
		return s.False()
	}
	off := uint(k - v.lo)
	vals := make([]bool, len(v.cur))
	for b := range vals {
		vals[b] = off&(1<<uint(b)) != 0
	}
	return BDD{s, s.backend().Minterm(v.Levels(next), vals)}
}

// Dom returns the domain constraint Lo ≤ v ≤ Hi of the encoding (true when
// the range fills all bit patterns).
func (v *Var) Dom(next bool) BDD {
	span := uint(v.hi - v.lo)
	if span+1 == 1<<uint(len(v.cur)) {
		return v.sp.True()
	}
	return v.Vec(next).Le(v.sp.ConstVec(v.hi))
}

// Assign returns the BDD of the complete assignment vals (one value per
// variable of vars), over primed copies if next.
func (s *Space) Assign(vars []*Var, vals []int, next bool) BDD {
	var levels []int
	var bits []bool
	for i, v := range vars {
		if vals[i] < v.lo || vals[i] > v.hi {
			return s.False()
		}
		off := uint(vals[i] - v.lo)
		for b, l := range v.Levels(next) {
			levels = append(levels, l)
			bits = append(bits, off&(1<<uint(b)) != 0)
		}
	}
	return BDD{s, s.backend().Minterm(levels, bits)}
}

// Vec is an integer-valued function of the variables: a two's-complement bit
// vector of BDDs, least significant bit first, whose last bit is the sign.
// Arithmetic on Vecs is exact: results are widened so that nothing overflows.
type Vec struct {
	s    *Space
	bits []BDD
}

// ConstVec returns the constant k.
func (s *Space) ConstVec(k int) Vec {
	w := bits.Len(uint(k)) + 1
	if k < 0 {
		w = bits.Len(uint(^k)) + 1
	}
	v := Vec{s, make([]BDD, w)}
	for b := range w {
		v.bits[b] = s.Const((k>>uint(b))&1 == 1)
	}
	return v
}

// Vec returns v's value (not its encoding: the offset Lo is added back), of
// the primed copy if next.
func (v *Var) Vec(next bool) Vec {
	s := v.sp
	enc := Vec{s, make([]BDD, len(v.cur)+1)}
	for b := range v.cur {
		enc.bits[b] = v.Bit(b, next)
	}
	enc.bits[len(v.cur)] = s.False() // non-negative
	if v.lo == 0 {
		return enc
	}
	return enc.Add(s.ConstVec(v.lo))
}

func (x Vec) bit(b int) BDD {
	if b < len(x.bits) {
		return x.bits[b]
	}
	return x.bits[len(x.bits)-1] // sign extension
}

// Add returns x + y.
func (x Vec) Add(y Vec) Vec { return x.addCarry(y, false) }

// Sub returns x − y.
func (x Vec) Sub(y Vec) Vec { return x.addCarry(y.not(), true) }

func (x Vec) not() Vec {
	r := Vec{x.s, make([]BDD, len(x.bits))}
	for i, b := range x.bits {
		r.bits[i] = b.Not()
	}
	return r
}

func (x Vec) addCarry(y Vec, carryIn bool) Vec {
	w := max(len(x.bits), len(y.bits)) + 1
	r := Vec{x.s, make([]BDD, w)}
	c := x.s.Const(carryIn)
	for b := range w {
		a, d := x.bit(b), y.bit(b)
		r.bits[b] = a.Xor(d).Xor(c)
		c = a.And(d).Or(c.And(a.Xor(d)))
	}
	return r
}

// Eq returns the BDD "x = y".
func (x Vec) Eq(y Vec) BDD {
	r := x.s.True()
	for b := range max(len(x.bits), len(y.bits)) {
		r = r.And(x.bit(b).Iff(y.bit(b)))
	}
	return r
}

// Lt returns the BDD "x < y".
func (x Vec) Lt(y Vec) BDD {
	d := x.Sub(y)
	return d.bits[len(d.bits)-1]
}

// Le returns the BDD "x ≤ y".
func (x Vec) Le(y Vec) BDD { return y.Lt(x).Not() }
