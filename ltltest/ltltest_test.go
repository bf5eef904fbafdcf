package ltltest_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/henceforth-go/henceforth/ltl"
	"github.com/henceforth-go/henceforth/ltltest"
	"github.com/henceforth-go/henceforth/monitor"
)

// fakeT records what ltltest reports, so the tests can assert on failure
// messages.
type fakeT struct {
	mu       sync.Mutex
	errors   []string
	failed   bool
	stopped  bool
	cleanups []func()
}

func (f *fakeT) Helper() {}
func (f *fakeT) Errorf(format string, args ...any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.errors = append(f.errors, fmt.Sprintf(format, args...))
	f.failed = true
}
func (f *fakeT) FailNow()          { f.stopped = true }
func (f *fakeT) Cleanup(fn func()) { f.cleanups = append(f.cleanups, fn) }

// end runs the cleanups as the testing package does when a test ends.
func (f *fakeT) end() {
	for i := len(f.cleanups) - 1; i >= 0; i-- {
		f.cleanups[i]()
	}
}

func (f *fakeT) output() string { return strings.Join(f.errors, "\n") }

func TestHoldsPasses(t *testing.T) {
	ft := &fakeT{}
	ok := ltltest.Holds(ft, "G(req -> F ack)", ltl.Sets{{"req"}, {}, {"ack"}})
	assert.True(t, ok)
	assert.False(t, ft.failed, ft.output())
}

func TestHoldsFailureMessage(t *testing.T) {
	ft := &fakeT{}
	trace := ltl.Sets{{"q"}, {"r"}, {}, {"p"}, {}}
	ok := ltltest.Holds(ft, "G(start(p) -> [q, end(r | s)))", trace, "checking %s", "the paper's example")
	require.False(t, ok)
	out := ft.output()
	assert.Contains(t, out, "ltltest: formula does not hold")
	assert.Contains(t, out, "formula: G(start(p) -> [q, end(r || s))s)")
	assert.Contains(t, out, "violated at event 3")
	assert.Contains(t, out, "why:")
	assert.Contains(t, out, "> 3: {p}")
	assert.Contains(t, out, "message: checking the paper's example")
	assert.False(t, ft.stopped, "Holds reports and returns; it does not stop the test")
}

func TestRequireHoldsStops(t *testing.T) {
	ft := &fakeT{}
	ltltest.RequireHolds(ft, "F done", ltl.Sets{{}, {}})
	assert.True(t, ft.failed)
	assert.True(t, ft.stopped)
}

func TestViolated(t *testing.T) {
	ft := &fakeT{}
	assert.True(t, ltltest.Violated(ft, "F done", ltl.Sets{{}, {}}))
	assert.False(t, ft.failed)
	assert.False(t, ltltest.Violated(ft, "F done", ltl.Sets{{}, {"done"}}))
	assert.Contains(t, ft.output(), "formula holds, but a violation was expected")
}

func TestMalformedFormulaFailsWithParseError(t *testing.T) {
	ft := &fakeT{}
	assert.False(t, ltltest.Holds(ft, "G(p ->", ltl.Sets{{"p"}}))
	assert.Contains(t, ft.output(), "ltltest: malformed formula")
	assert.Contains(t, ft.output(), "offset 6")

	ft = &fakeT{}
	m := ltltest.NewMonitor(ft, "p U")
	m.Step("p") // recording still works; nothing panics
	ft.end()
	assert.Contains(t, ft.output(), "malformed formula")
	assert.Len(t, ft.errors, 1)
}

func TestSemanticsOption(t *testing.T) {
	ft := &fakeT{}
	assert.False(t, ltltest.Holds(ft, "Y p", ltl.Sets{{"p"}}))
	ft = &fakeT{}
	assert.True(t, ltltest.Holds(ft, "Y p", ltl.Sets{{"p"}}, ltltest.WithSemantics(ltl.RosuHavelund)), ft.output())
}

func TestEnginesAgree(t *testing.T) {
	trace := ltl.Sets{{"req"}, {"req", "ack"}, {}, {"req"}}
	for _, e := range []monitor.Engine{monitor.EngineAuto, monitor.EngineDP, monitor.EngineNaive, monitor.EngineAutomaton} {
		ft := &fakeT{}
		assert.False(t, ltltest.Holds(ft, "G(req -> F ack)", trace, ltltest.WithEngine(e)), "engine %v", e)
		assert.Contains(t, ft.output(), "formula does not hold")
	}
}

