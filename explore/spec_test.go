package explore

import (
	"context"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"
)

const specsPath = testdataPath + "/specs"

var specProgram struct {
	once sync.Once
	p    *Program
	err  error
}

// loadSpecs loads the programs of the spec and scenario-search tests.
func loadSpecs(t testing.TB) *Program {
	t.Helper()
	specProgram.once.Do(func() {
		specProgram.p, specProgram.err = testLoader.Load(context.Background(), LoadConfig{
			Patterns: []string{"./testdata/specs", "./testdata/specsbad", examplesPath + "/singleton", examplesPath + "/dekker",
				"./testdata/multispec", "./testdata/transient", "./testdata/specpaths", "./testdata/session"},
		})
	})
	require.NoError(t, specProgram.err)
	return specProgram.p
}

func exploreFunc(t *testing.T, p *Program, name string, opts Options) *Report {
	t.Helper()
	e, err := p.Func(name)
	require.NoError(t, err)
	r, err := p.Explore(context.Background(), e, opts)
	require.NoError(t, err)
	return r
}

// TestSingletonSpecs: the thesis's literal spec is violated at the first
// call in every interleaving (also by the fixed program); the corrected
// spec only where both goroutines pass the nil check, and the fix passes.
func TestSingletonSpecs(t *testing.T) {
	p := loadSpecs(t)
	scenario := examplesPath + "/singleton.Scenario"
	fixed := examplesPath + "/singleton.TestFixed"

	for _, name := range []string{scenario, fixed} {
		r := exploreFunc(t, p, name, Options{Strategy: DFS, Specs: []string{"thesis"}})
		f := findKind(r, KindLTL)
		require.NotNil(t, f, "%s: the literal spec must be violated", name)
		assert.Equal(t, "ltl:spec thesis violated: G(getSingleton -> G !getSingleton)", f.Message)
		assert.Contains(t, f.Explanation, "violated at event 0 (call singleton.getSingleton")
		assert.Contains(t, f.Explanation, "why:")
	}

	r := exploreFunc(t, p, scenario, Options{Strategy: DFS, Specs: []string{"atMostOnce"}})
	f := findKind(r, KindLTL)
	require.NotNil(t, f, "the corrected spec must be violated by the race")
	t.Logf("%s", f)
	assert.Equal(t, "ltl:spec atMostOnce violated: G(getSingleton -> N G !getSingleton)", f.Message)
	assert.Contains(t, f.Explanation, "violated at event 1 (call singleton.getSingleton")
	// Two different goroutines made the two calls.
	lines := eventLines(f.Explanation)
	require.Len(t, lines, 2)
	assert.NotEqual(t, strings.Fields(lines[0])[4], strings.Fields(lines[1])[4], "calls by two goroutines:\n%s", f.Explanation)

	// Replay reproduces the violation.
	rr := exploreFunc(t, p, scenario, Options{Strategy: DFS, Specs: []string{"atMostOnce"}, Replay: f.Replay})
	g := findKind(rr, KindLTL)
	require.NotNil(t, g)
	assert.Equal(t, f.Explanation, g.Explanation)
	assert.Equal(t, f.Trace, g.Trace)

	// Violated exactly in the executions where both goroutines passed
	// the nil check, i.e. where getSingleton is called twice.
	obs := &callCounter{fn: "getSingleton"}
	r = exploreFunc(t, p, scenario, Options{Strategy: DFS, Specs: []string{"atMostOnce"}, observer: obs})
	require.True(t, r.Complete)
	require.Len(t, obs.paths, r.Executions)
	twice := 0
	for i, path := range obs.paths {
		assert.Equal(t, path.calls == 2, path.violated, "execution %d: %d calls", i+1, path.calls)
		if path.calls == 2 {
			twice++
		}
	}
	assert.Positive(t, twice)
	assert.Less(t, twice, r.Executions)

	rf := exploreFunc(t, p, fixed, Options{Strategy: DFS, Specs: []string{"atMostOnce"}})
	assert.Empty(t, rf.Findings)
	assert.Equal(t, "pass", rf.Verdict())
}

func eventLines(expl string) []string {
	var out []string
	in := false
	for _, l := range strings.Split(expl, "\n") {
		switch {
		case l == "events:":
			in = true
		case in && strings.HasPrefix(l, "  "):
			out = append(out, l)
		default:
			in = false
		}
	}
	return out
}

// callCounter counts the calls of one function per path and records
// whether the path had an ltl finding.
type callCounter struct {
	fn    string
	paths []counted
}

type counted struct {
	calls    int
	violated bool
}

