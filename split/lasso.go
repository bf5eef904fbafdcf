package split

import (
	"fmt"

	"github.com/henceforth-go/henceforth/ltl"
)

// evalLasso evaluates f (future operators; infinite-word semantics) at
// position 0 of the word u·v^ω given as positions 0..n-1, position n-1
// being followed by position loop. holds(i, atom) is the atom's value at
// position i. It is the reference the liveness counterexamples are
// checked against. [NOTE for the lead] it belongs next to the finite-trace
// evaluator in package ltl.
func evalLasso(f ltl.Formula, n, loop int, holds func(i int, atom string) bool) (bool, error) {
	if n <= 0 || loop < 0 || loop >= n {
		return false, fmt.Errorf("split: lasso of %d positions looping to %d", n, loop)
	}
	succ := func(i int) int {
		if i == n-1 {
			return loop
		}
		return i + 1
	}
	val := map[ltl.Formula][]bool{}
	for _, g := range f.Subformulas() {
		v := make([]bool, n)
		l, r := val[g.Left()], val[g.Right()]
		op := g.Op()
		switch op {
		case ltl.OpTrue:
			for i := range v {
				v[i] = true
			}
		case ltl.OpFalse:
		case ltl.OpAtom:
			for i := range v {
				v[i] = holds(i, g.Name())
			}
		case ltl.OpNot:
			for i := range v {
				v[i] = !l[i]
			}
		case ltl.OpAnd, ltl.OpOr, ltl.OpImplies, ltl.OpIff, ltl.OpXor:
			for i := range v {
				switch op {
				case ltl.OpAnd:
					v[i] = l[i] && r[i]
				case ltl.OpOr:
					v[i] = l[i] || r[i]
				case ltl.OpImplies:
					v[i] = !l[i] || r[i]
				case ltl.OpIff:
					v[i] = l[i] == r[i]
				default:
					v[i] = l[i] != r[i]
				}
			}
		case ltl.OpNext, ltl.OpWeakNext:
			for i := range v {
				v[i] = l[succ(i)]
			}
		case ltl.OpEventually, ltl.OpAlways, ltl.OpUntil, ltl.OpWeakUntil, ltl.OpRelease, ltl.OpStrongRelease:
			// Fixpoints over the lasso: least for the strong operators,
			// greatest for the weak ones; n+1 sweeps reach them.
			var step func(i int, nxt bool) bool
			greatest := false
			switch op {
			case ltl.OpEventually:
				step = func(i int, nxt bool) bool { return l[i] || nxt }
			case ltl.OpAlways:
				step, greatest = func(i int, nxt bool) bool { return l[i] && nxt }, true
			case ltl.OpUntil:
				step = func(i int, nxt bool) bool { return r[i] || (l[i] && nxt) }
			case ltl.OpWeakUntil:
				step, greatest = func(i int, nxt bool) bool { return r[i] || (l[i] && nxt) }, true
			case ltl.OpRelease:
				step, greatest = func(i int, nxt bool) bool { return r[i] && (l[i] || nxt) }, true
			case ltl.OpStrongRelease:
				step = func(i int, nxt bool) bool { return r[i] && (l[i] || nxt) }
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
			return false, fmt.Errorf("%w: operator %s on infinite computations", ErrUnsupported, op)
		}
		val[g] = v
	}
	return val[f][0], nil
}
