package main

// TestExampleReports runs the failure of every example through each
// entry point that writes an HTML report — ltl explore -html (the
// explorer's and the symbolic examples), ltl check -html and ltl monitor
// -html (the trace example), and ltltest's Explore, Never, Find, Holds,
// Violated, NewMonitor and Specs' formulas — checks each page's content
// against the finding or verdict, then opens every page in one headless
// Chromium. (ltltest's TestSymbolicWritesReport checks the report of an
// exploration with ltltest.Symbolic inputs: a body calling Symbolic here
// would make the explorer load all of ltltest.)

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/henceforth-go/henceforth/automaton"
	"github.com/henceforth-go/henceforth/cmd/ltl/testdata/examplebodies"
	"github.com/henceforth-go/henceforth/explore"
	"github.com/henceforth-go/henceforth/internal/browsertest"
	"github.com/henceforth-go/henceforth/internal/reporttest"
	"github.com/henceforth-go/henceforth/ltl"
	"github.com/henceforth-go/henceforth/ltltest"
	"github.com/henceforth-go/henceforth/monitor"
	"github.com/henceforth-go/henceforth/report"
)

// exampleEntries are the examples' buggy entry points (-func, under
// examples/) with the flags their exploration needs.
var exampleEntries = []struct {
	name, entry string
	flags       []string
}{
	{"abba", "explore/abba.Scenario", nil},
	{"philosophers", "explore/philosophers.Scenario", nil},
	{"condsignal", "explore/condsignal.Scenario", nil},
	{"timeoutleak", "explore/timeoutleak.Scenario", nil},
	{"ctxcancel", "explore/ctxcancel.Scenario", nil},
	{"doubleclose", "explore/doubleclose.Scenario", nil},
	{"waitgroup", "explore/waitgroup.Scenario", nil},
	{"counter", "explore/counter.Scenario", []string{"-shared"}},
	{"singleton", "explore/singleton.Scenario", []string{"-shared"}},
	{"absdiff", "symbolic/absdiff.AbsDiff", nil},
}

// bodiesConfig loads the ltltest bodies (and, through them, the examples)
// once for every ltltest call of the test.
var bodiesConfig = explore.LoadConfig{Patterns: []string{"github.com/henceforth-go/henceforth/cmd/ltl/testdata/examplebodies"}}

// exampleBodies are the same scenarios as ltltest bodies, with their
// options.
var exampleBodies = []struct {
	name string
	body any
	opts []any
}{
	{"abba", examplebodies.Abba, nil},
	{"philosophers", examplebodies.Philosophers, nil},
	{"condsignal", examplebodies.CondSignal, nil},
	{"timeoutleak", examplebodies.TimeoutLeak, nil},
	{"ctxcancel", examplebodies.CtxCancel, nil},
	{"doubleclose", examplebodies.DoubleClose, nil},
	{"waitgroup", examplebodies.WaitGroup, nil},
	{"counter", examplebodies.Counter, []any{ltltest.WithShared()}},
	{"singleton", examplebodies.Singleton, []any{ltltest.WithShared()}},
}

// examplePkgs are the packages of exampleEntries, loaded once for every
// run of the test (and its replays).
func examplePkgs() []string {
	var pkgs []string
	for _, e := range exampleEntries {
		pkgs = append(pkgs, "../../examples/"+e.entry[:strings.LastIndex(e.entry, ".")])
	}
	return pkgs
}

