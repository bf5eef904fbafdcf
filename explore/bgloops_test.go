package explore

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A loop only timers wake (a cache's janitor, a pool's purge loop, a
// sleeping worker) that the test leaves running is a background loop: the
// test passes, completely, unless Options.ReportTimerLeaks asks for it.
func TestBackgroundLoopsAreNotLeaks(t *testing.T) {
	for _, tc := range []struct {
		test string
		msg  string // the leak ReportTimerLeaks reports
	}{
		{"TestJanitor", `^1 goroutine\(s\) still waiting for timers \(ReportTimerLeaks\) after TestJanitor returned: goroutine 2 select at bgloops.go:41$`},
		{"TestPurge", `^1 goroutine\(s\) still waiting for timers \(ReportTimerLeaks\) after TestPurge returned: goroutine 2 select at bgloops.go:103$`},
		{"TestSleeper", `^1 goroutine\(s\) still waiting for timers \(ReportTimerLeaks\) after TestSleeper returned: goroutine 2 sleep until \+2s at bgloops.go:142$`},
		{"TestExpiry", `^1 goroutine\(s\) still waiting for timers \(ReportTimerLeaks\) after TestExpiry returned: goroutine 2 select at bgloops.go:41$`},
	} {
		t.Run(tc.test, func(t *testing.T) {
			r := exploreTestdata(t, "bgloops", tc.test, Options{})
			assert.Equal(t, "pass", r.Verdict(), "%v", r.Findings)
			assert.True(t, r.Complete)

			r = exploreTestdata(t, "bgloops", tc.test, Options{ReportTimerLeaks: true})
			require.Len(t, r.Findings, 1, "%v", r.Findings)
			assert.Equal(t, KindLeak, r.Findings[0].Kind)
			assert.Regexp(t, tc.msg, r.Findings[0].Message)
		})
	}
}

// A stopped loop is no leak, with or without ReportTimerLeaks.
func TestStoppedLoopIsNoTimerLeak(t *testing.T) {
	r := exploreTestdata(t, "bgloops", "TestPurgeReleased", Options{ReportTimerLeaks: true})
	assert.Equal(t, "pass", r.Verdict(), "%v", r.Findings)
	assert.True(t, r.Complete)
}

// A goroutine blocked forever on a channel stays a leak next to a ticking
// janitor; the janitor is reported only with ReportTimerLeaks.
func TestLeakNextToBackgroundLoop(t *testing.T) {
	r := exploreTestdata(t, "bgloops", "TestLeakNextToJanitor", Options{})
	require.Len(t, r.Findings, 1, "%v", r.Findings)
	assert.Equal(t, KindLeak, r.Findings[0].Kind)
	assert.Regexp(t, `^1 goroutine\(s\) blocked forever after TestLeakNextToJanitor returned: goroutine 3 chan send on ch \(chan#\d+\) at bgloops_test.go:46$`, r.Findings[0].Message)

	r = exploreTestdata(t, "bgloops", "TestLeakNextToJanitor", Options{ReportTimerLeaks: true})
	require.Len(t, r.Findings, 2, "%v", r.Findings)
	assert.Contains(t, r.Findings[0].Message+"\n"+r.Findings[1].Message, "1 goroutine(s) still waiting for timers (ReportTimerLeaks) after TestLeakNextToJanitor returned: goroutine 2 select at bgloops.go:41")
}

// After the entry returned, a goroutine that waits for a timer and has not
// been woken yet still runs (its late t.Log is found); the clock stops
// once it only loops.
func TestBackgroundLoopRunsOnceAfterReturn(t *testing.T) {
	r := exploreTestdata(t, "bgloops", "TestLateLogInLoop", Options{})
	f := findKind(r, KindPanic)
	require.NotNil(t, f, "%v", r.Findings)
	assert.Contains(t, f.Message, "Log in goroutine after TestLateLogInLoop has completed")
}

// time.Now moves on while a goroutine sleeps: a deadline computed before a
// sleep that lasted until it is past after the sleep, although the sleeper
// wakes exactly at its deadline.
func TestNowPassesDeadlines(t *testing.T) {
	r := exploreTestdata(t, "bgloops", "TestNowAfterSleep", Options{})
	assert.Equal(t, "pass", r.Verdict(), "%v", r.Findings)
	assert.True(t, r.Complete)
}

// Early expiries take the clock at most Options.EarlyFire ahead between
// two points where everything waits: a 1ms janitor does not make each of
// the test's steps last 1ms.
func TestEarlyFireBoundsTimeAhead(t *testing.T) {
	r := exploreTestdata(t, "bgloops", "TestFastJanitor", Options{MaxExecutions: 300})
	assert.Empty(t, r.Findings)
}
