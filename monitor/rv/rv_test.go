package rv_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/henceforth-go/henceforth/automaton"
	"github.com/henceforth-go/henceforth/ltl"
	"github.com/henceforth-go/henceforth/monitor"
	"github.com/henceforth-go/henceforth/monitor/internal/gen"
	"github.com/henceforth-go/henceforth/monitor/rv"
)

// collect returns a callback that records the violations it is passed.
func collect() (func(*rv.Violation), *[]*rv.Violation) {
	var mu sync.Mutex
	var got []*rv.Violation
	return func(v *rv.Violation) {
		mu.Lock()
		defer mu.Unlock()
		got = append(got, v)
	}, &got
}

func TestViolatedAtFirstBadEvent(t *testing.T) {
	cb, got := collect()
	m, err := rv.New("G(write -> (!release S acquire))", cb)
	require.NoError(t, err)
	acquire, write, release := m.Atom("acquire"), m.Atom("write"), m.Atom("release")
	acquire.Step()
	write.Step()
	release.Step()
	assert.Empty(t, *got)
	write.Step()
	require.Len(t, *got, 1, "reported at the event that violates it")
	v := (*got)[0]
	assert.Equal(t, 3, v.At)
	assert.Equal(t, monitor.Violated, m.Verdict())
	write.Step()
	assert.Same(t, v, m.Violation())
	assert.Same(t, v, m.Finish(), "Finish returns the violation of the run")
	assert.Len(t, *got, 1, "one report per monitor")
	assertReport(t, v, "verdict: violated at event 3 (trace of 4 events)", "why:\n", "> 3: {write}")
}

// assertReport asserts that v's report has each of the lines wanted.
func assertReport(t *testing.T, v *rv.Violation, wants ...string) {
	t.Helper()
	report := v.String()
	for _, w := range wants {
		assert.Contains(t, report, w)
	}
}

func TestFinishDecidesOpenObligations(t *testing.T) {
	cb, got := collect()
	m, err := rv.New("G(req -> F ack)", cb)
	require.NoError(t, err)
	m.Step("req")
	m.Commit()
	assert.Equal(t, monitor.CurrentlyFalse, m.Verdict())
	assert.Empty(t, *got, "a liveness property is not decided before the end")
	v := m.Finish()
	require.NotNil(t, v)
	require.Len(t, *got, 1)
	assert.True(t, v.Final)
	assert.Contains(t, v.String(), "F ack is false at 0")
}

func TestSatisfiedRunReportsNothing(t *testing.T) {
	cb, got := collect()
	m, err := rv.New("G(req -> F ack)", cb)
	require.NoError(t, err)
	req, ack := m.Atom("req"), m.Atom("ack")
	req.Step()
	ack.Step()
	assert.Nil(t, m.Finish())
	assert.Empty(t, *got)
	assert.Equal(t, monitor.Satisfied, m.Verdict())
}

func TestStateAtoms(t *testing.T) {
	cb, got := collect()
	m, err := rv.New("G(write -> locked)", cb)
	require.NoError(t, err)
	locked, write := m.State("locked"), m.Atom("write")
	locked.Set(true)
	write.Step()
	locked.Set(false)
	m.Commit()
	assert.Empty(t, *got)
	write.Step()
	require.Len(t, *got, 1)
	first, tr := m.Trace()
	assert.Equal(t, 0, first)
	assert.Equal(t, []string{"locked", "write"}, tr.At(0))
	assert.Empty(t, tr.At(1))
	assert.Equal(t, []string{"write"}, tr.At(2))
}

func TestMalformedFormulaIsAPositionedError(t *testing.T) {
	_, err := rv.New("G(p ->", nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "offset 6")
}

