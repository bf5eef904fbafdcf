package report

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"go/token"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/henceforth-go/henceforth/explore"
	"github.com/henceforth-go/henceforth/ltl"
	"github.com/henceforth-go/henceforth/monitor"
)

func TestOpKind(t *testing.T) {
	for op, want := range map[string]string{
		"go abba.run.func1 (goroutine 2)":                "go",
		"start Scenario":                                 "start",
		"sync.(*Mutex).Lock":                             "lock",
		"sync.(*RWMutex).RLock":                          "lock",
		"sync.(*Mutex).Unlock":                           "unlock",
		"sync.(*RWMutex).RUnlock":                        "unlock",
		"send on ch (chan#1) (with goroutine 3)":         "send",
		"receive from chan#3 (cap 1)":                    "receive",
		"select case 1: receive from chan#3 (cap 1)":     "receive",
		"select case 0: send on out (chan#2)":            "send",
		"select: default":                                "select",
		"close g.failed (chan#2)":                        "close",
		"sync.(*WaitGroup).Wait":                         "wait",
		"woken in sync.(*Cond).Wait":                     "wait",
		"wake from time.Sleep at +2s":                    "wait",
		"sync.(*WaitGroup).Add":                          "sync",
		"time.After":                                     "time",
		"clock advances to +1s":                          "time",
		"goroutine exits":                                "exit",
		"Scenario returned":                              "other",
		"sync.(*WaitGroup).Add (wakes waiters)":          "sync",
		"atomic.Value).Load":                             "sync",
		"go statement text that is not a goroutine note": "other",
	} {
		assert.Equal(t, want, opKind(op), op)
	}
}

func steps2(rows ...explore.Step) []Step { return steps(rows, &sources{}) }

func TestArrows(t *testing.T) {
	trace := steps2(
		explore.Step{Goroutine: 1, Op: "start Test"},
		explore.Step{Goroutine: 1, Op: "go p.worker (goroutine 2)"},
		explore.Step{N: 1, Goroutine: 1, Op: "sync.(*Mutex).Lock", Object: "sync#1"},
		explore.Step{N: 2, Goroutine: 2, Op: "send on ch (chan#1) (with goroutine 1)", Object: "chan#1"},
		explore.Step{N: 3, Goroutine: 1, Op: "sync.(*Mutex).Unlock", Object: "sync#1"},
		explore.Step{N: 4, Goroutine: 1, Op: "sync.(*Mutex).Lock", Object: "sync#1"}, // same goroutine: no hand-off
		explore.Step{N: 5, Goroutine: 1, Op: "sync.(*Mutex).Unlock", Object: "sync#1"},
		explore.Step{N: 6, Goroutine: 2, Op: "send on buf (chan#2 (cap 2))", Object: "chan#2"},
		explore.Step{N: 7, Goroutine: 2, Op: "send on buf (chan#2 (cap 2))", Object: "chan#2"},
		explore.Step{N: 8, Goroutine: 2, Op: "sync.(*Mutex).Lock", Object: "sync#1"},
		explore.Step{N: 9, Goroutine: 1, Op: "receive from buf (chan#2 (cap 2))", Object: "chan#2"},
		explore.Step{N: 10, Goroutine: 1, Op: "receive from buf (chan#2 (cap 2))", Object: "chan#2"},
	)
	assert.Equal(t, []Arrow{
		{From: 1, To: 3, FromG: 1, ToG: 2, Kind: "go"},    // the go statement to the goroutine's first step
		{From: 3, To: 3, FromG: 2, ToG: 1, Kind: "chan"},  // a rendezvous: both move in one step
		{From: 6, To: 9, FromG: 1, ToG: 2, Kind: "sync"},  // the last unlock to the other goroutine's lock
		{From: 7, To: 10, FromG: 2, ToG: 1, Kind: "chan"}, // buffered messages arrive in order
		{From: 8, To: 11, FromG: 2, ToG: 1, Kind: "chan"},
	}, arrows(trace))
}

