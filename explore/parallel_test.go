package explore

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The parallel tests (testdata/parallel): subtests that call t.Parallel
// run concurrently after their parent's function returned, and the
// parent's cleanups run after all of them, as go test runs them; the
// explorer interleaves them (races and order-dependent failures between
// parallel subtests are found) and orders them for the race detector as
// package testing's channels do.

const parallelPath = testdataPath + "/parallel"

func loadParallel(t testing.TB) *Program {
	t.Helper()
	return loadPatterns(t, "./testdata/parallel")
}

func parallelLine(t *testing.T, marker string) int {
	t.Helper()
	return atLine(t, filepath.Join("testdata", "parallel", "parallel_test.go"), marker)
}

func exploreParallel(t *testing.T, test string, opts Options) (*Program, *Entry, *Report) {
	t.Helper()
	p := loadParallel(t)
	e, err := p.Func(parallelPath + "." + test)
	require.NoError(t, err)
	r, err := p.Explore(context.Background(), e, opts)
	require.NoError(t, err)
	return p, e, r
}

// requireReplays checks that f's replay token reproduces it in one
// execution.
func requireReplays(t *testing.T, p *Program, e *Entry, f *Finding) {
	t.Helper()
	require.NotEmpty(t, f.Replay)
	rr, err := p.Explore(context.Background(), e, Options{Replay: f.Replay})
	require.NoError(t, err)
	require.Equal(t, 1, rr.Executions)
	g := findMessage(rr, f.Kind, f.Message)
	require.NotNil(t, g, "the replay did not reproduce the finding; findings:\n%s", reportText(rr))
	require.Equal(t, f.Pos, g.Pos)
	require.Equal(t, f.Trace, g.Trace)
}

// Two parallel subtests writing a shared variable race (the default
// exploration finds it; its token replays it); with a mutex they pass.
func TestParallelSubtestsRace(t *testing.T) {
	for _, tc := range []struct {
		test   string
		a, b   string // markers of the racing accesses
		ak, bk string // their kinds
	}{
		{"TestParallelRace", "raceb", "racea", "read", "write"},
		// t.Run's return is ordered after what the subtest did before
		// t.Parallel, not after what it does later.
		{"TestParallelRaceWithParentGoroutine", "goracesub", "goracego", "write", "write"},
	} {
		t.Run(tc.test, func(t *testing.T) {
			p, e, r := exploreParallel(t, tc.test, Options{})
			require.Equal(t, "fail", r.Verdict())
			require.Len(t, r.Findings, 1, "%s", reportText(r))
			f := r.Findings[0]
			require.Equal(t, KindRace, f.Kind, "%s", f)
			a, b := parallelLine(t, tc.a), parallelLine(t, tc.b)
			require.Contains(t, f.Message, fmt.Sprintf("%s parallel.shared at parallel_test.go:%d", tc.ak, a), "%s", f)
			require.Contains(t, f.Message, fmt.Sprintf("%s parallel.shared at parallel_test.go:%d", tc.bk, b), "%s", f)
			require.Equal(t, a, f.Pos.Line, "%s", f)
			requireReplays(t, p, e, f)
		})
	}
	_, _, r := exploreParallel(t, "TestParallelRaceFixed", Options{})
	require.Empty(t, r.Findings, "%s", reportText(r))
	require.True(t, r.Complete)
	require.Equal(t, "pass", r.Verdict())
}

