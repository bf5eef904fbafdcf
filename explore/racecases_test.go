package explore_test

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/henceforth-go/henceforth/explore"
)

// The race cases (testdata/racecases) are small tests whose bug Go itself
// shows: go test -race reports a data race for four of them, and the
// testing package panics for logafter. The explorer, with default
// options, must report the same problem on some schedule, and pass the
// fixed variant of each (the buggy test's name + "Fixed") exhaustively.

const raceCasesPath = "github.com/henceforth-go/henceforth/explore/testdata/racecases"

var raceCasesProgram struct {
	once sync.Once
	p    *explore.Program
	err  error
}

// loadRaceCases loads every race case package once per test binary.
func loadRaceCases(t testing.TB) *explore.Program {
	t.Helper()
	raceCasesProgram.once.Do(func() {
		raceCasesProgram.p, raceCasesProgram.err = explore.Load(context.Background(), explore.LoadConfig{
			Patterns: []string{"./testdata/racecases/..."},
		})
	})
	require.NoError(t, raceCasesProgram.err)
	return raceCasesProgram.p
}

// raceCase is one package of testdata/racecases.
type raceCase struct {
	pkg  string // directory name under testdata/racecases
	test string // the buggy test; test+"Fixed" is its race-free variant
	kind explore.Kind
	// For a race: the lines of x_test.go of the two accesses, smaller
	// first (the ones go test -race reports). For a panic: the message.
	lines   [2]int
	message string
}

var raceCases = []raceCase{
	// *p = 1 (line 18) against the goroutine's *p == 1 (line 13).
	{pkg: "lazyshare", test: "TestOwnerWriteIsInvisible", kind: explore.KindRace, lines: [2]int{13, 18}},
	// atomic.AddInt64 (line 14) against the plain read hits > 0 (line 17).
	{pkg: "atomicmix", test: "TestAtomicAndPlainAccess", kind: explore.KindRace, lines: [2]int{14, 17}},
	// ready = true (line 13) against !ready after the Sleep (line 16).
	{pkg: "sleephb", test: "TestSleepIsNotSynchronization", kind: explore.KindRace, lines: [2]int{13, 16}},
	// wg.Add(1) from zero (line 13) against wg.Wait() (line 21).
	{pkg: "wgaddwait", test: "TestAddConcurrentWithWaitSleep", kind: explore.KindRace, lines: [2]int{13, 21}},
	{pkg: "logafter", test: "TestLogAfterTestCompleted", kind: explore.KindPanic,
		message: "Log in goroutine after TestLogAfterTestCompleted has completed: late"},
}

// caseFile is the absolute path of a race case's test file.
func caseFile(t testing.TB, pkg string) string {
	t.Helper()
	abs, err := filepath.Abs(filepath.Join("testdata", "racecases", pkg, "x_test.go"))
	require.NoError(t, err)
	return abs
}

// describeReport prints every finding of a report, for failure messages.
func describeReport(r *explore.Report) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d executions, complete %v, bound %q, verdict %s, %d findings\n", r.Executions, r.Complete, r.Bound, r.Verdict(), len(r.Findings))
	for _, f := range r.Findings {
		fmt.Fprintf(&b, "%s\n", f)
	}
	for _, w := range r.Warnings {
		fmt.Fprintf(&b, "warning: %s\n", w)
	}
	return b.String()
}

// findingOf returns the first finding of kind k, nil if there is none.
func findingOf(r *explore.Report, k explore.Kind) *explore.Finding {
	for _, f := range r.Findings {
		if f.Kind == k {
			return f
		}
	}
	return nil
}

