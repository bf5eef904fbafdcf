package explore

import (
	"context"
	"fmt"
	"go/parser"
	"go/token"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/henceforth-go/henceforth/examples/symbolic/absdiff"
	"github.com/henceforth-go/henceforth/examples/symbolic/bounds"
	"github.com/henceforth-go/henceforth/examples/symbolic/bsearch"
	"github.com/henceforth-go/henceforth/examples/symbolic/guard"
	"github.com/henceforth-go/henceforth/examples/symbolic/magic"
	"github.com/henceforth-go/henceforth/examples/symbolic/multiinstance"
	"github.com/henceforth-go/henceforth/examples/symbolic/overflow"
	"github.com/henceforth-go/henceforth/examples/symbolic/scale"
	"github.com/henceforth-go/henceforth/examples/symbolic/transfer"
	"github.com/henceforth-go/henceforth/examples/symbolic/untilltl"
	"github.com/henceforth-go/henceforth/examples/symbolic/untilsym"
)

const symExamples = "github.com/henceforth-go/henceforth/examples/symbolic"

// loadSym loads the symbolic examples (with the other test programs,
// once per test binary).
func loadSym(t *testing.T) *Program { return load(t) }

// exploreSym explores a function of the symbolic examples.
func exploreSym(t *testing.T, name string, opts Options) (*Entry, *Report) {
	t.Helper()
	p := loadSym(t)
	e, err := p.Func(name)
	require.NoError(t, err)
	r, err := p.Explore(context.Background(), e, opts)
	require.NoError(t, err)
	t.Logf("%s: %d executions, verdict %s, bound %q, infeasible %d, inconclusive %d (seed %d)", name, r.Executions, r.Verdict(), r.Bound, r.Infeasible, r.Inconclusive, opts.Seed)
	for _, f := range r.Findings {
		t.Logf("%s", f)
	}
	return e, r
}

// requirePanics asserts that f panics with a message containing want.
func requirePanics(t *testing.T, want string, f func()) {
	t.Helper()
	var got any
	func() {
		defer func() { got = recover() }()
		f()
	}()
	require.NotNil(t, got, "no panic natively, want %q", want)
	require.Contains(t, fmt.Sprint(got), want)
}

// in returns the value of a finding's input, by name.
func in[T any](t *testing.T, f *Finding, name string) T {
	t.Helper()
	for _, x := range f.Inputs {
		if x.Name == name {
			v, ok := x.Value.(T)
			require.True(t, ok, "input %s is a %T", name, x.Value)
			return v
		}
	}
	t.Fatalf("no input %s in %v", name, f.Inputs)
	panic("unreachable")
}

