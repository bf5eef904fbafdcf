// Package reporttest checks HTML reports (package report) of the
// examples' failures, for the tests of the entry points that write them
// (cmd/ltl's -html flags, ltltest's artifacts): what each example's
// report must show (Examples), the checks of a page's data against it
// (CheckFinding, CheckVerdict), and the checks of what a browser shows
// of the page (Browse).
//
// The package does not import testing: its functions take a TB, which
// *testing.T satisfies.
package reporttest

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/henceforth-go/henceforth/explore"
	"github.com/henceforth-go/henceforth/internal/browsertest"
	"github.com/henceforth-go/henceforth/ltl"
	"github.com/henceforth-go/henceforth/monitor"
	"github.com/henceforth-go/henceforth/report"
)

// TB is the part of testing.TB the package uses.
type TB = browsertest.TB

// Expect is what the report of an example's failure must show.
type Expect struct {
	// Kind is the kind of the finding the report must have.
	Kind explore.Kind
	// Lanes is the number of goroutines of the finding (0: not checked,
	// when the finding is at a point where some have not started);
	// Blocked, of them, those blocked at the end.
	Lanes, Blocked int
	// Inputs are the names of the symbolic inputs.
	Inputs []string
	// SpecFinal is, for a violated //ltl:spec, the position where its
	// verdict becomes final, computed from the spec's waveform by a rule
	// of its own; SpecStepOp is the operation of the steps the spec's
	// positions follow.
	SpecFinal  func(v *report.Verdict) int
	SpecStepOp string
}

// Examples is what the report of each example's failure must show, by
// the example's directory name (examples/explore/NAME,
// examples/symbolic/NAME).
var Examples = map[string]Expect{
	"abba":         {Kind: explore.KindDeadlock, Lanes: 3, Blocked: 3},
	"philosophers": {Kind: explore.KindDeadlock, Lanes: 4, Blocked: 4},
	"condsignal":   {Kind: explore.KindDeadlock, Lanes: 2, Blocked: 1},
	"timeoutleak":  {Kind: explore.KindLeak, Lanes: 2, Blocked: 1},
	"ctxcancel":    {Kind: explore.KindLeak, Lanes: 2, Blocked: 1},
	"doubleclose":  {Kind: explore.KindPanic, Lanes: 3},
	"waitgroup":    {Kind: explore.KindTestFailure, Lanes: 4},
	"counter":      {Kind: explore.KindTestFailure, Lanes: 3},
	"singleton":    {Kind: explore.KindLTL, SpecFinal: singletonFinal, SpecStepOp: "call singleton.getSingleton"},
	"absdiff":      {Kind: explore.KindPanic, Lanes: 1, Inputs: []string{"x", "y"}},
}

// singletonFinal is where singleton's specs become false: thesis,
// G(getSingleton -> G !getSingleton), at the first call (the G includes
// the present); atMostOnce, G(getSingleton -> N G !getSingleton), at the
// second.
func singletonFinal(v *report.Verdict) int {
	calls := HighPositions(v.Atoms, "getSingleton")
	k := 0
	if strings.HasPrefix(v.Formula, "atMostOnce:") {
		k = 1
	}
	if len(calls) <= k {
		return -1
	}
	return calls[k]
}