// TestArrowsWakes checks the hand-offs that wake goroutines: a close to
// the receives it lets through (a select's among them, as when a context
// is cancelled), a Cond signal to the waiter it wakes but not to a later
// Wait (the signal is lost), a WaitGroup's last Done to its woken waiter.
func TestArrowsWakes(t *testing.T) {
	trace := steps2(
		explore.Step{N: 1, Goroutine: 1, Op: "send on ch (chan#1 (cap 1))", Object: "chan#1"},
		explore.Step{N: 2, Goroutine: 1, Op: "close ch (chan#1 (cap 1))", Object: "chan#1"},
		explore.Step{N: 3, Goroutine: 2, Op: "receive from ch (chan#1 (cap 1))", Object: "chan#1"},                // the message
		explore.Step{N: 4, Goroutine: 3, Op: "select case 0: receive from ch (chan#1 (cap 1))", Object: "chan#1"}, // the close
		explore.Step{N: 5, Goroutine: 1, Op: "receive from ch (chan#1 (cap 1))", Object: "chan#1"},                // its own close: no arrow
		explore.Step{N: 6, Goroutine: 2, Op: "sync.(*Cond).Signal", Object: "sync#1"},
		explore.Step{N: 7, Goroutine: 1, Op: "sync.(*Cond).Wait", Object: "sync#1"}, // enters Wait after the signal
		explore.Step{N: 8, Goroutine: 2, Op: "sync.(*Cond).Broadcast", Object: "sync#1"},
		explore.Step{N: 9, Goroutine: 1, Op: "woken in sync.(*Cond).Wait", Object: "sync#1"},
		explore.Step{N: 10, Goroutine: 3, Op: "woken in sync.(*Cond).Wait", Object: "sync#1"},
		explore.Step{N: 11, Goroutine: 2, Op: "sync.(*WaitGroup).Add", Object: "sync#2"},
		explore.Step{N: 12, Goroutine: 1, Op: "sync.(*WaitGroup).Wait", Object: "sync#2"}, // the counter is not zero: blocks
		explore.Step{N: 13, Goroutine: 2, Op: "sync.(*WaitGroup).Done (wakes waiters)", Object: "sync#2"},
		explore.Step{N: 14, Goroutine: 1, Op: "sync.(*WaitGroup).Wait", Object: "sync#3"}, // woken, on its ticket
	)
	assert.Equal(t, []Arrow{
		{From: 0, To: 2, FromG: 1, ToG: 2, Kind: "chan"},
		{From: 1, To: 3, FromG: 1, ToG: 3, Kind: "close"},
		{From: 7, To: 8, FromG: 2, ToG: 1, Kind: "sync"},
		{From: 7, To: 9, FromG: 2, ToG: 3, Kind: "sync"},
		{From: 12, To: 13, FromG: 2, ToG: 1, Kind: "sync"},
	}, arrows(trace))
}

func TestLanes(t *testing.T) {
	trace := []explore.Step{
		{Goroutine: 1, Op: "start Scenario"},
		{Goroutine: 1, Op: "go abba.run.func1 (goroutine 2)"},
		{N: 1, Goroutine: 2, Op: "sync.(*Mutex).Lock"},
	}
	stacks := []explore.GoroutineStack{
		{ID: 1, State: "sync.(*WaitGroup).Wait", Frames: []explore.StackFrame{{Func: "example.com/abba.run", Pos: token.Position{Filename: "abba_test.go", Line: 15}}}},
		{ID: 2, State: "finished"},
		{ID: 3, State: "chan receive on ch (chan#1)", Frames: []explore.StackFrame{{Func: "example.com/x/abba.(*T).loop"}, {Func: "example.com/x/abba.(*T).Start.func1"}}},
	}
	ls := lanes(trace, stacks, true)
	require.Len(t, ls, 3)
	assert.Equal(t, "Scenario", ls[0].Name)
	assert.True(t, ls[0].Blocked)
	assert.Equal(t, "abba.run.func1", ls[1].Name, "named by its go statement")
	assert.False(t, ls[1].Blocked)
	assert.Equal(t, "abba.(*T).Start.func1", ls[2].Name, "named by the outermost frame, without the import path")
	assert.True(t, ls[2].Blocked)

	// Outside a deadlock or a leak, goroutines are stopped, not blocked.
	for _, l := range lanes(trace, stacks, false) {
		assert.False(t, l.Blocked, "goroutine %d", l.Goroutine)
	}
}

// TestFromCheckTable checks the table against the reference evaluator
// and the online verdicts against the formula's DFA monitor.
func TestFromCheckTable(t *testing.T) {
	tr := monitor.NewTrace()
	for _, e := range [][]string{{"req"}, {}, {"ack"}, {"req"}, {"err"}, {}} {
		tr.Append(e...)
	}
	f := ltl.MustParse("G(req -> F ack) && G !err")
	res := monitor.Result{Violation: -1}
	v := FromCheck(context.Background(), f, tr, res, ltl.LTLf)
	require.NotEmpty(t, v.Table)
	assert.Equal(t, f.String(), v.Table[0].Name, "the formula is the first row")
	for _, w := range v.Table {
		g := ltl.MustParse(w.Name)
		for i := 0; i < tr.Len(); i++ {
			// A future formula's value at i is its verdict on the suffix from i.
			assert.Equal(t, ltl.Eval(g, tr.Slice(i, tr.Len()), ltl.LTLf), inRuns(w.High, i), "%s at %d", w.Name, i)
		}
	}
	names := map[string]bool{}
	for _, w := range v.Atoms {
		names[w.Name] = true
		for i := 0; i < tr.Len(); i++ {
			assert.Equal(t, tr.Holds(i, w.Name), inRuns(w.High, i), "%s at %d", w.Name, i)
		}
	}
	assert.Equal(t, map[string]bool{"req": true, "ack": true, "err": true}, names)

	// The online verdict becomes final (violated) at the first err.
	require.NotEmpty(t, v.Online)
	last := v.Online[len(v.Online)-1]
	assert.Equal(t, "violated", last.Verdict)
	assert.Equal(t, 4, v.Final)
	assert.Equal(t, v.Final, last.From)
	assert.Equal(t, tr.Len(), last.To)
}