func (c *callCounter) CallEvents(fn *ssa.Function) bool { return fn.Name() == c.fn }
func (c *callCounter) NewPath() pathMonitor {
	c.paths = append(c.paths, counted{})
	return &countPath{c: c, i: len(c.paths) - 1}
}

type countPath struct {
	c *callCounter
	i int
}

func (p *countPath) Event(ev *obsEvent, st obsState) *violation {
	if ev.Kind == obsCall && ev.Func.Name() == p.c.fn {
		p.c.paths[p.i].calls++
	}
	return nil
}

func (p *countPath) End(st obsState) *violation {
	p.c.paths[p.i].violated = st.(stateView).x.hasKind(KindLTL)
	return nil
}

// TestSpecStatePredicate: a state predicate over a field reached through a
// package variable, checked with DPOR (the default); the fixed program
// passes.
func TestSpecStatePredicate(t *testing.T) {
	p := loadSpecs(t)
	opts := Options{Specs: []string{"neverOverdrawn"}}
	r := exploreFunc(t, p, specsPath+".Overdraw", opts)
	f := findKind(r, KindLTL)
	require.NotNil(t, f, "findings: %v", r.Findings)
	assert.Equal(t, "ltl:spec neverOverdrawn violated: G(!overdrawn)", f.Message)
	assert.Contains(t, f.Explanation, "state")
	assert.Contains(t, f.Explanation, "{overdrawn}")
	assert.Equal(t, string(DPOR), r.Strategy)
	assert.Empty(t, r.Warnings)
	t.Logf("%s", f)

	rr := exploreFunc(t, p, specsPath+".Overdraw", Options{Specs: []string{"neverOverdrawn"}, Replay: f.Replay})
	g := findKind(rr, KindLTL)
	require.NotNil(t, g)
	assert.Equal(t, f.Explanation, g.Explanation)

	ok := exploreFunc(t, p, specsPath+".NoOverdraw", opts)
	assert.Empty(t, ok.Findings)
	assert.Equal(t, "pass", ok.Verdict())
}

// TestSpecStatementAndReturnEvents: //ltl:event statements and return
// props are events; W is weak at the end of the path.
func TestSpecStatementAndReturnEvents(t *testing.T) {
	p := loadSpecs(t)
	opts := Options{Specs: []string{"publishFirst"}}
	r := exploreFunc(t, p, specsPath+".PublishRace", opts)
	f := findKind(r, KindLTL)
	require.NotNil(t, f, "findings: %v", r.Findings)
	assert.Equal(t, "ltl:spec publishFirst violated: !consumed W published", f.Message)
	assert.Contains(t, f.Explanation, "return from specs.consume")
	t.Logf("%s", f)

	ok := exploreFunc(t, p, specsPath+".PublishOrdered", opts)
	assert.Empty(t, ok.Findings)
	assert.Equal(t, "pass", ok.Verdict())
}

// TestSpecFinalVerdict: F is strong at the end of a path: a path that ends
// before finished reaches 2 violates eventuallyDone.
func TestSpecFinalVerdict(t *testing.T) {
	p := loadSpecs(t)
	opts := Options{Specs: []string{"eventuallyDone"}}
	r := exploreFunc(t, p, specsPath+".OneWorker", opts)
	f := findKind(r, KindLTL)
	require.NotNil(t, f, "findings: %v", r.Findings)
	assert.Contains(t, f.Explanation, "the path ended after")
	assert.Contains(t, f.Explanation, "F allDone is false at 0")

	ok := exploreFunc(t, p, specsPath+".Workers", opts)
	assert.Empty(t, ok.Findings)
	assert.Equal(t, "pass", ok.Verdict())
}

// TestSpecUnsupported: specs the explorer cannot check are unsupported
// findings (verdict unknown), and an unknown spec name is an error.
func TestSpecUnsupported(t *testing.T) {
	p := loadSpecs(t)
	r := exploreFunc(t, p, testdataPath+"/specsbad.Run", Options{})
	var msgs []string
	for _, f := range r.Findings {
		if f.Kind == KindUnsupported {
			msgs = append(msgs, f.Message)
		}
	}
	require.Len(t, msgs, 2, "%v", r.Findings)
	assert.Contains(t, msgs[0], "ltl:spec alwaysPositive:")
	assert.Contains(t, msgs[0], "local variable or parameter k is not supported")
	assert.Contains(t, msgs[1], "ltl:spec startsOnce: go events (started) are not supported")
	assert.Equal(t, "unknown", r.Verdict())

	e, err := p.Func(specsPath + ".Overdraw")
	require.NoError(t, err)
	_, err = p.Explore(context.Background(), e, Options{Specs: []string{"nosuch"}})
	require.ErrorContains(t, err, `no //ltl:spec named "nosuch"`)

	// NoSpecs turns checking off.
	off := exploreFunc(t, p, testdataPath+"/specsbad.Run", Options{NoSpecs: true})
	assert.Equal(t, "pass", off.Verdict())
}

