package explore

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/go/ssa"
)

func TestUnsupportedIsAFinding(t *testing.T) {
	r := runFunc(t, "misc", "WritesFile", Options{})
	require.Len(t, r.Findings, 1)
	f := r.Findings[0]
	require.Equal(t, KindUnsupported, f.Kind)
	require.Contains(t, f.Message, `os.WriteFile("/dev/null"): files are written only in temporary directories`)
	require.Equal(t, "misc.go", f.Pos.Filename[strings.LastIndex(f.Pos.Filename, "/")+1:])
	require.Equal(t, 11, f.Pos.Line)
	require.Equal(t, "unknown", r.Verdict())
}

func TestLoopBoundIsReported(t *testing.T) {
	r := runFunc(t, "misc", "Spin", Options{MaxLoop: 1000})
	require.Empty(t, r.Findings)
	require.False(t, r.Complete)
	require.Equal(t, "steps", r.Bound)
	require.Equal(t, "unknown", r.Verdict())
}

func TestStepBoundIsReported(t *testing.T) {
	r := runFunc(t, "misc", "ManySteps", Options{MaxSteps: 100})
	require.Equal(t, "steps", r.Bound)
	require.Equal(t, "unknown", r.Verdict())
	r = runFunc(t, "misc", "ManySteps", Options{})
	require.Equal(t, "pass", r.Verdict())
}

func TestExecutionBoundIsReported(t *testing.T) {
	r := runFunc(t, "outcomes", "MutexOrder", Options{Strategy: DFS, MaxExecutions: 5})
	require.Equal(t, 5, r.Executions)
	require.Equal(t, "executions", r.Bound)
	require.False(t, r.Complete)
}

func TestTimeBoundIsReported(t *testing.T) {
	p := load(t)
	e, err := p.Func(testdataPath + "/outcomes.RWMutex")
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r, err := p.Explore(ctx, e, Options{Strategy: DFS})
	require.NoError(t, err)
	require.Equal(t, "time", r.Bound)
	require.Equal(t, "unknown", r.Verdict())
}

func TestTestingModel(t *testing.T) {
	r := runFunc(t, "misc", "Subtests", Options{})
	require.Len(t, r.Findings, 1, "%v", r.Findings)
	f := r.Findings[0]
	require.Equal(t, KindTestFailure, f.Kind)
	require.Equal(t, "Subtests/second: misc.go:41: boom", f.Message)

	r = runFunc(t, "misc", "Fatal", Options{})
	require.Len(t, r.Findings, 1)
	require.Equal(t, KindTestFailure, r.Findings[0].Kind)
	require.Equal(t, "misc.go:59: stop at 42", r.Findings[0].Message)
	require.Contains(t, r.Findings[0].Output, "misc.go:59: stop at 42")
}

func TestOldLoopVariableSemantics(t *testing.T) {
	r := runFunc(t, "oldloop", "SharedLoopVar", Options{})
	require.Len(t, r.Findings, 1)
	require.Equal(t, "old.go:23: sum 9", r.Findings[0].Message)

	// Goroutines capturing the shared variable: some schedule lets both
	// see the same value.
	r = runFunc(t, "oldloop", "GoroutineLoopVar", Options{})
	require.NotNil(t, findKind(r, KindTestFailure))
}

func TestStrategiesFindTheDeadlock(t *testing.T) {
	for _, opts := range []Options{
		{Strategy: DFS},
		{Strategy: DPOR},
		{Strategy: PB, Preemptions: 1},
		{Strategy: Random, Seed: 7, MaxExecutions: 200},
		{Strategy: PCT, Seed: 7, MaxExecutions: 200, PCTDepth: 2},
	} {
		t.Run(string(opts.Strategy), func(t *testing.T) {
			t.Logf("seed %d", opts.Seed)
			r := runFunc(t, "misc", "ABBA", opts)
			f := findKind(r, KindDeadlock)
			require.NotNil(t, f, "%s found no deadlock in %d executions", opts.Strategy, r.Executions)
			// Same options, same report.
			r2 := runFunc(t, "misc", "ABBA", opts)
			require.Equal(t, r.Executions, r2.Executions)
			require.Equal(t, f.Replay, findKind(r2, KindDeadlock).Replay)
		})
	}
}

