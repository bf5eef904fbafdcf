package report

// The browser tests open reports of the examples in headless Chromium
// (Debian's chromium package; make test installs it) with chromedp, one
// browser per test run, and check what a user looks at: the lanes and
// steps, the source line of a clicked step, the waveform's rows and the
// position where the verdict became final, and that the page logs no
// error. Each takes a screenshot into the test's artifact directory;
// -report.readme also writes the README's pictures into docs/images.

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/henceforth-go/henceforth/automaton"
	"github.com/henceforth-go/henceforth/explore"
	"github.com/henceforth-go/henceforth/internal/browsertest"
	"github.com/henceforth-go/henceforth/ltl"
	"github.com/henceforth-go/henceforth/monitor"
)

var readmeImages = flag.Bool("report.readme", false, "write the screenshots of the browser tests into docs/images (the README's pictures)")

// browser is the one headless Chromium of the test run.
var browser browsertest.Shared

func TestMain(m *testing.M) {
	flag.Parse()
	code := m.Run()
	browser.Close()
	os.Exit(code)
}

// open writes p to a file in the test's artifact directory and opens it in
// a new tab, waiting until its script has drawn it.
func open(t *testing.T, p *Page, name string) *browsertest.Tab {
	t.Helper()
	b := browser.Get(t)
	path := filepath.Join(t.ArtifactDir(), name+".html")
	require.NoError(t, WriteFile(path, p))
	return b.Open(t, path)
}

// eval evaluates a JavaScript expression in the tab.
func eval[T any](t *testing.T, tb *browsertest.Tab, expr string) T {
	t.Helper()
	return browsertest.Eval[T](t, tb, expr)
}

// click clicks the element sel selects, as a user does (mouse events).
func click(t *testing.T, tb *browsertest.Tab, sel string) {
	t.Helper()
	tb.Click(t, sel)
}

// screenshot saves the page into the artifact directory, and with
// -report.readme into docs/images.
func screenshot(t *testing.T, tb *browsertest.Tab, name string) {
	t.Helper()
	path := filepath.Join(t.ArtifactDir(), name+".png")
	tb.Screenshot(t, path)
	if *readmeImages {
		png, err := os.ReadFile(path)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join("..", "docs", "images", name+".png"), png, 0o644))
	}
}

// exploreScenario explores the Scenario of a package of testdata and
// returns the report and its first finding.
func exploreScenario(t *testing.T, name string) (*explore.Report, *explore.Finding) {
	t.Helper()
	pkg := "github.com/henceforth-go/henceforth/report/testdata/" + name
	p, err := explore.Load(context.Background(), explore.LoadConfig{Patterns: []string{pkg}, NoTests: true})
	require.NoError(t, err)
	e, err := p.Func(pkg + ".Scenario")
	require.NoError(t, err)
	r, err := p.Explore(context.Background(), e, explore.Options{})
	require.NoError(t, err)
	require.NotEmpty(t, r.Findings, "the scenario has a bug")
	return r, r.Findings[0]
}

