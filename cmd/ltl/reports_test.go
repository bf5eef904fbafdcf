package main

// TestExampleReports runs the failure of every example through each entry
// point that writes an HTML report — ltl explore -html, ltl check -html,
// ltl monitor -html, and ltltest's Explore, Never, Find, Holds, Violated,
// NewMonitor and Symbolic — checks each page's content against the
// finding or verdict, then opens every page in one headless Chromium.

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/henceforth-go/henceforth/automaton"
	"github.com/henceforth-go/henceforth/cmd/ltl/testdata/examplebodies"
	"github.com/henceforth-go/henceforth/explore"
	"github.com/henceforth-go/henceforth/internal/browsertest"
	"github.com/henceforth-go/henceforth/ltl"
	"github.com/henceforth-go/henceforth/ltltest"
	"github.com/henceforth-go/henceforth/monitor"
	"github.com/henceforth-go/henceforth/report"
)

const examplesPath = "github.com/henceforth-go/henceforth/examples/"

// examplePkgs are loaded once for every ltl explore run of the test (and
// its replays): one program.
var examplePkgs = []string{"../../examples/explore/...", "../../examples/symbolic/absdiff"}

// bodiesConfig loads the ltltest bodies (and, through them, the examples)
// once for every ltltest call of the test.
var bodiesConfig = explore.LoadConfig{Patterns: []string{"github.com/henceforth-go/henceforth/cmd/ltl/testdata/examplebodies"}}

// exampleFailure is an example's failure and what its report must show.
type exampleFailure struct {
	name    string
	entry   string   // ltl explore -func, under examples/
	flags   []string // more ltl explore flags
	body    any      // the same scenario for ltltest.Explore
	opts    []any    // its ltltest options
	kind    explore.Kind
	lanes   int // goroutines of the finding (0: not checked)
	blocked int // of them, blocked at the end
	inputs  []string
	// specFinal is, for a violated //ltl:spec, the position where its
	// verdict becomes final, computed from the spec's trace (the atoms'
	// waveform) by a rule of its own.
	specFinal func(v *report.Verdict) int
}

var exampleFailures = []exampleFailure{
	{name: "abba", entry: "explore/abba.Scenario", body: examplebodies.Abba, kind: explore.KindDeadlock, lanes: 3, blocked: 3},
	{name: "philosophers", entry: "explore/philosophers.Scenario", body: examplebodies.Philosophers, kind: explore.KindDeadlock, lanes: 4, blocked: 4},
	{name: "condsignal", entry: "explore/condsignal.Scenario", body: examplebodies.CondSignal, kind: explore.KindDeadlock, lanes: 2, blocked: 1},
	{name: "timeoutleak", entry: "explore/timeoutleak.Scenario", body: examplebodies.TimeoutLeak, kind: explore.KindLeak, lanes: 2, blocked: 1},
	{name: "ctxcancel", entry: "explore/ctxcancel.Scenario", body: examplebodies.CtxCancel, kind: explore.KindLeak, lanes: 2, blocked: 1},
	{name: "doubleclose", entry: "explore/doubleclose.Scenario", body: examplebodies.DoubleClose, kind: explore.KindPanic, lanes: 3},
	{name: "waitgroup", entry: "explore/waitgroup.Scenario", body: examplebodies.WaitGroup, kind: explore.KindTestFailure, lanes: 4},
	{name: "counter", entry: "explore/counter.Scenario", flags: []string{"-shared"}, body: examplebodies.Counter, opts: []any{ltltest.WithShared()},
		kind: explore.KindTestFailure, lanes: 3},
	{name: "singleton", entry: "explore/singleton.Scenario", flags: []string{"-shared"}, body: examplebodies.Singleton, opts: []any{ltltest.WithShared()},
		kind: explore.KindLTL, specFinal: singletonFinal}, // its goroutines: those started when the spec fails
	{name: "absdiff", entry: "symbolic/absdiff.AbsDiff", body: examplebodies.AbsDiff, kind: explore.KindPanic, lanes: 1, inputs: []string{"x", "y"}},
}

// singletonFinal is where singleton's specs become false: thesis,
// G(getSingleton -> G !getSingleton), at the first call (the G includes
// the present); atMostOnce, G(getSingleton -> N G !getSingleton), at the
// second.
func singletonFinal(v *report.Verdict) int {
	calls := highPositions(v.Atoms, "getSingleton")
	if strings.HasPrefix(v.Formula, "atMostOnce:") {
		if len(calls) < 2 {
			return -1
		}
		return calls[1]
	}
	if len(calls) == 0 {
		return -1
	}
	return calls[0]
}

