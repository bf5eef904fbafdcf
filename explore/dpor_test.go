package explore

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// outcomes returns the distinct messages of the findings, with the
// variants of each test failure.
func outcomes(r *Report) []string {
	var out []string
	for _, f := range r.Findings {
		out = append(out, f.Message)
		out = append(out, f.Variants...)
	}
	sort.Strings(out)
	return slices.Compact(out)
}

// TestDPORReachesEveryOutcome checks partial-order reduction against
// plain DFS: every outcome DFS observes, DPOR observes too, with no more
// executions, and exactly one execution per happens-before class.
func TestDPORReachesEveryOutcome(t *testing.T) {
	for _, name := range []string{"MutexOrder", "FanIn", "Buffered", "RWMutex", "CAS", "SelectMany", "Partners", "Once", "Broadcast", "CloseRace", "ChanLock", "MutexDone", "WGDone", "WGWaiters"} {
		t.Run(name, func(t *testing.T) {
			if testing.Short() && name == "RWMutex" {
				t.Skip("plain DFS explores 5864 schedules")
			}
			dfs := runFunc(t, "outcomes", name, Options{Strategy: DFS, CountClasses: true})
			dpor := runFunc(t, "outcomes", name, Options{Strategy: DPOR, CountClasses: true})
			t.Logf("DFS: %d executions, %d classes; DPOR: %d executions, %d classes, %d pruned; outcomes %v",
				dfs.Executions, dfs.Classes, dpor.Executions, dpor.Classes, dpor.Pruned, outcomes(dfs))
			require.True(t, dfs.Complete)
			require.True(t, dpor.Complete)
			require.Equal(t, outcomes(dfs), outcomes(dpor))
			require.LessOrEqual(t, dpor.Executions, dfs.Executions)
			require.Equal(t, dfs.Classes, dpor.Classes, "DPOR must cover every happens-before class")
			require.Equal(t, dpor.Classes, dpor.Executions, "one execution per class")
		})
	}
}

// TestDPORChannelPhilosophers: three philosophers whose forks are
// buffered channels used as locks (the reduction benchmark's kernel).
// DPOR once reached 3 of its 36 happens-before classes: a blocked fork
// acquisition never raced with the acquisition that blocked it.
func TestDPORChannelPhilosophers(t *testing.T) {
	p := loadBench(t)
	e, err := p.Func(benchPath + ".Philosophers3")
	require.NoError(t, err)
	dfs, err := p.Explore(context.Background(), e, Options{Strategy: DFS, CountClasses: true})
	require.NoError(t, err)
	dpor, err := p.Explore(context.Background(), e, Options{Strategy: DPOR, CountClasses: true})
	require.NoError(t, err)
	t.Logf("DFS: %d executions, %d classes; DPOR: %d executions, %d classes, %d pruned",
		dfs.Executions, dfs.Classes, dpor.Executions, dpor.Classes, dpor.Pruned)
	require.True(t, dfs.Complete)
	require.True(t, dpor.Complete)
	require.Equal(t, 36, dfs.Classes)
	require.Equal(t, dfs.Classes, dpor.Classes, "DPOR must cover every happens-before class")
	require.Equal(t, dpor.Classes, dpor.Executions, "one execution per class")
	for _, w := range []int{2, 3} {
		par, err := p.Explore(context.Background(), e, Options{Strategy: DPOR, CountClasses: true, Workers: w})
		require.NoError(t, err)
		require.True(t, par.Complete)
		require.Equal(t, dfs.Classes, par.Classes, "workers %d", w)
	}
}

