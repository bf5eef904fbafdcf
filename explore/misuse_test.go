package explore

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The misuse tests (testdata/misuse) misuse package testing or sync in
// ways Go reports: the testing package panics (t.Log after the test
// completed…) or fails the test (a subtest calling its parent's
// FailNow), the sync package panics or throws (WaitGroup misuse, unlock
// of an unlocked mutex). The explorer must report each with Go's own
// message, at the line Go's traceback shows, with a replay token that
// reproduces it; each fixed variant must pass on every schedule.

const misusePath = testdataPath + "/misuse"

func loadMisuse(t testing.TB) *Program {
	t.Helper()
	return loadPatterns(t, "./testdata/misuse")
}

// markerLine returns the line of file (under testdata/misuse) that ends
// with text, which must be a single line.
func markerLine(t *testing.T, file, text string) int {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "misuse", file))
	require.NoError(t, err)
	line := 0
	for i, l := range strings.Split(string(b), "\n") {
		if strings.HasSuffix(strings.TrimSpace(l), text) {
			require.Zero(t, line, "%q occurs twice in %s", text, file)
			line = i + 1
		}
	}
	require.NotZero(t, line, "%q does not occur in %s", text, file)
	return line
}

type misuseCase struct {
	test    string
	kind    Kind
	message string // the finding's message: Go's, then the goroutine
	file    string // where the finding is reported ("" = misuse_test.go)
	at      string // text of the line it is reported at ("" = "// at:"+marker)
	marker  string
}

// misuseCases: each buggy test, its finding, and where Go reports it.
var misuseCases = []misuseCase{
	// A copy of the shared logafter case (without its TestMain).
	{test: "TestLogAfterTestCompleted", kind: KindPanic,
		message: "panic: Log in goroutine after TestLogAfterTestCompleted has completed: late [goroutine 2]",
		file:    "x_test.go", at: `t.Log("late")`},

	// Log, Logf, Error, Errorf, Fatal, Fatalf, Skip, Skipf after the test
	// completed: testing's log panics.
	{test: "TestLateLogf", kind: KindPanic, marker: "logf",
		message: "panic: Log in goroutine after TestLateLogf has completed: late 1 [goroutine 2]"},
	{test: "TestLateLogLines", kind: KindPanic, marker: "lines",
		message: "panic: Log in goroutine after TestLateLogLines has completed: first\n    second [goroutine 2]"},
	{test: "TestLateError", kind: KindPanic, marker: "error",
		message: "panic: Log in goroutine after TestLateError has completed: late error [goroutine 2]"},
	{test: "TestLateErrorf", kind: KindPanic, marker: "errorf",
		message: "panic: Log in goroutine after TestLateErrorf has completed: late errorf [goroutine 2]"},
	{test: "TestLateFatal", kind: KindPanic, marker: "fatal",
		message: "panic: Log in goroutine after TestLateFatal has completed: late fatal [goroutine 2]"},
	{test: "TestLateFatalf", kind: KindPanic, marker: "fatalf",
		message: "panic: Log in goroutine after TestLateFatalf has completed: late fatalf [goroutine 2]"},
	{test: "TestLateSkip", kind: KindPanic, marker: "skip",
		message: "panic: Log in goroutine after TestLateSkip has completed: late skip [goroutine 2]"},
	{test: "TestLateSkipf", kind: KindPanic, marker: "skipf",
		message: "panic: Log in goroutine after TestLateSkipf has completed: late skipf [goroutine 2]"},
	// Fail and FailNow: the outermost completed test is the run's root,
	// whose name is empty (hence the two spaces).
	{test: "TestLateFail", kind: KindPanic, marker: "fail",
		message: "panic: Fail in goroutine after  has completed [goroutine 2]"},
	{test: "TestLateFailNow", kind: KindPanic, marker: "failnow",
		message: "panic: Fail in goroutine after  has completed [goroutine 2]"},
	// Subtests: Fail names the completed subtest; Log panics only once
	// the parent completed too.
	{test: "TestLateErrorInSubtest", kind: KindPanic, marker: "suberror",
		message: "panic: Fail in goroutine after TestLateErrorInSubtest/sub has completed [goroutine 3]"},
	{test: "TestLateLogInSubtestAfterParent", kind: KindPanic, marker: "sublog",
		message: "panic: Log in goroutine after TestLateLogInSubtestAfterParent/sub has completed: late [goroutine 3]"},

	// FailNow from another goroutine: that goroutine exits, the test
	// fails (and goes on).
	{test: "TestFatalInGoroutine", kind: KindTestFailure, marker: "fatalgo",
		message: "misuse_test.go:%d: from goroutine"},
	// A subtest calls its parent's FailNow.
	{test: "TestSubtestFailNowParent", kind: KindTestFailure, marker: "parentfailnow",
		message: "TestSubtestFailNowParent/sub: misuse_test.go:%d: test executed panic(nil) or runtime.Goexit: subtest may have called FailNow on a parent test"},
	// runtime.Goexit in the test's goroutine (reported at the test
	// function: Go's panic is raised in testing.go).
	{test: "TestGoexit", kind: KindPanic, marker: "goexit",
		message: "panic: test executed panic(nil) or runtime.Goexit [goroutine 1]"},

	// sync.WaitGroup.
	{test: "TestWaitGroupNegative", kind: KindPanic, marker: "negative",
		message: "panic: sync: negative WaitGroup counter [goroutine 1]"},
	{test: "TestWaitGroupReused", kind: KindPanic, marker: "reused",
		message: "panic: sync: WaitGroup is reused before previous Wait has returned [goroutine 2]"},
	{test: "TestWaitGroupAddDuringWait", kind: KindPanic, marker: "addduringwait",
		message: "panic: sync: WaitGroup misuse: Add called concurrently with Wait [goroutine 1]"},

	// sync.Mutex and sync.RWMutex: fatal errors.
	{test: "TestUnlockOfUnlockedMutex", kind: KindPanic, marker: "unlock",
		message: "fatal error: sync: unlock of unlocked mutex [goroutine 1]"},
	{test: "TestRUnlockOfUnlockedRWMutex", kind: KindPanic, marker: "runlock",
		message: "fatal error: sync: RUnlock of unlocked RWMutex [goroutine 1]"},
	{test: "TestUnlockOfUnlockedRWMutex", kind: KindPanic, marker: "rwunlock",
		message: "fatal error: sync: Unlock of unlocked RWMutex [goroutine 1]"},
}

