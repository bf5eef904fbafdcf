package ltl

// This file is the simplifier: local rewrites that make a formula smaller
// without changing its value at any position of any trace under the given
// semantics (the LTLf empty trace and the RosuHavelund virtual end position
// included, so that a simplified subformula means the same inside any
// context).
//
// Rules valid under both semantics:
//
//	Boolean     constant folding of ! && || ^ -> <->; !!f = f;
//	            f && f = f, f && !f = false, f || f = f, f || !f = true;
//	            f ^ f = false, f <-> f = true, f -> f = true;
//	            absorption f && (f || g) = f, f || (f && g) = f,
//	            (f && g) && f = f && g, (f || g) || f = f || g (and mirrors)
//	future      X false = false, N true = true, F false = false,
//	            G true = true, F F f = F f, G G f = G f,
//	            f U false = false, true U f = F f, f W true = true,
//	            f W false = G f, f R true = true, false R f = G f,
//	            f M false = false, false M f = false
//	past        Y false = false, Z true = true, O false = false,
//	            H true = true, O O f = O f, H H f = H f,
//	            f S false = false, true S f = O f, f B true = true,
//	            f B false = H f, start(c) = end(c) = false for constants c,
//	            [false, g)s = false, [f, true)s = false, [f, false)s = O f,
//	            [f, false)w = true, [false, g)w = H !g
//
// Rules valid only under RosuHavelund, where every range F, U, M, O, S
// quantify over is non-empty (under LTLf the empty trace has none):
//
//	F true = true, O true = true, H false = false, Y true = true,
//	Z false = false, false U f = f, false S f = f, f U f = f, f M f = f,
//	f S f = f, [f, true)w = false
//
// Many tempting rules are wrong on finite traces and are deliberately absent:
// X true is false at the last position, G false is true on the empty trace
// (and at RosuHavelund's virtual end), f U f is false on the empty LTLf trace
// even where f is true there.

// Simplify returns a formula equivalent to f under sem at every position,
// rewritten bottom-up by the rules above until none applies. Its syntax
// tree is never larger than f's, and Simplify(Simplify(f)) is Simplify(f).
func Simplify(f Formula, sem Semantics) Formula {
	if f.IsZero() {
		return f
	}
	done := map[Formula]Formula{}
	for _, g := range f.Subformulas() {
		n := g.node()
		if n.op.Arity() >= 1 {
			n.l = done[n.l]
		}
		if n.op.Arity() == 2 {
			n.r = done[n.r]
		}
		h := mk(n)
		for {
			next := rewrite(h, sem)
			if next == h {
				break
			}
			h = next
		}
		done[g] = h
	}
	return done[f]
}

