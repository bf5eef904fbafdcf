package ltltest_test

import (
	"flag"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/henceforth-go/henceforth/examples/explore/philosophers"
	"github.com/henceforth-go/henceforth/explore"
	"github.com/henceforth-go/henceforth/ltltest"
	"github.com/henceforth-go/henceforth/ltltest/testdata/explorebodies"
)

// Most tests explore functions of a small testdata package and load only
// it (bodiesPkg). TestExploreTestBody uses the default: a function literal
// of this test package, which makes Explore load the ltltest test package
// and its whole dependency graph (slow; skipped with -short).

var bodiesPkg = explore.LoadConfig{Patterns: []string{"github.com/henceforth-go/henceforth/ltltest/testdata/explorebodies"}}

// namedT is a fakeT with a test name, as *testing.T has.
type namedT struct {
	fakeT
	name string
}

func (n *namedT) Name() string { return n.name }

var tokenRE = regexp.MustCompile(`replay: (v[12]:\S+)`)

func TestExploreFindsDeadlockAndReplays(t *testing.T) {
	ft := &namedT{name: "TestDine/three"}
	ok := ltltest.Explore(ft, explorebodies.Deadlock, bodiesPkg, "dining %d", 3)
	require.False(t, ok)
	out := ft.output()
	t.Log(out)
	assert.Contains(t, out, "ltltest: the exploration found 1 problem (deadlock)")
	assert.Contains(t, out, "entry: github.com/henceforth-go/henceforth/ltltest/testdata/explorebodies.Deadlock")
	assert.Contains(t, out, "deadlock: all goroutines are asleep")
	assert.Contains(t, out, "philosophers.go:25  sync.(*Mutex).Lock", "the interleaving names the source lines")
	assert.Contains(t, out, "goroutine 2 [sync.(*Mutex).Lock]")
	assert.Contains(t, out, "with dpor, complete")
	assert.Contains(t, out, "message: dining 3")
	assert.Regexp(t, `replay with: go test -run '\^TestDine\$/\^three\$' -ltl.replay=v[12]:`, out)
	m := tokenRE.FindStringSubmatch(out)
	require.NotNil(t, m, "no replay token in the failure")
	token := m[1]

	// The token runs exactly that execution again.
	ft2 := &fakeT{}
	require.False(t, ltltest.Explore(ft2, explorebodies.Deadlock, bodiesPkg, ltltest.WithReplay(token)))
	out2 := ft2.output()
	assert.Contains(t, out2, "ltltest: the replayed execution found 1 problem (deadlock)")
	assert.Contains(t, out2, "replayed one execution")
	assert.Equal(t, interleaving(out), interleaving(out2), "the replay has the same interleaving")

	// WithReplay fails when the token is not the body's.
	ft2 = &fakeT{}
	require.False(t, ltltest.Explore(ft2, explorebodies.Fixed, bodiesPkg, ltltest.WithReplay(token)))
	assert.Contains(t, ft2.output(), "the replay token does not match this program")

	// -ltl.replay does the same for every Explore of the test.
	require.NoError(t, flag.Set(ltltest.ReplayFlag, token))
	defer func() { require.NoError(t, flag.Set(ltltest.ReplayFlag, "")) }()
	ft3 := &fakeT{}
	require.False(t, ltltest.Explore(ft3, explorebodies.Deadlock, bodiesPkg))
	assert.Equal(t, interleaving(out), interleaving(ft3.output()))
	assert.Contains(t, ft3.output(), "the replayed execution found")

	// A body the token does not belong to is explored as usual.
	ft4 := &fakeT{}
	assert.True(t, ltltest.Explore(ft4, explorebodies.Fixed, bodiesPkg), ft4.output())

	// A malformed token is an error, not a pass.
	require.NoError(t, flag.Set(ltltest.ReplayFlag, "v1:???"))
	ft5 := &fakeT{}
	assert.False(t, ltltest.Explore(ft5, explorebodies.Fixed, bodiesPkg))
	assert.Contains(t, ft5.output(), "ltltest: cannot replay -ltl.replay")
	assert.Contains(t, ft5.output(), "malformed replay token")
}

// interleaving is the part of a failure from the interleaving table to
// the replay token, execution numbers removed.
func interleaving(out string) string {
	m := regexp.MustCompile(`(?s)interleaving \(.*?\nreplay: \S+`).FindString(out)
	return regexp.MustCompile(`execution \d+`).ReplaceAllString(m, "execution N")
}

func TestExplorePasses(t *testing.T) {
	ft := &fakeT{}
	assert.True(t, ltltest.Explore(ft, explorebodies.Fixed, bodiesPkg), ft.output())
	assert.False(t, ft.failed)
	ft = &fakeT{}
	assert.True(t, ltltest.Explore(ft, explorebodies.Fixed, bodiesPkg, ltltest.WithStrategy(explore.PB), ltltest.WithPreemptions(1),
		ltltest.WithWorkers(2), ltltest.WithBounded()), ft.output())
}