func TestPreemptionBound(t *testing.T) {
	// The AB-BA deadlock needs one preemption.
	r := runFunc(t, "misc", "ABBA", Options{Strategy: PB, Preemptions: 0})
	require.Nil(t, findKind(r, KindDeadlock))
	require.Equal(t, "preemptions", r.Bound)
	require.Equal(t, "unknown", r.Verdict())
}

func TestReplayErrors(t *testing.T) {
	p := load(t)
	e, err := p.Func(testdataPath + "/misc.ABBA")
	require.NoError(t, err)
	_, err = p.Explore(context.Background(), e, Options{Replay: "v9:xyz"})
	require.ErrorIs(t, err, ErrBadToken)

	r, err := p.Explore(context.Background(), e, Options{})
	require.NoError(t, err)
	tok := findKind(r, KindDeadlock).Replay
	other, err := p.Func(testdataPath + "/misc.Subtests")
	require.NoError(t, err)
	_, err = p.Explore(context.Background(), other, Options{Replay: tok})
	require.Error(t, err)
	require.ErrorIs(t, err, ErrReplayDiverged)
}

func TestFuncNames(t *testing.T) {
	p := load(t)
	for _, name := range []string{
		"Subtests", // unique among the loaded packages
		"github.com/henceforth-go/henceforth/explore/testdata/misc.ABBA",
		"TestWithClosure.func2",
		"TestWithClosure$2",
		"github.com/henceforth-go/henceforth/explore/testdata/misc.TestWithClosure.func2",
	} {
		e, err := p.Func(name)
		require.NoError(t, err, name)
		require.True(t, e.TakesT, name)
	}
	_, err := p.Func("TestWithClosure.func1")
	require.ErrorContains(t, err, "captures variables of the enclosing function (x)")
	_, err = p.Func("NoSuchFunc")
	require.ErrorContains(t, err, "no function")
	_, err = p.Func("Work")
	require.NoError(t, err)
	_, err = p.Func("ABBA")
	require.ErrorContains(t, err, "ambiguous")
}

// countingObserver watches calls of misc.Work and reports a violation on
// the second one.
type countingObserver struct{}

func (countingObserver) CallEvents(fn *ssa.Function) bool { return fn.Name() == "Work" }
func (countingObserver) NewPath() pathMonitor             { return &countingPath{} }

type countingPath struct{ calls, returns, steps int }

func (p *countingPath) Event(ev *obsEvent, st obsState) *violation {
	switch ev.Kind {
	case obsCall:
		p.calls++
		if p.calls == 2 && p.returns == 0 {
			return &violation{Message: "Work entered twice before any return"}
		}
	case obsReturn:
		p.returns++
	case obsStep:
		p.steps++
	}
	return nil
}

func (p *countingPath) End(st obsState) *violation { return nil }

func TestObserverEvents(t *testing.T) {
	r := runFunc(t, "misc", "Observed", Options{observer: countingObserver{}})
	f := findKind(r, KindLTL)
	require.NotNil(t, f, "the interleaving of the two calls was not explored")
	require.Equal(t, "Work entered twice before any return", f.Message)
	var ops []string
	for _, s := range f.Trace {
		if s.N > 0 {
			ops = append(ops, s.Op)
		}
	}
	require.Contains(t, strings.Join(ops, ";"), "call misc.Work;call misc.Work")
}

func TestStackOverflow(t *testing.T) {
	if testing.Short() {
		t.Skip("recurses a million frames deep")
	}
	r := runFunc(t, "misc", "Recursion", Options{})
	require.Len(t, r.Findings, 1)
	require.Equal(t, KindPanic, r.Findings[0].Kind)
	require.Contains(t, r.Findings[0].Message, "fatal error: stack overflow")
}

func TestDataRaces(t *testing.T) {
	r := runFunc(t, "misc", "RacyFlag", Options{Shared: true})
	f := findKind(r, KindRace)
	require.NotNil(t, f, "%v", r.Findings)
	require.Contains(t, f.Message, "data race: write flag at misc.go:")
	require.Contains(t, f.Message, "not ordered by synchronization")

	// Without Shared, every access is still checked (but none is a
	// scheduling point); NoRaces turns detection off.
	r = runFunc(t, "misc", "RacyFlag", Options{})
	f = findKind(r, KindRace)
	require.NotNil(t, f, "%v", r.Findings)
	require.Contains(t, f.Message, "flag at misc.go:")
	r = runFunc(t, "misc", "RacyFlag", Options{NoRaces: true})
	require.Nil(t, findKind(r, KindRace))

	// Accesses ordered by a channel are not a race.
	r = runFunc(t, "misc", "OrderedFlag", Options{Shared: true})
	require.Empty(t, r.Findings)
	require.Equal(t, "pass", r.Verdict())
	require.Empty(t, r.Warnings)
}