// highPositions lists the positions where the named row of a waveform is
// high.
func highPositions(rows []report.Wave, name string) []int {
	var out []int
	for _, w := range rows {
		if w.Name != name {
			continue
		}
		for _, r := range w.High {
			for i := r[0]; i < r[1]; i++ {
				out = append(out, i)
			}
		}
	}
	return out
}

// shownPage is a report the browser pass opens, with what it checks.
type shownPage struct {
	name string
	path string
	page *report.Page
}

// pages collects the reports of the entry points for the browser pass.
type pages struct {
	mu   sync.Mutex
	list []shownPage
}

func (ps *pages) add(name, path string, p *report.Page) {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	ps.list = append(ps.list, shownPage{name: name, path: path, page: p})
}

var reportNamed = regexp.MustCompile(`report: (\S+\.html)`)

// readPage decodes the data of the report that out names.
func readPage(t *testing.T, out string) (string, *report.Page) {
	t.Helper()
	m := reportNamed.FindStringSubmatch(out)
	require.NotNil(t, m, "no report named in:\n%s", out)
	var p report.Page
	require.NoError(t, json.Unmarshal([]byte(strings.TrimPrefix(pageData(t, m[1]), `id="report-data">`)), &p))
	return m[1], &p
}

// checkFinding checks a page of an exploration against the example's
// failure and returns the finding of the expected kind.
func checkFinding(t *testing.T, p *report.Page, c exampleFailure) *report.Finding {
	t.Helper()
	var f *report.Finding
	for _, g := range p.Findings {
		if g.Kind == string(c.kind) {
			f = g
			break
		}
	}
	require.NotNil(t, f, "no %s finding in the report", c.kind)
	if c.lanes > 0 {
		assert.Len(t, f.Lanes, c.lanes, "a lane per goroutine")
	}
	blocked := 0
	ids := map[int]bool{}
	for _, l := range f.Lanes {
		ids[l.Goroutine] = true
		if l.Blocked {
			blocked++
		}
		assert.NotEmpty(t, l.Name, "goroutine %d is named by its function", l.Goroutine)
	}
	assert.Equal(t, c.blocked, blocked, "goroutines blocked at the end")
	// The interleaving is complete: its scheduling steps are 1…Steps, in
	// order, each on a lane.
	n := 0
	for _, s := range f.Trace {
		if s.N > 0 {
			n++
			assert.Equal(t, n, s.N, "step numbers")
		}
		if s.Goroutine > 0 {
			assert.True(t, ids[s.Goroutine], "step %d of goroutine %d has a lane", s.N, s.Goroutine)
		}
	}
	assert.Equal(t, f.Steps, n, "every step of the execution is shown")
	for _, a := range f.Arrows {
		assert.True(t, ids[a.FromG] && ids[a.ToG], "arrow %+v joins two lanes", a)
	}
	var names []string
	for _, in := range f.Inputs {
		names = append(names, in.Name)
	}
	assert.ElementsMatch(t, c.inputs, names, "symbolic inputs")
	if len(c.inputs) > 0 {
		assert.NotEmpty(t, f.PathCondition)
	}
	if c.specFinal != nil {
		require.NotNil(t, f.Spec, "a violated spec has its waveform")
		assert.False(t, f.Spec.Holds)
		assert.Equal(t, c.specFinal(f.Spec), f.Spec.Final, "the spec's verdict becomes final at")
		require.Len(t, f.Spec.Steps, f.Spec.Length, "each position of the spec is linked to a step")
		for pos, i := range f.Spec.Steps {
			if assert.GreaterOrEqual(t, i, 0) {
				assert.Contains(t, f.Trace[i].Op, "call singleton.getSingleton", "position %d follows the call", pos)
			}
		}
	}
	return f
}

