package monitor

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/henceforth-go/henceforth/internal/vectors"
	"github.com/henceforth-go/henceforth/ltl"
)

// whys returns the sentences of an explanation.
func whys(rs []Reason) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = r.Why
	}
	return out
}

// TestExplainOperators: the "why" of each operator names the minimal
// witness, as text.
func TestExplainOperators(t *testing.T) {
	cases := []struct {
		formula, trace string
		pos            int
		sem            ltl.Semantics
		want           []string
	}{
		{"F q", "{} {} {} {} {p} {} {} {} {} {}", 4, ltl.LTLf, []string{
			"F q is false at 4: q never holds in 4…9"}},
		{"F q", "{} {q} {} {q}", 0, ltl.LTLf, []string{
			"F q is true at 0: q is true at 1", "q is true at 1"}},
		{"F q", "{} {}", 1, ltl.LTLf, []string{
			"F q is false at 1: q is false at 1", "q is false at 1"}},
		{"F !q", "{q}", 0, ltl.RosuHavelund, []string{
			"F !q is true at 0: !q is true at 1 (the empty suffix)",
			"!q is true at 1 (the empty suffix): q is false at 1 (the empty suffix)",
			"q is false at 1 (the empty suffix): no atom holds on the empty suffix"}},
		{"G p", "{p} {p} {} {p}", 0, ltl.LTLf, []string{
			"G p is false at 0: p is false at 2", "p is false at 2"}},
		{"G p", "{p} {p} {p}", 0, ltl.LTLf, []string{
			"G p is true at 0: p holds at every position in 0…2"}},
		{"X p", "{p} {}", 1, ltl.LTLf, []string{
			"X p is false at 1: there is no next position"}},
		{"N p", "{p} {}", 1, ltl.LTLf, []string{
			"N p is true at 1: there is no next position"}},
		{"X p", "{} {p}", 0, ltl.LTLf, []string{
			"X p is true at 0: p is true at 1", "p is true at 1"}},
		{"p U q", "{p} {p} {} {q}", 0, ltl.LTLf, []string{
			"p U q is false at 0: p is false at 2 and q does not hold in 0…2", "p is false at 2"}},
		{"p U q", "{p} {p} {q}", 0, ltl.LTLf, []string{
			"p U q is true at 0: q is true at 2 and p holds in 0…1", "q is true at 2"}},
		{"p U q", "{p} {p}", 0, ltl.LTLf, []string{
			"p U q is false at 0: q never holds in 0…1"}},
		{"p W q", "{p} {p}", 0, ltl.LTLf, []string{
			"p W q is true at 0: p holds at every position in 0…1"}},
		{"q R p", "{p} {} {q}", 0, ltl.LTLf, []string{
			"q R p is false at 0: p is false at 1 and q does not hold at 0", "p is false at 1"}},
		{"q R p", "{p} {p,q} {}", 0, ltl.LTLf, []string{
			"q R p is true at 0: q and p are both true at 1, and p holds at 0", "q is true at 1"}},
		{"q M p", "{p} {p}", 0, ltl.LTLf, []string{
			"q M p is false at 0: q never holds in 0…1"}},
		{"Y p", "{p} {}", 0, ltl.LTLf, []string{
			"Y p is false at 0: there is no previous position"}},
		{"Y p", "{p} {}", 0, ltl.RosuHavelund, []string{
			"Y p is true at 0: the past before the first position is taken to be stationary, and p is true at 0",
			"p is true at 0"}},
		{"Y p", "{p} {}", 1, ltl.LTLf, []string{
			"Y p is true at 1: p is true at 0", "p is true at 0"}},
		{"O q", "{q} {} {} {q} {}", 2, ltl.LTLf, []string{
			"O q is true at 2: q is true at 0", "q is true at 0"}},
		{"O q", "{} {} {}", 2, ltl.LTLf, []string{
			"O q is false at 2: q never holds in 0…2"}},
		{"H p", "{p} {} {p} {p}", 3, ltl.LTLf, []string{
			"H p is false at 3: p is false at 1", "p is false at 1"}},
		{"p S q", "{q} {p} {p}", 2, ltl.LTLf, []string{
			"p S q is true at 2: q is true at 0 and p holds in 1…2", "q is true at 0"}},
		{"p S q", "{q} {} {p}", 2, ltl.LTLf, []string{
			"p S q is false at 2: p is false at 1 and q does not hold in 1…2", "p is false at 1"}},
		{"p B q", "{p} {p} {p}", 2, ltl.LTLf, []string{
			"p B q is true at 2: p holds at every position in 0…2"}},
		{"start(p)", "{p} {p}", 1, ltl.LTLf, []string{
			"start(p) is false at 1: p is true at 1, as at 0", "p is true at 1"}},
		{"start(p)", "{p} {}", 1, ltl.LTLf, []string{
			"start(p) is false at 1: p is false at 1", "p is false at 1"}},
		{"start(p)", "{p}", 0, ltl.LTLf, []string{
			"start(p) is false at 0: there is no previous position"}},
		{"end(p)", "{p} {}", 1, ltl.LTLf, []string{
			"end(p) is true at 1: p is true at 0 and false at 1", "p is true at 0", "p is false at 1"}},
		{"end(p)", "{} {}", 1, ltl.LTLf, []string{
			"end(p) is false at 1: p is false at 1, as at 0", "p is false at 1"}},
		{"[q, r)s", "{} {q} {} {}", 3, ltl.LTLf, []string{
			"[q, r)s is true at 3: q is true at 1 and r does not hold in 1…3", "q is true at 1"}},
		{"[q, r)s", "{q} {r} {}", 2, ltl.LTLf, []string{
			"[q, r)s is false at 2: r is true at 1, after the last q at 0", "r is true at 1"}},
		{"[q, r)s", "{} {r} {}", 2, ltl.LTLf, []string{
			"[q, r)s is false at 2: r is true at 1, and q never holds in 0…1", "r is true at 1"}},
		{"[q, r)s", "{} {} {}", 2, ltl.LTLf, []string{
			"[q, r)s is false at 2: q never holds in 0…2"}},
		{"[q, r)w", "{} {} {}", 2, ltl.LTLf, []string{
			"[q, r)w is true at 2: r never holds in 0…2"}},
		{"p <-> q", "{p}", 0, ltl.LTLf, []string{
			"p <-> q is false at 0: p is true and q is false at 0", "p is true at 0", "q is false at 0"}},
		{"p && q", "{p}", 0, ltl.LTLf, []string{
			"p && q is false at 0: q is false at 0", "q is false at 0"}},
		{"p -> q", "{}", 0, ltl.LTLf, []string{
			"p -> q is true at 0: p is false at 0", "p is false at 0"}},
		{"F p", "", 0, ltl.LTLf, []string{
			"F p is false at 0: the trace is empty"}},
		{"G p || p", "", 0, ltl.LTLf, []string{
			"G p || p is true at 0: G p is true at 0", "G p is true at 0: the trace is empty"}},
		{"p W q", "{p}", 1, ltl.RosuHavelund, nil}, // position 1 is not a position of the trace
	}
	for _, c := range cases {
		f := ltl.MustParse(c.formula)
		rs, err := Explain(f, traceOf(vectors.ParseStates(c.trace)), c.pos, c.sem)
		if c.want == nil {
			assert.Error(t, err, c.formula)
			continue
		}
		require.NoError(t, err, c.formula)
		assert.Equal(t, c.want, whys(rs), "%s at %d of %q under %s", c.formula, c.pos, c.trace, c.sem)
	}
}

