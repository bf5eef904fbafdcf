package automaton

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/henceforth-go/henceforth/ltl"
	"github.com/henceforth-go/henceforth/monitor"
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
// future and mixed, the past read from fresh atoms), and on untils of
// them with propositional left operands: the same minimal number of
// states and the same language, the empty trace included.
func TestComposeMatchesTableau(t *testing.T) {
	const seed = 20261127
	n := 400
	if testing.Short() {
		n = 150
	}
	t.Logf("seed %d, %d formulas", seed, n)
	rng := rand.New(rand.NewPCG(seed, 1))
	ops := []ltl.Op{ltl.OpAnd, ltl.OpOr, ltl.OpImplies, ltl.OpIff, ltl.OpXor}
	guards := []string{"p", "!q", "p & r", "p | !r", "true", "false", "q <-> r"}
	parts := randomFormulas(seed, 3*n, ltl.PureFuture, ltl.Mixed)
	for i := range n {
		a, b, c := parts[3*i], parts[3*i+1], parts[3*i+2]
		f := ltl.Binary(ops[rng.IntN(len(ops))], a, ltl.Binary(ops[rng.IntN(len(ops))], b, c))
		switch rng.IntN(4) {
		case 0:
			f = ltl.Not(f)
		case 1:
			// An until with a propositional left operand (until.go).
			until := []ltl.Op{ltl.OpUntil, ltl.OpWeakUntil}[rng.IntN(2)]
			g := ltl.MustParse(guards[rng.IntN(len(guards))])
			f = ltl.Binary(until, g, ltl.Binary(ops[rng.IntN(len(ops))], b, ltl.Binary(until, g, c)))
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

// TestUntilChainLinear checks that p0 U p1 U … U p(n-1), whose minimal DFA
// has n+1 states, is built through at most n+2 states, not 2^(n-1): by the
// tableau (states canonical modulo implications between obligations) and
// by the compositional construction, which reaches n = 32.
func TestUntilChainLinear(t *testing.T) {
	chain := func(n int) ltl.Formula {
		ps := make([]string, n)
		for i := range ps {
			ps[i] = fmt.Sprintf("p%d", i)
		}
		return ltl.MustParse(strings.Join(ps, " U "))
	}
	raw, err := FromFormula(t.Context(), chain(12), Options{Unminimized: true})
	require.NoError(t, err)
	assert.Equal(t, 13, raw.NumStates(), "tableau states before minimization")

	p, err := prepare(chain(32), nil, false)
	require.NoError(t, err)
	c := &composer{ctx: t.Context(), p: p, lim: Options{}.limits()}
	h, err := c.build(p.f.Right(), p.orig.Right())
	require.NoError(t, err)
	guard, err := c.operand(p.f.Left(), p.orig.Left())
	require.NoError(t, err)
	raw, err = untilDFA(t.Context(), guard, h, false, c.lim)
	require.NoError(t, err)
	assert.LessOrEqual(t, raw.NumStates(), 34, "macro states before minimization")
	d, err := FromFormula(t.Context(), chain(32), Options{})
	require.NoError(t, err)
	assert.Equal(t, 33, d.NumStates())
	assert.True(t, d.Accepts([]monitor.Letter{d.Letter("p0"), d.Letter("p5"), d.Letter("p31")}))
	assert.False(t, d.Accepts([]monitor.Letter{d.Letter("p0"), d.Letter("p5")}))
}