// TestSymbolicExamples explores every symbolic example: the bug is found
// with concrete inputs that make it happen when the Go function is called
// natively, the path counts are the feasible paths, and the replay token
// reproduces the finding with the same inputs.
func TestSymbolicExamples(t *testing.T) {
	cases := []struct {
		entry    string
		opts     Options
		kind     Kind
		message  string
		paths    int // executions of a complete exploration (0: not checked)
		inputs   []string
		native   func(t *testing.T, f *Finding)
		complete bool
	}{
		{
			// Java thesis §2.6: three feasible paths, one infeasible.
			entry: "absdiff.AbsDiff", kind: KindPanic, message: "assertion failed: result > 0",
			paths: 3, inputs: []string{"x", "y"}, complete: true,
			native: func(t *testing.T, f *Finding) {
				x, y := in[int16](t, f, "x"), in[int16](t, f, "y")
				assert.Equal(t, x, y)
				requirePanics(t, "result > 0", func() { absdiff.AbsDiff(x, y) })
			},
		},
		{
			// On int, x - y wraps: the fourth path is feasible too.
			entry: "absdiff.AbsDiffWrap", kind: KindPanic, message: "assertion failed: result > 0",
			paths: 4, inputs: []string{"x", "y"}, complete: true,
			native: func(t *testing.T, f *Finding) {
				requirePanics(t, "result > 0", func() { absdiff.AbsDiffWrap(in[int](t, f, "x"), in[int](t, f, "y")) })
			},
		},
		{
			// Java thesis §4.2: violated in symbolic mode, with a witness.
			entry: "untilsym.Until", kind: KindPanic, message: "LTL violated: field == 0 U",
			inputs: []string{"Field", "param"}, complete: true,
			native: func(t *testing.T, f *Finding) {
				old := untilsym.Field
				defer func() { untilsym.Field = old }()
				untilsym.Field = in[int](t, f, "Field")
				requirePanics(t, "LTL violated", func() { untilsym.Until(in[int](t, f, "param")) })
			},
		},
		{
			// The same example with its spec as an LTL spec: the atoms
			// Field == 0 and Z > 0 are decided by Z3 on the path
			// condition; every violating path has the thesis's
			// "param <= 0 && field <= 0".
			entry: "untilltl.Main", kind: KindLTL, message: "ltl:spec until violated: fieldZero U zPositive",
			inputs: []string{"Field", "param"}, complete: true,
			native: func(t *testing.T, f *Finding) {
				old := untilltl.Field
				defer func() { untilltl.Field, untilltl.Z = old, 0 }()
				field, param := in[int](t, f, "Field"), in[int](t, f, "param")
				assert.LessOrEqual(t, field, 0)
				assert.LessOrEqual(t, param, 0)
				untilltl.Field = field
				untilltl.Main(param)
				// The run's only state is its end (no scheduling step
				// before it): fieldZero U zPositive holds iff Z > 0 there.
				assert.LessOrEqual(t, untilltl.Z, 0, "the spec holds natively")
			},
		},
		{
			// Java thesis §4.3 with a symbolic number of calls: calls = 0,
			// 1, 2, 3, 4 and > 4 are the feasible paths.
			entry: "multiinstance.Run", kind: KindPanic, message: "<> k#1 + 2 == k#2",
			paths: 6, inputs: []string{"calls"}, complete: true,
			native: func(t *testing.T, f *Finding) {
				calls := in[uint8](t, f, "calls")
				assert.Less(t, calls, uint8(2))
				requirePanics(t, "k#1 + 2 == k#2", func() { multiinstance.Run(calls) })
			},
		},
		{
			entry: "magic.Check", kind: KindPanic, message: "magic number reached",
			paths: 2, inputs: []string{"n", "limit"}, complete: true,
			native: func(t *testing.T, f *Finding) {
				requirePanics(t, "magic", func() { magic.Check(in[int](t, f, "n"), in[int](t, f, "limit")) })
			},
		},
		{
			// A test body with ltltest.Symbolic inputs.
			entry: "scale.TestScale", kind: KindPanic, message: "integer divide by zero",
			inputs: []string{"n", "limit"}, complete: true,
			// nonlinear queries: on a loaded machine the default
			// per-query limit would cut them (a solver bound)
			opts: Options{SolverTimeout: time.Minute},
			native: func(t *testing.T, f *Finding) {
				n, limit := in[int](t, f, "n"), in[int](t, f, "limit")
				assert.True(t, n >= 0 && n <= 1000 && limit >= 0 && limit <= 1000, "inputs in the test's domain")
				requirePanics(t, "divide by zero", func() { scale.Scale(n, limit) })
			},
		},
		{
			entry: "overflow.Reserve", kind: KindPanic, message: "reservation overflows",
			paths: 2, inputs: []string{"used", "n"}, complete: true,
			native: func(t *testing.T, f *Finding) {
				requirePanics(t, "overflows", func() { overflow.Reserve(in[uint64](t, f, "used"), in[uint64](t, f, "n")) })
			},
		},
		{
			// i < 0, i > 4, i == 4 (the panic), and i = 0, 1, 2, 3: the
			// in-range index addresses memory, so it is split into its
			// four values (one path each), which covers every input.
			entry: "bounds.Lookup", kind: KindPanic, message: "index out of range [4] with length 4",
			paths: 7, inputs: []string{"i"}, complete: true,
			native: func(t *testing.T, f *Finding) {
				requirePanics(t, "index out of range [4] with length 4", func() { bounds.Lookup(in[int](t, f, "i")) })
			},
		},
		{
			// Exhaustive DFS dives into the left halves first; random
			// choices reach the right half, where lo+hi overflows.
			entry: "bsearch.Search", opts: Options{Strategy: Random, Seed: 1, StopAtFirst: true, MaxExecutions: 200},
			kind: KindPanic, message: "index out of range", inputs: []string{"n", "target"},
			native: func(t *testing.T, f *Finding) {
				assert.Contains(t, f.PathCondition, "(n-1)/2+1+(n-1)")
				requirePanics(t, "index out of range", func() { bsearch.Search(in[int32](t, f, "n"), in[int32](t, f, "target")) })
			},
		},
		{
			// Only the LTL guard (level > 100) tells the inputs apart:
			// Z3 decides it on the path condition and forks.
			entry: "guard.Set", kind: KindLTL, message: "ltl:spec safe violated: G !high",
			paths: 2, inputs: []string{"reading"}, complete: true,
			native: func(t *testing.T, f *Finding) {
				reading := in[int16](t, f, "reading")
				assert.Greater(t, reading, int16(30))
				assert.Equal(t, "3*int(reading)+10 > 100", f.PathCondition)
				guard.Set(reading)
				assert.True(t, guard.High(), "level = %d", guard.Level())
				guard.Set(30)
				assert.False(t, guard.High())
			},
		},
		{
			// The violating state is transient: only the steps between
			// the worker's unlock and the reset show it.
			entry: "guard.Pulse", kind: KindLTL, message: "ltl:spec safe violated: G !high",
			inputs: []string{"reading"}, complete: true,
			native: func(t *testing.T, f *Finding) {
				reading := in[int16](t, f, "reading")
				assert.Greater(t, reading, int16(30))
				assert.Contains(t, f.Explanation, "(state, step ")
				assert.Positive(t, f.Steps)
				// The worker's assignment alone, natively:
				guard.Set(reading)
				assert.True(t, guard.High(), "level = %d", guard.Level())
				guard.Pulse(reading)
				assert.Equal(t, 0, guard.Level(), "the path ends with level 0")
			},
		},
		{
			// Needs amount > 50 and both checks before either debit.
			entry: "transfer.Withdraw2", kind: KindPanic, message: "account overdrawn",
			inputs: []string{"amount"}, complete: true,
			native: func(t *testing.T, f *Finding) {
				amount := in[int](t, f, "amount")
				assert.True(t, amount > 50 && amount <= 100, "amount = %d", amount)
				assert.Positive(t, f.Steps, "the bug needs a schedule")
				// Sequentially (the schedule go test almost always runs)
				// the same input is fine: the schedule is needed too.
				assert.Equal(t, 100-amount, transfer.Withdraw2(amount))
			},
		},
	}
	for _, tc := range cases {
		t.Run(tc.entry, func(t *testing.T) {
			opts := tc.opts
			if opts.Strategy == "" {
				opts.Strategy = DPOR
			}
			e, r := exploreSym(t, symExamples+"/"+tc.entry, opts)
			f := findKind(r, tc.kind)
			require.NotNil(t, f, "no %s finding", tc.kind)
			require.Contains(t, f.Message, tc.message)
			if tc.complete {
				assert.True(t, r.Complete, "bound %q", r.Bound)
			}
			if tc.paths > 0 {
				assert.Equal(t, tc.paths, r.Executions, "feasible paths")
			}
			var names []string
			for _, x := range f.Inputs {
				names = append(names, x.Name)
			}
			require.Equal(t, tc.inputs, names)
			assert.NotEqual(t, "true", f.PathCondition)
			assert.Contains(t, f.String(), "inputs: ")
			tc.native(t, f)

			// The replay token reproduces the finding and its inputs.
			ro := opts
			ro.Replay = f.Replay
			rr, err := loadSym(t).Explore(context.Background(), e, ro)
			require.NoError(t, err)
			g := findKind(rr, tc.kind)
			require.NotNil(t, g, "replay did not reproduce the %s", tc.kind)
			assert.Equal(t, f.Message, g.Message)
			assert.Equal(t, f.Pos, g.Pos)
			assert.Equal(t, f.Inputs, g.Inputs)
			assert.Equal(t, f.Trace, g.Trace)

			src, err := EmitTest(e, f)
			require.NoError(t, err)
			_, err = parser.ParseFile(token.NewFileSet(), "x_test.go", "package p\n"+src, 0)
			require.NoError(t, err, "emitted test:\n%s", src)
			t.Logf("emitted:\n%s", src)
		})
	}
}