func TestExampleReports(t *testing.T) {
	dir := t.ArtifactDir()
	var shown pages

	t.Run("ltl explore", func(t *testing.T) {
		for _, c := range exampleFailures {
			t.Run(c.name, func(t *testing.T) {
				args := append([]string{"-func", examplesPath + c.entry, "-html", filepath.Join(dir, "explore")}, c.flags...)
				status, _, errOut := runExplore(t, append(args, examplePkgs...)...)
				require.Equal(t, 1, status, errOut)
				path, p := readPage(t, errOut)
				f := checkFinding(t, p, c)
				shown.add("explore-"+c.name, path, p)

				// The page's replay command runs the same execution again.
				cmd := strings.Fields(f.ReplayCommand)
				require.Greater(t, len(cmd), 2, f.ReplayCommand)
				require.Equal(t, []string{"ltl", "explore"}, cmd[:2])
				status, out, errOut := runExplore(t, append(cmd[2:], "-json")...)
				require.Equal(t, 1, status, errOut)
				var same bool
				for _, g := range jsonLines(t, out) {
					same = same || g["kind"] == f.Kind && g["message"] == f.Message && g["position"] == f.Pos && g["steps"] == float64(f.Steps)
				}
				assert.True(t, same, "the replay of %s reproduces the finding:\n%s", f.ReplayCommand, out)
			})
		}
	})

	t.Run("ltltest", func(t *testing.T) {
		for _, c := range exampleFailures {
			t.Run(c.name, func(t *testing.T) {
				at := newArtifactT(t, dir)
				require.False(t, ltltest.Explore(at, c.body, append([]any{bodiesConfig}, c.opts...)...))
				path, p := readPage(t, at.output())
				f := checkFinding(t, p, c)
				assert.Regexp(t, `^go test -run '\^TestExampleReports\$/\^ltltest\$/\^`+c.name+`\$' -ltl\.replay=v`, f.ReplayCommand)
				shown.add("ltltest-"+c.name, path, p)
			})
		}
		t.Run("Never", func(t *testing.T) {
			at := newArtifactT(t, dir)
			require.False(t, ltltest.Never(at, examplebodies.Dekker, "F(at(P0, m2) && at(P1, n2))", bodiesConfig))
			path, p := readPage(t, at.output())
			require.Len(t, p.Findings, 1)
			w := p.Findings[0]
			assert.Equal(t, "witness", w.Kind)
			assert.Len(t, w.Lanes, 3, "Run and its two processes")
			assert.True(t, hasOp(w.Trace, "event m2"), "the witness reaches m2")
			shown.add("never-dekker", path, p)
		})
		t.Run("Find", func(t *testing.T) {
			at := newArtifactT(t, dir)
			require.Nil(t, ltltest.Find(at, examplebodies.CtxCancel, "F terminated", bodiesConfig), "ctxcancel's producer never finishes")
			path, p := readPage(t, at.output())
			assert.Empty(t, p.Findings, "no interleaving to draw")
			assert.Contains(t, p.Title, "no witness of F terminated")
			shown.add("find-ctxcancel", path, p)
		})
	})

	// The trace example: the demo server's trace violates the lock
	// discipline; its verdict becomes final at the first write outside the
	// lock, where ltl monitor says violated.
	demo := filepath.Join("..", "..", "examples", "demo", "server.jsonl")
	const lockRule = "G(write -> (!release S acquire))"
	trace, err := readTrace(&env{}, []string{demo})
	require.NoError(t, err)
	final := firstViolated(t, lockRule, trace)
	checkVerdict := func(t *testing.T, out string, formula string, holds bool) (string, *report.Page) {
		t.Helper()
		path, p := readPage(t, out)
		require.Len(t, p.Verdicts, 1)
		v := p.Verdicts[0]
		assert.Equal(t, holds, v.Holds)
		assert.Equal(t, trace.Len(), v.Length)
		want := map[string]bool{}
		for _, a := range append(trace.Atoms(), ltl.MustParse(formula).Atoms()...) {
			want[a] = true
		}
		got := map[string]bool{}
		for _, w := range v.Atoms {
			got[w.Name] = true
			for i := 0; i < trace.Len(); i++ {
				assert.Equal(t, trace.Holds(i, w.Name), slicesContains(highPositions(v.Atoms, w.Name), i), "%s at %d", w.Name, i)
			}
		}
		assert.Equal(t, want, got, "one waveform row per atom")
		if !holds {
			assert.Equal(t, final, v.Final, "the verdict becomes final where ltl monitor says violated")
			assert.NotEmpty(t, v.Why, "the explanation")
		}
		return path, p
	}
	t.Run("ltl check", func(t *testing.T) {
		out := filepath.Join(dir, "check", "demo.html")
		status, _, errOut := runLTL(t, "", "check", "-f", lockRule, "-html", out, demo)
		require.Equal(t, 1, status, errOut)
		path, p := checkVerdict(t, "report: "+out, lockRule, false)
		shown.add("check-demo", path, p)
	})
	t.Run("ltl monitor", func(t *testing.T) {
		out := filepath.Join(dir, "monitor", "demo.html")
		status, _, errOut := runLTL(t, "", "monitor", "-f", lockRule, "-html", out, demo)
		require.Equal(t, 1, status, errOut)
		path, p := checkVerdict(t, "report: "+out, lockRule, false)
		shown.add("monitor-demo", path, p)
	})
	t.Run("ltltest verdicts", func(t *testing.T) {
		at := newArtifactT(t, dir)
		require.False(t, ltltest.Holds(at, lockRule, trace))
		path, p := checkVerdict(t, at.output(), lockRule, false)
		shown.add("holds-demo", path, p)

		at = newArtifactT(t, dir)
		require.False(t, ltltest.Violated(at, "G(request -> F response)", trace))
		path, p = checkVerdict(t, at.output(), "G(request -> F response)", true)
		shown.add("violated-demo", path, p)

		at = newArtifactT(t, dir)
		m := ltltest.NewMonitor(at, lockRule)
		for i := 0; i < trace.Len(); i++ {
			m.Step(trace.At(i)...)
		}
		at.end()
		_, p = readPage(t, at.output())
		require.Len(t, p.Verdicts, 1)
		assert.Equal(t, final, p.Verdicts[0].Final, "the recorder's report is final where ltl monitor says violated")

		// An //ltl:spec of the annotated example, by name.
		at = newArtifactT(t, dir)
		specs := ltltest.Specs(at, filepath.Join("..", "..", "examples", "annotated"))
		require.False(t, ltltest.Holds(at, "debitLocked", ltl.Sets{{"lock"}, {"unlock"}, {"debit"}}, specs))
		path, p = readPage(t, at.output())
		require.Len(t, p.Verdicts, 1)
		assert.Equal(t, 2, p.Verdicts[0].Final, "a debit after the unlock")
		shown.add("spec-debitLocked", path, p)
	})

	t.Run("browser", func(t *testing.T) {
		b, err := browsertest.Start()
		if err != nil {
			t.Skipf("skipping the browser pass: %v", err)
		}
		defer b.Close()
		tab := b.NewTab(t)
		for _, sp := range shown.list {
			t.Run(sp.name, func(t *testing.T) {
				tab.Load(t, sp.path)
				browseReport(t, tab, sp)
			})
		}
	})
}