// A race shows both accesses' stacks, innermost frame first, like Go's
// race detector.
func TestRaceStacks(t *testing.T) {
	r := runFunc(t, "misc", "RacyBump", Options{Shared: true})
	f := findKind(r, KindRace)
	require.NotNil(t, f, "%v", r.Findings)
	require.Len(t, f.Goroutines, 2, "%s", f)
	assert.NotEqual(t, f.Goroutines[0].ID, f.Goroutines[1].ID)
	assert.Regexp(t, `^(read|write) \*p$`, f.Goroutines[0].State)
	assert.Regexp(t, `^previous (read|write) \*p$`, f.Goroutines[1].State)
	for _, g := range f.Goroutines {
		require.Len(t, g.Frames, 2, "%s", f)
		assert.Equal(t, "github.com/henceforth-go/henceforth/explore/testdata/misc.bump", g.Frames[0].Func)
		assert.Contains(t, g.Frames[1].Func, "misc.RacyBump.func")
	}
	assert.Contains(t, f.String(), "[previous ")
}

func TestMapRaces(t *testing.T) {
	r := runFunc(t, "misc", "MapRace", Options{Shared: true})
	f := findKind(r, KindRace)
	require.NotNil(t, f, "%v", r.Findings)
	require.Contains(t, f.Message, "write map m")

	r = runFunc(t, "misc", "MapLocked", Options{Shared: true})
	require.Empty(t, r.Findings)
	require.Equal(t, "pass", r.Verdict())

	// By default: the map is one location; its writes race, and the
	// report says what Go does without the race detector.
	r = runFunc(t, "misc", "MapRace", Options{})
	f = findKind(r, KindRace)
	require.NotNil(t, f, "%v", r.Findings)
	require.Contains(t, f.Message, "write map m at misc.go:158")
	require.Contains(t, f.Message, `fatal error: concurrent map writes`)
	require.Len(t, r.Findings, 1, "one finding per pair of positions")
	r = runFunc(t, "misc", "MapLocked", Options{})
	require.Empty(t, r.Findings)
}

// TestBrokenInitialization: a dependency whose initializer is unsupported
// does not stop tests that do not use it (a warning says why); using it
// is unsupported.
func TestBrokenInitialization(t *testing.T) {
	r := runFunc(t, "brokeninit", "Independent", Options{})
	require.Empty(t, r.Findings)
	require.Equal(t, "pass", r.Verdict())
	require.Len(t, r.Warnings, 1)
	require.Contains(t, r.Warnings[0], "package github.com/henceforth-go/henceforth/explore/testdata/brokeninit/dep could not be initialized")
	require.Contains(t, r.Warnings[0], "call of os.Getpid")
	// Every strategy reports it (PB's report is built by a collector of
	// its own, which once missed it).
	for _, s := range []Strategy{DFS, PB, Random, PCT} {
		for _, w := range []int{1, 2} {
			r := runFunc(t, "brokeninit", "Independent", Options{Strategy: s, Workers: w, MaxExecutions: 10})
			require.Len(t, r.Warnings, 1, "%s, %d workers", s, w)
			require.Contains(t, r.Warnings[0], "brokeninit/dep could not be initialized", "%s, %d workers", s, w)
		}
	}

	r = runFunc(t, "brokeninit", "UsesDep", Options{})
	require.Len(t, r.Findings, 1)
	require.Equal(t, KindUnsupported, r.Findings[0].Kind)
	require.Contains(t, r.Findings[0].Message, "call of github.com/henceforth-go/henceforth/explore/testdata/brokeninit/dep.Twice: package github.com/henceforth-go/henceforth/explore/testdata/brokeninit/dep could not be initialized")
}

