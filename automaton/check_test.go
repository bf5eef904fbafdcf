package automaton

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/henceforth-go/henceforth/internal/vectors"
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
		want, err := Check(ctx, f, tr, monitor.Options{Engine: monitor.EngineDP})
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

// Test helpers of Check's tests.

// checkCases is how many random formula × trace pairs
// TestCheckMatchesReference draws per semantics.
func checkCases() int {
	if testing.Short() {
		return 750
	}
	return 10000
}

// maxExplained is the most reasons monitor.Explain gives.
const maxExplained = 200

// traceOf converts a reference trace into a recorded one.
func traceOf(s ltl.Sets) *monitor.Trace {
	t := monitor.NewTrace()
	for _, atoms := range s {
		t.Append(atoms...)
	}
	return t
}

// whys returns the sentences of an explanation.
func whys(rs []monitor.Reason) []string {
	var out []string
	for _, r := range rs {
		out = append(out, r.Why)
	}
	return out
}

// manyAtoms is H(a0 || a1 || …) over n atoms.
func manyAtoms(n int) ltl.Formula {
	var fs []ltl.Formula
	for i := range n {
		fs = append(fs, ltl.Atom(fmt.Sprintf("a%d", i)))
	}
	return ltl.Historically(ltl.OrAll(fs...))
}

// firstFalse is the first position where φ is false by the reference
// evaluator, or -1.
func firstFalse(phi ltl.Formula, s ltl.Sets, sem ltl.Semantics) int {
	for i, v := range ltl.EvalAll(phi, s, sem) {
		if !v {
			return i
		}
	}
	return -1
}

// TestCheckMatchesReference: Check with every engine gives the reference
// verdict; for G(past) formulas it reports the first violating position, and
// a failed verdict comes with an explanation that starts with the formula
// failing at 0.
func TestCheckMatchesReference(t *testing.T) {
	for _, sem := range []ltl.Semantics{ltl.LTLf, ltl.RosuHavelund} {
		t.Run(sem.String(), func(t *testing.T) {
			const seed = 4242
			t.Logf("seed %d", seed)
			rng := rand.New(rand.NewPCG(seed, uint64(sem)))
			past := ltl.RandomConfig{MaxDepth: 4, Ops: ltl.OpsOf(ltl.PurePast)}
			for k := range checkCases() {
				f := ltl.Random(rng, ltl.RandomConfig{MaxDepth: 5})
				if k%2 == 0 {
					f = ltl.Always(ltl.Random(rng, past))
				}
				s := ltl.RandomTrace(rng, []string{"p", "q", "r"}, 8)
				tr := traceOf(s)
				where := fmt.Sprintf("seed %d case %d: %s on %s", seed, k, f, fmt.Sprint(s))
				want := ltl.Eval(f, s, sem)
				wantViolation := -1
				if f.IsPastSafety() && !want {
					wantViolation = firstFalse(f.Left(), s, sem)
				}
				for _, engine := range []monitor.Engine{monitor.EngineAuto, monitor.EngineDP, monitor.EngineNaive} {
					res, err := Check(t.Context(), f, tr, monitor.Options{Engine: engine, Semantics: sem})
					require.NoError(t, err, where)
					require.Equal(t, want, res.Holds, "%s: %s", engine, where)
					require.Equal(t, wantViolation, res.Violation, "%s: %s", engine, where)
					if engine == monitor.EngineNaive {
						require.Equal(t, monitor.EngineNaive, res.Engine)
					} else {
						require.Equal(t, monitor.EngineDP, res.Engine)
					}
					if want {
						require.Nil(t, res.Why, where)
						continue
					}
					require.NotEmpty(t, res.Why, where)
					require.Equal(t, f, res.Why[0].Formula, where)
					require.Equal(t, 0, res.Why[0].Position, where)
					require.False(t, res.Why[0].Holds, where)
				}
			}
		})
	}
}