// TestDPORSharedChannelForks: with Options.Shared, channel forks whose
// goroutines first read their captured forks (shared reads, independent
// of everything else). Every execution with Shared projects to one
// without (drop the reads), and here the reads are ordered only after
// main's writes (through the go statements), so the happens-before
// classes with Shared are those without: the 6 orders of the fork
// acquisitions (ChanForksShared), the 36 classes of the reduction
// benchmark's three channel philosophers. DPOR with Shared once explored
// 5 of the 6 (and 30 of the 36): a race's reversal was given to the
// racing goroutine's earlier transition, which was not an initial of the
// reversed sequence and was asleep (addBacktrackTo).
func TestDPORSharedChannelForks(t *testing.T) {
	plain := runFunc(t, "outcomes", "ChanForksShared", Options{Strategy: DPOR, CountClasses: true})
	require.True(t, plain.Complete)
	require.Equal(t, 6, plain.Classes)
	require.Equal(t, plain.Classes, plain.Executions, "one execution per class")
	for _, w := range []int{1, 2} {
		shared := runFunc(t, "outcomes", "ChanForksShared", Options{Strategy: DPOR, CountClasses: true, Shared: true, Workers: w})
		t.Logf("workers %d: without Shared %d executions, %d classes, %d pruned; with Shared %d executions, %d classes, %d pruned",
			w, plain.Executions, plain.Classes, plain.Pruned, shared.Executions, shared.Classes, shared.Pruned)
		require.True(t, shared.Complete)
		require.Equal(t, plain.Classes, shared.Classes, "workers %d: DPOR with Shared must cover every fork order", w)
		if w == 1 {
			require.Equal(t, shared.Classes, shared.Executions, "one execution per class")
		}
	}

	p := loadBench(t)
	e, err := p.Func(benchPath + ".Philosophers3")
	require.NoError(t, err)
	for _, w := range []int{1, 2} {
		shared, err := p.Explore(context.Background(), e, Options{Strategy: DPOR, CountClasses: true, Shared: true, Workers: w})
		require.NoError(t, err)
		t.Logf("philosophers 3, Shared, workers %d: %d executions, %d classes, %d pruned", w, shared.Executions, shared.Classes, shared.Pruned)
		require.True(t, shared.Complete)
		require.Equal(t, 36, shared.Classes, "workers %d", w)
		if w == 1 {
			require.Equal(t, shared.Classes, shared.Executions, "one execution per class")
		}
	}
}

// TestParallelDFSExploresTheSameTree: with two workers DFS explores the
// same executions and finds the same outcomes as with one.
func TestParallelDFSExploresTheSameTree(t *testing.T) {
	for _, name := range []string{"MutexOrder", "Partners", "CAS"} {
		t.Run(name, func(t *testing.T) {
			one := runFunc(t, "outcomes", name, Options{Strategy: DFS})
			two := runFunc(t, "outcomes", name, Options{Strategy: DFS, Workers: 2})
			require.True(t, two.Complete)
			require.Equal(t, one.Executions, two.Executions)
			require.Equal(t, outcomes(one), outcomes(two))
		})
	}
	// Bounds still hold.
	r := runFunc(t, "outcomes", "MutexOrder", Options{Strategy: DFS, Workers: 2, MaxExecutions: 10})
	require.Equal(t, 10, r.Executions)
	require.Equal(t, "executions", r.Bound)
}

// findingKeys describes findings by what must not depend on timing: kind,
// message, position and steps (of the shortest execution showing it).
func findingKeys(r *Report) []string {
	var out []string
	for _, f := range r.Findings {
		out = append(out, fmt.Sprintf("%s|%s|%s|%d", f.Kind, f.Message, f.Pos, f.Steps))
	}
	sort.Strings(out)
	return out
}

// TestParallelDPORReachesEveryClass: with 2 and 3 workers DPOR reaches
// every happens-before class and every finding of sequential DPOR and of
// DFS (the shortest of each, same steps), explores at least one execution
// per class (duplicates are allowed and logged), and its replay tokens
// reproduce their findings.
func TestParallelDPORReachesEveryClass(t *testing.T) {
	for _, name := range []string{"MutexOrder", "FanIn", "Buffered", "RWMutex", "CAS", "SelectMany", "Partners", "Once", "Broadcast", "CloseRace", "ChanLock", "MutexDone", "WGDone", "WGWaiters"} {
		t.Run(name, func(t *testing.T) {
			seq := runFunc(t, "outcomes", name, Options{Strategy: DPOR, CountClasses: true})
			require.True(t, seq.Complete)
			// (TestDPORReachesEveryOutcome compares sequential DPOR with
			// DFS on the two programs where DFS takes seconds.)
			if name != "MutexOrder" && name != "RWMutex" {
				dfs := runFunc(t, "outcomes", name, Options{Strategy: DFS, CountClasses: true})
				require.Equal(t, findingKeys(dfs), findingKeys(seq))
				require.Equal(t, dfs.Classes, seq.Classes)
			}
			workers := []int{2, 3}
			if testing.Short() {
				workers = workers[1:] // -race -short: the three-worker race is the harder one
			}
			for _, w := range workers {
				par := runFunc(t, "outcomes", name, Options{Strategy: DPOR, CountClasses: true, Workers: w})
				t.Logf("workers %d: %d executions (sequential %d), %d classes, %d pruned (sequential %d)",
					w, par.Executions, seq.Executions, par.Classes, par.Pruned, seq.Pruned)
				require.True(t, par.Complete)
				require.Empty(t, par.Bound)
				require.GreaterOrEqual(t, par.Classes, seq.Classes, "every happens-before class")
				require.Equal(t, findingKeys(seq), findingKeys(par))
				require.GreaterOrEqual(t, par.Executions, par.Classes)
				for _, f := range par.Findings {
					rr := runFunc(t, "outcomes", name, Options{Replay: f.Replay})
					require.Contains(t, findingKeys(rr), fmt.Sprintf("%s|%s|%s|%d", f.Kind, f.Message, f.Pos, f.Steps))
				}
			}
		})
	}
}

