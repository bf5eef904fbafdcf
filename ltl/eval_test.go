package ltl_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/henceforth-go/henceforth/internal/vectors"
	"github.com/henceforth-go/henceforth/ltl"
)

// TestEvalEmptyTrace checks docs/semantics.md's empty-trace rules: atoms are false;
// X F U M Y O S start end [)s are false; N G W R Z H B [)w are true. The
// operands are chosen so that the rule, not the operands, decides. Under
// RosuHavelund the empty trace is the virtual end position, where F f is f,
// f U g is g, f M g is f && g, and the past operators see it as a first
// position: Y f, O f, H f are f and [f, g)s is f && !g.
func TestEvalEmptyTrace(t *testing.T) {
	tests := []struct {
		formula  string
		ltlf, rh bool
	}{
		{"p", false, false},
		{"!p", true, true},
		{"true", true, true},
		{"false", false, false},
		{"X true", false, false},
		{"F true", false, true},
		{"F !p", false, true},
		{"true U true", false, true},
		{"true M true", false, true},
		{"Y true", false, true},
		{"O true", false, true},
		{"true S true", false, true},
		{"start(true)", false, false},
		{"end(false)", false, false},
		{"[true, false)s", false, true},
		{"N false", true, true},
		{"G false", true, true},
		{"false W false", true, true},
		{"false R false", true, true},
		{"Z false", true, false},
		{"H false", true, false},
		{"false B false", true, false},
		{"[false, true)w", true, false},
	}
	for _, tt := range tests {
		t.Run(tt.formula, func(t *testing.T) {
			f := ltl.MustParse(tt.formula)
			assert.Equal(t, tt.ltlf, ltl.Eval(f, ltl.Sets{}, ltl.LTLf), "LTLf")
			assert.Equal(t, tt.rh, ltl.Eval(f, ltl.Sets{}, ltl.RosuHavelund), "RosuHavelund")
			assert.Empty(t, ltl.EvalAll(f, ltl.Sets{}, ltl.LTLf))
		})
	}
}

// TestEvalPositions checks values at every position, computed by hand from
// docs/semantics.md's LTLf semantics (testdata/ltlf-positions.jsonl), at the
// corners: the last position for X and N, the first for Y, Z, start and
// end, strong and weak ends of U W R M, and both operands of an interval at
// one position.
func TestEvalPositions(t *testing.T) {
	checkPositionVectors(t, "testdata/ltlf-positions.jsonl", 27, ltl.LTLf)
}

// TestEvalTraceInterface checks that Eval reads atoms through the Trace
// interface only.
func TestEvalTraceInterface(t *testing.T) {
	// evenTrace: atom "even" holds at even positions.
	tr := evenTrace(5)
	assert.Equal(t, []bool{true, false, true, false, true}, ltl.EvalAll(ltl.MustParse("even"), tr, ltl.LTLf))
	assert.Equal(t, []bool{true, true, true, true, true}, ltl.EvalAll(ltl.MustParse("even || X even"), tr, ltl.LTLf))
	assert.True(t, ltl.Eval(ltl.MustParse("G(even <-> X !even || !X true)"), tr, ltl.LTLf))
}

type evenTrace int

func (n evenTrace) Len() int                      { return int(n) }
func (n evenTrace) Holds(i int, atom string) bool { return atom == "even" && i%2 == 0 }

func TestSemanticsNames(t *testing.T) {
	for _, sem := range semantics {
		got, ok := ltl.ParseSemantics(sem.String())
		assert.True(t, ok)
		assert.Equal(t, sem, got)
	}
	_, ok := ltl.ParseSemantics("ltl")
	assert.False(t, ok)
}

// TestEvalDeep checks Eval on a formula of depth 100 000 (AndAll's
// left-nested chain), which it evaluates by recursion.
func TestEvalDeep(t *testing.T) {
	fs := make([]ltl.Formula, 100_000)
	for i := range fs {
		fs[i] = ltl.Atom("p")
		if i == len(fs)-1 {
			fs[i] = ltl.Eventually(ltl.Atom("q"))
		}
	}
	f := ltl.AndAll(fs...)
	assert.True(t, ltl.Eval(f, vectors.ParseStates("{p} {q}"), ltl.LTLf))
	assert.False(t, ltl.Eval(f, vectors.ParseStates("{p} {p}"), ltl.LTLf))
}
