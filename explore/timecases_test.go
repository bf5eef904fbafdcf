package explore

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

// The time cases (testdata/timecases) are tests whose bug depends on what
// real timers allow: a tick that arrives while another goroutine holds a
// lock, a poller that never blocks while the test sleeps, a poller that
// would take a whole execution. The explorer, with default options, must
// report them, and must not report a timeout that only a stalled machine
// would hit.

// exploreTimeCase explores one test of testdata/timecases/pkg.
func exploreTimeCase(t *testing.T, pkg, test string, opts Options) *Report {
	t.Helper()
	p := loadPatterns(t, "./testdata/timecases/...")
	e, err := p.Func(testdataPath + "/timecases/" + pkg + "." + test)
	require.NoError(t, err)
	r, err := p.Explore(context.Background(), e, opts)
	require.NoError(t, err)
	return r
}

// goroutineAt reports whether a finding's goroutine stacks hold one
// blocked at line of x_test.go.
func goroutineAt(f *Finding, line int) bool {
	for _, g := range f.Goroutines {
		if len(g.Frames) > 0 && g.Frames[0].Pos.Line == line {
			return true
		}
	}
	return false
}

func TestTimeCases(t *testing.T) {
	t.Run("tick while a lock is held", func(t *testing.T) {
		// the tick arrives after the main goroutine's Lock (line 30):
		// the producer takes it and blocks in Lock (line 22), the main
		// goroutine in its send (line 31)
		r := exploreTimeCase(t, "tickquiet2", "TestTickWhileProducerHoldsLockTwice", Options{})
		f := findKind(r, KindDeadlock)
		require.NotNil(t, f, "%v", r.Findings)
		require.True(t, r.Complete, "bound %q", r.Bound)
		require.Equal(t, "all goroutines are blocked forever: the timers still set wake none of them (go test hangs until its -timeout)", f.Message)
		require.True(t, goroutineAt(f, 22) && goroutineAt(f, 31), "%v", f)
		require.Contains(t, fmt.Sprint(f.Trace), "clock advances to +1ns")

		r = exploreTimeCase(t, "tickquiet2", "TestTickWhileProducerHoldsLockTwiceFixed", Options{})
		require.Equal(t, "pass", r.Verdict(), "%v", r.Findings)
		require.True(t, r.Complete)
	})
	t.Run("timers only when blocked", func(t *testing.T) {
		// with EarlyFire negative, timers fire only when nothing else
		// can move (testing/synctest's clock): the tick never comes
		// while the lock is held
		r := exploreTimeCase(t, "tickquiet2", "TestTickWhileProducerHoldsLockTwice", Options{EarlyFire: -1})
		require.Equal(t, "pass", r.Verdict(), "%v", r.Findings)
	})
	t.Run("busy poller and a sleep", func(t *testing.T) {
		// the poller never blocks; the clock still advances, the Sleep
		// returns and the write (line 24) races with the poller's read
		// (line 19)
		r := exploreTimeCase(t, "spinclock", "TestPollerStarvesTheClock", Options{})
		f := findKind(r, KindRace)
		require.NotNil(t, f, "%v", r.Findings)
		require.True(t, r.Complete, "bound %q", r.Bound)
		require.Contains(t, f.Message, "x_test.go:19")
		require.Contains(t, f.Message, "x_test.go:24")
	})
	t.Run("busy poller hides a deadlock", func(t *testing.T) {
		r := exploreTimeCase(t, "poller", "TestPollerHidesDeadlock", Options{})
		f := findKind(r, KindDeadlock)
		require.NotNil(t, f, "%v", r.Findings)
		require.True(t, r.Complete, "bound %q", r.Bound)
		require.True(t, goroutineAt(f, 22) && goroutineAt(f, 26), "%v", f)
		require.LessOrEqual(t, r.Executions, 10)
	})
	t.Run("blocked while a ticker runs", func(t *testing.T) {
		r := exploreTimeCase(t, "tickhang", "TestBlockedWhileTickerRuns", Options{})
		f := findKind(r, KindDeadlock)
		require.NotNil(t, f, "%v", r.Findings)
		require.Contains(t, f.Message, "the timers still set wake none of them")
	})
	t.Run("timeout", func(t *testing.T) {
		r := exploreTimeCase(t, "timeout", "TestWorkBeforeTimeout", Options{})
		require.Equal(t, "pass", r.Verdict(), "%v", r.Findings)
		require.True(t, r.Complete)
		r = exploreTimeCase(t, "timeout", "TestWorkStuckTimeout", Options{})
		f := findKind(r, KindTestFailure)
		require.NotNil(t, f, "%v", r.Findings)
		require.Equal(t, "x_test.go:40: timeout", f.Message)
	})
	t.Run("tick while a lock is held, ten rounds", func(t *testing.T) {
		if testing.Short() {
			t.Skip("thousands of executions; tickquiet2 is the same bug in two rounds")
		}
		r := exploreTimeCase(t, "tickquiet", "TestTickWhileProducerHoldsLock", Options{StopAtFirst: true})
		require.NotNil(t, findKind(r, KindDeadlock), "%v", r.Findings)
	})
}
