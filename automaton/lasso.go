package automaton

import (
	"fmt"

	"github.com/henceforth-go/henceforth/ltl"
)

// EvalLasso evaluates f at position 0 of the infinite word l, with the
// semantics of Buchi (infinite words: X and N both mean the next position,
// which always exists; F, U, M strong; G, W, R weak). It is the reference
// the Büchi translation is tested against, and what confirms that a
// lasso-shaped counterexample really violates its property. Past operators
// are ErrUnsupported.
//
// It computes every subformula at every position of the lasso, taking the
// least fixpoint for the strong temporal operators and the greatest for the
// weak ones (n+1 backward sweeps reach them): O(n·|f|) time after the
// sweeps, O(n²·|f|) in all.
func EvalLasso(f ltl.Formula, l Lasso) (bool, error) {
	n, err := l.check()
	if err != nil {
		return false, err
	}
	succ := func(i int) int { return l.succ(i, n) }
	val := map[ltl.Formula][]bool{}
	for _, g := range f.Subformulas() {
		v := make([]bool, n)
		lv, rv := val[g.Left()], val[g.Right()]
		op := g.Op()
		switch op {
		case ltl.OpTrue:
			for i := range v {
				v[i] = true
			}
		case ltl.OpFalse:
		case ltl.OpAtom:
			for i := range v {
				v[i] = l.Word.Holds(i, g.Name())
			}
		case ltl.OpNot:
			for i := range v {
				v[i] = !lv[i]
			}
		case ltl.OpAnd, ltl.OpOr, ltl.OpImplies, ltl.OpIff, ltl.OpXor:
			for i := range v {
				switch op {
				case ltl.OpAnd:
					v[i] = lv[i] && rv[i]
				case ltl.OpOr:
					v[i] = lv[i] || rv[i]
				case ltl.OpImplies:
					v[i] = !lv[i] || rv[i]
				case ltl.OpIff:
					v[i] = lv[i] == rv[i]
				default:
					v[i] = lv[i] != rv[i]
				}
			}
		case ltl.OpNext, ltl.OpWeakNext:
			for i := range v {
				v[i] = lv[succ(i)]
			}
		case ltl.OpEventually, ltl.OpAlways, ltl.OpUntil, ltl.OpWeakUntil, ltl.OpRelease, ltl.OpStrongRelease:
			var step func(i int, nxt bool) bool
			greatest := false
			switch op {
			case ltl.OpEventually:
				step = func(i int, nxt bool) bool { return lv[i] || nxt }
			case ltl.OpAlways:
				step, greatest = func(i int, nxt bool) bool { return lv[i] && nxt }, true
			case ltl.OpUntil:
				step = func(i int, nxt bool) bool { return rv[i] || (lv[i] && nxt) }
			case ltl.OpWeakUntil:
				step, greatest = func(i int, nxt bool) bool { return rv[i] || (lv[i] && nxt) }, true
			case ltl.OpRelease:
				step, greatest = func(i int, nxt bool) bool { return rv[i] && (lv[i] || nxt) }, true
			case ltl.OpStrongRelease:
				step = func(i int, nxt bool) bool { return rv[i] && (lv[i] || nxt) }
			}
			for i := range v {
				v[i] = greatest
			}
			for range n + 1 {
				for i := n - 1; i >= 0; i-- {
					v[i] = step(i, v[succ(i)])
				}
			}
		default:
			return false, fmt.Errorf("automaton: %s over infinite words: %w: operator %s", f, ErrUnsupported, op)
		}
		val[g] = v
	}
	return val[f][0], nil
}