// HighPositions lists the positions where the named row of a waveform is
// high, in order.
func HighPositions(rows []report.Wave, name string) []int {
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

var reportNamed = regexp.MustCompile(`report: (\S+\.html)`)

// ReadPage decodes the data of the report that out (a failure's text, an
// ltl command's standard error) names, and returns its path too.
func ReadPage(t TB, out string) (string, *report.Page) {
	t.Helper()
	m := reportNamed.FindStringSubmatch(out)
	require.NotNil(t, m, "no report named in:\n%s", out)
	b, err := os.ReadFile(m[1])
	require.NoError(t, err)
	page := string(b)
	start := strings.Index(page, `id="report-data">`)
	require.GreaterOrEqual(t, start, 0, "not a report")
	data, _, ok := strings.Cut(page[start+len(`id="report-data">`):], "</script>")
	require.True(t, ok, "the report's data does not end")
	var p report.Page
	require.NoError(t, json.Unmarshal([]byte(data), &p))
	return m[1], &p
}

// CheckFinding checks a page of an exploration against an example's
// failure and returns the finding of the expected kind.
func CheckFinding(t TB, p *report.Page, e Expect) *report.Finding {
	t.Helper()
	var f *report.Finding
	for _, g := range p.Findings {
		if g.Kind == string(e.Kind) {
			f = g
			break
		}
	}
	require.NotNil(t, f, "no %s finding in the report", e.Kind)
	if e.Lanes > 0 {
		assert.Len(t, f.Lanes, e.Lanes, "a lane per goroutine")
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
	assert.Equal(t, e.Blocked, blocked, "goroutines blocked at the end")
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
	assert.ElementsMatch(t, e.Inputs, names, "symbolic inputs")
	if len(e.Inputs) > 0 {
		assert.NotEmpty(t, f.PathCondition)
	}
	if e.SpecFinal != nil {
		require.NotNil(t, f.Spec, "a violated spec has its waveform")
		assert.False(t, f.Spec.Holds)
		assert.Equal(t, e.SpecFinal(f.Spec), f.Spec.Final, "the spec's verdict becomes final at")
		require.Len(t, f.Spec.Steps, f.Spec.Length, "each position of the spec is linked to a step")
		for pos, i := range f.Spec.Steps {
			if assert.GreaterOrEqual(t, i, 0) {
				assert.Contains(t, f.Trace[i].Op, e.SpecStepOp, "position %d follows the step", pos)
			}
		}
	}
	return f
}

// CheckVerdict checks a page of a verdict of formula on tr: one
// waveform row per atom of the trace and of the formula, each high
// exactly where the atom holds, the verdict, and for a violation the
// position final (where an independent monitor decided it) and an
// explanation.
func CheckVerdict(t TB, p *report.Page, formula string, tr *monitor.Trace, holds bool, final int) *report.Verdict {
	t.Helper()
	require.Len(t, p.Verdicts, 1)
	v := p.Verdicts[0]
	assert.Equal(t, holds, v.Holds)
	assert.Equal(t, tr.Len(), v.Length)
	want := map[string]bool{}
	for _, a := range append(tr.Atoms(), ltl.MustParse(formula).Atoms()...) {
		want[a] = true
	}
	got := map[string]bool{}
	for _, w := range v.Atoms {
		got[w.Name] = true
		high := map[int]bool{}
		for _, i := range HighPositions(v.Atoms, w.Name) {
			high[i] = true
		}
		for i := 0; i < tr.Len(); i++ {
			assert.Equal(t, tr.Holds(i, w.Name), high[i], "%s at %d", w.Name, i)
		}
	}
	assert.Equal(t, want, got, "one waveform row per atom")
	if !holds {
		assert.Equal(t, final, v.Final, "the verdict becomes final at")
		assert.NotEmpty(t, v.Why, "the explanation")
	}
	return v
}

// Page is a report for the browser pass.
type Page struct {
	Name string
	Path string
	Data *report.Page
}

// Pages collects the reports a test writes, for one browser pass over
// them all.
type Pages struct {
	mu   sync.Mutex
	list []Page
}

// Add adds the report at path, with its decoded data.
func (ps *Pages) Add(name, path string, p *report.Page) {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	ps.list = append(ps.list, Page{Name: name, Path: path, Data: p})
}

// List returns the reports in the order they were added.
func (ps *Pages) List() []Page {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	return append([]Page(nil), ps.list...)
}

// seen is what a finding's section shows after Browse's clicks.
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
// link to position pos and the step at index back, and returns what the
// page shows. The clicks are click events dispatched to the elements: the
// page's handlers run as for a mouse click, without DevTools round trips
// per mouse event.
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

// browseVerdict zooms a verdict's waveform to fit and returns its number
// of atom rows and the first position of its final verdict (-1: none).
const browseVerdict = `(function (box) {
	var v = document.querySelector(box);
	v.querySelector(".zoom-fit").dispatchEvent(new MouseEvent("click", {bubbles: true}));
	var f = v.querySelector('.waveform .seg[data-verdict="violated"], .waveform .seg[data-verdict="satisfied"]');
	return [v.querySelectorAll(".waveform .lbl.atom").length, f ? +f.getAttribute("data-from") : -1];
})(%q)`

// Browse loads a report into tab and checks what a user sees: per
// finding a lane per goroutine, a mark per step on a lane once zoomed to
// fit, a blocked bar per blocked goroutine, an arrow per hand-off, the
// source line of a clicked step, a violated spec's positions linked to
// the steps and back; per verdict a row per atom and the verdict row
// turning final where the page says; no error logged. With shot, it
// writes a screenshot to that path.
func Browse(t TB, tab *browsertest.Tab, p Page, shot string) {
	t.Helper()
	tab.Load(t, p.Path)
	for k, f := range p.Data.Findings {
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
		if f.Spec != nil && len(f.Spec.Steps) > 0 && f.Spec.Steps[0] >= 0 {
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
			if src, ok := p.Data.Sources[s.File][s.Line]; ok {
				assert.Contains(t, got.Here, src, "finding %d: the clicked step's source line", k)
			}
		}
		if pos >= 0 {
			assert.Equal(t, f.Spec.Steps[pos], got.SpecStep, "finding %d: the spec's position %d selects its step", k, pos)
			assert.True(t, strings.HasPrefix(got.SpecInfo, "position 0:"), "finding %d: the step selects the spec's position: %s", k, got.SpecInfo)
		}
	}
	for k, v := range p.Data.Verdicts {
		got := browsertest.Eval[[2]int](t, tab, fmt.Sprintf(browseVerdict, fmt.Sprintf("#verdict-%d", k)))
		assert.Equal(t, len(v.Atoms), got[0], "verdict %d: a row per atom", k)
		assert.Equal(t, v.Final, got[1], "verdict %d: the verdict row turns final at", k)
	}
	assert.Empty(t, tab.Errors(), "the page logged errors")
	if shot != "" {
		require.NoError(t, os.MkdirAll(filepath.Dir(shot), 0o755))
		tab.Screenshot(t, shot)
	}
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
