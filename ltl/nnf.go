package ltl

// This file computes negation normal form.
//
// NNF(f, sem) is equivalent to f under sem at every position of every trace
// (the virtual end position of RosuHavelund included), and uses only
//
//	true false p !p && || X N F G U W R M Y Z O H S B
//
// with ! applied to atoms only. The other operators are expanded:
//
//	f -> g    = !f || g
//	f <-> g   = (f && g) || (!f && !g)
//	f ^ g     = (f && !g) || (!f && g)
//	start(f)  = f && Y !f               end(f)   = !f && Y f
//	[f, g)s   = !g S (f && !g)          [f, g)w  = !g B (f && !g)
//
// and negations are pushed through the temporal operators by these dualities
// (past ones, and X/N, hold under both semantics):
//
//	!X f = N !f        !N f = X !f
//	!Y f = Z !f        !Z f = Y !f
//	!O f = H !f        !H f = O !f
//	!(f S g) = !g B (!f && !g)          !(f B g) = !g S (!f && !g)
//	!start(f) = !f || Z f               !end(f) = f || Z !f
//	![f, g)s = (!f || g) B g            ![f, g)w = (!f || g) S g
//
// Under LTLf the future operators have their usual duals:
//
//	!F f = G !f        !G f = F !f
//	!(f U g) = !f R !g                  !(f R g) = !f U !g
//	!(f W g) = !f M !g                  !(f M g) = !f W !g
//
// Under RosuHavelund F, U and M range over the virtual end position n but G,
// W and R do not, so F and G (U and R, W and M) are not duals there. The
// negations are expressed with U, using N false (true exactly at n) and
// X true (true exactly before n):
//
//	!F f = !f U (!f && N false)         !G f = F(!f && X true)
//	!(f U g) = !g U (!g && (!f || N false))
//	!(f W g) = !g U (!g && (!f && X true))
//	!(f R g) = !f U (!g && X true)
//	!(f M g) = (!f || !g) U ((!f || !g) && (!g || N false))
//
// Shared subformulas stay shared: NNF computes both polarities of every
// subformula of f's DAG once, so the result has at most a constant factor
// more distinct subformulas than f, and it works without deep recursion.

// NNF returns the negation normal form of f under sem.
func NNF(f Formula, sem Semantics) Formula {
	if f.IsZero() {
		return f
	}
	pos := map[Formula]Formula{}
	neg := map[Formula]Formula{}
	for _, g := range f.Subformulas() {
		pos[g], neg[g] = nnfNode(g, sem, pos, neg)
	}
	return pos[f]
}

// nnfNode returns the NNF of g and of !g, given those of g's operands.
func nnfNode(g Formula, sem Semantics, pos, neg map[Formula]Formula) (Formula, Formula) {
	op := g.Op()
	var pl, nl, pr, nr Formula
	if op.Arity() >= 1 {
		pl, nl = pos[g.Left()], neg[g.Left()]
	}
	if op.Arity() == 2 {
		pr, nr = pos[g.Right()], neg[g.Right()]
	}
	rh := sem == RosuHavelund
	atEnd := WeakNext(False()) // RosuHavelund: true exactly at the virtual position n
	beforeEnd := Next(True())  // RosuHavelund: true exactly at the real positions
	switch op {
	case OpTrue:
		return g, False()
	case OpFalse:
		return g, True()
	case OpAtom:
		return g, Not(g)
	case OpNot:
		return nl, pl
	case OpAnd:
		return And(pl, pr), Or(nl, nr)
	case OpOr:
		return Or(pl, pr), And(nl, nr)
	case OpImplies:
		return Or(nl, pr), And(pl, nr)
	case OpIff:
		return Or(And(pl, pr), And(nl, nr)), Or(And(pl, nr), And(nl, pr))
	case OpXor:
		return Or(And(pl, nr), And(nl, pr)), Or(And(pl, pr), And(nl, nr))

	case OpNext:
		return Next(pl), WeakNext(nl)
	case OpWeakNext:
		return WeakNext(pl), Next(nl)
	case OpEventually:
		if rh {
			return Eventually(pl), Until(nl, And(nl, atEnd))
		}
		return Eventually(pl), Always(nl)
	case OpAlways:
		if rh {
			return Always(pl), Eventually(And(nl, beforeEnd))
		}
		return Always(pl), Eventually(nl)
	case OpUntil:
		if rh {
			return Until(pl, pr), Until(nr, And(nr, Or(nl, atEnd)))
		}
		return Until(pl, pr), Release(nl, nr)
	case OpWeakUntil:
		if rh {
			return WeakUntil(pl, pr), Until(nr, And(nr, And(nl, beforeEnd)))
		}
		return WeakUntil(pl, pr), StrongRelease(nl, nr)
	case OpRelease:
		if rh {
			return Release(pl, pr), Until(nl, And(nr, beforeEnd))
		}
		return Release(pl, pr), Until(nl, nr)
	case OpStrongRelease:
		if rh {
			either := Or(nl, nr)
			return StrongRelease(pl, pr), Until(either, And(either, Or(nr, atEnd)))
		}
		return StrongRelease(pl, pr), WeakUntil(nl, nr)

	case OpYesterday:
		return Yesterday(pl), WeakYesterday(nl)
	case OpWeakYesterday:
		return WeakYesterday(pl), Yesterday(nl)
	case OpOnce:
		return Once(pl), Historically(nl)
	case OpHistorically:
		return Historically(pl), Once(nl)
	case OpSince:
		return Since(pl, pr), WeakSince(nr, And(nl, nr))
	case OpWeakSince:
		return WeakSince(pl, pr), Since(nr, And(nl, nr))
	case OpStart:
		return And(pl, Yesterday(nl)), Or(nl, WeakYesterday(pl))
	case OpEnd:
		return And(nl, Yesterday(pl)), Or(pl, WeakYesterday(nl))
	case OpIntervalStrong:
		return Since(nr, And(pl, nr)), WeakSince(Or(nl, pr), pr)
	case OpIntervalWeak:
		return WeakSince(nr, And(pl, nr)), Since(Or(nl, pr), pr)
	}
	return Formula{}, Formula{}
}

// IsNNF reports whether f is in the negation normal form NNF produces: ! is
// applied to atoms only, and f uses no ->, <->, ^, start, end or intervals.
func IsNNF(f Formula) bool {
	if f.IsZero() {
		return false
	}
	for _, g := range f.Subformulas() {
		switch g.Op() {
		case OpNot:
			if g.Left().Op() != OpAtom {
				return false
			}
		case OpImplies, OpIff, OpXor, OpStart, OpEnd, OpIntervalStrong, OpIntervalWeak, OpInvalid:
			return false
		}
	}
	return true
}