// seen is what a finding's section shows after the browser pass's clicks.
type seen struct {
	Lanes   int    `json:"lanes"`
	Steps   int    `json:"steps"`
	Blocked int    `json:"blocked"`
	Arrows  int    `json:"arrows"`
	SrcPos  string `json:"srcPos"`
	Here    string `json:"here"`
	// SpecStep is the step selected by a click on a position of the
	// spec; SpecInfo the spec's position shown after a click on a step.
	SpecStep int    `json:"specStep"`
	SpecInfo string `json:"specInfo"`
}

// browseFinding zooms a finding's timeline to fit, counts what it draws,
// clicks step i (if i >= 0), then, if pos >= 0, the spec's explanation
// link to position pos and the step at index back, and reports what the
// page shows. The clicks are click events dispatched to the elements: the
// page's handlers run as for a mouse click, without a round trip per
// mouse event.
const browseFinding = `(function (sec, i, spec, pos, back) {
	var s = document.querySelector(sec), r = {};
	function click(e) { e.dispatchEvent(new MouseEvent("click", {bubbles: true})); }
	click(s.querySelector(".zoom-fit"));
	r.lanes = s.querySelectorAll(".tl.lanes .lbl").length;
	r.steps = s.querySelectorAll(".tl.lanes .step").length;
	r.blocked = s.querySelectorAll(".tl.lanes .blockbar").length;
	r.arrows = s.querySelectorAll(".tl.lanes path.arrow").length;
	if (i >= 0) {
		click(s.querySelector('.tl.lanes .step[data-i="' + i + '"]'));
		var d = s.querySelector(":scope > .detail"), p = d.querySelector(".src-pos"), h = d.querySelector(".src .here");
		r.srcPos = p ? p.title : "";
		r.here = h ? h.textContent : "";
	}
	if (pos >= 0) {
		click(document.querySelector(spec + ' .why a.pos-link[data-pos="' + pos + '"]'));
		r.specStep = +s.querySelector(".tl.lanes .step.sel").getAttribute("data-i");
		click(s.querySelector('.tl.lanes .step[data-i="' + back + '"]'));
		r.specInfo = document.querySelector(spec + " .posinfo .pos-atoms").textContent;
	}
	return r;
})(%q, %d, %q, %d, %d)`

