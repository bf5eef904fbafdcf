package automaton

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/henceforth-go/henceforth/ltl"
	"github.com/henceforth-go/henceforth/monitor"
)

// randomFormulas draws n formulas of the given classes with seed, over
// atoms p, q, r.
func randomFormulas(seed uint64, n int, classes ...ltl.Class) []ltl.Formula {
	rng := rand.New(rand.NewPCG(seed, 0))
	out := make([]ltl.Formula, n)
	for i := range out {
		c := classes[i%len(classes)]
		out[i] = ltl.Random(rng, ltl.RandomConfig{Ops: ltl.OpsOf(c), MaxDepth: 4})
	}
	return out
}

func concat(a, b ltl.Sets) ltl.Sets {
	return append(slices.Clip(a), b...)
}

// TestMonitorAgreesWithEval is the property test of the online monitor
// against the reference evaluator: on random formulas (pure future, mixed,
// pure past) and random traces, the verdict after every prefix holds
// exactly when ltl.Eval says the prefix satisfies the formula. Early
// verdicts are checked too: a Violated (Satisfied) prefix has random
// extensions that all fail (hold); and when the DFA is the formula's own
// (pure future formulas, and any formula with Options.ExactPast), an
// undecided prefix has a continuation that satisfies the formula and one
// that does not — the DFA's shortest witnesses, confirmed by Eval — so the
// early verdicts are exact.
func TestMonitorAgreesWithEval(t *testing.T) {
	const seed = 20240611
	nFormulas, nTraces := 3000, 10
	if testing.Short() {
		nFormulas = 1000
	}
	t.Logf("seed %d, %d formulas × %d traces, each with the past monitored and translated exactly", seed, nFormulas, nTraces)
	formulas := randomFormulas(seed, nFormulas, ltl.PureFuture, ltl.PureFuture, ltl.Mixed, ltl.PurePast)
	rng := rand.New(rand.NewPCG(seed, 1))
	atoms := []string{"p", "q", "r"}
	checked := 0
	for _, f := range formulas {
		for _, exact := range []bool{false, true} {
			hasPast := f.Classify() == ltl.Mixed || f.Classify() == ltl.PurePast
			if exact && !hasPast {
				continue
			}
			d, err := FromFormula(t.Context(), f, Options{ExactPast: exact})
			require.NoError(t, err, "%s", f)
			own := len(d.PastAtoms()) == 0 // the DFA reads the formula's own atoms only
			m := d.Monitor()
			for range nTraces {
				trace := ltl.RandomTrace(rng, atoms, 8)
				m.Reset()
				for k := 0; k <= len(trace); k++ {
					if k > 0 {
						m.StepAtoms(trace[k-1]...)
					}
					checked++
					checkPrefix(t, seed, f, d, m, trace[:k], own, rng)
				}
			}
		}
	}
	t.Logf("%d prefix verdicts checked", checked)
}

// checkPrefix checks the monitor's verdict after prefix (see
// TestMonitorAgreesWithEval).
func checkPrefix(t *testing.T, seed int, f ltl.Formula, d *DFA, m *Monitor, prefix ltl.Sets, exact bool, rng *rand.Rand) {
	t.Helper()
	atoms := []string{"p", "q", "r"}
	v := m.Verdict()
	want := ltl.Eval(f, prefix, ltl.LTLf)
	require.Equal(t, want, v.Holds(), "seed %d: %s on %v: verdict %s", seed, f, prefix, v)
	switch {
	case v.Decided():
		for range 3 {
			ext := concat(prefix, ltl.RandomTrace(rng, atoms, 4))
			require.Equal(t, v == monitor.Satisfied, ltl.Eval(f, ext, ltl.LTLf),
				"seed %d: %s is %s after %v but not on the extension %v", seed, f, v, prefix, ext)
		}
	case exact:
		s := int32(m.State())
		acc, ok := d.shortestFrom(s, func(s int32) bool { return d.accept[s] })
		require.True(t, ok)
		rej, ok := d.shortestFrom(s, func(s int32) bool { return !d.accept[s] })
		require.True(t, ok)
		require.True(t, ltl.Eval(f, concat(prefix, acc), ltl.LTLf), "seed %d: %s after %v then %v", seed, f, prefix, acc)
		require.False(t, ltl.Eval(f, concat(prefix, rej), ltl.LTLf), "seed %d: %s after %v then %v", seed, f, prefix, rej)
	}
}

// TestThreeEnginesAgree compares the final verdicts of the DFA (past
// subformulas monitored, and translated exactly), the dynamic-programming
// engines of package monitor (past-time for G(φ) with φ pure past, the
// future-time DP otherwise) and the reference evaluator, on random formulas
// of every class (G of a random pure past formula included) and random
// traces.
func TestThreeEnginesAgree(t *testing.T) {
	const seed = 424242
	n := 3000
	if testing.Short() {
		n = 1000
	}
	t.Logf("seed %d, %d formulas × 10 traces", seed, n)
	formulas := randomFormulas(seed, n, ltl.PureFuture, ltl.Mixed, ltl.PurePast)
	for i := 0; i < len(formulas); i += 4 {
		if c := formulas[i].Classify(); c == ltl.PurePast || c == ltl.Propositional {
			formulas[i] = ltl.Always(formulas[i]) // past safety: the past-time DP
		}
	}
	rng := rand.New(rand.NewPCG(seed, 1))
	atoms := []string{"p", "q", "r"}
	for _, f := range formulas {
		monitored, err := FromFormula(context.Background(), f, Options{})
		require.NoError(t, err)
		exact, err := FromFormula(t.Context(), f, Options{ExactPast: true})
		require.NoError(t, err)
		mm, em := monitored.Monitor(), exact.Monitor()
		for range 10 {
			sets := ltl.RandomTrace(rng, atoms, 8)
			tr := monitor.NewTrace(atoms...)
			for _, ev := range sets {
				tr.Append(ev...)
			}
			want := ltl.Eval(f, sets, ltl.LTLf)
			dp, err := Check(t.Context(), f, tr, monitor.Options{Engine: monitor.EngineDP})
			require.NoError(t, err)
			require.Equal(t, want, dp.Holds, "seed %d: %s on %v: DP engine", seed, f, sets)
			require.Equal(t, want, mm.Run(tr).Holds(), "seed %d: %s on %v: DFA", seed, f, sets)
			require.Equal(t, want, em.Run(tr).Holds(), "seed %d: %s on %v: DFA, exact past", seed, f, sets)
		}
	}
}