// ltlSpecs returns the names of the violated specs of a report's ltl
// findings, in order, failing on two findings of one spec.
func ltlSpecs(t *testing.T, r *Report) []string {
	t.Helper()
	var names []string
	for _, f := range r.Findings {
		if f.Kind != KindLTL {
			continue
		}
		name := strings.Fields(strings.TrimPrefix(f.Message, "ltl:spec "))[0]
		assert.NotContains(t, names, name, "one finding per spec")
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// TestSpecsJudgedSeparately: each spec is judged on its own on whole
// paths. An interleaving where the two withdrawals overlap violates
// noOverlap at the second call and goes on to overdraw the balance,
// violating neverOverdrawn; everyCallReturns holds on every path that
// ends (before, the first violation cut the path and the undecided spec
// was judged false there).
func TestSpecsJudgedSeparately(t *testing.T) {
	p := loadSpecs(t)
	entry := testdataPath + "/multispec.TestTwoWithdrawals"
	r := exploreFunc(t, p, entry, Options{})
	assert.Equal(t, string(DPOR), r.Strategy)
	assert.True(t, r.Complete)
	assert.Equal(t, []string{"neverOverdrawn", "noOverlap"}, ltlSpecs(t, r), "findings: %v", r.Findings)
	assert.Len(t, r.Findings, 2)
	for _, f := range r.Findings {
		t.Logf("%s", f)
		// The shortest path to each violation, and its token replays it.
		rr := exploreFunc(t, p, entry, Options{Replay: f.Replay})
		var g *Finding
		for _, h := range rr.Findings {
			if h.Message == f.Message {
				g = h
			}
		}
		require.NotNil(t, g, "replay of %s", f.Message)
		assert.Equal(t, f.Explanation, g.Explanation)
		assert.Equal(t, f.Steps, g.Steps)
	}
	over := ltlFinding(r, "neverOverdrawn")
	require.NotNil(t, over)
	assert.Contains(t, over.Explanation, "write multispec.balance")
	assert.Equal(t, "bank.go:29", shortPos(over.Pos), "the debit that overdraws")

	dfs := exploreFunc(t, p, entry, Options{Strategy: DFS})
	assert.Equal(t, ltlSpecs(t, r), ltlSpecs(t, dfs))
	assert.Less(t, r.Executions, dfs.Executions)
}

func ltlFinding(r *Report, s string) *Finding {
	for _, f := range r.Findings {
		if strings.Contains(f.Message, s) {
			return f
		}
	}
	return nil
}

// TestSpecTransientState: a predicate is observed after every write of
// memory it reads, so a state that exists between two writes with no
// scheduling point in between (level = 1200, then clamped) violates
// G(!high); the replay token reproduces the violation.
func TestSpecTransientState(t *testing.T) {
	p := loadSpecs(t)
	entry := testdataPath + "/transient.TestClamp"
	for _, s := range []Strategy{DPOR, DFS} {
		r := exploreFunc(t, p, entry, Options{Strategy: s})
		assert.True(t, r.Complete, "%s", s)
		require.Len(t, r.Findings, 1, "%s: %v", s, r.Findings)
		f := r.Findings[0]
		assert.Equal(t, "ltl:spec neverHigh violated: G(!high)", f.Message)
		assert.Equal(t, "level_test.go:14", shortPos(f.Pos), "the write of 1200")
		lines := eventLines(f.Explanation)
		require.Len(t, lines, 2, "%s", f.Explanation)
		assert.Contains(t, lines[0], "initial state")
		assert.Contains(t, lines[1], "write transient.level")
		assert.Contains(t, lines[1], "{high}")

		rr := exploreFunc(t, p, entry, Options{Strategy: s, Replay: f.Replay})
		require.Len(t, rr.Findings, 1)
		assert.Equal(t, f.Message, rr.Findings[0].Message)
		assert.Equal(t, f.Explanation, rr.Findings[0].Explanation)
		assert.Equal(t, f.Trace, rr.Findings[0].Trace)
	}
}

// TestSpecWriteInterleavings: a and b are 1 only inside two goroutines'
// critical sections on different mutexes; the state where both are 1
// exists only in interleavings of the writes themselves. DFS and DPOR
// find it, DPOR with one execution per class of the observed trace
// (watched writes conflict with each other); starting the goroutines in
// turn, the spec holds.
func TestSpecWriteInterleavings(t *testing.T) {
	p := loadSpecs(t)
	entry := testdataPath + "/specpaths.Pulses"
	opts := Options{Specs: []string{"neverBoth"}, CountClasses: true}
	dpor := exploreFunc(t, p, entry, opts)
	assert.Equal(t, []string{"neverBoth"}, ltlSpecs(t, dpor), "findings: %v", dpor.Findings)
	opts.Strategy = DFS
	dfs := exploreFunc(t, p, entry, opts)
	assert.Equal(t, []string{"neverBoth"}, ltlSpecs(t, dfs))
	assert.Equal(t, dfs.Classes, dpor.Classes, "DPOR reaches every class")
	assert.Equal(t, dpor.Classes, dpor.Executions-dpor.Pruned, "one execution per class")
	assert.Less(t, dpor.Executions, dfs.Executions)
	t.Logf("DPOR %d executions (%d pruned), DFS %d, %d classes", dpor.Executions, dpor.Pruned, dfs.Executions, dpor.Classes)
	f := findKind(dpor, KindLTL)
	t.Logf("%s", f)
	assert.Contains(t, f.Explanation, "write specpaths.b")

	for _, s := range []Strategy{DPOR, DFS} {
		r := exploreFunc(t, p, testdataPath+"/specpaths.PulsesInTurn", Options{Strategy: s, Specs: []string{"neverBoth"}})
		assert.Equal(t, "pass", r.Verdict(), "%s: %v", s, r.Findings)
	}
}

// TestSpecTruncatedPaths: an undecided spec is judged only where the
// path really ends (all goroutines done or blocked forever): not on a
// path a panic stopped (the panic finding says so) nor on one cut by a
// bound.
func TestSpecTruncatedPaths(t *testing.T) {
	p := loadSpecs(t)
	r := exploreFunc(t, p, testdataPath+"/specpaths.Fails", Options{Specs: []string{"workReturns"}})
	assert.Nil(t, findKind(r, KindLTL), "findings: %v", r.Findings)
	f := findKind(r, KindPanic)
	require.NotNil(t, f)
	assert.Contains(t, f.Explanation, "ltl: not judged on this path (the panic stopped it before it ended): workReturns")

	r = exploreFunc(t, p, testdataPath+"/specpaths.Finishes", Options{Specs: []string{"workReturns"}})
	assert.Equal(t, "pass", r.Verdict())

	r = exploreFunc(t, p, testdataPath+"/specpaths.Deadlocks", Options{Specs: []string{"waitReturns"}})
	assert.NotNil(t, findKind(r, KindDeadlock))
	assert.Equal(t, []string{"waitReturns"}, ltlSpecs(t, r), "judged where every goroutine is blocked forever")

	r = exploreFunc(t, p, testdataPath+"/specpaths.Spins", Options{Specs: []string{"waitReturns"}, MaxSteps: 50})
	assert.Equal(t, "steps", r.Bound)
	assert.Nil(t, findKind(r, KindLTL), "findings: %v", r.Findings)
}

// TestSpecDPORMatchesDFS: with state-predicate specs DPOR is used (no
// fallback to DFS) and reaches the verdicts of DFS: the same specs
// violated on the spec test programs, with 1 and 2 workers, and with
// Shared.
func TestSpecDPORMatchesDFS(t *testing.T) {
	p := loadSpecs(t)
	for _, entry := range []string{
		specsPath + ".Overdraw", specsPath + ".NoOverdraw",
		specsPath + ".PublishRace", specsPath + ".PublishOrdered",
		specsPath + ".Workers", specsPath + ".OneWorker",
		testdataPath + "/multispec.TestTwoWithdrawals",
		testdataPath + "/transient.TestClamp",
		testdataPath + "/specpaths.Pulses", testdataPath + "/specpaths.PulsesInTurn",
		testdataPath + "/specpaths.Finishes", testdataPath + "/specpaths.Deadlocks",
		testdataPath + "/specpaths.CountAndReport", testdataPath + "/specpaths.CountThenReport",
		testdataPath + "/specpaths.SendAndReport",
	} {
		dfs := exploreFunc(t, p, entry, Options{Strategy: DFS})
		for _, w := range []int{1, 2} {
			dpor := exploreFunc(t, p, entry, Options{Workers: w})
			assert.Equal(t, string(DPOR), dpor.Strategy)
			assert.Empty(t, dpor.Warnings, entry)
			assert.Equal(t, dfs.Verdict(), dpor.Verdict(), "%s, %d workers", entry, w)
			assert.Equal(t, ltlSpecs(t, dfs), ltlSpecs(t, dpor), "%s, %d workers", entry, w)
			assert.LessOrEqual(t, dpor.Executions, dfs.Executions, entry)
		}
	}
	// With Shared, a watched write is also the store's shared access.
	for _, entry := range []string{
		testdataPath + "/multispec.TestTwoWithdrawals", testdataPath + "/specpaths.Pulses",
		testdataPath + "/specpaths.CountAndReport", specsPath + ".Overdraw",
	} {
		dfs := exploreFunc(t, p, entry, Options{Strategy: DFS, Shared: true})
		dpor := exploreFunc(t, p, entry, Options{Shared: true})
		assert.Equal(t, dfs.Verdict(), dpor.Verdict(), "%s, Shared", entry)
		assert.Equal(t, ltlSpecs(t, dfs), ltlSpecs(t, dpor), "%s, Shared", entry)
	}
}

// TestSpecWatchedWrites: the compile-time choice of the writes that can
// change a state predicate (predwatch.go): exactly the stores of the
// variables and fields the predicates read, not stores to other memory
// nor the initialization of an object no predicate can reach yet.
func TestSpecWatchedWrites(t *testing.T) {
	p := loadSpecs(t)
	watchedIn := func(entry string, specs []string) map[string][]string {
		e, err := p.Func(entry)
		require.NoError(t, err)
		opts := Options{Specs: specs}
		_, err = p.installSpecs(context.Background(), e, &opts, &Report{})
		require.NoError(t, err)
		ws := watchSetOf(opts.observer)
		require.NotNil(t, ws)
		out := map[string][]string{}
		for fn := range ssautil.AllFunctions(p.SSA) {
			if fn.Pkg != e.Fn.Pkg {
				continue
			}
			for _, b := range fn.Blocks {
				for _, ins := range b.Instrs {
					if op, _ := ws.watched(ins); op != nil {
						out[fn.Name()] = append(out[fn.Name()], p.describeAddr(op))
					}
				}
			}
		}
		return out
	}

	w := watchedIn(testdataPath+"/specpaths.Pulses", []string{"neverBoth"})
	assert.Equal(t, []string{"specpaths.a", "specpaths.a"}, w["Pulses$1"])
	assert.Equal(t, []string{"specpaths.b", "specpaths.b"}, w["Pulses$2"])
	assert.Len(t, w["Toggles"], 1)
	assert.Empty(t, w["Churn"], "stores into a slice and a struct the predicates do not read")
	assert.Empty(t, w["Work"])

	w = watchedIn(specsPath+".Overdraw", []string{"neverOverdrawn"})
	t.Logf("%v", w)
	// acct.balance < 0 reads acct and the balance field of an Account:
	// the debits through the receiver and the assignments of acct are
	// watched; the composite literal's field (an object not yet
	// published) is not.
	assert.Equal(t, []string{"a.balance"}, w["Withdraw"])
	assert.Equal(t, []string{"a.balance"}, w["SafeWithdraw"])
	assert.Equal(t, []string{"specs.acct"}, w["Overdraw"])
	assert.Equal(t, []string{"specs.acct"}, w["NoOverdraw"])
	assert.Empty(t, w["Workers$1"], "finished is not read by neverOverdrawn")
	assert.Empty(t, w["PublishRace"])
}

// TestSpecAtomicWrites: a predicate over a variable only atomics write
// (or over the length of a channel) changes at their scheduling steps;
// DPOR orders those steps against observer events (the report's call),
// so it finds the report that comes before the counts (the send), as DFS
// does.
func TestSpecAtomicWrites(t *testing.T) {
	p := loadSpecs(t)
	for _, s := range []Strategy{DPOR, DFS} {
		r := exploreFunc(t, p, testdataPath+"/specpaths.CountAndReport", Options{Strategy: s, Specs: []string{"reportCounted"}})
		assert.Equal(t, []string{"reportCounted"}, ltlSpecs(t, r), "%s: %v", s, r.Findings)
		r = exploreFunc(t, p, testdataPath+"/specpaths.CountThenReport", Options{Strategy: s, Specs: []string{"reportCounted"}})
		assert.Equal(t, "pass", r.Verdict(), "%s: %v", s, r.Findings)
		// The same with the length of a buffered channel.
		r = exploreFunc(t, p, testdataPath+"/specpaths.SendAndReport", Options{Strategy: s, Specs: []string{"reportQueued"}})
		assert.Equal(t, []string{"reportQueued"}, ltlSpecs(t, r), "%s: %v", s, r.Findings)
	}
}