// checkRaceFinding asserts that f is a race between the two accesses at
// lines of file: Goroutines[0] is the later access's stack (its first
// frame at f.Pos), Goroutines[1] the earlier access's.
func checkRaceFinding(t *testing.T, f *explore.Finding, file string, lines [2]int) {
	t.Helper()
	require.GreaterOrEqual(t, len(f.Goroutines), 2, "a race finding has the stacks of both accesses:\n%s", f)
	later, earlier := f.Goroutines[0], f.Goroutines[1]
	require.NotEmpty(t, later.Frames, "the later access's stack is empty:\n%s", f)
	require.NotEmpty(t, earlier.Frames, "the earlier access's stack is empty:\n%s", f)
	require.Equal(t, file, later.Frames[0].Pos.Filename, "the later access is not in the test file:\n%s", f)
	require.Equal(t, file, earlier.Frames[0].Pos.Filename, "the earlier access is not in the test file:\n%s", f)
	require.Equal(t, f.Pos.Filename, later.Frames[0].Pos.Filename, "Finding.Pos is the later access:\n%s", f)
	require.Equal(t, f.Pos.Line, later.Frames[0].Pos.Line, "Finding.Pos is the later access:\n%s", f)
	got := []int{later.Frames[0].Pos.Line, earlier.Frames[0].Pos.Line}
	sort.Ints(got)
	require.Equal(t, lines[:], got, "the racing accesses' lines (sorted):\n%s", f)
	require.NotEqual(t, later.ID, earlier.ID, "the two accesses are by different goroutines:\n%s", f)
}

// TestRaceCases explores each case's buggy test with default options and
// expects its finding, replays the finding's token, and explores the
// fixed variant, which must pass completely.
func TestRaceCases(t *testing.T) {
	p := loadRaceCases(t)
	ctx := context.Background()
	for _, tc := range raceCases {
		t.Run(tc.pkg, func(t *testing.T) {
			file := caseFile(t, tc.pkg)
			e, err := p.Func(raceCasesPath + "/" + tc.pkg + "." + tc.test)
			require.NoError(t, err)
			r, err := p.Explore(ctx, e, explore.Options{})
			require.NoError(t, err)
			t.Logf("%s: %s", tc.test, describeReport(r))
			f := findingOf(r, tc.kind)
			require.NotNil(t, f, "no %s finding for %s with default options:\n%s", tc.kind, tc.test, describeReport(r))
			require.Equal(t, "fail", r.Verdict())
			if tc.kind == explore.KindRace {
				checkRaceFinding(t, f, file, tc.lines)
			} else {
				require.Contains(t, f.Message, tc.message, "%s", f)
			}
			require.NotEmpty(t, f.Replay, "the finding has no replay token:\n%s", f)

			// The token replays one execution with the same finding.
			rr, err := p.Explore(ctx, e, explore.Options{Replay: f.Replay})
			require.NoError(t, err, "replaying %s", f.Replay)
			require.Equal(t, 1, rr.Executions)
			g := findingOf(rr, tc.kind)
			require.NotNil(t, g, "the replay did not reproduce the %s:\n%s", tc.kind, describeReport(rr))
			require.Equal(t, f.Message, g.Message)
			require.Equal(t, f.Pos, g.Pos)
			require.Equal(t, f.Steps, g.Steps)
			require.Equal(t, f.Trace, g.Trace)
			if tc.kind == explore.KindRace {
				checkRaceFinding(t, g, file, tc.lines)
				require.Equal(t, f.Goroutines[1].Frames[0].Pos, g.Goroutines[1].Frames[0].Pos, "the replay has the same earlier access")
			}

			// The fixed variant is race-free and passes on every schedule.
			fixed, err := p.Func(raceCasesPath + "/" + tc.pkg + "." + tc.test + "Fixed")
			require.NoError(t, err)
			fr, err := p.Explore(ctx, fixed, explore.Options{})
			require.NoError(t, err)
			require.Empty(t, fr.Findings, "the fixed variant has findings:\n%s", describeReport(fr))
			require.True(t, fr.Complete, "the fixed variant's exploration is incomplete:\n%s", describeReport(fr))
			require.Equal(t, "pass", fr.Verdict(), "%s", describeReport(fr))
		})
	}
}
