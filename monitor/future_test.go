package monitor

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/henceforth-go/henceforth/ltl"
)

var semantics = []ltl.Semantics{ltl.LTLf, ltl.RosuHavelund}

// randomCases is how many random formula × trace pairs a property test
// draws per semantics and engine.
func randomCases() int {
	if testing.Short() {
		return 1500
	}
	return 20000
}

// TestFutureMatchesReference: the future-time DP (tabulated and interpreted)
// computes the same value at every position as ltl.EvalAll, for random
// formulas using every operator, on random traces including the empty one.
func TestFutureMatchesReference(t *testing.T) {
	for _, sem := range semantics {
		t.Run(sem.String(), func(t *testing.T) {
			const seed = 20240601
			t.Logf("seed %d", seed)
			rng := rand.New(rand.NewPCG(seed, uint64(sem)))
			for k := range randomCases() {
				f := ltl.Random(rng, ltl.RandomConfig{MaxDepth: 5})
				tr := ltl.RandomTrace(rng, []string{"p", "q", "r"}, 7)
				m, err := NewFuture(f, sem)
				require.NoError(t, err)
				ls := lettersOf(tr, m.Atoms())
				want := ltl.EvalAll(f, tr, sem)
				ctx := fmt.Sprintf("seed %d case %d: %s on %s", seed, k, f, showSets(tr))
				require.Equal(t, want, m.EvalAll(ls), ctx)
				require.Equal(t, ltl.Eval(f, tr, sem), m.Eval(ls), ctx)
				require.Equal(t, want, withoutTables(m).EvalAll(ls), "interpreted: "+ctx)
				plain, err := buildFuture(f, sem, false)
				require.NoError(t, err)
				require.Equal(t, want, plain.EvalAll(ls), "register per subformula: "+ctx)
			}
		})
	}
}

// withoutTables returns m with every stage interpreted.
func withoutTables(m *Future) *Future {
	c := *m
	c.stages = append([]stage(nil), m.stages...)
	for k := range c.stages {
		c.stages[k].table = nil
	}
	return &c
}

// lettersOf projects a reference trace onto atoms.
func lettersOf(s ltl.Sets, atoms []string) []Letter {
	out := make([]Letter, len(s))
	for i := range s {
		for j, a := range atoms {
			if s.Holds(i, a) {
				out[i] |= 1 << uint(j)
			}
		}
	}
	return out
}

// traceOf converts a reference trace into a recorded one.
func traceOf(s ltl.Sets) *Trace {
	t := NewTrace()
	for _, atoms := range s {
		t.Append(atoms...)
	}
	return t
}

// showSets prints a trace as {p,q} {} {r}, or ε when empty.
func showSets(s ltl.Sets) string {
	if len(s) == 0 {
		return "ε"
	}
	parts := make([]string, len(s))
	for i, atoms := range s {
		parts[i] = "{" + strings.Join(atoms, ",") + "}"
	}
	return strings.Join(parts, " ")
}

var _ = assert.Equal

// TestFutureManyStoredSubformulas: more than 64 past subformulas under
// future operators (a stored row of several words, no tables), and past
// operators over future ones (three stages), agree with the reference.
func TestFutureManyStoredSubformulas(t *testing.T) {
	atoms := []string{"a", "b", "c", "d", "e", "f", "g", "h"}
	var parts []ltl.Formula
	for i, x := range atoms {
		for _, y := range atoms[i+1:] {
			a, b := ltl.Atom(x), ltl.Atom(y)
			parts = append(parts,
				ltl.Eventually(ltl.Once(ltl.And(a, b))),
				ltl.Next(ltl.Historically(ltl.Or(a, b))),
				ltl.Once(ltl.Until(a, ltl.Yesterday(b))))
		}
	}
	f := ltl.OrAll(parts...)
	for _, sem := range semantics {
		m, err := NewFuture(f, sem)
		require.NoError(t, err)
		assert.GreaterOrEqual(t, m.rowWords, 2)
		assert.Len(t, m.stages, 3)
		const seed = 5
		t.Logf("seed %d", seed)
		rng := rand.New(rand.NewPCG(seed, uint64(sem)))
		for range 30 {
			s := ltl.RandomTrace(rng, atoms, 10)
			// Sparse traces, so that the disjunction is not always true.
			for i := range s {
				s[i] = s[i][:min(len(s[i]), 1)]
			}
			require.Equal(t, ltl.EvalAll(f, s, sem), m.EvalAll(lettersOf(s, m.Atoms())), "%s on %s", sem, showSets(s))
		}
	}
}

// TestFuturePaperExample: the future-time paper's example formula holds on
// every trace of length 0…6 over the events p, q, r, x (x matches no atom of
// the formula) under its own semantics, because F(q -> X r) holds at the
// empty suffix.
func TestFuturePaperExample(t *testing.T) {
	f := ltl.MustParse("G((p U q) -> F(q -> X r))")
	m, err := NewFuture(f, ltl.RosuHavelund)
	require.NoError(t, err)
	assert.True(t, m.Eval(nil))
	forAllTraces(4, 6, func(tr []Letter) {
		events := make([]Letter, len(tr))
		for i, l := range tr {
			events[i] = 1 << l // p, q, r or (bit 3, not an atom of f) x
		}
		if !m.Eval(events) {
			require.Failf(t, "the paper's example must hold on every trace", "%v", tr)
		}
	})
}

// TestFutureErrors: invalid input is an error, not a panic.
func TestFutureErrors(t *testing.T) {
	_, err := NewFuture(ltl.Eventually(manyAtoms(65)), ltl.LTLf)
	assert.EqualError(t, err, "monitor: future-time monitor: 65 distinct atoms; a monitor watches at most 64")
	_, err = NewFuture(ltl.Formula{}, ltl.LTLf)
	assert.EqualError(t, err, "monitor: future-time monitor: invalid (zero) formula")
}
