package explore

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAutoSamplesTooLargeSpace: 100 goroutines taking turns at a lock
// leave DPOR thousands of schedules after its first execution, far beyond
// its share of the deadline: Auto gives up on DPOR at once and samples
// with PCT, and the report says why; the verdict is never complete.
func TestAutoSamplesTooLargeSpace(t *testing.T) {
	r := exploreTestdata(t, "many", "Counter100", Options{Timeout: 20 * time.Second, MaxExecutions: 10})
	assert.Empty(t, r.Findings)
	assert.Equal(t, "unknown", r.Verdict())
	assert.False(t, r.Complete)
	assert.Equal(t, "schedules", r.Bound)
	assert.Equal(t, "dpor, then pct", r.Strategy)
	require.Len(t, r.Phases, 2)
	dpor, pct := r.Phases[0], r.Phases[1]
	assert.Equal(t, 1, dpor.Executions, "the first execution shows the space is too large")
	assert.Equal(t, "schedules", dpor.Bound)
	assert.Regexp(t, `^at least \d+ schedules left to explore after 1 execution: about \S+ at \S+ per execution, beyond DPOR's share of \S+$`, dpor.Reason)
	assert.Equal(t, Phase{Strategy: "pct", Executions: 10, Bound: "executions"}, pct)
	assert.Equal(t, 11, r.Executions)
	assert.Contains(t, r.Suggestion, "sampled 10 executions (pct) after 1 execution of dpor with 101 goroutines: the schedule space is too large to enumerate ("+dpor.Reason+")")
}

// TestAutoKeepsDPORWhenItCanComplete: a test DPOR completes in a few
// executions is not sampled, whatever its pace.
func TestAutoKeepsDPORWhenItCanComplete(t *testing.T) {
	r := exploreTestdata(t, "many", "FanIn3", Options{Timeout: time.Minute})
	assert.Equal(t, "pass", r.Verdict())
	assert.Equal(t, "dpor", r.Strategy)
	assert.Nil(t, r.Phases)
	assert.Equal(t, 6, r.Executions, "3! orders of the sends")
}

// TestTooLarge: the decision to give up on DPOR, on a path with 3
// pending transitions (one done and one asleep do not count).
func TestTooLarge(t *testing.T) {
	node := func(bt, done, asleep []uint64) *dporNode {
		s := &dporNode{sleep: map[tid]*event{}}
		for _, g := range bt {
			s.addBack(tid{g: g})
		}
		for _, g := range done {
			s.claimed(tid{g: g})
		}
		for _, g := range asleep {
			s.sleep[tid{g: g}] = &event{}
		}
		return s
	}
	d := &dporChooser{stack: []dporStep{
		{node: node([]uint64{1, 2}, []uint64{1}, nil)},
		{node: node([]uint64{1, 2, 3}, nil, []uint64{3})},
	}}
	require.Equal(t, 3, d.pending())
	c := &collector{execs: 4}
	for _, tc := range []struct {
		runs  int
		spent time.Duration
		share time.Duration
		est   time.Duration
		msg   string
	}{
		{runs: 4, spent: 40 * time.Second, share: 10 * time.Second, est: 30 * time.Second,
			msg: "at least 3 schedules left to explore after 4 executions: about 30s at 10s per execution, beyond DPOR's share of 10s"},
		{runs: 4, spent: 4 * time.Second, share: 10 * time.Second},   // 3s: within the share
		{runs: 4, spent: 24 * time.Second, share: 10 * time.Second},  // 18s: within autoMargin × the share
		{runs: 3, spent: 300 * time.Second, share: 10 * time.Second}, // only at runs 1, 2, 4, 8, …
		{runs: 1, spent: 3 * time.Minute, share: 2 * time.Second, est: 9 * time.Minute,
			msg: "at least 3 schedules left to explore after 4 executions: about 9m0s at 3m0s per execution, beyond DPOR's share of 2s"},
	} {
		t.Run(fmt.Sprint(tc.runs, tc.spent, tc.share), func(t *testing.T) {
			d.runs, d.spent = tc.runs, tc.spent
			est, msg := d.tooLarge(c, tc.share)
			assert.Equal(t, tc.est, est)
			assert.Equal(t, tc.msg, msg)
		})
	}
}
