package explore

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/henceforth-go/henceforth/examples/symbolic/guard"
)

// Symbolic atoms of LTL guards (predicate.go, specmon.go): a state
// predicate whose value is a symbolic boolean is decided by Z3 on the
// path condition, forking like an if on a symbolic condition.

// noteRows returns the information rows of a trace that mention s.
func noteRows(tr []Step, s string) []string {
	var out []string
	for _, st := range tr {
		if st.N == 0 && strings.Contains(st.Op, s) {
			out = append(out, st.Op)
		}
	}
	return out
}

// TestGuardFork: guard.Set has no branch; the state predicate
// high (level > 100) is symbolic after the assignment, both outcomes
// are feasible, so the path forks into exactly two paths: one violates
// the spec (with inputs that make high true natively), the other passes.
// Every strategy explores the fork; the violating path's replay token
// reproduces it.
func TestGuardFork(t *testing.T) {
	set := symExamples + "/guard.Set"
	e, r := exploreSym(t, set, Options{Strategy: DFS})
	assert.True(t, r.Complete)
	assert.Equal(t, 2, r.Executions, "one path per outcome of the guard")
	assert.Zero(t, r.Infeasible)
	require.Len(t, r.Findings, 1, "only the path on which high holds violates G !high")
	f := r.Findings[0]
	assert.Equal(t, KindLTL, f.Kind)
	assert.Equal(t, "ltl:spec safe violated: G !high", f.Message)
	assert.Equal(t, "3*int(reading)+10 > 100", f.PathCondition)
	assert.Contains(t, f.Explanation, "write guard.level")
	assert.Equal(t, "guard.go:23", shortPos(f.Pos), "the write that makes high true")
	reading := in[int16](t, f, "reading")
	guard.Set(reading)
	assert.True(t, guard.High(), "reading %d: level %d", reading, guard.Level())
	assert.Len(t, noteRows(f.Trace, "state predicate level > 100 assumed true: 3*int(reading)+10 > 100"), 1)

	// The replay token reproduces the violating path (and its inputs).
	rr, err := loadSym(t).Explore(t.Context(), e, Options{Strategy: DFS, Replay: f.Replay})
	require.NoError(t, err)
	require.Len(t, rr.Findings, 1)
	assert.Equal(t, f.Message, rr.Findings[0].Message)
	assert.Equal(t, f.Inputs, rr.Findings[0].Inputs)
	assert.Equal(t, f.Trace, rr.Findings[0].Trace)
	assert.Equal(t, 1, rr.Executions)

	// The concrete mode on both sides of the boundary.
	_, r = exploreSym(t, set, Options{Inputs: map[string]any{"reading": 30}})
	assert.Equal(t, "pass", r.Verdict())
	_, r = exploreSym(t, set, Options{Inputs: map[string]any{"reading": 31}})
	require.NotNil(t, findKind(r, KindLTL))
	assert.Empty(t, findKind(r, KindLTL).Inputs, "a concrete run has no symbolic inputs")

	// Other strategies fork at the guard too.
	for _, opts := range []Options{
		{Strategy: Random, Seed: 3, MaxExecutions: 20, StopAtFirst: true},
		{Strategy: PB, Preemptions: 0},
		{Strategy: DFS, Workers: 2},
	} {
		_, r := exploreSym(t, set, opts)
		g := findKind(r, KindLTL)
		require.NotNil(t, g, "%s", opts.Strategy)
		assert.Equal(t, f.PathCondition, g.PathCondition, "%s", opts.Strategy)
		// (The model Z3 gives for the same path condition can differ
		// with the process's earlier Z3 use, so only its validity is
		// checked.)
		assert.Greater(t, in[int16](t, g, "reading"), int16(30), "%s", opts.Strategy)
	}
}