// TestCheckFirstViolation: the past-time engine reports the first position
// where G(φ) fails, position 0 included (the paper's code never checks the
// first state, pitfall 10 of dp_ltl.md).
func TestCheckFirstViolation(t *testing.T) {
	cases := []struct {
		formula, trace string
		violation      int
	}{
		{"G(start(p) -> [q, end(r | s)))", "{q} {r} {} {p} {p} {} {p}", 3},
		{"G(start(p) -> [q, end(r | s)))", "{q} {r} {} {q} {p}", -1},
		{"G(start(p) -> [q, end(r | s)))", "{q} {r} {q} {p}", 3}, // end(r | s) at 2 closes the interval q opened there
		{"G p", "{} {p}", 0},
		{"G H p", "{p} {p} {} {p}", 2},
		{"G(Y p)", "{p} {p}", 0}, // LTLf: Y is false at the first position
		{"G true", "", -1},
	}
	for _, c := range cases {
		f := ltl.MustParse(c.formula)
		require.True(t, f.IsPastSafety(), c.formula)
		res, err := Check(t.Context(), f, traceOf(vectors.ParseStates(c.trace)), monitor.Options{})
		require.NoError(t, err)
		assert.Equal(t, c.violation, res.Violation, "%s on %s", c.formula, c.trace)
		assert.Equal(t, c.violation < 0, res.Holds, "%s on %s", c.formula, c.trace)
		assert.Equal(t, monitor.EngineDP, res.Engine)
	}
}

// TestCheckFutureTimePaperVectors: the verdicts of dp_ltl.md §3.1 under the
// future-time paper's semantics (RosuHavelund: F and U may be satisfied by
// the empty suffix, X is false only on it). Events are single atoms; x
// matches no atom of the formula. The paper's example formula holds on
// every trace because F(q -> X r) holds at the empty suffix.
func TestCheckFutureTimePaperVectors(t *testing.T) {
	cases := []struct {
		formula, trace string
		holds          bool
	}{
		{"G((p U q) -> F(q -> X r))", "eps", true},
		{"G((p U q) -> F(q -> X r))", "q", true},
		{"G((p U q) -> F(q -> X r))", "p q", true},
		{"G((p U q) -> F(q -> X r))", "p p q x", true},
		{"G(p -> F q)", "eps", true},
		{"G(p -> F q)", "p", false},
		{"G(p -> F q)", "p q", true},
		{"G(p -> F q)", "p q p", false},
		{"G(p -> F q)", "x p x q", true},
		{"F p", "eps", false},
		{"F p", "x", false},
		{"F p", "x p", true},
		{"F !p", "eps", true},
		{"F !p", "p p", true},
		{"G p", "eps", true},
		{"G p", "p p", true},
		{"G p", "p x", false},
		{"!F !p", "p p", false},
		{"X true", "eps", false},
		{"X true", "x", true},
		{"X p", "x", false},
		{"X !p", "p", true},
		{"X p", "x p", true},
		{"p U q", "eps", false},
		{"p U q", "p p q", true},
		{"p U q", "p p", false},
		{"p U q", "p x q", false},
		{"p U !q", "q", false},
		{"p U !q", "p q", true},
		{"!p", "eps", true},
		{"p", "eps", false},
		{"p U G false", "eps", true},
		{"p U G false", "p", true},
		{"p U G false", "p p", true},
		{"p U G false", "p x", false},
		{"p U G false", "x", false},
	}
	for _, v := range cases {
		f := ltl.MustParse(v.formula)
		tr := traceOf(vectors.ParseEvents(v.trace))
		for _, engine := range []monitor.Engine{monitor.EngineDP, monitor.EngineNaive} {
			res, err := Check(t.Context(), f, tr, monitor.Options{Engine: engine, Semantics: ltl.RosuHavelund})
			require.NoError(t, err)
			assert.Equal(t, v.holds, res.Holds, "%s on %s (%s)", v.formula, v.trace, engine)
		}
	}
}