func TestNoDFANeedsFullTrace(t *testing.T) {
	_, err := rv.New("G(q -> Y p)", nil, rv.WithSemantics(ltl.RosuHavelund))
	assert.ErrorIs(t, err, rv.ErrNeedsFullTrace)

	cb, got := collect()
	m, err := rv.New("G(q -> Y p) && F r", cb, rv.WithSemantics(ltl.RosuHavelund), rv.WithFullTrace())
	require.NoError(t, err)
	m.Step("q", "p") // Y p equals p at the first event under RosuHavelund
	m.Step("q")
	assert.Empty(t, *got)
	m.Step("q")
	require.Len(t, *got, 1, "the G(past) conjunct is checked online")
	assert.Equal(t, 2, (*got)[0].At)
	assert.Contains(t, (*got)[0].String(), "violated conjunct below\nformula: G(q -> Y p)")
}

// TestAgreesWithFullTraceEngines is the property test: on random formulas
// and traces, the verdict of a Monitor with the default window (online, or
// at Finish) is automaton.Check's on the whole trace, and an online
// violation is reported at the first prefix that every continuation
// violates. Traces are longer than a small window, so the explanations
// from a stand-in prefix are exercised too.
func TestAgreesWithFullTraceEngines(t *testing.T) {
	seed := uint64(20261127)
	rng := rand.New(rand.NewPCG(seed, 0))
	atoms := []string{"p", "q", "r"}
	n := 300
	if testing.Short() {
		n = 120
	}
	for k := 0; k < n; k++ {
		f := ltl.Random(rng, ltl.RandomConfig{Atoms: atoms, Ops: ltl.OpsOf(ltl.Mixed), MaxDepth: 4})
		trace := ltl.RandomTrace(rng, atoms, 40)
		desc := fmt.Sprintf("seed %d, case %d: %s on %v", seed, k, f, trace)
		cb, got := collect()
		m, err := rv.NewFormula(f, cb, rv.WithWindow(8))
		require.NoError(t, err, desc)
		var violatedAt = -1
		for i, e := range trace {
			m.Step(e...)
			if violatedAt < 0 && len(*got) > 0 {
				violatedAt = i
			}
		}
		v := m.Finish()
		want, err := automaton.Check(context.Background(), f, toTrace(trace), monitor.Options{})
		require.NoError(t, err, desc)
		require.Equal(t, want.Holds, v == nil, desc)
		if v == nil {
			continue
		}
		require.Len(t, *got, 1, desc)
		if violatedAt >= 0 {
			assert.Equal(t, violatedAt, v.At, desc)
			// Every continuation violates the prefix: the empty one and one more event.
			assert.False(t, ltl.Eval(f, trace[:violatedAt+1], ltl.LTLf), desc)
		}
		// The explanation from the kept events states the violation.
		if len(v.Why) > 0 {
			assert.False(t, v.Why[0].Holds, desc)
		}
		assert.NotEmpty(t, v.String(), desc)
	}
}

func toTrace(s ltl.Sets) *monitor.Trace {
	t := monitor.NewTrace()
	for _, e := range s {
		t.Append(e...)
	}
	return t
}

// TestLongRunReportShowsWindowAndWhy: a violation after millions of events
// is reported with the events around it and an explanation, from the
// bounded window. (Unsynchronized: a mutex per event costs microseconds
// under the race detector.)
func TestLongRunReportShowsWindowAndWhy(t *testing.T) {
	const at = 5_000_000
	cb, got := collect()
	m, err := rv.New("G(write -> (!release S acquire))", cb, rv.Unsynchronized())
	require.NoError(t, err)
	acquire, write, release := m.Atom("acquire"), m.Atom("write"), m.Atom("release")
	acquire.Step()
	for i := 1; i < at-2; i++ {
		write.Step()
	}
	release.Step()
	write.Step() // event at: a write after the release
	require.Len(t, *got, 1)
	v := (*got)[0]
	assert.Equal(t, at-1, v.At)
	assert.Less(t, v.Window.Len(), 10_000, "only the window is kept")
	assertReport(t, v,
		fmt.Sprintf("verdict: violated at event %d (trace of %d events)", at-1, at),
		fmt.Sprintf("  > %d: {write}", at-1),
		fmt.Sprintf("    %d: {release}", at-2),
		fmt.Sprintf("release is true at %d", at-2),
		"why (from the kept events")
}