func TestBrowserDeadlock(t *testing.T) {
	browser.Get(t) // skip before exploring when there is no browser
	r, f := exploreScenario(t, "deadlock")
	require.Equal(t, explore.KindDeadlock, f.Kind)
	p := FromExplore(r, func(f *explore.Finding) string {
		return "ltl explore -func Scenario -replay " + f.Replay + " ./report/testdata/deadlock"
	})
	pf := p.Findings[0]
	tb := open(t, p, "deadlock")

	// A lane per goroutine, a mark per row of the interleaving, a blocked
	// bar per goroutine blocked at the end, an arrow per hand-off.
	assert.Equal(t, len(pf.Lanes), eval[int](t, tb, `document.querySelectorAll(".tl.lanes .lbl").length`))
	assert.Equal(t, len(pf.Trace), eval[int](t, tb, `document.querySelectorAll(".tl.lanes .step").length`))
	blocked := 0
	for _, l := range pf.Lanes {
		if l.Blocked {
			blocked++
		}
	}
	assert.Equal(t, blocked, eval[int](t, tb, `document.querySelectorAll(".blockbar").length`))
	assert.Equal(t, len(pf.Arrows), eval[int](t, tb, `document.querySelectorAll("path.arrow").length`))
	assert.Equal(t, pf.ReplayCommand, eval[string](t, tb, `document.querySelector(".replay-cmd").textContent`))

	// Clicking a lock shows its source line.
	i := -1
	for k, s := range pf.Trace {
		if s.Kind == "lock" && s.File != "" {
			i = k
			break
		}
	}
	require.GreaterOrEqual(t, i, 0, "the deadlock's interleaving takes a lock")
	click(t, tb, fmt.Sprintf(`.step[data-i="%d"]`, i))
	s := pf.Trace[i]
	assert.Equal(t, fmt.Sprintf("%s:%d", s.File, s.Line), eval[string](t, tb, `document.querySelector(".detail .src-pos").title`))
	assert.True(t, strings.HasSuffix(s.File+":"+fmt.Sprint(s.Line), eval[string](t, tb, `document.querySelector(".detail .src-pos").textContent`)),
		"the page shows the path relative to the files' common directory")
	src, err := os.ReadFile(s.File)
	require.NoError(t, err)
	line := strings.TrimSpace(strings.Split(string(src), "\n")[s.Line-1])
	assert.Contains(t, eval[string](t, tb, `document.querySelector(".detail .src .here").textContent`), line)

	// Clicking a lane's name collapses it.
	click(t, tb, `.tl.lanes .lbl[data-g="2"]`)
	assert.True(t, eval[bool](t, tb, `document.querySelector('.tl.lanes .lbl[data-g="2"]').classList.contains("collapsed")`))
	click(t, tb, `.tl.lanes .lbl[data-g="2"]`)
	screenshot(t, tb, "deadlock")
}

func TestBrowserWaveform(t *testing.T) {
	browser.Get(t)
	in, err := os.Open(filepath.Join("..", "examples", "demo", "server.jsonl"))
	require.NoError(t, err)
	defer in.Close()
	tr, err := monitor.ReadTrace(in, "server.jsonl")
	require.NoError(t, err)
	f := ltl.MustParse("G(write -> (!release S acquire))")
	res, err := automaton.Check(context.Background(), f, tr, monitor.Options{})
	require.NoError(t, err)
	require.False(t, res.Holds, "the demo trace violates the lock discipline")
	v := FromCheck(context.Background(), f, tr, res, ltl.LTLf)
	tb := open(t, &Page{Title: "ltl check: " + f.String(), Verdicts: []*Verdict{v}}, "waveform")

	// One row per atom.
	atoms := map[string]bool{}
	for _, a := range append(tr.Atoms(), f.Atoms()...) {
		atoms[a] = true
	}
	assert.Equal(t, len(atoms), eval[int](t, tb, `document.querySelectorAll(".waveform .lbl.atom").length`))
	for a := range atoms {
		assert.Equal(t, 1, eval[int](t, tb, fmt.Sprintf(`document.querySelectorAll('.waveform .lbl.atom[data-name=%q]').length`, a)), a)
	}

	// The verdict row turns to violated where the DFA monitor decides it.
	d, err := automaton.FromFormula(context.Background(), f, automaton.Options{})
	require.NoError(t, err)
	m := d.Monitor()
	decided := -1
	for i := 0; i < tr.Len() && decided < 0; i++ {
		if m.StepAtoms(tr.At(i)...) == monitor.Violated {
			decided = i
		}
	}
	require.GreaterOrEqual(t, decided, 0)
	assert.Equal(t, decided, eval[int](t, tb, `+document.querySelector('.waveform .seg[data-verdict="violated"]').getAttribute("data-from")`))
	assert.Equal(t, "currently true", eval[string](t, tb, `document.querySelector('.waveform .seg[data-verdict]').getAttribute("data-verdict")`),
		"before the violation the formula holds on the prefix")

	// A position named by the explanation is one click away.
	require.NotEmpty(t, v.Why)
	last := v.Why[len(v.Why)-1]
	click(t, tb, fmt.Sprintf(`.why a.pos-link[data-pos="%d"]`, last.Position))
	assert.Equal(t, fmt.Sprintf("position %d: {%s}", last.Position, strings.Join(tr.At(last.Position), ", ")),
		eval[string](t, tb, `document.querySelector(".posinfo .pos-atoms").textContent`))
	screenshot(t, tb, "waveform")
}