func TestExampleReports(t *testing.T) {
	dir := t.ArtifactDir()
	var shown reporttest.Pages
	pkgs := examplePkgs()

	t.Run("ltl explore", func(t *testing.T) {
		for _, c := range exampleEntries {
			t.Run(c.name, func(t *testing.T) {
				args := append([]string{"-func", "github.com/henceforth-go/henceforth/examples/" + c.entry, "-html", filepath.Join(dir, "explore")}, c.flags...)
				status, _, errOut := runExplore(t, append(args, pkgs...)...)
				require.Equal(t, 1, status, errOut)
				path, p := reporttest.ReadPage(t, errOut)
				f := reporttest.CheckFinding(t, p, reporttest.Examples[c.name])
				shown.Add("explore-"+c.name, path, p)

				// The page's replay command runs the same execution again.
				cmd := strings.Fields(f.ReplayCommand)
				require.Greater(t, len(cmd), 2, f.ReplayCommand)
				require.Equal(t, []string{"ltl", "explore"}, cmd[:2])
				status, out, errOut := runExplore(t, append(cmd[2:], "-json")...)
				require.Equal(t, 1, status, errOut)
				same := false
				for _, g := range jsonLines(t, out) {
					same = same || g["kind"] == f.Kind && g["message"] == f.Message && g["position"] == f.Pos && g["steps"] == float64(f.Steps)
				}
				assert.True(t, same, "the replay of %s reproduces the finding:\n%s", f.ReplayCommand, out)
			})
		}
	})

	t.Run("ltltest", func(t *testing.T) {
		for _, c := range exampleBodies {
			t.Run(c.name, func(t *testing.T) {
				at := newArtifactT(t, dir)
				require.False(t, ltltest.Explore(at, c.body, append([]any{bodiesConfig}, c.opts...)...))
				path, p := reporttest.ReadPage(t, at.output())
				f := reporttest.CheckFinding(t, p, reporttest.Examples[c.name])
				assert.Regexp(t, `^go test -run '\^TestExampleReports\$/\^ltltest\$/\^`+c.name+`\$' -ltl\.replay=v`, f.ReplayCommand)
				shown.Add("ltltest-"+c.name, path, p)
			})
		}
		t.Run("Never", func(t *testing.T) {
			at := newArtifactT(t, dir)
			require.False(t, ltltest.Never(at, examplebodies.Dekker, "F(at(P0, m2) && at(P1, n2))", bodiesConfig))
			path, p := reporttest.ReadPage(t, at.output())
			require.Len(t, p.Findings, 1)
			w := p.Findings[0]
			assert.Equal(t, "witness", w.Kind)
			assert.Len(t, w.Lanes, 3, "Dekker and its two processes")
			shown.Add("never-dekker", path, p)
		})
		t.Run("Find", func(t *testing.T) {
			at := newArtifactT(t, dir)
			require.Nil(t, ltltest.Find(at, examplebodies.CtxCancel, "F terminated", bodiesConfig), "ctxcancel's producer never finishes")
			path, p := reporttest.ReadPage(t, at.output())
			assert.Empty(t, p.Findings, "no interleaving to draw")
			assert.Contains(t, p.Title, "no witness of F terminated")
			shown.Add("find-ctxcancel", path, p)
		})
	})

	// The trace example: the demo server's trace violates the lock
	// discipline; the verdict becomes final where the formula's DFA
	// monitor says violated.
	demo := filepath.Join("..", "..", "examples", "demo", "server.jsonl")
	const lockRule = "G(write -> (!release S acquire))"
	trace, err := readTrace(&env{}, []string{demo})
	require.NoError(t, err)
	final := firstViolated(t, lockRule, trace)
	for _, cmd := range []string{"check", "monitor"} {
		t.Run("ltl "+cmd, func(t *testing.T) {
			out := filepath.Join(dir, cmd, "demo.html")
			status, _, errOut := runLTL(t, "", cmd, "-f", lockRule, "-html", out, demo)
			require.Equal(t, 1, status, errOut)
			path, p := reporttest.ReadPage(t, "report: "+out)
			reporttest.CheckVerdict(t, p, lockRule, trace, false, final)
			shown.Add(cmd+"-demo", path, p)
		})
	}

	t.Run("ltltest verdicts", func(t *testing.T) {
		const answered = "G(request -> F response)"
		at := newArtifactT(t, dir)
		require.False(t, ltltest.Holds(at, lockRule, trace))
		path, p := reporttest.ReadPage(t, at.output())
		reporttest.CheckVerdict(t, p, lockRule, trace, false, final)
		shown.Add("holds-demo", path, p)

		at = newArtifactT(t, dir)
		require.False(t, ltltest.Violated(at, answered, trace))
		path, p = reporttest.ReadPage(t, at.output())
		reporttest.CheckVerdict(t, p, answered, trace, true, -1)
		shown.Add("violated-demo", path, p)

		at = newArtifactT(t, dir)
		m := ltltest.NewMonitor(at, lockRule)
		for i := 0; i < trace.Len(); i++ {
			m.Step(trace.At(i)...)
		}
		at.end()
		path, p = reporttest.ReadPage(t, at.output())
		require.Len(t, p.Verdicts, 1)
		assert.Equal(t, final, p.Verdicts[0].Final, "the recorder's report is final where the monitor says violated")
		shown.Add("recorder-demo", path, p)

		// An //ltl:spec of the annotated example, by name: a debit after
		// the unlock.
		at = newArtifactT(t, dir)
		specs := ltltest.Specs(at, filepath.Join("..", "..", "examples", "annotated"))
		require.False(t, ltltest.Holds(at, "debitLocked", ltl.Sets{{"lock"}, {"unlock"}, {"debit"}}, specs))
		path, p = reporttest.ReadPage(t, at.output())
		require.Len(t, p.Verdicts, 1)
		assert.Equal(t, 2, p.Verdicts[0].Final)
		shown.Add("spec-debitLocked", path, p)
	})

	t.Run("browser", func(t *testing.T) {
		b, err := browsertest.Start()
		if err != nil {
			t.Skipf("skipping the browser pass: %v", err)
		}
		defer b.Close()
		tab := b.NewTab(t)
		for _, p := range shown.List() {
			t.Run(p.Name, func(t *testing.T) { reporttest.Browse(t, tab, p, screenshotPath(t, p.Name)) })
		}
	})
}

