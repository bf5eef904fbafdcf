package automaton

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/henceforth-go/henceforth/ltl"
	"github.com/henceforth-go/henceforth/monitor"
)

// TestCheckAgreesWithDP runs automaton.Check's automaton engine against the
// DP engine on random formulas (past, future and mixed) and traces: the same
// verdict, the same first violation and the same explanation.
func TestCheckAgreesWithDP(t *testing.T) {
	const seed = 20261122
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, seed))
	atoms := []string{"p", "q", "r"}
	n := 3000
	if testing.Short() {
		n = 600
	}
	ctx := context.Background()
	for i := 0; i < n; i++ {
		f := ltl.Random(rng, ltl.RandomConfig{Atoms: atoms, MaxDepth: 4})
		tr := monitor.NewTrace()
		for _, step := range ltl.RandomTrace(rng, atoms, 8) {
			tr.Append(step...)
		}
		want, err := monitor.Check(f, tr, monitor.Options{Engine: monitor.EngineDP})
		require.NoError(t, err)
		got, err := Check(ctx, f, tr, monitor.Options{Engine: monitor.EngineAutomaton})
		require.NoError(t, err, "formula %s", f)
		require.Equal(t, want.Holds, got.Holds, "formula %s on\n%s", f, tr)
		assert.Equal(t, monitor.EngineAutomaton, got.Engine)
		assert.Equal(t, want.Violation, got.Violation, "formula %s", f)
		assert.Equal(t, want.Why, got.Why, "formula %s", f)
	}
}

func TestCheckDelegatesOtherEngines(t *testing.T) {
	tr := monitor.NewTrace()
	tr.Append("p")
	res, err := Check(context.Background(), ltl.MustParse("Y p"), tr, monitor.Options{Engine: monitor.EngineNaive, Semantics: ltl.RosuHavelund})
	require.NoError(t, err)
	assert.True(t, res.Holds)
	assert.Equal(t, monitor.EngineNaive, res.Engine)

	_, err = Check(context.Background(), ltl.MustParse("F p"), tr, monitor.Options{Engine: monitor.EngineAutomaton, Semantics: ltl.RosuHavelund})
	assert.EqualError(t, err, "automaton: check: the automaton engine supports only ltlf semantics, not rosu-havelund")
}