// TestParallelDPORBounds: MaxExecutions, StopAtFirst, a cancelled
// context and a timeout end a parallel DPOR exploration as they end a
// sequential one, and an incomplete exploration never passes.
func TestParallelDPORBounds(t *testing.T) {
	r := runFunc(t, "outcomes", "RWMutex", Options{Strategy: DPOR, Workers: 2, MaxExecutions: 5})
	require.Equal(t, 5, r.Executions+r.Pruned)
	require.Equal(t, "executions", r.Bound)
	require.False(t, r.Complete)
	require.NotEqual(t, "pass", r.Verdict())

	r = runFunc(t, "outcomes", "MutexOrder", Options{Strategy: DPOR, Workers: 2, StopAtFirst: true})
	require.NotEmpty(t, r.Findings)
	all := runFunc(t, "outcomes", "MutexOrder", Options{Strategy: DPOR, Workers: 2})
	require.Less(t, r.Executions, all.Executions)

	p := load(t)
	e, err := p.Func(testdataPath + "/outcomes.RWMutex")
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r, err = p.Explore(ctx, e, Options{Strategy: DPOR, Workers: 3})
	require.NoError(t, err)
	require.Equal(t, "time", r.Bound)
	require.Equal(t, 0, r.Executions)
	require.Equal(t, "unknown", r.Verdict())

	r, err = p.Explore(context.Background(), e, Options{Strategy: DPOR, Workers: 2, Timeout: time.Nanosecond})
	require.NoError(t, err)
	require.Equal(t, "time", r.Bound)
	require.Equal(t, "unknown", r.Verdict())
}

// TestParallelDPORExamples: on the examples (deadlocks, leaks, panics,
// test failures, races on shared memory) and their fixed versions, two
// workers give the findings, classes, completeness and verdict of one,
// and the replay tokens of their findings reproduce them.
func TestParallelDPORExamples(t *testing.T) {
	p := load(t)
	for _, pkg := range []string{"abba", "timeoutleak", "waitgroup", "condsignal", "doubleclose", "ctxcancel", "philosophers", "singleton", "counter"} {
		for _, fn := range []string{"Scenario", "TestFixed"} {
			t.Run(pkg+"/"+fn, func(t *testing.T) {
				e, err := p.Func(examplesPath + "/" + pkg + "." + fn)
				require.NoError(t, err)
				opts := Options{Strategy: DPOR, CountClasses: true, Shared: pkg == "singleton" || pkg == "counter", NoSpecs: pkg == "singleton"}
				seq, err := p.Explore(context.Background(), e, opts)
				require.NoError(t, err)
				opts.Workers = 2
				par, err := p.Explore(context.Background(), e, opts)
				require.NoError(t, err)
				t.Logf("sequential: %d executions, %d classes, %d pruned; 2 workers: %d executions, %d classes, %d pruned",
					seq.Executions, seq.Classes, seq.Pruned, par.Executions, par.Classes, par.Pruned)
				require.Equal(t, seq.Complete, par.Complete)
				require.Equal(t, seq.Bound, par.Bound)
				require.Equal(t, seq.Verdict(), par.Verdict())
				require.GreaterOrEqual(t, par.Classes, seq.Classes)
				require.Equal(t, findingKeys(seq), findingKeys(par))
				for _, f := range par.Findings {
					o := opts
					o.Workers, o.Replay = 1, f.Replay
					rr, err := p.Explore(context.Background(), e, o)
					require.NoError(t, err)
					require.Contains(t, findingKeys(rr), fmt.Sprintf("%s|%s|%s|%d", f.Kind, f.Message, f.Pos, f.Steps))
				}
			})
		}
	}
}

