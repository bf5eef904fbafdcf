package explore

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const boundsPath = testdataPath + "/bounds"

var boundsProgram struct {
	once sync.Once
	p    *Program
	err  error
}

// loadBounds loads testdata/bounds once per process.
func loadBounds(tb testing.TB) *Program {
	tb.Helper()
	boundsProgram.once.Do(func() {
		boundsProgram.p, boundsProgram.err = testLoader.Load(context.Background(), LoadConfig{Patterns: []string{"./testdata/bounds"}})
	})
	if boundsProgram.err != nil {
		tb.Fatal(boundsProgram.err)
	}
	return boundsProgram.p
}

func exploreBounds(t *testing.T, name string, opts Options) *Report {
	t.Helper()
	p := loadBounds(t)
	e, err := p.Func(boundsPath + "." + name)
	require.NoError(t, err)
	r, err := p.Explore(context.Background(), e, opts)
	require.NoError(t, err)
	return r
}

// TestDefaultStepsBoundFitsLongRuns: 40000 scheduling steps of one
// goroutine (the length of a 1 ms ticker running for 20 virtual seconds)
// fit in the default bound, and DPOR reports the deadlock at the end.
func TestDefaultStepsBoundFitsLongRuns(t *testing.T) {
	assert.GreaterOrEqual(t, DefaultMaxSteps, 20*40000)
	if testing.Short() {
		t.Skip("a 40000-step execution")
	}
	for _, s := range []Strategy{DPOR, Auto} {
		r := exploreBounds(t, "TestDeadlockAfterManyChannelOps", Options{Strategy: s})
		require.Len(t, r.Findings, 1, "%s", s)
		assert.Equal(t, KindDeadlock, r.Findings[0].Kind)
		assert.True(t, r.Complete)
		assert.Equal(t, "dpor", r.Strategy)
		assert.GreaterOrEqual(t, r.MaxSteps, 40000)
	}
}

// TestStepsBoundSuggestion: a steps bound below the test's length makes
// the result unknown, and the report says to raise it.
func TestStepsBoundSuggestion(t *testing.T) {
	r := exploreBounds(t, "TestDeadlockAfterManyChannelOps", Options{Strategy: DPOR, MaxSteps: 500})
	assert.Equal(t, "unknown", r.Verdict())
	assert.Equal(t, "steps", r.Bound)
	assert.Contains(t, r.Suggestion, "the steps bound (500) was reached")
	assert.Contains(t, r.Suggestion, "-max-steps")
}

// TestLoopBoundSuggestion: a loop without scheduling point runs into the
// loop bound (reported as "steps"), and the suggestion names it.
func TestLoopBoundSuggestion(t *testing.T) {
	r := exploreBounds(t, "TestGrowingMap", Options{Strategy: DPOR, MaxLoop: 1000})
	assert.Equal(t, "steps", r.Bound)
	assert.Contains(t, r.Suggestion, "the loop bound (1000 back-edges) was reached")
	assert.Contains(t, r.Suggestion, "-max-loop")
}

// TestMemoryBound: programs that grow memory (a slice with a scheduling
// point per round, a map in a loop without one, goroutines spawned
// without end) stop with the memory bound under a tiny bound, with
// every strategy, instead of growing until the process is killed.
func TestMemoryBound(t *testing.T) {
	for _, name := range []string{"TestGrowingSlice", "TestGrowingMap", "TestSpawnForever"} {
		for _, s := range []Strategy{Auto, DPOR, DFS, PCT} {
			r := exploreBounds(t, name, Options{Strategy: s, MaxMemory: 1, MaxExecutions: 3})
			assert.Equal(t, "unknown", r.Verdict(), "%s %s", name, s)
			assert.Equal(t, "memory", r.Bound, "%s %s", name, s)
			assert.Equal(t, 1, r.Executions, "%s %s: the memory bound ends the exploration", name, s)
			assert.Contains(t, r.Suggestion, "the memory bound (1B) was reached", "%s %s", name, s)
			assert.Empty(t, r.Findings, "%s %s", name, s)
		}
	}
}

// TestNoMemoryBound: a negative MaxMemory turns the bound off (the loop
// bound stops the map instead).
func TestNoMemoryBound(t *testing.T) {
	r := exploreBounds(t, "TestGrowingMap", Options{Strategy: DPOR, MaxMemory: -1, MaxLoop: 100000})
	assert.Equal(t, "steps", r.Bound)
}

