package automaton

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/henceforth-go/henceforth/ltl"
)

// TestEquivalentIdentities checks known LTLf identities, and that a
// non-identity comes with a shortest distinguishing trace on which the
// reference evaluator disagrees.
func TestEquivalentIdentities(t *testing.T) {
	same := [][2]string{
		{"F f", "true U f"},
		{"G f", "!F !f"},
		{"f W g", "(f U g) | G f"},
		{"f R g", "!(!f U !g)"},
		{"f M g", "!(!f W !g)"},
		{"f M g", "g U (f & g)"},
		{"f R g", "g W (f & g)"},
		{"X f", "!N !f"},
		{"N f", "X f | N false"},
		{"X(f & g)", "X f & N g"},
		{"F G f", "F(f & N false)"}, // on finite traces FG f: f at the last position
		{"G F f", "!F G !f"},
		{"f U g", "g | (f & X(f U g))"},
		{"G(p -> F q) & F p", "G(p -> F q) & F p & F q"},
	}
	for _, c := range same {
		f, g := ltl.MustParse(c[0]), ltl.MustParse(c[1])
		eq, w, err := Equivalent(context.Background(), f, g, Options{})
		require.NoError(t, err)
		assert.True(t, eq, "%s == %s; differ on %v", c[0], c[1], w)
		assert.Nil(t, w)
	}

	differ := []struct {
		f, g    string
		witness ltl.Sets
	}{
		// X and N differ only at the end: first on the empty trace (X f
		// false, N f true), then, among non-empty traces, on the
		// one-position trace.
		{"X f", "N f", ltl.Sets{}},
		{"X f & F true", "N f & F true", ltl.Sets{{}}},
		{"F f", "G f", ltl.Sets{}},
		{"f U g", "f W g", ltl.Sets{}},
		{"f R g", "f M g", ltl.Sets{}},
		{"O p", "F p", ltl.Sets{{}, {"p"}}},
		{"H p", "p", ltl.Sets{}},
		{"F p", "p", ltl.Sets{{}, {"p"}}},
	}
	for _, c := range differ {
		f, g := ltl.MustParse(c.f), ltl.MustParse(c.g)
		eq, w, err := Equivalent(context.Background(), f, g, Options{})
		require.NoError(t, err)
		require.False(t, eq, "%s != %s", c.f, c.g)
		assert.Equal(t, c.witness, w, "%s vs %s", c.f, c.g)
		assert.NotEqual(t, ltl.Eval(f, w, ltl.LTLf), ltl.Eval(g, w, ltl.LTLf), "witness %v", w)
	}
}

// TestEquivalentRandom compares random formulas with their negation normal
// form and simplification (equivalent by construction) and with unrelated
// random formulas, whose witnesses the reference evaluator must confirm and
// which must be shortest: no shorter random trace tells them apart.
func TestEquivalentRandom(t *testing.T) {
	const seed = 11
	t.Logf("seed %d", seed)
	fs := randomFormulas(seed, 300, ltl.PureFuture, ltl.Mixed)
	for i, f := range fs {
		eq, w, err := Equivalent(context.Background(), f, ltl.NNF(f, ltl.LTLf), Options{})
		require.NoError(t, err)
		require.True(t, eq, "seed %d: %s vs its NNF differ on %v", seed, f, w)
		eq, w, err = Equivalent(context.Background(), f, ltl.Simplify(f, ltl.LTLf), Options{})
		require.NoError(t, err)
		require.True(t, eq, "seed %d: %s vs its simplification differ on %v", seed, f, w)

		g := fs[(i+1)%len(fs)]
		eq, w, err = Equivalent(context.Background(), f, g, Options{})
		require.NoError(t, err)
		if eq {
			continue
		}
		require.NotEqual(t, ltl.Eval(f, w, ltl.LTLf), ltl.Eval(g, w, ltl.LTLf), "seed %d: %s vs %s on %v", seed, f, g, w)
		// Shortest: every trace of length < len(w) over the atoms gives
		// the same verdicts (checked exhaustively for short witnesses).
		if len(w) >= 1 && len(w) <= 3 {
			atoms := ltl.And(f, g).Atoms()
			forEachTrace(atoms, len(w)-1, func(tr ltl.Sets) {
				require.Equal(t, ltl.Eval(f, tr, ltl.LTLf), ltl.Eval(g, tr, ltl.LTLf),
					"seed %d: %s vs %s differ on %v, shorter than the witness %v", seed, f, g, tr, w)
			})
		}
	}
}

// forEachTrace calls fn on every trace over atoms of length at most n.
func forEachTrace(atoms []string, n int, fn func(ltl.Sets)) {
	var rec func(tr ltl.Sets)
	rec = func(tr ltl.Sets) {
		fn(tr)
		if len(tr) == n {
			return
		}
		for l := 0; l < 1<<len(atoms); l++ {
			ev := []string{}
			for i, a := range atoms {
				if l>>i&1 == 1 {
					ev = append(ev, a)
				}
			}
			rec(append(tr[:len(tr):len(tr)], ev))
		}
	}
	rec(ltl.Sets{})
}

// TestEmptinessAndUniversality checks the DFA language questions with
// their shortest witnesses.
func TestEmptinessAndUniversality(t *testing.T) {
	tests := []struct {
		f                  string
		empty, universal   bool
		accepted, rejected ltl.Sets
	}{
		{"p & !p", true, false, nil, ltl.Sets{}},
		{"F p & G !p", true, false, nil, ltl.Sets{}},
		{"G p | F !p", false, true, ltl.Sets{}, nil},
		{"X X p", false, false, ltl.Sets{{}, {}, {"p"}}, ltl.Sets{}},
		{"N false", false, false, ltl.Sets{}, ltl.Sets{{}, {}}},
	}
	for _, tc := range tests {
		d, err := FromFormula(context.Background(), ltl.MustParse(tc.f), Options{})
		require.NoError(t, err)
		assert.Equal(t, tc.empty, d.IsEmpty(), tc.f)
		assert.Equal(t, tc.universal, d.IsUniversal(), tc.f)
		acc, ok := d.ShortestAccepted()
		assert.Equal(t, !tc.empty, ok, tc.f)
		assert.Equal(t, tc.accepted, acc, tc.f)
		rej, ok := d.ShortestRejected()
		assert.Equal(t, !tc.universal, ok, tc.f)
		assert.Equal(t, tc.rejected, rej, tc.f)
	}
}
