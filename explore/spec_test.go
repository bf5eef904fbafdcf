package explore

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/go/ssa"
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
		specProgram.p, specProgram.err = Load(context.Background(), LoadConfig{
			Patterns: []string{"./testdata/specs", "./testdata/specsbad", examplesPath + "/singleton", examplesPath + "/dekker"},
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
	r = exploreFunc(t, p, scenario, Options{Strategy: DFS, Specs: []string{"atMostOnce"}, Observer: obs})
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
func (c *callCounter) NewPath() PathMonitor {
	c.paths = append(c.paths, counted{})
	return &countPath{c: c, i: len(c.paths) - 1}
}

type countPath struct {
	c *callCounter
	i int
}

func (p *countPath) Event(ev *Event, st State) *Violation {
	if ev.Kind == EventCall && ev.Func.Name() == p.c.fn {
		p.c.paths[p.i].calls++
	}
	return nil
}

func (p *countPath) End(st State) *Violation {
	p.c.paths[p.i].violated = st.(stateView).x.hasKind(KindLTL)
	return nil
}

// TestSpecStatePredicate: a state predicate over a field reached through a
// package variable; the spec forces DFS (with a warning); the fixed
// program passes.
func TestSpecStatePredicate(t *testing.T) {
	p := loadSpecs(t)
	opts := Options{Specs: []string{"neverOverdrawn"}}
	r := exploreFunc(t, p, specsPath+".Overdraw", opts)
	f := findKind(r, KindLTL)
	require.NotNil(t, f, "findings: %v", r.Findings)
	assert.Equal(t, "ltl:spec neverOverdrawn violated: G(!overdrawn)", f.Message)
	assert.Contains(t, f.Explanation, "state")
	assert.Contains(t, f.Explanation, "{overdrawn}")
	assert.Equal(t, string(DFS), r.Strategy)
	assert.Contains(t, strings.Join(r.Warnings, "\n"), "instead of DPOR")
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
