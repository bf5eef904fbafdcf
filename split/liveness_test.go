package split

import (
	"context"
	"fmt"
	"testing"

	"github.com/henceforth-go/henceforth/ltl"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// starvation is G(P[i] waiting → F P[i] critical).
func starvation(p *Program, i, wait, crit int) *Property {
	loc := p.Processes()[i].Locals()[0]
	w, c := Is(loc, wait), Is(loc, crit)
	f := ltl.Always(ltl.Implies(ltl.QuotedAtom(w.String()), ltl.Eventually(ltl.QuotedAtom(c.String()))))
	return NewLTL("starvation", f, map[string]Expr{w.String(): w, c.String(): c})
}

func TestMuxSemStarvationCounterexample(t *testing.T) {
	// Table 4.9 row 2: under unconditional fairness only, P[1] can starve.
	for _, variant := range []Variant{VariantA, VariantB} {
		for _, n := range starvationSizes() {
			t.Run(fmt.Sprintf("%s/%d", variant, n), func(t *testing.T) {
				p := muxSem(n, false, false)
				res, err := Check(context.Background(), p, starvation(p, 0, 1, 2), Options{Variant: variant})
				require.NoError(t, err)
				t.Log(res.Reason, res.Exposed)
				require.Equal(t, Violated, res.Verdict, res.Reason)
				tr := res.Counterexample
				t.Log(tr)
				require.NoError(t, p.Replay(tr))
				require.GreaterOrEqual(t, tr.Loop, 0)
				// P[1] waits on the whole cycle.
				for j := tr.Loop; j < tr.Len(); j++ {
					v, _ := tr.Value(j, "P[1].loc")
					assert.Equal(t, 1, v, "state %d", j)
				}
			})
		}
	}
}

func TestMuxSemStarvationFreeWithCompassion(t *testing.T) {
	// Table 4.10: with strong fairness on P[1] the property holds.
	for _, variant := range []Variant{VariantA, VariantB} {
		for _, n := range starvationSizes() {
			t.Run(fmt.Sprintf("%s/%d", variant, n), func(t *testing.T) {
				p := muxSem(n, false, true)
				res, err := Check(context.Background(), p, starvation(p, 0, 1, 2), Options{Variant: variant})
				require.NoError(t, err)
				t.Log(res.Reason, res.Exposed)
				assert.Equal(t, Proved, res.Verdict, res.Reason)
			})
		}
	}
}

// starvationSizes are the numbers of processes of the starvation tests:
// with -short only N = 2 (TestThesisVerdicts covers N = 3 with variant B,
// in both encodings).
func starvationSizes() []int {
	if testing.Short() {
		return []int{2}
	}
	return []int{2, 3, 5}
}