// TestCheckLTLfCornerCases: the end-of-trace and empty-trace rules of
// docs/semantics.md under LTLf, and how RosuHavelund differs.
func TestCheckLTLfCornerCases(t *testing.T) {
	cases := []struct {
		formula, trace string
		ltlf, rh       bool
	}{
		// X at the last position: no next position. The operand's value on
		// the empty suffix must not leak in: X !p is false under LTLf.
		{"X true", "{}", false, true},
		{"X !p", "{p}", false, true},
		{"N false", "{}", true, false},
		{"N p", "{p}", true, false},
		{"X X true", "{} {}", false, true},
		{"G(p -> X q)", "{p}", false, false},
		{"G(p -> N q)", "{p}", true, false},
		// F/U/M strong, G/W/R weak at the end.
		{"F !p", "{p}", false, true},
		{"p U !p", "{p} {p}", false, true},
		{"p W q", "{p} {p}", true, true},
		{"q R p", "{p} {p}", true, true},
		{"q M p", "{p} {p}", false, false},
		{"q M p", "{p} {p,q}", true, true},
		{"G p", "{p} {p}", true, true},
		// The first position: Y false, Z true under LTLf; stationary past
		// under RosuHavelund.
		{"Y p", "{p}", false, true},
		{"Z !p", "{p}", true, false},
		{"start(p)", "{p}", false, false},
		// The empty trace: X F U M Y O S start end [)s false; N G W R Z H B
		// [)w true (RosuHavelund evaluates at the empty suffix, where no
		// atom holds).
		{"X p", "", false, false},
		{"F true", "", false, true},
		{"true U true", "", false, true},
		{"true M true", "", false, true},
		{"Y true", "", false, true},
		{"O true", "", false, true},
		{"true S true", "", false, true},
		{"start(!p)", "", false, false},
		{"end(p)", "", false, false},
		{"[true, false)s", "", false, true},
		{"N false", "", true, true},
		{"G false", "", true, true},
		{"false W false", "", true, true},
		{"false R false", "", true, true},
		{"Z false", "", true, false},
		{"H false", "", true, false},
		{"false B false", "", true, false},
		{"[false, true)w", "", true, false},
		{"!p", "", true, true},
		{"p", "", false, false},
	}
	for _, c := range cases {
		f := ltl.MustParse(c.formula)
		tr := traceOf(vectors.ParseStates(c.trace))
		for sem, want := range map[ltl.Semantics]bool{ltl.LTLf: c.ltlf, ltl.RosuHavelund: c.rh} {
			// The reference agrees with the table, and so does every engine.
			require.Equal(t, want, ltl.Eval(f, tr, sem), "reference: %s on %q under %s", c.formula, c.trace, sem)
			engines := []monitor.Engine{monitor.EngineDP, monitor.EngineNaive}
			if sem == ltl.LTLf {
				engines = append(engines, monitor.EngineAutomaton)
			}
			for _, engine := range engines {
				res, err := Check(t.Context(), f, tr, monitor.Options{Engine: engine, Semantics: sem})
				require.NoError(t, err)
				assert.Equal(t, want, res.Holds, "%s on %q under %s (%s)", c.formula, c.trace, sem, engine)
			}
			m, err := monitor.NewFuture(f, sem)
			require.NoError(t, err)
			ls, err := tr.Letters(m.Atoms())
			require.NoError(t, err)
			assert.Equal(t, want, m.Eval(ls), "Future: %s on %q under %s", c.formula, c.trace, sem)
			assert.Len(t, m.EvalAll(ls), tr.Len())
		}
	}
}

// TestCheckErrors: invalid input is an error, not a panic or a verdict.
func TestCheckErrors(t *testing.T) {
	_, err := Check(t.Context(), ltl.Formula{}, nil, monitor.Options{})
	assert.EqualError(t, err, "automaton: check: invalid (zero) formula")

	_, err = Check(t.Context(), ltl.Atom("p"), nil, monitor.Options{Engine: monitor.Engine(9)})
	assert.EqualError(t, err, "automaton: check: unknown engine 9")

	f := ltl.Eventually(manyAtoms(65))
	_, err = Check(t.Context(), f, monitor.NewTrace(), monitor.Options{})
	assert.ErrorContains(t, err, "65 distinct atoms; a monitor watches at most 64")

	// The past-time engine of G(φ) has the same limit.
	_, err = Check(t.Context(), ltl.Always(manyAtoms(65)), monitor.NewTrace(), monitor.Options{})
	assert.ErrorContains(t, err, "65 distinct atoms")

	// A nil trace is the empty trace.
	res, err := Check(t.Context(), ltl.MustParse("G p"), nil, monitor.Options{})
	require.NoError(t, err)
	assert.True(t, res.Holds)
}