func TestStopAtFirstAndProgress(t *testing.T) {
	all := runFunc(t, "outcomes", "MutexOrder", Options{Strategy: DFS})
	var calls int
	first := runFunc(t, "outcomes", "MutexOrder", Options{Strategy: DFS, StopAtFirst: true, Progress: func(Progress) { calls++ }})
	require.Equal(t, 1, first.Executions)
	require.Len(t, first.Findings, 1)
	require.Greater(t, all.Executions, first.Executions)
	require.Equal(t, 0, calls, "progress is reported at most once a second")
}

// TestSharedSchedulesReachableMemory: with Shared, memory another
// goroutine reaches through captured pointers is shared from the go
// statement on, so both orders of the two accesses are explored (by DFS
// and DPOR); without Shared the race is still reported, but the read
// never runs first.
func TestSharedSchedulesReachableMemory(t *testing.T) {
	for _, s := range []Strategy{DFS, DPOR} {
		r := runFunc(t, "misc", "LazyShareOrders", Options{Strategy: s, Shared: true, NoRaces: true})
		f := findKind(r, KindTestFailure)
		require.NotNil(t, f, "%s: %v", s, r.Findings)
		require.Contains(t, f.Message, "read before the write")
		require.True(t, r.Complete)
	}
	r := runFunc(t, "misc", "LazyShareOrders", Options{})
	require.Nil(t, findKind(r, KindTestFailure), "%v", r.Findings)
	f := findKind(r, KindRace)
	require.NotNil(t, f, "%v", r.Findings)
	require.Contains(t, f.Message, "*p at misc.go:")
}

// TestWaitGroupAddRace: an Add from zero in the goroutine that Wait
// waits for is the race Go's race detector reports (Add not ordered
// before Wait), with an explanation of the schedule it stands for.
func TestWaitGroupAddRace(t *testing.T) {
	p := load(t)
	e, err := p.Func(examplesPath + "/waitgroup.Scenario")
	require.NoError(t, err)
	r, err := p.Explore(context.Background(), e, Options{})
	require.NoError(t, err)
	var f *Finding
	for _, g := range r.Findings {
		if g.Kind == KindRace && strings.Contains(g.Message, "sync.(*WaitGroup).Wait at waitgroup.go:26") {
			f = g
		}
	}
	require.NotNil(t, f, "%v", r.Findings)
	require.Contains(t, f.Message, "sync.(*WaitGroup).Add from zero at waitgroup.go:12")
	require.Contains(t, f.Explanation, "calls Wait right after the Add, finds the counter positive and blocks")
	e, err = p.Func(examplesPath + "/waitgroup.TestFixed")
	require.NoError(t, err)
	r, err = p.Explore(context.Background(), e, Options{})
	require.NoError(t, err)
	require.Equal(t, "pass", r.Verdict(), "%v", r.Findings)
}

// TestTimeoutStopsLongExecution: the timeout is checked inside an
// execution, not only between executions: a loop without a scheduling
// point (with a loop bound too large to be reached) ends the exploration
// as "unknown" with the time bound.
func TestTimeoutStopsLongExecution(t *testing.T) {
	r := runFunc(t, "misc", "Spin", Options{Strategy: DPOR, MaxLoop: 1 << 62, Timeout: 50 * time.Millisecond})
	require.Equal(t, "time", r.Bound)
	require.Equal(t, "unknown", r.Verdict())
	require.Equal(t, 1, r.Executions)
	require.Empty(t, r.Findings)
}

// TestTimersThatWakeNobody: when every goroutine is blocked and no timer
// can wake one (no sleeper, no AfterFunc, nobody receiving from a timer's
// channel), the clock does not advance forever: the test hangs, a
// deadlock finding. A ticker that a goroutine waits on still advances
// the clock.
func TestTimersThatWakeNobody(t *testing.T) {
	p := loadPatterns(t, "./testdata/tickers")
	explore := func(name string) *Report {
		e, err := p.Func(testdataPath + "/tickers." + name)
		require.NoError(t, err)
		r, err := p.Explore(context.Background(), e, Options{})
		require.NoError(t, err)
		return r
	}
	r := explore("TickerHang")
	f := findKind(r, KindDeadlock)
	require.NotNil(t, f, "%v", r.Findings)
	require.Equal(t, "all goroutines are blocked forever: the timers still set wake none of them (go test hangs until its -timeout)", f.Message)
	require.True(t, r.Complete)

	r = explore("TickerCounted")
	require.Equal(t, "pass", r.Verdict(), "%v", r.Findings)
}
