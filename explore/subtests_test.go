package explore

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// subtestEntries returns the explorations Program.Subtests makes of the
// test of testdata/subtests that run selects.
func subtestEntries(t *testing.T, test, run string) (*Program, []*Entry) {
	t.Helper()
	p := loadPatterns(t, "./testdata/subtests")
	e, err := p.Func(testdataPath + "/subtests." + test)
	require.NoError(t, err)
	var rp *RunPattern
	if run != "" {
		rp, err = ParseRun(run)
		require.NoError(t, err)
	}
	es, err := p.Subtests(context.Background(), e, rp, Options{})
	require.NoError(t, err)
	return p, es
}

func testNamesOf(es []*Entry) []string {
	var names []string
	for _, e := range es {
		names = append(names, e.TestName())
	}
	return names
}

// A table test of 12 subtests is bounded explored whole; each of its
// subtests completes on its own, within the same budget.
func TestSubtestsTable(t *testing.T) {
	p, es := subtestEntries(t, "TestTable", "")
	require.Len(t, es, 12)
	assert.Equal(t, "TestTable/mutex_counter", es[0].TestName())
	assert.Equal(t, "TestTable/mutex_counter#01", es[4].TestName())
	assert.Equal(t, "TestTable/semaphore#02", es[11].TestName())
	assert.Equal(t, testdataPath+"/subtests.TestTable/channel_sum", es[1].Name)
	const budget = 100
	whole := exploreTestdata(t, "subtests", "TestTable", Options{MaxExecutions: budget})
	assert.False(t, whole.Complete)
	assert.Equal(t, "executions", whole.Bound)
	for _, e := range es {
		r, err := p.Explore(context.Background(), e, Options{MaxExecutions: budget})
		require.NoError(t, err)
		assert.Equal(t, "pass", r.Verdict(), "%s: %s", e.TestName(), reportText(r))
		assert.True(t, r.Complete, e.TestName())
		assert.Equal(t, e.Name, r.Entry)
	}
}

// A deadlock in a subtest is reported under the subtest's name, and its
// replay token reproduces it in the subtest's exploration only.
func TestSubtestsDeadlock(t *testing.T) {
	p, es := subtestEntries(t, "TestDeadlock", "")
	require.Equal(t, []string{"TestDeadlock/ok", "TestDeadlock/lock_order"}, testNamesOf(es))
	ok, err := p.Explore(context.Background(), es[0], Options{})
	require.NoError(t, err)
	assert.Equal(t, "pass", ok.Verdict())
	r, err := p.Explore(context.Background(), es[1], Options{})
	require.NoError(t, err)
	f := findKind(r, KindDeadlock)
	require.NotNil(t, f, reportText(r))
	assert.Equal(t, es[1].Name, f.Test)
	requireReplays(t, p, es[1], f)
	_, err = p.Explore(context.Background(), es[0], Options{Replay: f.Replay})
	require.ErrorIs(t, err, ErrReplayDiverged)
}

// Subtest names are testing's: spaces rewritten, duplicates suffixed,
// non-printable runes escaped.
func TestSubtestsNames(t *testing.T) {
	_, es := subtestEntries(t, "TestNames", "")
	assert.Equal(t, []string{"TestNames/dup", "TestNames/dup#01", "TestNames/dup#02", "TestNames/dup#01#01",
		"TestNames/#00", "TestNames/#01", "TestNames/a_b", "TestNames/tab_here", `TestNames/bell\a`}, testNamesOf(es))
}

// -run selects subtests level by level, as go test does.
func TestSubtestsRun(t *testing.T) {
	for _, tc := range []struct {
		test, run string
		want      []string
	}{
		{"TestTable", "TestTable/semaphore#0", []string{"TestTable/semaphore#01", "TestTable/semaphore#02"}},
		{"TestTable", "/^channel_sum$", []string{"TestTable/channel_sum"}},
		{"TestTable", "TestOther/channel", nil},
		{"TestTable", "Table/^x$|Table/^atomic_adds$", []string{"TestTable/atomic_adds"}},
		{"TestNested", "TestNested/y/1", []string{"TestNested/y/inner1"}},
		{"TestNested", "TestNested//inner0", []string{"TestNested/x/inner0", "TestNested/y/inner0"}},
		{"TestNested", "TestNested/x", []string{"TestNested/x/inner0", "TestNested/x/inner1"}},
		{"TestNoSubtests", "TestNoSubtests/x", []string{"TestNoSubtests"}},
	} {
		t.Run(tc.run, func(t *testing.T) {
			_, es := subtestEntries(t, tc.test, tc.run)
			assert.Equal(t, tc.want, testNamesOf(es))
		})
	}
}

// Nested subtests are explorations of their own, down to the leaves.
func TestSubtestsNested(t *testing.T) {
	p, es := subtestEntries(t, "TestNested", "")
	require.Equal(t, []string{"TestNested/x/inner0", "TestNested/x/inner1", "TestNested/y/inner0", "TestNested/y/inner1"}, testNamesOf(es))
	assert.Equal(t, []string{"x", "inner1"}, es[1].Path)
	r, err := p.Explore(context.Background(), es[3], Options{})
	require.NoError(t, err)
	assert.Equal(t, "pass", r.Verdict(), reportText(r))
}