// TestGuardPasses: where only one outcome of the guard is feasible there
// is no fork, and the complete exploration proves the spec for every
// input.
func TestGuardPasses(t *testing.T) {
	_, r := exploreSym(t, symExamples+"/guard.SetScaled", Options{})
	assert.Equal(t, "pass", r.Verdict())
	assert.Equal(t, 1, r.Executions, "high is infeasible: no fork")
	_, r = exploreSym(t, symExamples+"/guard.SetClamped", Options{})
	assert.Equal(t, "pass", r.Verdict())
	assert.Equal(t, 2, r.Executions, "the if forks, the guard does not")
}

// TestGuardShortCircuit: a division in a predicate is evaluated only
// where Go evaluates it (the right operand of &&/|| under the left's
// condition); where it is reached with a zero divisor the predicate
// cannot be evaluated, which is an unsupported finding with the inputs
// that reach it (as in a concrete run), never a pass.
func TestGuardShortCircuit(t *testing.T) {
	avg := testdataPath + "/symguard.Average"
	_, r := exploreSym(t, avg, Options{Specs: []string{"notCrowded"}})
	assert.True(t, r.Complete)
	assert.Equal(t, 2, r.Executions)
	require.Len(t, r.Findings, 1, "no division by zero")
	f := r.Findings[0]
	require.Equal(t, KindLTL, f.Kind)
	tot, n := in[int8](t, f, "t"), in[int8](t, f, "n")
	assert.True(t, n != 0 && tot/n > 10 || n == 0 && tot > 10, "t=%d n=%d", tot, n)

	_, r = exploreSym(t, avg, Options{Specs: []string{"avgNotHigh"}})
	assert.Equal(t, "fail", r.Verdict(), "a violation, and a path that could not be checked")
	assert.True(t, r.Complete)
	u := findKind(r, KindUnsupported)
	require.NotNil(t, u)
	assert.Contains(t, u.Message, "cannot evaluate avgHigh")
	assert.Contains(t, u.Message, "integer divide by zero")
	assert.Equal(t, int8(0), in[int8](t, u, "n"))
	l := findKind(r, KindLTL)
	require.NotNil(t, l, "the other inputs are checked")
	assert.True(t, in[int8](t, l, "t")/in[int8](t, l, "n") > 10, "Go's int8 division")
}

// TestGuardInconclusive: a guard the solver cannot decide in time makes
// the path inconclusive (Bound "solver", Verdict unknown), never a pass.
func TestGuardInconclusive(t *testing.T) {
	_, r := exploreSym(t, testdataPath+"/symguard.Factor", Options{SolverTimeout: time.Millisecond, Specs: []string{"neverFactored"}})
	assert.Equal(t, "unknown", r.Verdict())
	assert.Equal(t, "solver", r.Bound)
	assert.False(t, r.Complete)
	assert.Positive(t, r.Inconclusive)
	assert.Nil(t, findKind(r, KindLTL))
	assert.Contains(t, strings.Join(r.Warnings, "\n"), "state predicate")
}

// TestGuardAtCallEvent: a symbolic predicate decided at a call event,
// i.e. inside the calling goroutine's transition; the violating path's
// token replays it.
func TestGuardAtCallEvent(t *testing.T) {
	e, r := exploreSym(t, testdataPath+"/symguard.Configure", Options{Specs: []string{"openUnderLimit"}})
	assert.True(t, r.Complete)
	assert.Equal(t, 2, r.Executions)
	require.Len(t, r.Findings, 1)
	f := r.Findings[0]
	require.Equal(t, KindLTL, f.Kind)
	assert.Contains(t, f.Explanation, "call symguard.Open")
	assert.Greater(t, int(in[int8](t, f, "l"))*2, 100)
	rr, err := loadSym(t).Explore(t.Context(), e, Options{Specs: []string{"openUnderLimit"}, Replay: f.Replay})
	require.NoError(t, err)
	require.Len(t, rr.Findings, 1)
	assert.Equal(t, f.Trace, rr.Findings[0].Trace)
}
