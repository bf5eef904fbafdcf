package automaton

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/henceforth-go/henceforth/ltl"
)

// tableauDFA is the minimal DFA of f built by the symbolic tableau alone.
func tableauDFA(t *testing.T, f ltl.Formula, opts Options) *DFA {
	t.Helper()
	p, err := prepare(f, opts.Atoms, opts.ExactPast)
	require.NoError(t, err)
	raw, err := subsetConstruction(t.Context(), p, opts.limits())
	require.NoError(t, err)
	d := minimize(raw)
	d.finish(true)
	return d
}

// TestComposeMatchesTableau checks the compositional construction against
// the tableau on random Boolean combinations of random formulas (pure
// future and mixed, the past read from fresh atoms): the same minimal
// number of states and the same language, the empty trace included.
func TestComposeMatchesTableau(t *testing.T) {
	const seed = 20261127
	n := 400
	if testing.Short() {
		n = 150
	}
	t.Logf("seed %d, %d formulas", seed, n)
	rng := rand.New(rand.NewPCG(seed, 1))
	ops := []ltl.Op{ltl.OpAnd, ltl.OpOr, ltl.OpImplies, ltl.OpIff, ltl.OpXor}
	parts := randomFormulas(seed, 3*n, ltl.PureFuture, ltl.Mixed)
	for i := range n {
		a, b, c := parts[3*i], parts[3*i+1], parts[3*i+2]
		f := ltl.Binary(ops[rng.IntN(len(ops))], a, ltl.Binary(ops[rng.IntN(len(ops))], b, c))
		if rng.IntN(4) == 0 {
			f = ltl.Not(f)
		}
		opts := Options{Atoms: []string{"p", "q", "r"}}
		p, err := prepare(f, opts.Atoms, false)
		require.NoError(t, err)
		if !composable(p) {
			continue
		}
		d, err := FromFormula(t.Context(), f, opts)
		require.NoError(t, err, "seed %d: %s", seed, f)
		want := tableauDFA(t, f, opts)
		require.Equal(t, want.NumStates(), d.NumStates(), "seed %d: %s", seed, f)
		diff, err := product(t.Context(), d, want, func(x, y bool) bool { return x != y }, opts.limits())
		require.NoError(t, err)
		w, differ := diff.ShortestAccepted()
		require.False(t, differ, "seed %d: %s: the compositional and the tableau DFA differ on %v", seed, f, w)
	}
}

// TestComposeBounds checks that the bounds of Options stop a product, as
// ErrTooLarge, and that a cancelled context stops it.
func TestComposeBounds(t *testing.T) {
	f := ltl.MustParse(conj(10, func(i int) string { return fmt.Sprintf("F p%d", i) }))
	_, err := FromFormula(t.Context(), f, Options{MaxStates: 100})
	require.ErrorIs(t, err, ErrTooLarge)
	assert.Contains(t, err.Error(), "more than 100 states")

	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	_, err = FromFormula(ctx, f, Options{})
	require.ErrorIs(t, err, context.Canceled)
}