// TestExplainAgreesWithReference: on random formulas and traces, every
// reason states the reference value of its formula at its position, the
// first reason is about the formula asked for, every later one about a
// subformula of an earlier reason's formula, and no fact is repeated.
func TestExplainAgreesWithReference(t *testing.T) {
	for _, sem := range semantics {
		const seed = 1312
		t.Logf("seed %d", seed)
		rng := rand.New(rand.NewPCG(seed, uint64(sem)))
		for k := range randomCases() / 4 {
			f := ltl.Random(rng, ltl.RandomConfig{MaxDepth: 5})
			s := ltl.RandomTrace(rng, []string{"p", "q", "r"}, 8)
			pos := 0
			if len(s) > 0 {
				pos = rng.IntN(len(s))
			}
			ctx := fmt.Sprintf("seed %d case %d (%s): %s at %d of %s", seed, k, sem, f, pos, showSets(s))
			rs, err := Explain(f, traceOf(s), pos, sem)
			require.NoError(t, err, ctx)
			require.NotEmpty(t, rs, ctx)
			require.Equal(t, f, rs[0].Formula, ctx)
			require.Equal(t, pos, rs[0].Position, ctx)
			type fact struct {
				f ltl.Formula
				i int
			}
			seen := map[fact]bool{}
			for j, r := range rs {
				require.False(t, seen[fact{r.Formula, r.Position}], "repeated: %s; %s", r.Why, ctx)
				seen[fact{r.Formula, r.Position}] = true
				prefix := fmt.Sprintf("%s is %v at %d", r.Formula, r.Holds, r.Position)
				require.True(t, strings.HasPrefix(r.Why, prefix), "%q; %s", r.Why, ctx)
				switch {
				case len(s) == 0:
					require.Equal(t, ltl.Eval(r.Formula, s, sem), r.Holds, "%s; %s", r.Why, ctx)
				case r.Position < len(s):
					want := ltl.EvalAll(r.Formula, s, sem)[r.Position]
					require.Equal(t, want, r.Holds, "%s; %s", r.Why, ctx)
				default:
					require.Equal(t, ltl.RosuHavelund, sem, "only the empty suffix is past the end; %s", ctx)
					require.Equal(t, len(s), r.Position, ctx)
				}
				if j > 0 {
					require.True(t, isSubOfEarlier(r.Formula, rs[:j]), "%s; %s", r.Why, ctx)
				}
			}
			if len(s) > 0 {
				require.Equal(t, ltl.EvalAll(f, s, sem)[pos], rs[0].Holds, ctx)
			}
		}
	}
}