// TestParallelDPORDiners: on four philosophers with sync.Mutex forks
// (425 classes, 1145 before the Done calls that do not reach zero were
// independent; 24 meal orders) 2 and 3 workers reach every class and
// outcome of sequential DPOR, in each of several runs. (A version that
// put to sleep only siblings whose subtrees were finished missed 6
// classes in about half the runs here.)
func TestParallelDPORDiners(t *testing.T) {
	seq := runFunc(t, "outcomes", "Diners", Options{Strategy: DPOR, CountClasses: true})
	require.True(t, seq.Complete)
	require.Len(t, outcomes(seq), 24)
	workers := []int{2, 3, 2, 3}
	if testing.Short() {
		workers = workers[:2] // -race -short: each run of 2 or 3 workers once
	}
	for _, w := range workers {
		par := runFunc(t, "outcomes", "Diners", Options{Strategy: DPOR, CountClasses: true, Workers: w})
		t.Logf("%d workers: %d executions, %d classes, %d pruned (sequential %d, %d, %d)",
			w, par.Executions, par.Classes, par.Pruned, seq.Executions, seq.Classes, seq.Pruned)
		require.True(t, par.Complete)
		require.GreaterOrEqual(t, par.Classes, seq.Classes)
		require.Equal(t, findingKeys(seq), findingKeys(par))
		require.Equal(t, outcomes(seq), outcomes(par))
	}
}

// TestParallelDPORSymbolic: symbolic explorations (one solver session per
// worker) give the same paths and findings with 2 workers as with one.
func TestParallelDPORSymbolic(t *testing.T) {
	p := load(t)
	for _, name := range []string{"absdiff.AbsDiffWrap", "multiinstance.Run"} {
		e, err := p.Func(symExamples + "/" + name)
		require.NoError(t, err)
		// DPOR itself, not Auto, whose time shares would make
		// completeness depend on the machine's load
		one, err := p.Explore(context.Background(), e, Options{Strategy: DPOR})
		require.NoError(t, err)
		two, err := p.Explore(context.Background(), e, Options{Strategy: DPOR, Workers: 2})
		require.NoError(t, err)
		require.True(t, two.Complete)
		require.Equal(t, one.Executions, two.Executions, name)
		require.Equal(t, findingKeys(one), findingKeys(two), name)
		require.NotEmpty(t, two.Findings[0].Inputs)
	}
}

// TestMaxExecutionsExcludesPruned: the executions DPOR prunes as
// redundant (sleep-set-blocked) do not count toward Options.MaxExecutions,
// and the suggestion of a cut exploration says how many there were.
func TestMaxExecutionsExcludesPruned(t *testing.T) {
	p := loadBench(t)
	e, err := p.Func(benchPath + ".Philosophers3")
	require.NoError(t, err)
	explore := func(max int) *Report {
		r, err := p.Explore(context.Background(), e, Options{Strategy: DPOR, MaxExecutions: max})
		require.NoError(t, err)
		return r
	}
	full := explore(0)
	require.True(t, full.Complete)
	require.Equal(t, "pass", full.Verdict())
	require.Positive(t, full.Pruned)

	r := explore(20)
	require.Equal(t, "executions", r.Bound)
	require.Equal(t, "unknown", r.Verdict())
	require.Equal(t, 20, r.Executions, "the bound counts complete executions only")
	require.Positive(t, r.Pruned, "Philosophers3 prunes within its first 20 executions")
	require.Contains(t, r.Suggestion, fmt.Sprintf("the executions bound (20) was reached (not counting %s DPOR pruned as redundant) after 20 executions of dpor", plural(r.Pruned, "execution")))

	// a bound of the complete executions runs them all, and every pruned
	// one before the last complete one
	r = explore(full.Executions)
	require.Equal(t, full.Executions, r.Executions)
	require.Greater(t, r.Executions+r.Pruned, full.Executions)
	// one more lets DPOR complete
	r = explore(full.Executions + 1)
	require.True(t, r.Complete)
	require.Equal(t, full.Executions, r.Executions)
	require.Equal(t, full.Pruned, r.Pruned)
}
