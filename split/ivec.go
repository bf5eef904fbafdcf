package split

import (
	"math/bits"

	"github.com/henceforth-go/henceforth/internal/fds"
)

// ivec is an integer-valued function of the variables: a two's-complement
// vector of BDDs, least significant bit first, whose last bit is the sign.
// Operations widen their results so that nothing overflows.
type ivec struct {
	s    *fds.Space
	bits []fds.BDD
}

func constIvec(s *fds.Space, k int) ivec {
	w := bits.Len(uint(k)) + 1
	if k < 0 {
		w = bits.Len(uint(^k)) + 1
	}
	v := ivec{s, make([]fds.BDD, w)}
	for b := range w {
		v.bits[b] = s.Const((k>>uint(b))&1 == 1)
	}
	return v
}

// varIvec is the value of f (its encoding plus the offset Lo).
func varIvec(s *fds.Space, f *fds.Var, next bool) ivec {
	enc := ivec{s, make([]fds.BDD, f.Width()+1)}
	for b := range f.Width() {
		enc.bits[b] = f.Bit(b, next)
	}
	enc.bits[f.Width()] = s.False()
	if f.Lo() == 0 {
		return enc
	}
	return enc.add(constIvec(s, f.Lo()))
}

func (x ivec) bit(b int) fds.BDD {
	if b < len(x.bits) {
		return x.bits[b]
	}
	return x.bits[len(x.bits)-1]
}

func (x ivec) add(y ivec) ivec { return x.addCarry(y, false) }

func (x ivec) sub(y ivec) ivec { return x.addCarry(y.not(), true) }

func (x ivec) neg() ivec { return constIvec(x.s, 0).sub(x) }

func (x ivec) not() ivec {
	r := ivec{x.s, make([]fds.BDD, len(x.bits))}
	for i, b := range x.bits {
		r.bits[i] = b.Not()
	}
	return r
}

func (x ivec) addCarry(y ivec, carryIn bool) ivec {
	w := max(len(x.bits), len(y.bits)) + 1
	r := ivec{x.s, make([]fds.BDD, w)}
	c := x.s.Const(carryIn)
	for b := range w {
		a, d := x.bit(b), y.bit(b)
		ad := a.Xor(d)
		r.bits[b] = ad.Xor(c)
		c = a.And(d).Or(c.And(ad))
	}
	return r.trim()
}

// trim drops redundant sign bits.
func (x ivec) trim() ivec {
	n := len(x.bits)
	for n > 1 && x.bits[n-1].Equal(x.bits[n-2]) {
		n--
	}
	x.bits = x.bits[:n]
	return x
}

func (x ivec) eq(y ivec) fds.BDD {
	r := x.s.True()
	for b := max(len(x.bits), len(y.bits)) - 1; b >= 0; b-- {
		r = r.And(x.bit(b).Iff(y.bit(b)))
	}
	return r
}

func (x ivec) lt(y ivec) fds.BDD {
	d := x.sub(y)
	return d.bits[len(d.bits)-1]
}

func (x ivec) le(y ivec) fds.BDD { return y.lt(x).Not() }

// ite is "if c then x else y".
func iteIvec(c fds.BDD, x, y ivec) ivec {
	w := max(len(x.bits), len(y.bits))
	r := ivec{x.s, make([]fds.BDD, w)}
	for b := range w {
		r.bits[b] = c.Ite(x.bit(b), y.bit(b))
	}
	return r.trim()
}

// isConst returns the value of a constant vector.
func (x ivec) isConst() (int, bool) {
	k := 0
	for b := len(x.bits) - 1; b >= 0; b-- {
		switch {
		case x.bits[b].IsTrue():
			k = k<<1 | 1
		case x.bits[b].IsFalse():
			k <<= 1
		default:
			return 0, false
		}
	}
	if len(x.bits) > 0 && x.bits[len(x.bits)-1].IsTrue() {
		k -= 1 << uint(len(x.bits))
	}
	return k, true
}