// Both orders of two parallel subtests are explored: the order the
// parent's cleanup rejects is found (and replays); three subtests give
// six orders, one execution each with DPOR, the same findings with DFS
// and with two workers.
func TestParallelSubtestsOrder(t *testing.T) {
	p, e, r := exploreParallel(t, "TestParallelOrder", Options{})
	require.Equal(t, "fail", r.Verdict())
	require.True(t, r.Complete)
	f := findMessage(r, KindTestFailure, fmt.Sprintf("parallel_test.go:%d: order [b a], want [a b]", parallelLine(t, "order")))
	require.NotNil(t, f, "%s", reportText(r))
	require.Len(t, r.Findings, 1, "%s", reportText(r))
	requireReplays(t, p, e, f)

	var want []string
	for _, o := range [][]string{{"a", "b", "c"}, {"a", "c", "b"}, {"b", "a", "c"}, {"b", "c", "a"}, {"c", "a", "b"}, {"c", "b", "a"}} {
		want = append(want, fmt.Sprintf("order %v", o))
	}
	for _, opts := range []Options{{}, {Strategy: DFS}, {Workers: 2}} {
		_, _, r := exploreParallel(t, "TestParallelThreeOrders", opts)
		require.True(t, r.Complete)
		var got []string
		require.Len(t, r.Findings, 1, "one failing call")
		for _, f := range r.Findings {
			require.Equal(t, KindTestFailure, f.Kind, "%s", f)
			for _, v := range f.Variants {
				_, msg, ok := strings.Cut(v, ": ")
				require.True(t, ok, "%s", f)
				got = append(got, msg)
			}
		}
		slices.Sort(got)
		require.Equal(t, want, got, "%+v", opts)
		if opts.Strategy == "" && opts.Workers == 0 {
			require.Equal(t, 6, r.Executions)
			require.Equal(t, 6, r.Findings[0].Seen, "every execution fails the same call")
		}
	}
}

// Tests that pass on every schedule (DPOR and DFS): Go's order (the
// parent's code after t.Run before the parallel subtests' bodies, t.Run's
// results, the parent's cleanups after the subtests), nested parallel
// subtests, a parallel top-level test, subtests that are not parallel
// (sequential: no race between them).
func TestParallelSubtestsPass(t *testing.T) {
	for _, test := range []string{"TestParallelGoOrder", "TestNestedParallel", "TestTopLevelParallel", "TestSequentialSubtests", "TestParallelRaceFixed"} {
		for _, s := range []Strategy{DPOR, DFS} {
			t.Run(fmt.Sprintf("%s/%v", test, s), func(t *testing.T) {
				_, _, r := exploreParallel(t, test, Options{Strategy: s})
				require.Empty(t, r.Findings, "%s", reportText(r))
				require.True(t, r.Complete)
				require.Equal(t, "pass", r.Verdict())
			})
		}
	}
}

// Go's reports: t.Parallel twice panics (in a subtest and in the top-level
// test), runtime.Goexit in a parallel subtest panics; t.Run returns false
// for a subtest that failed before t.Parallel; parallel subtests still run
// after the parent called FailNow.
func TestParallelSubtestsMisuse(t *testing.T) {
	for _, tc := range []struct {
		test, message, marker string
	}{
		{"TestParallelTwice", "panic: testing: t.Parallel called multiple times [goroutine 2]", "twice"},
		{"TestTopLevelParallelTwice", "panic: testing: t.Parallel called multiple times [goroutine 1]", "toptwice"},
		{"TestParallelGoexit", "panic: test executed panic(nil) or runtime.Goexit [goroutine 2]", ""},
	} {
		t.Run(tc.test, func(t *testing.T) {
			p, e, r := exploreParallel(t, tc.test, Options{})
			require.Equal(t, "fail", r.Verdict())
			f := findMessage(r, KindPanic, tc.message)
			require.NotNil(t, f, "%s", reportText(r))
			if tc.marker != "" {
				require.Equal(t, parallelLine(t, tc.marker), f.Pos.Line, "%s", f)
			}
			requireReplays(t, p, e, f)
		})
	}

	_, _, r := exploreParallel(t, "TestParallelRunResult", Options{})
	require.Len(t, r.Findings, 1, "%s", reportText(r))
	require.Equal(t, KindTestFailure, r.Findings[0].Kind)
	require.Contains(t, r.Findings[0].Output, "t.Run returned false")

	_, _, r = exploreParallel(t, "TestParallelAfterParentFailNow", Options{})
	require.True(t, r.Complete)
	require.Len(t, r.Findings, 1, "%s", reportText(r))
	f := r.Findings[0]
	require.Equal(t, KindTestFailure, f.Kind)
	require.Equal(t, parallelLine(t, "failnow"), f.Pos.Line, "%s", f)
	require.Contains(t, f.Output, "the parallel subtest runs")
}