func TestExploreRejectsCapturingClosure(t *testing.T) {
	ft := &fakeT{}
	assert.False(t, ltltest.Explore(ft, explorebodies.Capturing(3), bodiesPkg))
	out := ft.output()
	assert.Contains(t, out, "ltltest: cannot explore the body")
	assert.Regexp(t, `bodies\.go:\d+:\d+: .*Capturing.* captures variables of the enclosing function \(n\)`, out)

	ft = &fakeT{}
	assert.False(t, ltltest.Explore(ft, 42, bodiesPkg))
	assert.Contains(t, ft.output(), "the body must be a func(*testing.T) or a func(), not int")
}

func TestExploreBoundIsUnknown(t *testing.T) {
	ft := &fakeT{}
	assert.False(t, ltltest.Explore(ft, explorebodies.Fixed, bodiesPkg, ltltest.WithStrategy(explore.DFS), ltltest.WithMaxExecutions(2)))
	assert.Contains(t, ft.output(), "ltltest: the exploration was cut by a bound (unknown)")
	assert.Contains(t, ft.output(), "unknown: the executions bound was reached")
	assert.Contains(t, ft.output(), "incomplete: executions bound reached")

	// WithBounded accepts it; a random search is bounded by design.
	ft = &fakeT{}
	assert.True(t, ltltest.Explore(ft, explorebodies.Fixed, bodiesPkg, ltltest.WithStrategy(explore.DFS), ltltest.WithMaxExecutions(2), ltltest.WithBounded()), ft.output())
	ft = &fakeT{}
	assert.True(t, ltltest.Explore(ft, explorebodies.Fixed, bodiesPkg, ltltest.WithStrategy(explore.Random), ltltest.WithSeed(7),
		ltltest.WithMaxExecutions(20), ltltest.WithBounded()), ft.output())

	// A seeded random search finds the deadlock too; an explore.Options
	// value is the base the Options modify.
	ft = &fakeT{}
	assert.False(t, ltltest.Explore(ft, explorebodies.Deadlock, bodiesPkg,
		explore.Options{Strategy: explore.Random, Seed: 1, MaxExecutions: 200}, ltltest.WithBounded()))
	assert.Contains(t, ft.output(), "(deadlock)")
	assert.Contains(t, ft.output(), "with random")
}

func TestExploreUnsupportedIsUnknown(t *testing.T) {
	ft := &fakeT{}
	assert.False(t, ltltest.Explore(ft, explorebodies.Unsupported, bodiesPkg, ltltest.WithBounded()), "unsupported is never a pass, even WithBounded")
	assert.Contains(t, ft.output(), "ltltest: the exploration could not run the body (unknown)")
	assert.Contains(t, ft.output(), "unknown: ")
	assert.Contains(t, ft.output(), "unsupported: call of os.Getpid")
}

func TestRequireExploreStops(t *testing.T) {
	ft := &fakeT{}
	ltltest.RequireExplore(ft, explorebodies.Deadlock, bodiesPkg)
	assert.True(t, ft.failed)
	assert.True(t, ft.stopped)

	ft = &fakeT{}
	ltltest.RequireExplore(ft, explorebodies.Fixed, bodiesPkg)
	assert.False(t, ft.failed, ft.output())
	assert.False(t, ft.stopped)
}

// TestExploreTestBody is the default use: a func(*testing.T) literal of
// the test, the test's package loaded from the current directory.
func TestExploreTestBody(t *testing.T) {
	if testing.Short() {
		t.Skip("loads the ltltest test package and all its dependencies")
	}
	ft := &fakeT{}
	ok := ltltest.Explore(ft, func(t *testing.T) {
		if n := philosophers.Dine(2, true); n != 3 {
			t.Errorf("%d meals, want 3", n)
		}
	})
	assert.False(t, ok)
	assert.Contains(t, ft.output(), "ltltest: the exploration found 1 problem (test-failure)")
	assert.Regexp(t, `test-failure: explore_test\.go:\d+: 2 meals, want 3`, ft.output())
	assert.Contains(t, ft.output(), "ltltest_test.TestExploreTestBody$1")

	n := 3
	ft = &fakeT{}
	assert.False(t, ltltest.Explore(ft, func(t *testing.T) { philosophers.Dine(n, true) }))
	assert.Regexp(t, `explore_test\.go:\d+:\d+: .* captures variables of the enclosing function \(n\)`, ft.output())
}

// logT is a fakeT that records t.Logf.
type logT struct {
	fakeT
	logs []string
}

func (l *logT) Logf(format string, args ...any) {
	l.logs = append(l.logs, fmt.Sprintf(format, args...))
}

// TestExploreLogsWarnings: a passing exploration with warnings (a range
// over a map that adds entries) passes and logs them. A Lock in a String
// method called by fmt.Sprintf is an ordinary scheduling point: nothing to
// log.
func TestExploreLogsWarnings(t *testing.T) {
	lt := &logT{}
	require.True(t, ltltest.Explore(lt, explorebodies.GrowingRange, bodiesPkg), lt.output())
	logs := strings.Join(lt.logs, "\n")
	assert.Regexp(t, `ltltest: warning: \S*/bodies\.go:\d+:\d+: a range over a map visited entries added during the range`, logs)

	for _, body := range []any{explorebodies.Fixed, explorebodies.NestedLock} {
		lt = &logT{}
		require.True(t, ltltest.Explore(lt, body, bodiesPkg), lt.output())
		assert.Empty(t, lt.logs)
	}
}