func TestMemorySizes(t *testing.T) {
	for in, want := range map[string]int64{"1000": 1000, "2GB": 2 << 30, "512MiB": 512 << 20, "1.5g": 3 << 29, "64 kb": 64 << 10, "7B": 7, "1TB": 1 << 40, "0": 0} {
		got, err := ParseBytes(in)
		require.NoError(t, err, in)
		assert.Equal(t, want, got, in)
	}
	for _, in := range []string{"", "GB", "2XB", "-1GB", "1e3"} {
		_, err := ParseBytes(in)
		assert.Error(t, err, in)
	}
	assert.Equal(t, "2GB", formatBytes(2<<30))
	assert.Equal(t, "1.5GB", formatBytes(3<<29))
	assert.Equal(t, "1B", formatBytes(1))
	assert.Equal(t, uint64(24683620<<10), memTotal([]byte("MemTotal:       24683620 kB\nMemFree: 1 kB\n")))
	assert.Zero(t, memTotal([]byte("nothing")))
	assert.Positive(t, machineMemory())
	assert.Equal(t, machineMemory()/2, (&Options{}).maxMemory())
	assert.Zero(t, (&Options{MaxMemory: -1}).maxMemory())
}

// TestAutoSamplesWhenDPORIsCut: with eight workers, DPOR's first 30
// executions miss the deadlock; Auto then samples 30 schedules with PCT,
// which find it. The report says what ran.
func TestAutoSamplesWhenDPORIsCut(t *testing.T) {
	dpor := exploreBounds(t, "TestLockHandOverEightWorkers", Options{Strategy: DPOR, MaxExecutions: 30})
	require.Equal(t, "unknown", dpor.Verdict())
	assert.Contains(t, dpor.Suggestion, "-strategy pct samples schedules of many goroutines")

	// A deadline far away gives DPOR a share its pace cannot exceed on a
	// loaded machine (-race, other builds): the cut is the executions
	// bound, not the estimate, whatever the machine's speed.
	r := exploreBounds(t, "TestLockHandOverEightWorkers", Options{MaxExecutions: 30, Timeout: time.Hour})
	assert.Equal(t, "fail", r.Verdict())
	require.NotEmpty(t, r.Findings)
	assert.Equal(t, KindDeadlock, r.Findings[0].Kind)
	assert.Equal(t, "dpor, then pct", r.Strategy)
	require.Len(t, r.Phases, 2)
	assert.Equal(t, Phase{Strategy: "dpor", Executions: dpor.Executions, Bound: "executions"}, r.Phases[0])
	assert.Equal(t, "pct", r.Phases[1].Strategy)
	assert.Equal(t, fmt.Sprintf("dpor, then pct: %d + %d executions", dpor.Executions, r.Phases[1].Executions), r.Ran())
	assert.Equal(t, r.Phases[0].Executions+r.Phases[1].Executions, r.Executions)
	assert.Greater(t, r.Findings[0].Execution, dpor.Executions, "executions are numbered across phases")
	assert.Empty(t, r.Suggestion, "a finding decides the verdict")

	// the finding's token replays
	p := loadBounds(t)
	e, err := p.Func(boundsPath + ".TestLockHandOverEightWorkers")
	require.NoError(t, err)
	rr, err := p.Explore(context.Background(), e, Options{Replay: r.Findings[0].Replay})
	require.NoError(t, err)
	require.Len(t, rr.Findings, 1)
	assert.Equal(t, KindDeadlock, rr.Findings[0].Kind)
}

// TestAutoIsCompleteOnlyIfDPORIs: a pass needs DPOR to complete; when it
// cannot and sampling finds nothing, the result is unknown and says what
// ran.
func TestAutoIsCompleteOnlyIfDPORIs(t *testing.T) {
	r := exploreBounds(t, "TestLockHandOverOneWorker", Options{MaxExecutions: 30})
	assert.Equal(t, "pass", r.Verdict())
	assert.Equal(t, "dpor", r.Strategy)
	assert.Nil(t, r.Phases)
	assert.Empty(t, r.Suggestion)

	r = exploreBounds(t, "TestManyIndependentWorkers", Options{MaxExecutions: 10})
	assert.Equal(t, "unknown", r.Verdict())
	assert.False(t, r.Complete)
	assert.Equal(t, "executions", r.Bound)
	assert.Equal(t, "dpor, then pct", r.Strategy)
	assert.Equal(t, 9, r.Goroutines)
	assert.Contains(t, r.Suggestion, "DPOR did not complete and PCT's samples found no bug")
	assert.Contains(t, r.Suggestion, r.Ran())
}

// TestAutoStopsAtDPORFinding: a bug DPOR finds ends Auto (no sampling).
func TestAutoStopsAtDPORFinding(t *testing.T) {
	r := exploreBounds(t, "TestPingPong", Options{MaxSteps: 100})
	assert.Equal(t, "unknown", r.Verdict(), "the steps bound is not a budget sampling could use")
	assert.Equal(t, "dpor", r.Strategy)
}
