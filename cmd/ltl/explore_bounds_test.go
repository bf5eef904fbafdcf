package main

import (
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/henceforth-go/henceforth/explore"
)

const (
	boundsPkg  = "../../explore/testdata/bounds"
	boundsPath = "github.com/henceforth-go/henceforth/explore/testdata/bounds."
)

// TestExploreBoundFlags: -max-loop and -max-memory reach the options
// (sizes with units; 0: no bound), auto is the default strategy, and bad
// values are usage errors.
func TestExploreBoundFlags(t *testing.T) {
	options := func(args ...string) (explore.Options, error) {
		var f exploreFlags
		fs := newFlags("explore")
		f.register(fs)
		require.NoError(t, fs.Parse(args))
		return f.options()
	}
	o, err := options()
	require.NoError(t, err)
	assert.Equal(t, explore.Auto, o.Strategy)
	assert.Zero(t, o.MaxMemory, "the default bound")
	o, err = options("-max-memory", "2GB", "-max-loop", "5000")
	require.NoError(t, err)
	assert.Equal(t, int64(2<<30), o.MaxMemory)
	assert.Equal(t, 5000, o.MaxLoop)
	o, err = options("-max-memory", "0")
	require.NoError(t, err)
	assert.Negative(t, o.MaxMemory, "no bound")

	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-max-memory", "2XB", boundsPkg}, `ltl explore: -max-memory: invalid size "2XB" (want a number of bytes with an optional unit: B, KB, MB, GB or TB)`},
		{[]string{"-max-loop", "-1", boundsPkg}, "ltl explore: -max-loop: must not be negative, got -1"},
	} {
		status, out, errOut := runExplore(t, tc.args...)
		assert.Equal(t, 2, status, "%v", tc.args)
		assert.Empty(t, out)
		assert.Equal(t, tc.want+"\n", errOut)
	}
}

// TestExploreSuggestions: an unknown result names the bound and says what
// would do better, in the text and in -json.
func TestExploreSuggestions(t *testing.T) {
	status, out, errOut := runExplore(t, "-run", "TestDeadlockAfterManyChannelOps", "-max-steps", "500", boundsPkg)
	assert.Equal(t, 1, status, errOut)
	assert.Regexp(t, `(?m)^unknown +`+regexp.QuoteMeta(boundsPath+"TestDeadlockAfterManyChannelOps")+` +1 execution \(dpor, steps bound reached\): incomplete`, out)
	assert.Regexp(t, `(?m)^ +suggestion: the steps bound \(500\) was reached: an execution ran 500 scheduling steps without ending; raise it \(-max-steps`, out)

	status, out, _ = runExplore(t, "-run", "TestGrowingSlice", "-max-memory", "1B", boundsPkg)
	assert.Equal(t, 1, status)
	assert.Regexp(t, `(?m)^unknown +\S+TestGrowingSlice +1 execution \(dpor, memory bound reached\)`, out)
	assert.Regexp(t, `(?m)^ +suggestion: the memory bound \(1B\) was reached after 1 execution`, out)

	status, out, _ = runExplore(t, "-json", "-run", "TestManyIndependentWorkers", "-max-executions", "10", boundsPkg)
	assert.Equal(t, 1, status)
	lines := jsonLines(t, out)
	require.Len(t, lines, 1)
	assert.Equal(t, "unknown", lines[0]["kind"])
	assert.Contains(t, lines[0]["suggestion"], "DPOR did not complete and PCT's samples found no bug")
}

// TestExploreAuto: the default strategy samples with pct when dpor's
// executions run out, finds the deadlock dpor's first executions missed,
// and says what ran; a test dpor completes is reported as before.
func TestExploreAuto(t *testing.T) {
	// A deadline far away gives DPOR a share its pace cannot exceed on a
	// loaded machine, so both phases end at the executions bound.
	status, out, _ := runExplore(t, "-run", "TestLockHandOverEightWorkers|TestLockHandOverOneWorker", "-max-executions", "30", "-timeout", "1h", boundsPkg)
	assert.Equal(t, 1, status)
	assert.Regexp(t, `(?m)^fail +\S+TestLockHandOverEightWorkers +\d+ executions \(dpor, then pct: \d+ \+ 30 executions, executions bound reached\): 1 finding$`, out)
	assert.Regexp(t, `(?m)^pass +\S+TestLockHandOverOneWorker +1 execution \(dpor, complete\)$`, out)

	status, out, _ = runExplore(t, "-strategy", "dpor", "-run", "TestLockHandOverEightWorkers", "-max-executions", "30", boundsPkg)
	assert.Equal(t, 1, status)
	assert.Regexp(t, `(?m)^unknown +\S+TestLockHandOverEightWorkers +\d+ executions? \(dpor, executions bound reached\)`, out, "explicit strategies are unchanged")
	assert.Regexp(t, `(?m)^ +suggestion: .*-strategy pct samples schedules of many goroutines`, out)
}

// TestExploreLongRun: a 40000-step execution fits the default steps
// bound; the deadlock at its end is reported.
func TestExploreLongRun(t *testing.T) {
	if testing.Short() {
		t.Skip("a 40000-step execution")
	}
	status, out, _ := runExplore(t, "-run", "TestDeadlockAfterManyChannelOps", boundsPkg)
	assert.Equal(t, 1, status)
	assert.Regexp(t, `(?m)^fail +\S+TestDeadlockAfterManyChannelOps +1 execution \(dpor, complete\): 1 finding$`, out)
}

// TestIncompleteMessageSampled: when Auto found the schedule space too
// large and sampled it, the result line says so.
func TestIncompleteMessageSampled(t *testing.T) {
	r := &explore.Report{Bound: "schedules", Executions: 38, Phases: []explore.Phase{
		{Strategy: "dpor", Executions: 1, Bound: "schedules"},
		{Strategy: "pct", Executions: 37, Bound: "time"},
	}}
	assert.Equal(t, "incomplete: sampled 37 executions (pct): the schedule space is too large to enumerate; nothing is proved", incompleteMessage(r, "unknown"))
	assert.Equal(t, "nothing found within the bound: sampled 37 executions (pct): the schedule space is too large to enumerate; nothing is proved", incompleteMessage(r, "bounded"))
}
