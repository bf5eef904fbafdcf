package automaton

// This file keeps the tableau's states canonical modulo implications
// between obligations.
//
// A state of the subset construction is a Boolean function S of the
// obligation variables, and its language is the set of traces whose
// obligation values satisfy S. When obligation a implies obligation b on
// every trace (X(p1 U p2) implies X(p0 U (p1 U p2)), say), every trace's
// values satisfy a → b, so S and S ∧ (a → b) have the same language. The
// construction therefore conjoins every state with the conjunction C of
// the implications it can prove: states that differ only on valuations no
// trace has become one BDD. Without it, the states of p0 U p1 U … U pn are
// the 2^n sets of pending untils, though X u_(i+1) makes X u_i redundant;
// with it, they are the n+1 of the minimal DFA.
//
// The implications come from implies, a syntactic check that is sound
// (it never claims an implication that some trace refutes) and cheap, not
// complete. Strengths matter at the end of the trace, where strong
// obligations are false and weak ones true: X f ⇒ X g, X f ⇒ N g and
// N f ⇒ N g hold when f ⇒ g does, N f ⇒ X g never.

import "github.com/henceforth-go/henceforth/ltl"

// maxImplicationDepth bounds the recursion of implies.
const maxImplicationDepth = 6

// maxImplicationCandidates bounds the obligations compared pairwise.
const maxImplicationCandidates = 256

// implies reports whether f implies g at every position of every
// nonempty trace, by syntactic rules; false means "not proven".
func implies(f, g ltl.Formula, depth int) bool {
	if f == g || g.Op() == ltl.OpTrue || f.Op() == ltl.OpFalse {
		return true
	}
	if depth == 0 {
		return false
	}
	depth--
	switch f.Op() {
	case ltl.OpAnd:
		if implies(f.Left(), g, depth) || implies(f.Right(), g, depth) {
			return true
		}
	case ltl.OpOr:
		if implies(f.Left(), g, depth) && implies(f.Right(), g, depth) {
			return true
		}
	case ltl.OpAlways: // G a holds a now
		if implies(f.Left(), g, depth) {
			return true
		}
	case ltl.OpRelease, ltl.OpStrongRelease: // a R b holds b now
		if implies(f.Right(), g, depth) {
			return true
		}
	}
	switch g.Op() {
	case ltl.OpOr:
		return implies(f, g.Left(), depth) || implies(f, g.Right(), depth)
	case ltl.OpAnd:
		return implies(f, g.Left(), depth) && implies(f, g.Right(), depth)
	case ltl.OpEventually: // b now gives F b
		if implies(f, g.Left(), depth) {
			return true
		}
		switch f.Op() {
		case ltl.OpEventually:
			return implies(f.Left(), g.Left(), depth)
		case ltl.OpUntil: // c U d gives F d
			return implies(f.Right(), g.Left(), depth)
		}
	case ltl.OpUntil, ltl.OpWeakUntil: // b now gives a U b and a W b
		if implies(f, g.Right(), depth) {
			return true
		}
		switch {
		case f.Op() == ltl.OpUntil || f.Op() == g.Op():
			// c U d ⇒ a U b and c W d ⇒ a W b, when c ⇒ a and d ⇒ b.
			return implies(f.Left(), g.Left(), depth) && implies(f.Right(), g.Right(), depth)
		case f.Op() == ltl.OpAlways && g.Op() == ltl.OpWeakUntil:
			return implies(f.Left(), g.Left(), depth)
		}
	case ltl.OpAlways:
		if f.Op() == ltl.OpAlways {
			return implies(f.Left(), g.Left(), depth)
		}
	case ltl.OpNext, ltl.OpWeakNext:
		if f.Op() == ltl.OpNext || f.Op() == g.Op() {
			return implies(f.Left(), g.Left(), depth)
		}
	}
	return false
}

// obligationImplies reports whether obligation a implies obligation b
// (a proof exists; see implies).
func obligationImplies(a, b obligation) bool {
	if !a.strong && b.strong {
		return false
	}
	return implies(a.f, b.f, maxImplicationDepth)
}

// obligationFormulas returns the formulas of the obligations the
// expansion of f can create: the operands of X and N, and the subformulas
// rooted at F, G, U, W, R and M.
func obligationFormulas(f ltl.Formula) []obligation {
	var out []obligation
	for _, g := range f.Subformulas() {
		switch g.Op() {
		case ltl.OpNext:
			out = append(out, obligation{g.Left(), true})
		case ltl.OpWeakNext:
			out = append(out, obligation{g.Left(), false})
		case ltl.OpEventually, ltl.OpUntil, ltl.OpStrongRelease:
			out = append(out, obligation{g, true})
		case ltl.OpAlways, ltl.OpWeakUntil, ltl.OpRelease:
			out = append(out, obligation{g, false})
		}
	}
	return out
}

// implicationCandidates returns the obligations of f's expansion that
// imply another one by implies, with the ones they imply; nil when there
// are none, or more than maxImplicationCandidates obligations to compare.
// The obligation of the initial state is not among them unless f's
// expansion makes it again: it is in one state only, and a formula such as
// F p0 & F p1 implies all its conjuncts' obligations.
func implicationCandidates(f ltl.Formula) map[obligation]bool {
	obls := obligationFormulas(f)
	if len(obls) > maxImplicationCandidates {
		return nil
	}
	var out map[obligation]bool
	for i, a := range obls {
		for j, b := range obls {
			if i != j && a != b && obligationImplies(a, b) {
				if out == nil {
					out = map[obligation]bool{}
				}
				out[a], out[b] = true, true
			}
		}
	}
	return out
}

// implicationConstraint returns C, the conjunction of a → b over the
// candidate obligations a, b that imply one another, after creating every
// obligation the construction can reach (so that the levels of C exist);
// bddTrue when there are none.
func (t *translator) implicationConstraint(cands map[obligation]bool) bref {
	for i := 0; i < len(t.obls); i++ {
		t.expansionOf(t.oblBase + int32(i))
	}
	c := bddTrue
	for i, a := range t.obls {
		if !cands[a] {
			continue
		}
		for j, b := range t.obls {
			if i != j && cands[b] && obligationImplies(a, b) {
				va := t.b.variable(t.oblBase + int32(i))
				vb := t.b.variable(t.oblBase + int32(j))
				c = t.b.and(c, t.b.impl(va, vb))
			}
		}
	}
	return c
}
