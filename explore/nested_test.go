package explore

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// nestedStrategies are the exploration settings the nested-call tests run
// under: every strategy, one or two workers.
var nestedStrategies = []struct {
	name string
	opts Options
}{
	{"dfs", Options{Strategy: DFS}},
	{"dfs-2", Options{Strategy: DFS, Workers: 2}},
	{"dpor", Options{Strategy: DPOR}},
	{"dpor-2", Options{Strategy: DPOR, Workers: 2}},
	{"dpor-shared", Options{Strategy: DPOR, Shared: true}},
	{"pb", Options{Strategy: PB, Preemptions: 2}},
	{"random", Options{Strategy: Random, Seed: 3, MaxExecutions: 50}},
	{"pct", Options{Strategy: PCT, Seed: 3, MaxExecutions: 50, PCTDepth: 2}},
}

// nestedPatterns are the packages of the nested-call tests (loaded once,
// together).
var nestedPatterns = []string{"./testdata/nestedcalls", "./testdata/timecases/fmtnested"}

// runNested explores an entry of testdata/nestedcalls.
func runNested(t *testing.T, name string, opts Options) *Report {
	t.Helper()
	return exploreNested(t, testdataPath+"/nestedcalls."+name, opts)
}

// exploreNested explores the function fn of nestedPatterns, which must
// run (no unsupported or internal finding, no warning about nested calls).
func exploreNested(t *testing.T, fn string, opts Options) *Report {
	t.Helper()
	p := loadPatterns(t, nestedPatterns...)
	e, err := p.Func(fn)
	require.NoError(t, err)
	r, err := p.Explore(context.Background(), e, opts)
	require.NoError(t, err)
	for _, f := range r.Findings {
		require.NotContains(t, []Kind{KindUnsupported, KindInternal}, f.Kind, "%s", f)
	}
	for _, w := range r.Warnings {
		require.NotContains(t, w, "scheduling choice")
	}
	return r
}

// stackLines prints a finding's stacks as "goroutine N: Func@line ...".
func stackLines(f *Finding) []string {
	var out []string
	for _, g := range f.Goroutines {
		var b strings.Builder
		fmt.Fprintf(&b, "goroutine %d:", g.ID)
		for _, fr := range g.Frames {
			// drop the import path, keep "(*" of a method
			name := fr.Func
			if i := strings.LastIndex(name, "/"); i >= 0 {
				lead := name[:len(name)-len(strings.TrimLeft(name, "(*"))]
				name = lead + name[i+1:]
			}
			fmt.Fprintf(&b, " %s@%d", name, fr.Pos.Line)
		}
		out = append(out, b.String())
	}
	return out
}

// TestNestedLockInterleavings: the Lock and Unlock inside a String method
// called by fmt.Sprintf are scheduling points like any other: every
// strategy reaches both values Go may print (the goroutine's increment
// before or after String), with no warning; the systematic explorations
// are complete and a replay reproduces each finding.
func TestNestedLockInterleavings(t *testing.T) {
	both := []string{"outcomes.go:354: 0", "outcomes.go:354: 1"}
	for _, tc := range nestedStrategies {
		t.Run(tc.name, func(t *testing.T) {
			r := runFunc(t, "outcomes", "NestedLock", tc.opts)
			assert.Empty(t, r.Warnings)
			seen := map[string]bool{}
			for _, o := range outcomes(r) {
				seen[o] = true
			}
			for _, o := range both {
				assert.True(t, seen[o], "outcome %q in %v", o, outcomes(r))
			}
			if tc.opts.Strategy != Random && tc.opts.Strategy != PCT {
				assert.True(t, r.Complete)
				assert.Equal(t, both, outcomes(r))
			}
			if tc.name == "dfs" {
				for _, f := range r.Findings {
					rr := runFunc(t, "outcomes", "NestedLock", Options{Replay: f.Replay})
					require.Len(t, rr.Findings, 1)
					assert.Equal(t, f.Message, rr.Findings[0].Message, "a replay reaches it again")
					assert.Equal(t, f.Trace, rr.Findings[0].Trace)
				}
			}
		})
	}

	// MutexOrder formats a slice with t.Errorf: nothing to report.
	for _, s := range []Strategy{DFS, DPOR} {
		r := runFunc(t, "outcomes", "MutexOrder", Options{Strategy: s, Workers: 2})
		assert.Empty(t, r.Warnings)
	}
}