// screenshotPath is where a browser pass saves the screenshot of a page:
// into the test's artifact directory when go test -artifacts keeps it or
// the run is not -short; "" (none) otherwise, as a screenshot costs more
// than the checks.
func screenshotPath(t *testing.T, name string) string {
	if f := flag.Lookup("test.artifacts"); testing.Short() && (f == nil || f.Value.String() != "true") {
		return ""
	}
	return filepath.Join(t.ArtifactDir(), name+".png")
}

// firstViolated is the first position after which the formula's DFA
// monitor says violated.
func firstViolated(t *testing.T, formula string, tr *monitor.Trace) int {
	t.Helper()
	d, err := automaton.FromFormula(context.Background(), ltl.MustParse(formula), automaton.Options{})
	require.NoError(t, err)
	m := d.Monitor()
	for i := 0; i < tr.Len(); i++ {
		if m.StepAtoms(tr.At(i)...) == monitor.Violated {
			return i
		}
	}
	t.Fatalf("%s is not violated", formula)
	return -1
}

// artifactT is an ltltest.TestingT with an artifact directory, as
// *testing.T has, whose failures are collected instead of failing the
// test.
type artifactT struct {
	mu       sync.Mutex
	name     string
	dir      string
	errors   []string
	cleanups []func()
}

// newArtifactT is an artifactT named as t, with an artifact directory of
// its own under dir.
func newArtifactT(t *testing.T, dir string) *artifactT {
	d := filepath.Join(dir, "ltltest", strings.TrimSuffix(report.FileName(t.Name()), ".html"))
	require.NoError(t, os.MkdirAll(d, 0o755))
	return &artifactT{name: t.Name(), dir: d}
}

func (a *artifactT) Helper()             {}
func (a *artifactT) Name() string        { return a.name }
func (a *artifactT) ArtifactDir() string { return a.dir }
func (a *artifactT) FailNow()            {}
func (a *artifactT) Cleanup(f func())    { a.cleanups = append(a.cleanups, f) }
func (a *artifactT) Errorf(format string, args ...any) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.errors = append(a.errors, fmt.Sprintf(format, args...))
}

// end runs the cleanups, as the testing package does when a test ends.
func (a *artifactT) end() {
	for i := len(a.cleanups) - 1; i >= 0; i-- {
		a.cleanups[i]()
	}
}

func (a *artifactT) output() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return strings.Join(a.errors, "\n")
}