// TestSymbolicConcreteInputs runs symbolic entries concretely with
// Options.Inputs: the thesis's concrete mode (myMethod(5) satisfies the
// spec) and a witness found symbolically, which fails again.
func TestSymbolicConcreteInputs(t *testing.T) {
	_, r := exploreSym(t, symExamples+"/untilsym.Until", Options{Inputs: map[string]any{"param": 5, "Field": 0}})
	assert.Equal(t, "pass", r.Verdict())
	assert.Equal(t, 1, r.Executions)
	_, r = exploreSym(t, symExamples+"/untilltl.Main", Options{Inputs: map[string]any{"param": 5, "Field": 0}})
	assert.Equal(t, "pass", r.Verdict(), "the LTL spec holds for myMethod(5)")
	_, r = exploreSym(t, symExamples+"/untilltl.Main", Options{Inputs: map[string]any{"param": 0, "Field": 0}})
	require.NotNil(t, findKind(r, KindLTL), "and is violated for myMethod(0)")

	_, r = exploreSym(t, symExamples+"/absdiff.AbsDiff", Options{Inputs: map[string]any{"x": 7, "y": 7}})
	f := findKind(r, KindPanic)
	require.NotNil(t, f)
	assert.Contains(t, f.Message, "result > 0")
	assert.Empty(t, f.Inputs, "a concrete run has no symbolic inputs")

	// The schedule bug: with the witness every schedule is explored
	// concretely and the overdraft is found; with amount 50 it is not.
	_, r = exploreSym(t, symExamples+"/transfer.Withdraw2", Options{Inputs: map[string]any{"amount": 51}})
	require.NotNil(t, findKind(r, KindPanic))
	_, r = exploreSym(t, symExamples+"/transfer.Withdraw2", Options{Inputs: map[string]any{"amount": 50}})
	assert.Equal(t, "pass", r.Verdict())

	_, r = exploreSym(t, symExamples+"/scale.TestScale", Options{Inputs: map[string]any{"n": 3, "limit": 3}})
	assert.Equal(t, "pass", r.Verdict())
	_, r = exploreSym(t, symExamples+"/untilsym.Until", Options{Inputs: map[string]any{"param": 2.5}})
	require.NotEmpty(t, r.Findings)
	assert.Equal(t, KindUnsupported, r.Findings[0].Kind)
	assert.Contains(t, r.Findings[0].Message, "not an integer")
}