func inRuns(runs [][2]int, i int) bool {
	for _, r := range runs {
		if r[0] <= i && i < r[1] {
			return true
		}
	}
	return false
}

func TestWriteHTMLSelfContained(t *testing.T) {
	p := &Page{Title: "</script><script>alert(1)</script>", Summary: []string{"a & b"}}
	var b bytes.Buffer
	require.NoError(t, p.WriteHTML(&b))
	page := b.String()
	assert.Equal(t, 2, strings.Count(page, "</script>"), "the data cannot close its script element")
	assert.NotRegexp(t, regexp.MustCompile(`(src|href)\s*=\s*["']?(https?:)?//`), page, "nothing is loaded from the network")
	assert.NotContains(t, page, "@import")

	// The embedded data decodes to the page.
	m := regexp.MustCompile(`(?s)<script type="application/json" id="report-data">(.*?)</script>`).FindStringSubmatch(page)
	require.NotNil(t, m)
	var back Page
	require.NoError(t, json.Unmarshal([]byte(m[1]), &back))
	assert.Equal(t, p.Title, back.Title)
}

func TestFileName(t *testing.T) {
	assert.Equal(t, "abba.TestX_case_1.html", FileName("abba.TestX/case 1"))
	assert.Equal(t, "report.html", FileName("///"))
	assert.LessOrEqual(t, len(FileName(strings.Repeat("x", 500))), 105)
}

func TestFromExploreInputsAndSpec(t *testing.T) {
	r := &explore.Report{Entry: "example.com/p.F", Complete: true, Strategy: "dpor", Executions: 3, Findings: []*explore.Finding{{
		Kind: explore.KindPanic, Message: "panic: boom", Replay: "v1:AA", Steps: 1,
		Inputs:        []explore.Input{{Name: "x", Type: "int16", Value: int16(-3)}},
		PathCondition: "x < 0",
		Spec: &explore.SpecTrace{Name: "pos", Formula: "G !neg", Atoms: []string{"neg"}, Violation: 1,
			Events: []explore.SpecEvent{{Step: 0, Goroutine: 1, What: "initial state"}, {Step: 1, Goroutine: 1, What: "state", Atoms: []string{"neg"}}}},
	}}}
	p := FromExplore(r, func(f *explore.Finding) string { return "replay " + f.Replay })
	require.Len(t, p.Findings, 1)
	f := p.Findings[0]
	assert.Equal(t, []Input{{Name: "x", Type: "int16", Value: "-3"}}, f.Inputs)
	assert.Equal(t, "x < 0", f.PathCondition)
	assert.Equal(t, "replay v1:AA", f.ReplayCommand)
	require.NotNil(t, f.Spec)
	assert.False(t, f.Spec.Holds)
	assert.Equal(t, 1, f.Spec.Final, "the spec's verdict is final at its violating event")
	assert.Equal(t, []string{"step 0, goroutine 1: initial state", "step 1, goroutine 1: state"}, f.Spec.Labels)
	assert.Equal(t, []int{-1, -1}, f.Spec.Steps, "the finding's trace has no rows: no position is linked")

	// A spec's positions link to the rows of the steps they followed.
	r.Findings[0].Trace = []explore.Step{{Goroutine: 1, Op: "start F"}, {N: 1, Goroutine: 1, Op: "write x"}}
	f = FromExplore(r, nil).Findings[0]
	assert.Equal(t, []int{-1, 1}, f.Spec.Steps)
}

// TestArrowsContextCancel: in an explored execution, cancelling a context
// draws an arrow from the close of its Done channel to the select it
// wakes, and from the goroutine's close of done to the receive it lets
// through.
func TestArrowsContextCancel(t *testing.T) {
	r, _ := exploreScenario(t, "cancel")
	f := FromExplore(r, nil).Findings[0]
	var closes []string
	for _, a := range f.Arrows {
		if a.Kind == "close" {
			closes = append(closes, fmt.Sprintf("g%d %s → g%d %s", a.FromG, f.Trace[a.From].Op, a.ToG, f.Trace[a.To].Op))
		}
	}
	require.Len(t, closes, 2, "arrows of %s:\n%+v", f.Kind, f.Trace)
	assert.Regexp(t, `^g1 close .* → g2 select case 0: receive from`, closes[0], "the cancel wakes the select")
	assert.Regexp(t, `^g2 close done .* → g1 receive from done`, closes[1], "the goroutine's close lets the receive through")
}