// rewrite applies one rule at the root of f, whose operands are simplified,
// and returns f itself when no rule applies. Every rule returns an operand
// of f, a constant, or one new node over operands of f.
func rewrite(f Formula, sem Semantics) Formula {
	l, r := f.Left(), f.Right()
	lop, rop := l.Op(), r.Op()
	rh := sem == RosuHavelund
	t, fa := True(), False()
	switch f.Op() {
	case OpNot:
		switch lop {
		case OpTrue:
			return fa
		case OpFalse:
			return t
		case OpNot:
			return l.Left()
		}
	case OpAnd:
		switch {
		case lop == OpFalse || rop == OpFalse || complementary(l, r):
			return fa
		case lop == OpTrue || absorbs(r, OpAnd, l):
			return r
		case rop == OpTrue || l == r || absorbs(l, OpAnd, r):
			return l
		}
	case OpOr:
		switch {
		case lop == OpTrue || rop == OpTrue || complementary(l, r):
			return t
		case lop == OpFalse || absorbs(r, OpOr, l):
			return r
		case rop == OpFalse || l == r || absorbs(l, OpOr, r):
			return l
		}
	case OpXor:
		switch {
		case l == r:
			return fa
		case complementary(l, r):
			return t
		case lop == OpFalse:
			return r
		case rop == OpFalse:
			return l
		case lop == OpTrue:
			return negate(r)
		case rop == OpTrue:
			return negate(l)
		}
	case OpImplies:
		switch {
		case lop == OpFalse || rop == OpTrue || l == r:
			return t
		case lop == OpTrue:
			return r
		case rop == OpFalse:
			return negate(l)
		}
	case OpIff:
		switch {
		case l == r:
			return t
		case complementary(l, r):
			return fa
		case lop == OpTrue:
			return r
		case rop == OpTrue:
			return l
		case lop == OpFalse:
			return negate(r)
		case rop == OpFalse:
			return negate(l)
		}

	case OpNext:
		if lop == OpFalse {
			return fa
		}
	case OpWeakNext:
		if lop == OpTrue {
			return t
		}
	case OpEventually:
		switch {
		case lop == OpFalse, lop == OpEventually, rh && lop == OpTrue:
			return l
		}
	case OpAlways:
		if lop == OpTrue || lop == OpAlways {
			return l
		}
	case OpUntil:
		switch {
		case rop == OpFalse, rh && (lop == OpFalse || l == r):
			return r
		case lop == OpTrue:
			return Eventually(r)
		}
	case OpWeakUntil:
		switch {
		case rop == OpTrue:
			return t
		case rop == OpFalse:
			return Always(l)
		}
	case OpRelease:
		switch {
		case rop == OpTrue:
			return t
		case lop == OpFalse:
			return Always(r)
		}
	case OpStrongRelease:
		switch {
		case lop == OpFalse || rop == OpFalse:
			return fa
		case rh && l == r:
			return l
		}

	case OpYesterday:
		if lop == OpFalse || rh && lop == OpTrue {
			return l
		}
	case OpWeakYesterday:
		if lop == OpTrue || rh && lop == OpFalse {
			return l
		}
	case OpOnce:
		if lop == OpFalse || lop == OpOnce || rh && lop == OpTrue {
			return l
		}
	case OpHistorically:
		if lop == OpTrue || lop == OpHistorically || rh && lop == OpFalse {
			return l
		}
	case OpSince:
		switch {
		case rop == OpFalse, rh && (lop == OpFalse || l == r):
			return r
		case lop == OpTrue:
			return Once(r)
		}
	case OpWeakSince:
		switch {
		case rop == OpTrue:
			return t
		case rop == OpFalse:
			return Historically(l)
		}
	case OpStart, OpEnd:
		if lop == OpTrue || lop == OpFalse {
			return fa
		}
	case OpIntervalStrong:
		switch {
		case lop == OpFalse || rop == OpTrue:
			return fa
		case rop == OpFalse:
			return Once(l)
		}
	case OpIntervalWeak:
		switch {
		case rop == OpFalse:
			return t
		case lop == OpFalse:
			return Historically(negate(r))
		case rh && rop == OpTrue:
			return fa
		}
	}
	return f
}

// negate returns the simplified negation of a simplified formula.
func negate(f Formula) Formula {
	switch f.Op() {
	case OpTrue:
		return False()
	case OpFalse:
		return True()
	case OpNot:
		return f.Left()
	}
	return Not(f)
}

// complementary reports whether one of f and g is the negation of the other.
func complementary(f, g Formula) bool {
	return f.Op() == OpNot && f.Left() == g || g.Op() == OpNot && g.Left() == f
}

// absorbs reports whether f && g (op And) or f || g (op Or) equals f because
// of g's shape: g is f's dual connective with f as an operand (absorption),
// or f is op with g as an operand (idempotence).
func absorbs(f Formula, op Op, g Formula) bool {
	dual := OpOr
	if op == OpOr {
		dual = OpAnd
	}
	switch {
	case g.Op() == dual && (g.Left() == f || g.Right() == f):
		return true
	case f.Op() == op && (f.Left() == g || f.Right() == g):
		return true
	}
	return false
}