func TestMonitorOnlineViolationAtFirstBadEvent(t *testing.T) {
	ft := &fakeT{}
	m := ltltest.NewMonitor(ft, "G(write -> (!release S acquire))")
	m.Step("acquire")
	m.Step("write")
	m.Step("release")
	assert.False(t, ft.failed, "no violation yet")
	m.Step("write")
	require.True(t, ft.failed, "the violation is reported at the event that causes it")
	assert.Contains(t, ft.output(), "violated at event 3")
	m.Step("write")
	ft.end()
	assert.Len(t, ft.errors, 1, "one report per monitor")
}

func TestMonitorFinalVerdictAtCleanup(t *testing.T) {
	ft := &fakeT{}
	m := ltltest.NewMonitor(ft, "G(req -> F ack)")
	m.Step("req")
	m.Step()
	assert.False(t, ft.failed, "a liveness property is not decided before the end")
	ft.end()
	require.True(t, ft.failed)
	assert.Contains(t, ft.output(), "violated by the end of the test")
	assert.Contains(t, ft.output(), "F ack")
}

func TestMonitorStateAtoms(t *testing.T) {
	ft := &fakeT{}
	m := ltltest.NewMonitor(ft, "G(write -> locked)")
	m.Set("locked", true)
	m.Step("write")
	m.Set("locked", false)
	m.Commit()
	assert.False(t, ft.failed, ft.output())
	m.Step("write")
	assert.True(t, ft.failed)
	assert.Equal(t, 3, m.Len())
	tr := m.Trace()
	assert.Equal(t, []string{"locked", "write"}, tr.At(0))
	assert.Empty(t, tr.At(1))
}

func TestMonitorConcurrentSteps(t *testing.T) {
	ft := &fakeT{}
	m := ltltest.NewMonitor(ft, "G(!(a && b))")
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 100; i++ {
				if g%2 == 0 {
					m.Step("a")
				} else {
					m.Step("b")
				}
			}
		}(g)
	}
	wg.Wait()
	ft.end()
	assert.False(t, ft.failed, ft.output())
	assert.Equal(t, 800, m.Len())
}

func TestRecorderIsATrace(t *testing.T) {
	ft := &fakeT{}
	m := ltltest.NewMonitor(ft, "true")
	m.Step("req")
	m.Step("ack")
	assert.True(t, ltltest.Holds(ft, "req && X ack", m))
	ft.end()
	assert.False(t, ft.failed, ft.output())
}

func TestMonitorDecidesMixedPropertyEarly(t *testing.T) {
	ft := &fakeT{}
	m := ltltest.NewMonitor(ft, "G !err && F done")
	m.Step()
	assert.False(t, ft.failed)
	m.Step("err")
	require.True(t, ft.failed, "after err no continuation can satisfy G !err")
	assert.Contains(t, ft.output(), "violated at event 1: no continuation of the trace can satisfy it")
	m.Step("done")
	ft.end()
	assert.Len(t, ft.errors, 1)
}

func TestMonitorNextObligationViolatedAtNextEvent(t *testing.T) {
	ft := &fakeT{}
	m := ltltest.NewMonitor(ft, "G(req -> X ack)")
	m.Step("req")
	assert.False(t, ft.failed)
	m.Step()
	require.True(t, ft.failed)
	assert.Contains(t, ft.output(), "violated at event 1")
}

func TestMonitorSatisfiedEarlyStaysSatisfied(t *testing.T) {
	ft := &fakeT{}
	m := ltltest.NewMonitor(ft, "F done")
	m.Step("done")
	m.Step()
	ft.end()
	assert.False(t, ft.failed, ft.output())
}

func TestMonitorRosuHavelundChecksPastOnline(t *testing.T) {
	ft := &fakeT{}
	// Under the papers' semantics Y p at the first event equals p, so the
	// first event does not violate the formula (under LTLf it would).
	m := ltltest.NewMonitor(ft, "G(q -> Y p)", ltltest.WithSemantics(ltl.RosuHavelund))
	m.Step("q", "p")
	m.Step("q")
	assert.False(t, ft.failed, ft.output())
	m.Step("q")
	require.True(t, ft.failed)
	assert.Contains(t, ft.output(), "violated at event 2")
}
