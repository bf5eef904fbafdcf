package automaton_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/henceforth-go/henceforth/automaton"
	"github.com/henceforth-go/henceforth/ltl"
)

// randomLasso draws a lasso of 1..maxLen positions over atoms.
func randomLasso(rng *rand.Rand, atoms []string, maxLen int) automaton.Lasso {
	n := 1 + rng.IntN(maxLen)
	w := make(ltl.Sets, n)
	for i := range w {
		w[i] = []string{}
		for _, a := range atoms {
			if rng.IntN(2) == 0 {
				w[i] = append(w[i], a)
			}
		}
	}
	return automaton.Lasso{Word: w, Loop: rng.IntN(n)}
}

// The Büchi automaton of f accepts exactly the lassos on which f holds (the
// lasso evaluator is the reference), before and after degeneralization.
func TestBuchiAgreesWithLassoEvaluation(t *testing.T) {
	seed := uint64(20240517)
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 1))
	atoms := []string{"p", "q"}
	ops := append(ltl.OpsOf(ltl.Propositional), ltl.OpNext, ltl.OpWeakNext, ltl.OpEventually, ltl.OpAlways,
		ltl.OpUntil, ltl.OpWeakUntil, ltl.OpRelease, ltl.OpStrongRelease)
	formulas := 300
	if testing.Short() {
		formulas = 100
	}
	for range formulas {
		f := ltl.Random(rng, ltl.RandomConfig{Atoms: atoms, MaxDepth: 4, Ops: ops})
		g, err := automaton.Buchi(context.Background(), f)
		require.NoError(t, err, f)
		d := g.Degeneralize()
		require.Equal(t, 1, d.Sets)
		for range 20 {
			l := randomLasso(rng, atoms, 5)
			want, err := automaton.EvalLasso(f, l)
			require.NoError(t, err)
			for name, a := range map[string]*automaton.GBA{"generalized": g, "degeneralized": d} {
				got, err := a.Accepts(l)
				require.NoError(t, err)
				require.Equal(t, want, got, "%s automaton of %s on %v looping to %d (%d states, %d sets)",
					name, f, l.Word, l.Loop, len(a.States), a.Sets)
			}
		}
	}
}

// Hand-checked values of the lasso evaluator: the infinite-word semantics,
// not the finite-trace one.
func TestEvalLasso(t *testing.T) {
	pThenQ := ltl.Sets{{"p"}, {"q"}} // p q q q …
	alternate := ltl.Sets{{"p"}, {}} // p ∅ p ∅ …
	for _, tc := range []struct {
		f    string
		word ltl.Sets
		loop int
		want bool
	}{
		{"G F p", alternate, 0, true},
		{"F G p", alternate, 0, false},
		{"G F p", pThenQ, 1, false},
		{"F G q", pThenQ, 1, true},
		{"p U q", pThenQ, 1, true},
		{"G(p -> X q)", pThenQ, 1, true},
		// X at the last position wraps to the loop: on infinite words the
		// next position always exists, so X and N agree.
		{"X X !p", alternate, 0, false},
		{"N N p", alternate, 0, true},
		{"G p W q", pThenQ, 1, false},
		{"q R true", alternate, 0, true},
		{"p M p", alternate, 0, true},
		{"F(q && p)", pThenQ, 1, false},
	} {
		got, err := automaton.EvalLasso(ltl.MustParse(tc.f), automaton.Lasso{Word: tc.word, Loop: tc.loop})
		require.NoError(t, err, tc.f)
		assert.Equal(t, tc.want, got, "%s on %v looping to %d", tc.f, tc.word, tc.loop)
	}
}

func TestBuchiSizes(t *testing.T) {
	for _, tc := range []struct {
		f      string
		states int
		sets   int
	}{
		{"G F p", 2, 1},
		{"!G(p -> F q)", 2, 1},
		{"G F p && G F q", 5, 2},
		{"G p", 1, 0},
	} {
		g, err := automaton.Buchi(context.Background(), ltl.MustParse(tc.f))
		require.NoError(t, err)
		assert.Equal(t, tc.sets, g.Sets, tc.f)
		assert.LessOrEqual(t, len(g.States), tc.states, tc.f)
		assert.LessOrEqual(t, len(g.Degeneralize().States), max(tc.states, 1)*max(tc.sets, 1), tc.f)
	}
}

func TestBuchiStructure(t *testing.T) {
	g, err := automaton.Buchi(context.Background(), ltl.MustParse("G F p"))
	require.NoError(t, err)
	assert.Equal(t, []string{"p"}, g.Atoms)
	assert.Equal(t, "false R true U p", g.Formula.String()) // NNF for infinite words
	for _, s := range g.States {
		for _, e := range s.Edges {
			assert.Less(t, e.To, len(g.States))
			// An edge is in the set of F p unless it postpones it, i.e.
			// unless p is not required on it.
			pos := false
			for _, l := range e.Guard {
				pos = pos || (l.Atom == "p" && !l.Negated)
			}
			assert.Equal(t, pos, e.In(0), "%s: %v", s.Name, e)
		}
	}
	d := g.Degeneralize()
	for _, s := range d.States {
		for _, e := range s.Edges {
			assert.LessOrEqual(t, e.Acc, uint64(1))
		}
	}
}

func TestBuchiErrors(t *testing.T) {
	_, err := automaton.Buchi(context.Background(), ltl.MustParse("G(p -> O q)"))
	require.ErrorIs(t, err, automaton.ErrUnsupported)
	assert.Contains(t, err.Error(), "past operator")

	_, err = automaton.EvalLasso(ltl.MustParse("G(p -> Y q)"), automaton.Lasso{Word: ltl.Sets{{}}, Loop: 0})
	require.ErrorIs(t, err, automaton.ErrUnsupported)

	// One acceptance set per until: at most 64.
	var fs []ltl.Formula
	for i := range 65 {
		fs = append(fs, ltl.Eventually(ltl.Atom(fmt.Sprintf("a%d", i))))
	}
	_, err = automaton.Buchi(context.Background(), ltl.AndAll(fs...))
	require.ErrorIs(t, err, automaton.ErrTooLarge)

	g, err := automaton.Buchi(context.Background(), ltl.MustParse("F p"))
	require.NoError(t, err)
	for _, l := range []automaton.Lasso{
		{Word: ltl.Sets{}, Loop: 0},
		{Word: ltl.Sets{{"p"}}, Loop: 1},
		{Word: ltl.Sets{{"p"}}, Loop: -1},
		{},
	} {
		_, err := g.Accepts(l)
		assert.Error(t, err, "%v", l)
		_, err = automaton.EvalLasso(ltl.MustParse("F p"), l)
		assert.Error(t, err, "%v", l)
	}
}
