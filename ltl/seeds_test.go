package ltl_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/henceforth-go/henceforth/internal/vectors"
	"github.com/henceforth-go/henceforth/ltl"
)

// The test vectors of this file come from the two Roşu–Havelund papers and
// use the papers' own semantics (RosuHavelund).

// TestFutureTimePaperVectors checks the future-time paper's example formula
// and verdicts on traces for each operator (testdata/paper-future.jsonl),
// including the empty suffix that witnesses p U G false. Events are
// single atoms; x is an event that matches no atom of the formula.
func TestFutureTimePaperVectors(t *testing.T) {
	vs, err := vectors.Read[struct {
		Formula, Events string
		Holds           bool
	}]("testdata/paper-future.jsonl")
	require.NoError(t, err)
	require.Len(t, vs, 36)
	for _, v := range vs {
		assert.Equal(t, v.Holds, ltl.Eval(ltl.MustParse(v.Formula), vectors.ParseEvents(v.Events), ltl.RosuHavelund),
			"%s on %s", v.Formula, v.Events)
	}
}

// TestFutureTimePaperExampleIsValid checks that under the paper's semantics
// its example formula holds on every trace, because F(q -> X r) is
// satisfied by the empty suffix; under LTLf it does not.
func TestFutureTimePaperExampleIsValid(t *testing.T) {
	f := ltl.MustParse("G((p U q) -> F(q -> X r))")
	var violated ltl.Sets
	for _, tr := range allTraces([]string{"p", "q", "r"}, 0, 4) {
		require.True(t, ltl.Eval(f, tr, ltl.RosuHavelund), "on %v", tr)
		if violated == nil && !ltl.Eval(f, tr, ltl.LTLf) {
			violated = tr
		}
	}
	// Under LTLf the last q needs an r after it.
	assert.Equal(t, vectors.ParseStates("{q}"), violated)
}

// TestPastTimePaperVectors checks per-prefix verdicts
// (testdata/paper-past.jsonl): the past-time paper's
// example start(p) -> [q, end(r | s))s and rows for each operator, with
// EvalAll giving the value at each position.
func TestPastTimePaperVectors(t *testing.T) {
	checkPositionVectors(t, "testdata/paper-past.jsonl", 45, ltl.RosuHavelund)
}

// TestPastTimePaperExampleLTLf checks the example under LTLf, where Y is
// false at the first position: the verdicts are the same, since start and
// end are false there under both semantics.
func TestPastTimePaperExampleLTLf(t *testing.T) {
	f := ltl.MustParse("start(p) -> [q, end(r | s))")
	for _, tr := range allTraces([]string{"p", "q", "r", "s"}, 1, 3) {
		require.Equal(t, ltl.EvalAll(f, tr, ltl.RosuHavelund), ltl.EvalAll(f, tr, ltl.LTLf), "on %v", tr)
	}
}

// TestProposition1 checks the 16 equivalences of the past-time paper's
// Proposition 1 on every trace of length 1…6 over two
// atoms, at every position. Under the paper's semantics all hold. Under LTLf
// three fail, each because Y is false at the first position instead of
// repeating it; the test asserts the shortest counterexample.
func TestProposition1(t *testing.T) {
	maxLen := 6
	if testing.Short() {
		maxLen = 5
	}
	traces := allTraces([]string{"a", "b"}, 1, maxLen)
	tests := []struct {
		lhs, rhs string
		// LTLf counterexample: "" if the equivalence also holds under
		// LTLf, else the first trace (in states notation) and position
		// where the two sides differ.
		ltlf string
		pos  int
		// fixed is the right-hand side repaired for LTLf at the first
		// position only (Z for Y, or "&& Y true" for "not the first
		// position"); it must be equivalent to lhs under LTLf.
		fixed string
	}{
		{"O a", "true S a", "", 0, ""},
		{"H a", "a B false", "", 0, ""},
		{"H a", "!O !a", "", 0, ""},
		{"O a", "!H !a", "", 0, ""},
		{"a B b", "H a || a S b", "", 0, ""},
		{"a S b", "O b && a B b", "", 0, ""},
		{"start(a)", "a && !Y a", "{a}", 0, "a && !Z a"},
		{"end(a)", "!a && Y a", "", 0, ""},
		{"[a, b)s", "!b && (Y !b) S a", "", 0, ""},
		{"[a, b)w", "!b && (Y !b) B a", "{}", 0, "!b && (Z !b) B a"},
		{"end(a)", "start(!a)", "", 0, ""},
		{"start(a)", "end(!a)", "", 0, ""},
		{"[a, b)w", "H !b || [a, b)s", "", 0, ""},
		{"[a, b)s", "O a && [a, b)w", "", 0, ""},
		{"Y a", "(a -> !start(a)) && (!a -> end(a))", "{a}", 0, "(a -> !start(a)) && (!a -> end(a)) && Y true"},
		{"a S b", "b || [Y b, !a)s", "", 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.lhs+" = "+tt.rhs, func(t *testing.T) {
			lhs, rhs := ltl.MustParse(tt.lhs), ltl.MustParse(tt.rhs)
			tr, pos, differ := firstDifference(lhs, rhs, traces, ltl.RosuHavelund)
			assert.False(t, differ, "RosuHavelund: differ on %v at %d", tr, pos)

			tr, pos, differ = firstDifference(lhs, rhs, traces, ltl.LTLf)
			if tt.ltlf == "" {
				assert.False(t, differ, "LTLf: differ on %v at %d", tr, pos)
				return
			}
			require.True(t, differ, "LTLf: expected a counterexample")
			assert.Equal(t, vectors.ParseStates(tt.ltlf), tr)
			assert.Equal(t, tt.pos, pos)
			// The difference is Y at the first position: with the
			// paper's meaning of Y there spelled out, they agree.
			fixed := ltl.MustParse(tt.fixed)
			tr, pos, differ = firstDifference(lhs, fixed, traces, ltl.LTLf)
			assert.False(t, differ, "LTLf: %v and %v differ on %v at %d", lhs, fixed, tr, pos)
		})
	}
}
