package split

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/henceforth-go/henceforth/ltl"
	"github.com/stretchr/testify/require"
)

// The Büchi automaton of f accepts exactly the lassos on which f holds (the
// lasso evaluator is the reference), before and after degeneralization.
func TestBuchiAgreesWithLassoEvaluation(t *testing.T) {
	seed := uint64(20240517)
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 1))
	atoms := []string{"p", "q"}
	ops := append(ltl.OpsOf(ltl.Propositional), ltl.OpNext, ltl.OpEventually, ltl.OpAlways, ltl.OpUntil, ltl.OpWeakUntil, ltl.OpRelease, ltl.OpStrongRelease)
	formulas := 300
	if testing.Short() {
		formulas = 80
	}
	for range formulas {
		f := ltl.Random(rng, ltl.RandomConfig{Atoms: atoms, MaxDepth: 4, Ops: ops})
		g, err := toBuchi(context.Background(), f)
		require.NoError(t, err, f)
		d := g.degeneralize()
		for range 20 {
			n := 1 + rng.IntN(5)
			loop := rng.IntN(n)
			word := make([]map[string]bool, n)
			for i := range word {
				word[i] = map[string]bool{"p": rng.IntN(2) == 0, "q": rng.IntN(2) == 0}
			}
			letter := func(i int, a string) bool { return word[i][a] }
			want, err := evalLasso(f, n, loop, letter)
			require.NoError(t, err)
			require.Equal(t, want, d.acceptsLasso(n, loop, letter), "%s on %v loop %d (%d states)", f, word, loop, d.states)
		}
	}
}

func TestBuchiSizes(t *testing.T) {
	for _, tc := range []struct {
		f      string
		states int
	}{
		{"G F p", 2},
		{"!G(p -> F q)", 2},
	} {
		b, err := toBuchi(context.Background(), ltl.MustParse(tc.f))
		require.NoError(t, err)
		require.LessOrEqual(t, b.degeneralize().states, tc.states, tc.f)
	}
}