// TestNestedFmtDeadlock: a read lock taken again inside a String method
// called by fmt.Sprint deadlocks when the writer queues between the two
// RLocks; every strategy finds it (the random ones within their budget),
// with goroutine 1 blocked at the RLock inside String (called from the
// Sprint line) and goroutine 2 at the writer's Lock, and its replay
// reproduces it.
func TestNestedFmtDeadlock(t *testing.T) {
	const fn = testdataPath + "/timecases/fmtnested.TestRecursiveReadLockThroughFmt"
	for _, tc := range nestedStrategies {
		t.Run(tc.name, func(t *testing.T) {
			r := exploreNested(t, fn, tc.opts)
			require.Equal(t, "fail", r.Verdict())
			f := findKind(r, KindDeadlock)
			require.NotNil(t, f, "%v", r.Findings)
			assert.Equal(t, "x_test.go:12", shortLine(f.Pos))
			require.Len(t, f.Goroutines, 2)
			g1, g2 := f.Goroutines[0], f.Goroutines[1]
			assert.Equal(t, "sync.(*RWMutex).RLock", g1.State)
			assert.Equal(t, []string{
				"goroutine 1: fmtnested.(*cache).String@12 fmtnested.TestRecursiveReadLockThroughFmt@23",
				"goroutine 2: fmtnested.TestRecursiveReadLockThroughFmt.func1@21",
			}, stackLines(f))
			assert.Contains(t, g2.State, "sync.(*RWMutex).Lock")

			rr := exploreNested(t, fn, Options{Replay: f.Replay, Shared: tc.opts.Shared})
			require.Len(t, rr.Findings, 1)
			assert.Equal(t, KindDeadlock, rr.Findings[0].Kind)
			assert.Equal(t, stackLines(f), stackLines(rr.Findings[0]))
		})
	}
}

func shortLine(p interface{ String() string }) string {
	s := p.String()
	s = s[strings.LastIndex(s, "/")+1:]
	if i := strings.LastIndex(s, ":"); i > strings.Index(s, ":") {
		s = s[:i]
	}
	return s
}

// TestNestedFixedVariantsPass: without the second read lock, or with the
// first released before fmt runs, every schedule passes and the
// exploration is complete.
func TestNestedFixedVariantsPass(t *testing.T) {
	for _, name := range []string{"ReadLockReleased", "StringWithoutLock"} {
		for _, s := range []Strategy{DFS, DPOR} {
			r := runNested(t, name, Options{Strategy: s})
			assert.Empty(t, r.Findings, "%s %s", name, s)
			assert.True(t, r.Complete, "%s %s", name, s)
			assert.Equal(t, "pass", r.Verdict())
		}
	}
}

// TestNestedSortLess: the Lock inside sort.Slice's less function is a
// scheduling point: the goroutine may set the flag between two calls of
// less; sorting while holding that mutex deadlocks inside less.
func TestNestedSortLess(t *testing.T) {
	for _, s := range []Strategy{DFS, DPOR} {
		r := runNested(t, "SortFlag", Options{Strategy: s})
		assert.True(t, r.Complete)
		var msgs []string
		for _, f := range r.Findings {
			require.Equal(t, KindTestFailure, f.Kind)
			msgs = append(msgs, f.Variants...)
		}
		assert.ElementsMatch(t, []string{"programs.go:72: flag 0 then 0", "programs.go:72: flag 0 then 1", "programs.go:72: flag 1 then 1"}, msgs, "%s", s)
	}

	r := runNested(t, "SortSelfDeadlock", Options{})
	f := findKind(r, KindDeadlock)
	require.NotNil(t, f, "%v", r.Findings)
	assert.Equal(t, "programs.go:82", shortLine(f.Pos))
	assert.Equal(t, []string{"goroutine 1: nestedcalls.SortSelfDeadlock.func1@82 nestedcalls.SortSelfDeadlock@81"}, stackLines(f))
}

// TestNestedErrorsIs: a receive inside an Is method called by errors.Is
// blocks until the sender runs; without a sender, it is a deadlock inside
// Is.
func TestNestedErrorsIs(t *testing.T) {
	for _, s := range []Strategy{DFS, DPOR} {
		r := runNested(t, "ErrorsIsChan", Options{Strategy: s})
		assert.Empty(t, r.Findings)
		assert.True(t, r.Complete)
	}
	r := runNested(t, "ErrorsIsNoAnswer", Options{})
	f := findKind(r, KindDeadlock)
	require.NotNil(t, f, "%v", r.Findings)
	assert.Equal(t, "programs.go:93", shortLine(f.Pos))
	assert.Equal(t, []string{"goroutine 1: nestedcalls.chanErr.Is@93 nestedcalls.ErrorsIsNoAnswer@109"}, stackLines(f))
}