func TestFullTraceExplainsFromTheStart(t *testing.T) {
	cb, got := collect()
	m, err := rv.New("G(write -> (!release S acquire))", cb, rv.WithWindow(8), rv.WithFullTrace())
	require.NoError(t, err)
	m.Step("acquire")
	for i := 0; i < 100; i++ {
		m.Step("write")
	}
	m.Step("release")
	m.Step("write")
	require.Len(t, *got, 1)
	v := (*got)[0]
	assert.Equal(t, 0, v.First)
	assert.Equal(t, 103, v.Window.Len())
	assert.Empty(t, v.WhyNote)
	first, tr := m.Trace()
	assert.Equal(t, 0, first)
	assert.Equal(t, 103, tr.Len())
}

func TestStandInPrefixExplainsOldEvents(t *testing.T) {
	// The request at event 0 is long gone from a window of 8 when the
	// second request, unanswered, violates the formula; the DFA state at
	// the window's start remembers the first one, and the stand-in shows it.
	cb, got := collect()
	m, err := rv.New("G(req -> X(!req U ack))", cb, rv.WithWindow(8))
	require.NoError(t, err)
	m.Step("req")
	for i := 0; i < 20; i++ {
		m.Step("idle")
	}
	m.Step("req")
	require.Len(t, *got, 1)
	v := (*got)[0]
	assert.Equal(t, 21, v.At)
	assert.Equal(t, ltl.Sets{{"req"}}, v.StandIn)
	assertReport(t, v, "after ~0, a shortest trace", "req is true at ~0", "> 21: {req}")
}

func TestGeneratedEngine(t *testing.T) {
	cb, got := collect()
	m, err := rv.New("G(unlock -> Y(!unlock S lock))", cb, rv.Generated(&gen.LockPairs{}))
	require.NoError(t, err)
	lock, unlock := m.Atom("lock"), m.Atom("unlock")
	lock.Step()
	unlock.Step()
	assert.Empty(t, *got)
	unlock.Step()
	require.Len(t, *got, 1)
	assert.Equal(t, 2, (*got)[0].At)
	assert.Contains(t, (*got)[0].String(), "verdict: violated at event 2")
	assert.Contains(t, (*got)[0].String(), "why:\n")

	_, err = rv.New("G(req -> F ack)", nil, rv.Generated(&gen.LockPairs{}))
	assert.ErrorContains(t, err, "generated engine monitors")
}

func TestGeneratedEngineAgreesWithDFA(t *testing.T) {
	seed := uint64(7)
	rng := rand.New(rand.NewPCG(seed, 0))
	for k := 0; k < 200; k++ {
		trace := ltl.RandomTrace(rng, []string{"lock", "unlock"}, 30)
		var gv, dv *rv.Violation
		g, err := rv.New("G(unlock -> Y(!unlock S lock))", nil, rv.Generated(&gen.LockPairs{}), rv.WithWindow(8))
		require.NoError(t, err)
		d, err := rv.New("G(unlock -> Y(!unlock S lock))", nil, rv.WithWindow(8))
		require.NoError(t, err)
		for _, e := range trace {
			g.Step(e...)
			d.Step(e...)
		}
		gv, dv = g.Finish(), d.Finish()
		desc := fmt.Sprintf("seed %d, case %d: %v", seed, k, trace)
		require.Equal(t, dv == nil, gv == nil, desc)
		if dv != nil {
			assert.Equal(t, dv.At, gv.At, desc)
		}
	}
}