// TestSymbolicInconclusive: a branch the solver cannot decide in time is
// reported (Bound "solver", Verdict unknown, a warning saying where),
// never dropped or counted as a pass.
func TestSymbolicInconclusive(t *testing.T) {
	_, r := exploreSym(t, testdataPath+"/symhard.Factor", Options{SolverTimeout: time.Millisecond})
	assert.Equal(t, "unknown", r.Verdict())
	assert.Equal(t, "solver", r.Bound)
	assert.False(t, r.Complete)
	assert.Positive(t, r.Inconclusive)
	require.NotEmpty(t, r.Warnings)
	assert.Contains(t, strings.Join(r.Warnings, "\n"), "symhard.go:12")
	assert.Contains(t, strings.Join(r.Warnings, "\n"), "the solver answered unknown")
}

// TestEmitTest checks the regression tests written for both kinds of
// entry.
func TestEmitTest(t *testing.T) {
	e, r := exploreSym(t, symExamples+"/untilsym.Until", Options{})
	f := findKind(r, KindPanic)
	require.NotNil(t, f)
	src, err := EmitTest(e, f)
	require.NoError(t, err)
	assert.Contains(t, src, "func TestUntil_panic(t *testing.T) {")
	assert.Contains(t, src, fmt.Sprintf("\tField = %d\n", in[int](t, f, "Field")))
	assert.Contains(t, src, fmt.Sprintf("\tUntil(%d)\n", in[int](t, f, "param")))
	assert.Contains(t, src, "// path condition: "+f.PathCondition)

	// A test using ltltest.Symbolic (the finding as TestSymbolicExamples
	// gets it, built here to keep the test fast).
	e, err = loadSym(t).Func(symExamples + "/scale.TestScale")
	require.NoError(t, err)
	f = &Finding{Kind: KindPanic, Message: "panic: runtime error: integer divide by zero",
		Inputs:        []Input{{Name: "n", Type: "int", Value: 173}, {Name: "limit", Type: "int", Value: 512}},
		PathCondition: "n*3-limit-7 == 0"}
	src, err = EmitTest(e, f)
	require.NoError(t, err)
	t.Logf("emitted:\n%s", src)
	assert.Contains(t, src, "func TestScale_panic(t *testing.T) {")
	assert.Contains(t, src, `t.Setenv("LTLTEST_INPUTS", "{\"limit\":512,\"n\":173}")`)
	assert.Contains(t, src, "\tTestScale(t)\n")
	assert.Contains(t, src, "// path condition: n*3-limit-7 == 0\n")

	_, err = EmitTest(e, &Finding{})
	assert.Error(t, err)
}