// TestNestedControl: runtime.Goexit (t.FailNow) inside String ends the
// test goroutine through fmt; a panic after a scheduling point inside
// String is printed by fmt; a deferred fmt call run by a panic blocks
// inside String like any call, and the panic goes on; so do fmt calls in
// go statements and deferred at return; a lock taken two nested calls
// deep is a deadlock with both String frames on the stack.
func TestNestedControl(t *testing.T) {
	r := runNested(t, "GoexitInString", Options{})
	require.Len(t, r.Findings, 1)
	assert.Equal(t, KindTestFailure, r.Findings[0].Kind)
	assert.NotContains(t, r.Findings[0].Message, "Sprint returned")

	r = runNested(t, "PanicInString", Options{})
	assert.True(t, r.Complete)
	assert.Greater(t, r.Executions, 1)
	require.NotEmpty(t, r.Findings)
	for _, f := range r.Findings {
		assert.Equal(t, KindTestFailure, f.Kind)
		assert.Contains(t, f.Message, "%!v(PANIC=String method: boom)")
	}

	r = runNested(t, "DeferredPrint", Options{})
	assert.True(t, r.Complete)
	assert.Greater(t, r.Executions, 1)
	require.NotEmpty(t, r.Findings)
	for _, f := range r.Findings {
		assert.Equal(t, KindPanic, f.Kind)
		assert.Contains(t, f.Message, "panic: after")
	}

	for _, s := range []Strategy{DFS, DPOR} {
		r = runNested(t, "GoAndDefer", Options{Strategy: s})
		assert.Empty(t, r.Findings)
		assert.True(t, r.Complete)
		assert.Greater(t, r.Executions, 1)
	}

	r = runNested(t, "NestedTwice", Options{})
	f := findKind(r, KindDeadlock)
	require.NotNil(t, f, "%v", r.Findings)
	assert.Equal(t, []string{"goroutine 1: nestedcalls.inner.String@149 nestedcalls.outer.String@156 nestedcalls.NestedTwice@163"}, stackLines(f))
}

// TestNestedStackOverflow: a stack overflow inside String (on a
// coroutine) is the usual finding.
func TestNestedStackOverflow(t *testing.T) {
	if testing.Short() {
		t.Skip("recurses a million frames deep")
	}
	r := runNested(t, "OverflowInString", Options{})
	require.Len(t, r.Findings, 1)
	assert.Equal(t, KindPanic, r.Findings[0].Kind)
	assert.Contains(t, r.Findings[0].Message, "fatal error: stack overflow")
}

// TestNestedCoroutinesEnd: an execution that stops (here on the step
// bound) while goroutine 1 is suspended inside String ends its
// coroutines; so does one that ends normally.
func TestNestedCoroutinesEnd(t *testing.T) {
	p := loadPatterns(t, nestedPatterns...)
	for _, name := range []string{"BoundInString", "PanicInString"} {
		e, err := p.Func(testdataPath + "/nestedcalls." + name)
		require.NoError(t, err)
		o := Options{Strategy: DFS, MaxSteps: 50}
		m := newMachine(p, &o)
		d := &dfsChooser{bound: -1}
		suspended := false
		for n := 1; n <= 20; n++ {
			x := p.runOne(m, e, &o, d, n, 0)
			require.NotEmpty(t, x.cos.all, name)
			for _, co := range x.cos.all {
				assert.True(t, co.ended, "%s: execution %d left a coroutine running", name, n)
				suspended = suspended || co.aborted
			}
			x.release()
			if !d.next() {
				break
			}
		}
		assert.Equal(t, name == "BoundInString", suspended, "%s: an execution stopped inside String", name)
	}
}

// TestNestedKernels: the benchmark kernels run without findings.
func TestNestedKernels(t *testing.T) {
	for _, name := range []string{"FormatPlain", "FormatStringer", "SortSlice", "ErrorsIs"} {
		r := runNested(t, name, Options{})
		assert.Empty(t, r.Findings, name)
		assert.Equal(t, 1, r.Executions, name)
	}
}

// TestNestedInitSnapshot: a String method that locks, called by fmt
// during package initialization, leaves nothing behind that prevents the
// initialization snapshot; later executions restore it.
func TestNestedInitSnapshot(t *testing.T) {
	p := loadPatterns(t, nestedPatterns...)
	e, err := p.Func(testdataPath + "/nestedcalls.InitLabel")
	require.NoError(t, err)
	o := Options{Strategy: DFS}
	m := newMachine(p, &o)
	for n := 1; n <= 2; n++ {
		x := newExecution(m, e, &o, &dfsChooser{bound: -1}, n, 0)
		x.run()
		assert.Empty(t, x.findings)
		require.NotNil(t, m.snaps[e.Fn.Pkg], "initialization is snapshotted")
		x.release()
	}
}

// TestNestedPanicValue: the Error method of the value of a panic that
// ends a goroutine runs after its stack unwound, outside any coroutine:
// an enabled operation there is performed at once (the execution ends
// with the panic); a blocked one cannot be suspended: the verdict is
// unknown, never pass.
func TestNestedPanicValue(t *testing.T) {
	r := runNested(t, "PanicLockingError", Options{})
	require.Len(t, r.Findings, 1)
	assert.Equal(t, KindPanic, r.Findings[0].Kind)
	assert.Contains(t, r.Findings[0].Message, "panic: locked error")

	p := loadPatterns(t, nestedPatterns...)
	e, err := p.Func(testdataPath + "/nestedcalls.PanicBlockedError")
	require.NoError(t, err)
	r, err = p.Explore(context.Background(), e, Options{})
	require.NoError(t, err)
	f := findKind(r, KindUnsupported)
	require.NotNil(t, f, "%v", r.Findings)
	assert.Equal(t, "sync.(*Mutex).Lock inside the Error method of a panic value: goroutine 1 blocks printing the panic that ends it (Go hangs there)", f.Message)
	assert.NotEqual(t, "pass", r.Verdict())
}
