package explore

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// initcacheTests are the tests of testdata/initcache, in source order.
var initcacheTests = []string{
	"TestRankKnown", "TestRankUnknown", "TestCounter", "TestRacyCounter", "TestDeadlock",
	"TestLeak", "TestPanicSometimes", "TestFailsSometimes", "TestChannels", "TestSelect",
	"TestOnce", "TestRWMutex", "TestMapRace", "TestCond", "TestSubtests", "TestFatal",
	"TestSkip", "TestPipeline", "TestWaitGroupMisuse", "TestUnlockTwice",
}

// loadFresh loads the packages of patterns into a Program of the test's
// own (not the shared cached one), with machine reuse on or off.
func loadFresh(t testing.TB, reuse bool, patterns ...string) *Program {
	t.Helper()
	p, err := testLoader.Load(context.Background(), LoadConfig{Patterns: patterns})
	require.NoError(t, err)
	p.machines.off = !reuse
	return p
}

// exploreNamed explores the entry name (package-qualified under
// testdata) of p.
func exploreNamed(t testing.TB, p *Program, name string, opts Options) *Report {
	t.Helper()
	e, err := p.Func(testdataPath + "/" + name)
	require.NoError(t, err)
	r, err := p.Explore(context.Background(), e, opts)
	require.NoError(t, err)
	return comparableReport(r)
}

// comparableReport returns a copy of r without its timings and the unexported
// fields of its findings that point into the Program, so that reports of
// two Programs compare.
func comparableReport(r *Report) *Report {
	c := *r
	c.Elapsed, c.estimate = 0, 0
	c.Findings = nil
	for _, f := range r.Findings {
		fc := *f
		fc.path, fc.race = nil, nil
		c.Findings = append(c.Findings, &fc)
	}
	return &c
}

// TestMachineReuseSameReports explores the tests of packages in sequence
// on one Program, whose explorations reuse machines, and on a Program
// without reuse (every exploration on new machines, as on a fresh
// Program): the reports are the same (verdicts, executions, findings with
// their traces and replay tokens, warnings). Packages: one with a
// snapshotted initialization, one whose initialization starts a goroutine
// (not snapshotted), one whose initialization draws from math/rand (its
// snapshot carries model state), one whose dependency's initialization
// fails (its machines are not reused).
func TestMachineReuseSameReports(t *testing.T) {
	type run struct {
		name string
		opts Options
	}
	var runs []run
	strategies := []Options{
		{Strategy: DPOR, MaxExecutions: 40},
		{Strategy: Random, MaxExecutions: 15, Seed: 7},
		{Strategy: DFS, MaxExecutions: 20},
		{Strategy: DFS, MaxExecutions: 20, NoRaces: true},
	}
	tests := initcacheTests
	if testing.Short() {
		// the comparison of every entry under every strategy takes over a
		// minute under -race: -short compares fewer of initcache's tests
		// under DPOR and race-free DFS
		strategies = []Options{strategies[0], strategies[3]}
		tests = tests[:min(len(tests), 4)]
	}
	for _, opts := range strategies {
		for _, test := range tests {
			runs = append(runs, run{"initcache." + test, opts})
		}
		for _, test := range []string{"TestUsesWorker", "TestLeaks", "TestUsesWorker"} {
			runs = append(runs, run{"initleak." + test, opts})
		}
		for _, test := range []string{"TestDraws", "TestBase", "TestDraws"} {
			runs = append(runs, run{"initrand." + test, opts})
		}
		for _, fn := range []string{"Independent", "UsesDep"} {
			runs = append(runs, run{"brokeninit." + fn, opts})
		}
	}
	patterns := []string{"./testdata/initcache", "./testdata/initleak", "./testdata/initrand", "./testdata/brokeninit"}
	reused := loadFresh(t, true, patterns...)
	fresh := loadFresh(t, false, patterns...)
	for _, r := range runs {
		want := exploreNamed(t, fresh, r.name, r.opts)
		got := exploreNamed(t, reused, r.name, r.opts)
		require.Equal(t, want, got, "%s with %s", r.name, r.opts.Strategy)
	}
	assert.Positive(t, reused.machines.reused, "machines were reused")
	assert.Zero(t, fresh.machines.reused)

	// the reports found something: the comparison is not vacuous
	r := exploreNamed(t, reused, "initcache.TestRacyCounter", Options{Strategy: DPOR})
	require.NotEmpty(t, r.Findings)
	assert.True(t, strings.HasPrefix(r.Findings[0].Message, "data race"), r.Findings[0].Message)
	// its execution restored the snapshot of a reused machine; the replay
	// that completes the report found the earlier access all the same
	require.Len(t, r.Findings[0].Goroutines, 2)
	require.NotEmpty(t, r.Findings[0].Goroutines[1].Frames)
	assert.Equal(t, testdataPath+"/initcache.(*RacyCounter).Add", r.Findings[0].Goroutines[1].Frames[0].Func)
}

// TestMachineReuseKey checks that machines are shared only among
// explorations with the same key.
func TestMachineReuseKey(t *testing.T) {
	p := loadFresh(t, true, "./testdata/initcache")
	e, err := p.Func(testdataPath + "/initcache.TestCounter")
	require.NoError(t, err)
	k1, ok := poolKey(e, &Options{})
	require.True(t, ok)
	k2, _ := poolKey(e, &Options{MapOrders: MapOffsets})
	assert.Equal(t, k1, k2, "the default map order is offsets")
	for _, o := range []Options{{Shared: true}, {NoRaces: true}, {MapOrders: MapPermutations}, {Seed: 1}, {MaxSteps: 10}, {MaxLoop: 10}, {EarlyFire: -1}} {
		k, ok := poolKey(e, &o)
		require.True(t, ok)
		assert.NotEqual(t, k1, k, "%+v", o)
	}
	_, ok = poolKey(e, &Options{observer: quietObserver{}})
	assert.False(t, ok, "observers are not pooled")
	_, ok = poolKey(e, &Options{Inputs: map[string]any{}})
	assert.False(t, ok, "inputs are not pooled")

	m := p.acquireMachine(e, &Options{})
	p.releaseMachine(m)
	assert.NotSame(t, m, p.acquireMachine(e, &Options{Shared: true}), "another key")
	assert.Same(t, m, p.acquireMachine(e, &Options{}), "the same key")
}

// BenchmarkMachineReuse explores the 20 tests of testdata/initcache in
// sequence on one Program (DPOR, at most 50 executions each), with and
// without machine reuse. Metric: wall ns per exploration.
func BenchmarkMachineReuse(b *testing.B) {
	for _, reuse := range []bool{false, true} {
		b.Run(map[bool]string{false: "fresh", true: "reuse"}[reuse], func(b *testing.B) {
			p := loadFresh(b, reuse, "./testdata/initcache")
			var entries []*Entry
			for _, test := range initcacheTests {
				e, err := p.Func(testdataPath + "/initcache." + test)
				require.NoError(b, err)
				entries = append(entries, e)
			}
			b.ResetTimer()
			for range b.N {
				for _, e := range entries {
					_, err := p.Explore(context.Background(), e, Options{Strategy: DPOR, MaxExecutions: 50})
					require.NoError(b, err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(entries)), "ns/exploration")
		})
	}
}