// misusePasses: fixed variants, and misuses Go does not report (a late
// SkipNow, a late Log of a subtest whose parent is still running, SkipNow
// from another goroutine: the test is skipped).
var misusePasses = []string{
	"TestLateLogfFixed", "TestLateFailNowFixed", "TestLateErrorInSubtestFixed",
	"TestFatalInGoroutineFixed", "TestSubtestFailNowParentFixed", "TestGoexitFixed",
	"TestWaitGroupNegativeFixed", "TestWaitGroupReusedFixed", "TestWaitGroupAddDuringWaitFixed",
	"TestUnlockOfUnlockedMutexFixed", "TestRUnlockOfUnlockedRWMutexFixed", "TestUnlockOfUnlockedRWMutexFixed",
	"TestLateSkipNow", "TestLateLogInSubtest", "TestSkipNowInGoroutine",
}

// findMessage returns the finding of kind k with message msg.
func findMessage(r *Report, k Kind, msg string) *Finding {
	for _, f := range r.Findings {
		if f.Kind == k && f.Message == msg {
			return f
		}
	}
	return nil
}

func TestMisuseFindings(t *testing.T) {
	p := loadMisuse(t)
	ctx := context.Background()
	for _, tc := range misuseCases {
		t.Run(tc.test, func(t *testing.T) {
			file, at := tc.file, tc.at
			if file == "" {
				file = "misuse_test.go"
			}
			if at == "" {
				at = "// at:" + tc.marker
			}
			line := markerLine(t, file, at)
			msg := tc.message
			if strings.Contains(msg, "%d") {
				msg = fmt.Sprintf(msg, line)
			}
			e, err := p.Func(misusePath + "." + tc.test)
			require.NoError(t, err)
			r, err := p.Explore(ctx, e, Options{})
			require.NoError(t, err)
			f := findMessage(r, tc.kind, msg)
			require.NotNil(t, f, "no %s finding %q; findings:\n%s", tc.kind, msg, reportText(r))
			require.Equal(t, "fail", r.Verdict())
			require.Equal(t, file, filepath.Base(f.Pos.Filename), "%s", f)
			require.Equal(t, line, f.Pos.Line, "%s", f)

			// The replay token reproduces the finding.
			require.NotEmpty(t, f.Replay)
			rr, err := p.Explore(ctx, e, Options{Replay: f.Replay})
			require.NoError(t, err)
			require.Equal(t, 1, rr.Executions)
			g := findMessage(rr, tc.kind, msg)
			require.NotNil(t, g, "the replay did not reproduce the finding; findings:\n%s", reportText(rr))
			require.Equal(t, f.Pos, g.Pos)
			require.Equal(t, f.Steps, g.Steps)
			require.Equal(t, f.Trace, g.Trace)
		})
	}
}

// TestMisuseFailNowGoesOn: after FailNow in another goroutine the test
// goes on (WaitGroup.Go's Done ran: no deadlock); after a subtest called
// its parent's FailNow, the parent stops at t.Run.
func TestMisuseFailNowGoesOn(t *testing.T) {
	p := loadMisuse(t)
	for _, tc := range []struct {
		test, output string
		reached      bool
	}{
		{"TestFatalInGoroutine", "the test goes on", true},
		{"TestSubtestFailNowParent", "not reached", false},
	} {
		e, err := p.Func(misusePath + "." + tc.test)
		require.NoError(t, err)
		r, err := p.Explore(context.Background(), e, Options{})
		require.NoError(t, err)
		require.True(t, r.Complete)
		require.Len(t, r.Findings, 1, "%s", reportText(r))
		require.Equal(t, KindTestFailure, r.Findings[0].Kind)
		require.Equal(t, tc.reached, strings.Contains(r.Findings[0].Output, tc.output), "%s", r.Findings[0].Output)
	}
}

func TestMisuseFixedPass(t *testing.T) {
	p := loadMisuse(t)
	for _, name := range misusePasses {
		t.Run(name, func(t *testing.T) {
			e, err := p.Func(misusePath + "." + name)
			require.NoError(t, err)
			r, err := p.Explore(context.Background(), e, Options{})
			require.NoError(t, err)
			require.Empty(t, r.Findings, "%s", reportText(r))
			require.True(t, r.Complete)
			require.Equal(t, "pass", r.Verdict())
		})
	}
}

func reportText(r *Report) string {
	var b strings.Builder
	for _, f := range r.Findings {
		b.WriteString(f.String())
		b.WriteString("\n")
	}
	return b.String()
}