// TestCheckExplainsPaperExample: the example, failing at 3 because p
// starts there while the interval q opened at 0 was closed by end(r | s)
// at 2. Check explains a violation of G(φ) at its first violating
// position.
func TestCheckExplainsPaperExample(t *testing.T) {
	f := ltl.MustParse("G(start(p) -> [q, end(r | s)))")
	tr := traceOf(vectors.ParseStates("{q} {r} {} {p} {p} {} {p}"))
	res, err := Check(t.Context(), f, tr, monitor.Options{})
	require.NoError(t, err)
	require.False(t, res.Holds)
	assert.Equal(t, 3, res.Violation)
	assert.Equal(t, []string{
		"G(start(p) -> [q, end(r || s))s) is false at 0: start(p) -> [q, end(r || s))s is false at 3",
		"start(p) -> [q, end(r || s))s is false at 3: start(p) is true and [q, end(r || s))s is false at 3",
		"start(p) is true at 3: p is false at 2 and true at 3",
		"p is false at 2",
		"p is true at 3",
		"[q, end(r || s))s is false at 3: end(r || s) is true at 2, after the last q at 0",
		"end(r || s) is true at 2: r || s is true at 1 and false at 2",
		"r || s is true at 1: r is true at 1",
		"r is true at 1",
		"r || s is false at 2: r and s are both false at 2",
		"r is false at 2",
		"s is false at 2",
	}, whys(res.Why))
	assert.Equal(t, ltl.MustParse("start(p)"), res.Why[2].Formula)
	assert.Equal(t, 3, res.Why[2].Position)
	assert.True(t, res.Why[2].Holds)
	assert.Equal(t, res.Why[0].Why, res.Why[0].String())
}

// TestCheckDeepFormulas: formulas nested far deeper than is reasonable compile,
// run and explain; explanations stop at 200 reasons.
func TestCheckDeepFormulas(t *testing.T) {
	depth := 100_000
	if testing.Short() {
		depth = 10_000
	}
	nested := func(wrap func(ltl.Formula) ltl.Formula) ltl.Formula {
		f := ltl.Atom("p")
		for range depth {
			f = wrap(f)
		}
		return f
	}
	tr := traceOf(vectors.ParseStates("{p} {} {p}"))

	// An even number of negations: p itself, which fails at 1.
	res, err := Check(t.Context(), ltl.Always(nested(ltl.Not)), tr, monitor.Options{})
	require.NoError(t, err)
	assert.False(t, res.Holds)
	assert.Equal(t, 1, res.Violation)
	assert.Len(t, res.Why, maxExplained)

	// X…X p: the third X finds no next position.
	res, err = Check(t.Context(), nested(ltl.Next), tr, monitor.Options{})
	require.NoError(t, err)
	assert.False(t, res.Holds)
	require.Len(t, res.Why, 3)
	assert.True(t, strings.HasSuffix(res.Why[2].Why, "is false at 2: there is no next position"))

	// Y…Y p: false everywhere under LTLf; under RosuHavelund the
	// stationary past makes it p at 0 everywhere.
	g := ltl.Always(nested(ltl.Yesterday))
	res, err = Check(t.Context(), g, tr, monitor.Options{})
	require.NoError(t, err)
	assert.Equal(t, 0, res.Violation)
	res, err = Check(t.Context(), g, tr, monitor.Options{Semantics: ltl.RosuHavelund})
	require.NoError(t, err)
	assert.True(t, res.Holds)
}