func TestConcurrentStepsKeepEveryEvent(t *testing.T) {
	cb, got := collect()
	m, err := rv.New("G(!(a && b)) && G(b -> O a)", cb)
	require.NoError(t, err)
	// Goroutines stepping a or b: no event has both, and whether a b comes
	// before every a depends on the schedule. The online verdict must be
	// the verdict of the trace in the order recorded.
	var wg sync.WaitGroup
	for _, atom := range []rv.Atom{m.Atom("a"), m.Atom("a"), m.Atom("b"), m.Atom("b")} {
		wg.Go(func() {
			for range 1000 {
				atom.Step()
			}
		})
	}
	wg.Wait()
	assert.Equal(t, 4000, m.Len())
	_, tr := m.Trace()
	require.Equal(t, 4000, tr.Len(), "the window (4096) holds the whole run")
	v := m.Finish()
	want, err := automaton.Check(context.Background(), m.Formula(), tr, monitor.Options{})
	require.NoError(t, err)
	assert.Equal(t, want.Holds, v == nil, "%v", v)
	if v != nil {
		assert.Len(t, *got, 1)
	}
}

func TestTooManyAtomsAreIgnored(t *testing.T) {
	m, err := rv.New("G !err", nil)
	require.NoError(t, err)
	for i := 0; i < 70; i++ {
		m.Step(fmt.Sprintf("a%d", i))
	}
	s := m.Stats()
	assert.Equal(t, 64, s.Atoms)
	assert.Equal(t, 7, s.Ignored)
	assert.Equal(t, 70, s.Events)
	m.Step(strings.Repeat("x", 3), "err")
	assert.Equal(t, monitor.Violated, m.Verdict(), "the formula's atoms are always tracked")
}

func TestUnsynchronizedFromOneGoroutine(t *testing.T) {
	cb, got := collect()
	m, err := rv.New("G(unlock -> Y(!unlock S lock))", cb, rv.Generated(&gen.LockPairs{}), rv.Unsynchronized())
	require.NoError(t, err)
	lock, unlock := m.Atom("lock"), m.Atom("unlock")
	held := m.State("held")
	held.Set(true)
	lock.Step()
	unlock.Step()
	held.Set(false)
	unlock.Step()
	require.Len(t, *got, 1)
	assert.Equal(t, 2, (*got)[0].At)
	_, tr := m.Trace()
	assert.ElementsMatch(t, []string{"held", "lock"}, tr.At(0))
	assert.Equal(t, []string{"unlock"}, tr.At(2))
}

func TestDFATooLargeNeedsFullTrace(t *testing.T) {
	const f = "G(a -> X X X X X b) && G(c -> X X X X X d)"
	_, err := rv.New(f, nil, rv.WithMaxStates(4))
	require.ErrorIs(t, err, rv.ErrNeedsFullTrace)
	assert.Contains(t, err.Error(), "too large")

	cb, got := collect()
	m, err := rv.New(f, cb, rv.WithMaxStates(4), rv.WithFullTrace())
	require.NoError(t, err)
	m.Step("c", "d")
	m.Step("a")
	assert.Empty(t, *got)
	v := m.Finish() // X is strong: the trace ends before b is due
	require.NotNil(t, v)
	require.Len(t, *got, 1)
	assert.True(t, v.Final)
	assertReport(t, v, "verdict: violated (trace of 2 events)", "there is no next position")
}

func TestGeneratedEngineStandsInForOldEvents(t *testing.T) {
	cb, got := collect()
	m, err := rv.New("G(unlock -> Y(!unlock S lock))", cb, rv.Generated(&gen.LockPairs{}), rv.WithWindow(8))
	require.NoError(t, err)
	lock, unlock, idle := m.Atom("lock"), m.Atom("unlock"), m.Atom("idle")
	lock.Step()
	for i := 0; i < 100; i++ {
		idle.Step()
	}
	unlock.Step() // 101: the lock taken at 0 is released
	unlock.Step() // 102: released again
	require.Len(t, *got, 1)
	v := (*got)[0]
	assert.Equal(t, 102, v.At)
	assert.Equal(t, ltl.Sets{{"lock"}}, v.StandIn, "the saved state remembers the lock")
	require.NotEmpty(t, v.Why)
	assert.False(t, v.Why[0].Holds)
	assertReport(t, v, "after ~0, a shortest trace", "!unlock S lock is false at 101", "> 102: {unlock}")
}