// browseVerdict zooms a verdict's waveform to fit and reports its atom
// rows and the first position of its final verdict (-1: none).
const browseVerdict = `(function (box) {
	var v = document.querySelector(box);
	v.querySelector(".zoom-fit").dispatchEvent(new MouseEvent("click", {bubbles: true}));
	var f = v.querySelector('.waveform .seg[data-verdict="violated"], .waveform .seg[data-verdict="satisfied"]');
	return [v.querySelectorAll(".waveform .lbl.atom").length, f ? +f.getAttribute("data-from") : -1];
})(%q)`

// browseReport checks what a user sees of a report: per finding a lane
// per goroutine, a mark per step on a lane once zoomed to fit, a blocked
// bar per blocked goroutine, an arrow per hand-off, the source line of a
// clicked step, the spec's positions linked to the steps and back; per
// verdict a row per atom and the verdict row turning final where the page
// says. The page logs no error. It takes a screenshot.
func browseReport(t *testing.T, tab *browsertest.Tab, sp shownPage) {
	for k, f := range sp.page.Findings {
		lanes := map[int]bool{}
		blocked := 0
		for _, l := range f.Lanes {
			lanes[l.Goroutine] = true
			if l.Blocked {
				blocked++
			}
		}
		onLanes := 0
		for _, s := range f.Trace {
			if lanes[s.Goroutine] {
				onLanes++
			}
		}
		i := stepWithSource(f.Trace)
		pos, back := -1, -1
		if f.Spec != nil && len(f.Spec.Steps) > 0 {
			pos, back = whyPos(f.Spec, f.Spec.Length-1), f.Spec.Steps[0]
		}
		got := browsertest.Eval[seen](t, tab, fmt.Sprintf(browseFinding, fmt.Sprintf("#finding-%d", k), i, fmt.Sprintf("#spec-%d", k), pos, back))
		assert.Equal(t, len(f.Lanes), got.Lanes, "finding %d: lanes", k)
		assert.Equal(t, onLanes, got.Steps, "finding %d: steps", k)
		assert.Equal(t, blocked, got.Blocked, "finding %d: blocked bars", k)
		assert.Equal(t, len(f.Arrows), got.Arrows, "finding %d: arrows", k)
		if i >= 0 {
			s := f.Trace[i]
			assert.Equal(t, fmt.Sprintf("%s:%d", s.File, s.Line), got.SrcPos, "finding %d: the clicked step's position", k)
			if src, ok := sp.page.Sources[s.File][s.Line]; ok {
				assert.Contains(t, got.Here, src, "finding %d: the clicked step's source line", k)
			}
		}
		if pos >= 0 {
			assert.Equal(t, f.Spec.Steps[pos], got.SpecStep, "finding %d: the spec's position %d selects its step", k, pos)
			assert.True(t, strings.HasPrefix(got.SpecInfo, "position 0:"), "finding %d: the step selects the spec's position: %s", k, got.SpecInfo)
		}
	}
	for k, v := range sp.page.Verdicts {
		got := browsertest.Eval[[2]int](t, tab, fmt.Sprintf(browseVerdict, fmt.Sprintf("#verdict-%d", k)))
		assert.Equal(t, len(v.Atoms), got[0], "verdict %d: a row per atom", k)
		assert.Equal(t, v.Final, got[1], "verdict %d: the verdict row turns final at", k)
	}
	assert.Empty(t, tab.Errors(), "the page logged errors")
	tab.Screenshot(t, filepath.Join(t.ArtifactDir(), sp.name+".png"))
}

// whyPos is the position of the explanation's reason nearest to pos.
func whyPos(v *report.Verdict, pos int) int {
	best := -1
	for _, r := range v.Why {
		if best < 0 || abs(r.Position-pos) < abs(best-pos) {
			best = r.Position
		}
	}
	return best
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// stepWithSource is the index of the last scheduling step with a source
// position, -1 if none has one.
func stepWithSource(trace []report.Step) int {
	for i := len(trace) - 1; i >= 0; i-- {
		if trace[i].N > 0 && trace[i].File != "" {
			return i
		}
	}
	return -1
}

func hasOp(trace []report.Step, op string) bool {
	for _, s := range trace {
		if strings.Contains(s.Op, op) {
			return true
		}
	}
	return false
}

func slicesContains(xs []int, x int) bool {
	i := sort.SearchInts(xs, x)
	return i < len(xs) && xs[i] == x
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

func newArtifactT(t *testing.T, dir string) *artifactT {
	d := filepath.Join(dir, "ltltest", report.FileName(t.Name()))
	require.NoError(t, os.MkdirAll(strings.TrimSuffix(d, ".html"), 0o755))
	return &artifactT{name: t.Name(), dir: strings.TrimSuffix(d, ".html")}
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