func isSubOfEarlier(g ltl.Formula, earlier []Reason) bool {
	for _, r := range earlier {
		for _, s := range r.Formula.Operands() {
			if s == g {
				return true
			}
		}
	}
	return false
}

// TestExplainLongTrace: explanations come from an O(n·m) table, so a long
// trace is no problem; the witness is found at the far end.
func TestExplainLongTrace(t *testing.T) {
	const n = 200_000
	tr := NewTrace("p", "q")
	for i := range n {
		switch {
		case i == n-10:
			tr.Append("p")
		case i > n-10:
			tr.Append()
		case i%2 == 0:
			tr.Append("p")
		default:
			tr.Append("q")
		}
	}
	f := ltl.MustParse("G(p -> F q)")
	rs, err := Explain(f, tr, 0, ltl.LTLf)
	require.NoError(t, err)
	require.False(t, rs[0].Holds)
	assert.Equal(t, []string{
		fmt.Sprintf("G(p -> F q) is false at 0: p -> F q is false at %d", n-10),
		fmt.Sprintf("p -> F q is false at %d: p is true and F q is false at %d", n-10, n-10),
		fmt.Sprintf("p is true at %d", n-10),
		fmt.Sprintf("F q is false at %d: q never holds in %d…%d", n-10, n-10, n-1),
	}, whys(rs))
}

// TestExplainErrors: positions outside the trace and invalid formulas are
// errors.
func TestExplainErrors(t *testing.T) {
	tr := traceOf(vectors.ParseStates("{p} {}"))
	_, err := Explain(ltl.Atom("p"), tr, 2, ltl.LTLf)
	assert.EqualError(t, err, "monitor: explain p: position 2 is outside the trace of 2 events")
	_, err = Explain(ltl.Atom("p"), tr, -1, ltl.LTLf)
	assert.EqualError(t, err, "monitor: explain p: position -1 is outside the trace of 2 events")
	_, err = Explain(ltl.Formula{}, tr, 0, ltl.LTLf)
	assert.EqualError(t, err, "monitor: explain: invalid (zero) formula")
	_, err = Explain(ltl.Always(manyAtoms(65)), tr, 0, ltl.LTLf)
	assert.ErrorContains(t, err, "65 distinct atoms")
	rs, err := Explain(ltl.Atom("p"), nil, 0, ltl.LTLf)
	require.NoError(t, err)
	assert.Equal(t, []string{"p is false at 0: the trace is empty"}, whys(rs))
}