// A test whose own code starts goroutines is explored whole, and says
// why; a subtest filtered out by -run below it does not run.
func TestSubtestsWhole(t *testing.T) {
	p, es := subtestEntries(t, "TestParentGoroutine", "")
	require.Len(t, es, 1)
	assert.Empty(t, es[0].Path)
	assert.Contains(t, es[0].Note, "the subtests of TestParentGoroutine are explored together with it: its code outside the subtests starts goroutines")
	r, err := p.Explore(context.Background(), es[0], Options{})
	require.NoError(t, err)
	assert.Equal(t, "pass", r.Verdict())
	assert.Contains(t, r.Warnings, es[0].Note)

	_, es = subtestEntries(t, "TestNoSubtests", "")
	require.Len(t, es, 1)
	assert.Empty(t, es[0].Note)
}

// A test whose own code depends on what its subtests do is explored
// whole; a subtest exploration in which it fails anyway reports that as
// unsupported, not as a test failure.
func TestSubtestsDependent(t *testing.T) {
	p, es := subtestEntries(t, "TestCollect", "")
	require.Equal(t, []string{"TestCollect"}, testNamesOf(es))
	assert.Contains(t, es[0].Note, "it fails outside its subtests when only TestCollect/c0 runs")
	r, err := p.Explore(context.Background(), es[0], Options{})
	require.NoError(t, err)
	assert.Equal(t, "pass", r.Verdict(), reportText(r))

	one := es[0].subtest("c1", nil)
	r, err = p.Explore(context.Background(), one, Options{})
	require.NoError(t, err)
	assert.Equal(t, "unknown", r.Verdict())
	f := findKind(r, KindUnsupported)
	require.NotNil(t, f, reportText(r))
	assert.Contains(t, f.Message, "TestCollect failed outside its subtest TestCollect/c1")
	assert.Nil(t, findKind(r, KindTestFailure))
}

// A subtest that fails alone but not after its siblings depends on them:
// its test is explored whole.
func TestSubtestsSteps(t *testing.T) {
	p, es := subtestEntries(t, "TestSteps", "")
	require.Equal(t, []string{"TestSteps"}, testNamesOf(es))
	assert.Contains(t, es[0].Note, "TestSteps/get fails when it runs alone but not after the subtests before it")
	r, err := p.Explore(context.Background(), es[0], Options{})
	require.NoError(t, err)
	require.Len(t, r.Findings, 1, reportText(r))
	assert.Equal(t, KindTestFailure, r.Findings[0].Kind)
	assert.Contains(t, r.Findings[0].Message, "TestSteps/broken: ")
	assert.NotContains(t, r.Findings[0].Message, "k not stored")
}

// Parallel subtests run concurrently with each other: their parent is
// explored whole, so races between them are found; failing subtests are
// explored one at a time.
func TestSubtestsParallelAndFailing(t *testing.T) {
	p, es := subtestEntries(t, "TestParallelSubtests", "")
	require.Equal(t, []string{"TestParallelSubtests"}, testNamesOf(es))
	assert.Contains(t, es[0].Note, "TestParallelSubtests/p0, TestParallelSubtests/p1, TestParallelSubtests/p2 call t.Parallel")
	r, err := p.Explore(context.Background(), es[0], Options{})
	require.NoError(t, err)
	assert.Equal(t, "pass", r.Verdict(), reportText(r))

	p, es = subtestEntries(t, "TestParallelRace", "")
	require.Equal(t, []string{"TestParallelRace"}, testNamesOf(es))
	r, err = p.Explore(context.Background(), es[0], Options{})
	require.NoError(t, err)
	require.NotNil(t, findKind(r, KindRace), reportText(r))
	// -run selecting one parallel subtest explores it alone, as go test
	// -run runs it.
	p, es = subtestEntries(t, "TestParallelRace", "TestParallelRace/w1")
	require.Equal(t, []string{"TestParallelRace"}, testNamesOf(es))
	r, err = p.Explore(context.Background(), es[0], Options{})
	require.NoError(t, err)
	assert.Equal(t, "pass", r.Verdict(), reportText(r))

	p, es = subtestEntries(t, "TestFailing", "")
	require.Len(t, es, 2)
	good, err := p.Explore(context.Background(), es[0], Options{})
	require.NoError(t, err)
	assert.Equal(t, "pass", good.Verdict(), reportText(good))
	bad, err := p.Explore(context.Background(), es[1], Options{})
	require.NoError(t, err)
	f := findKind(bad, KindTestFailure)
	require.NotNil(t, f, reportText(bad))
	assert.Contains(t, f.Message, "TestFailing/bad: ")
	assert.Contains(t, f.Message, "bad result")
}

// ParseRun splits at unbracketed '/' and '|', as testing does.
func TestParseRun(t *testing.T) {
	assert.Equal(t, [][]string{{"a", "b[/]", "(c/d)"}}, splitRunPattern("a/b[/]/(c/d)"))
	assert.Equal(t, [][]string{{"A", "x"}, {"B"}}, splitRunPattern(`A/x|B`))
	r, err := ParseRun("TestX/case 1")
	require.NoError(t, err)
	assert.True(t, r.Match("TestX"))
	assert.True(t, r.Match("TestX/case_1/inner"))
	assert.False(t, r.Match("TestX/other"))
	assert.False(t, r.Match("TestY"))
	_, err = ParseRun("TestX/(")
	require.Error(t, err)
}
