package monitor_test

// The monitor benchmarks: the past-time monitors of
// G(start(p) -> [q, end(r | s))) — interpreted, generated, hand-written —
// and the future-time monitors of G(p -> F q) — interpreted, generated,
// hand-written, naive — all over the same seeded 1M-event trace, each
// reporting events/s. Figures and the command are in BENCHMARKS.part.md.

import (
	"math/rand/v2"
	"runtime"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/henceforth-go/henceforth/ltl"
	"github.com/henceforth-go/henceforth/monitor"
	"github.com/henceforth-go/henceforth/monitor/internal/gen"
)

const (
	benchEvents = 1 << 20
	benchSeed   = 20010515
	paperSpec   = "G(start(p) -> [q, end(r | s)))"
	respSpec    = "G(p -> F q)"
)

// benchTrace is the shared workload: letters over p, q, r, s (bits 0-3, the
// sorted order every monitor here uses). Atoms behave like state
// predicates: each keeps its value from one event to the next and toggles
// with a small probability (p 1/8, q 1/16, r and s 1/24), so p starts every
// 16 events on average, some starts find a q since the last end of r || s
// and some do not.
var benchTrace = sync.OnceValue(func() []monitor.Letter {
	rng := rand.New(rand.NewPCG(benchSeed, 0))
	tr := make([]monitor.Letter, benchEvents)
	var l monitor.Letter
	odds := [4]int{8, 16, 24, 24}
	for i := range tr {
		for k, n := range odds {
			if rng.IntN(n) == 0 {
				l ^= 1 << k
			}
		}
		tr[i] = l
	}
	return tr
})

// paperHandwritten is G(start(p) -> [q, end(r | s))) written by hand as a
// Go programmer would: a state machine whose state is whether an event was
// seen, p and r || s at the previous event, and whether the interval is
// open (a q was seen and r || s has not ended since).
type paperHandwritten struct {
	started, prevP, prevRS, open bool
}

// step returns false when the event violates the property.
func (h *paperHandwritten) step(p, q, r, s bool) bool {
	rs := r || s
	rose := h.started && p && !h.prevP
	fell := h.started && h.prevRS && !rs
	h.open = (h.open || q) && !fell
	h.prevP, h.prevRS, h.started = p, rs, true
	return !rose || h.open
}

func (h *paperHandwritten) stepLetter(l monitor.Letter) bool {
	return h.step(l&1 != 0, l&2 != 0, l&4 != 0, l&8 != 0)
}

// responseHandwritten is G(p -> F q) written by hand: forwards, remember
// whether some p still waits for a q.
func responseHandwritten(tr []monitor.Letter) bool {
	waiting := false
	for _, l := range tr {
		if l&2 != 0 {
			waiting = false
		} else if l&1 != 0 {
			waiting = true
		}
	}
	return !waiting
}

func paperBody(tb testing.TB) ltl.Formula {
	f, err := ltl.Parse(paperSpec)
	require.NoError(tb, err)
	require.True(tb, f.IsPastSafety())
	return f.Left()
}

func newPaperPast(tb testing.TB, interpreted bool) *monitor.Past {
	newPast := monitor.NewPast
	if interpreted {
		newPast = monitor.NewPastInterpreted
	}
	m, err := newPast(ltl.LTLf, paperBody(tb))
	require.NoError(tb, err)
	require.Equal(tb, []string{"p", "q", "r", "s"}, m.Atoms())
	return m
}

// paperViolations counts the violating events of the shared trace with the
// hand-written monitor: what every past-time benchmark must count.
var paperViolations = sync.OnceValue(func() int {
	var h paperHandwritten
	n := 0
	for _, l := range benchTrace() {
		if !h.stepLetter(l) {
			n++
		}
	}
	return n
})

// TestBenchmarkMonitorsAgree checks the benchmarks' monitors against each
// other and the reference evaluator, so that the benchmarks compare equal
// work: position by position on a prefix, by violation count on the whole
// trace, which violates the property sometimes but not always.
func TestBenchmarkMonitorsAgree(t *testing.T) {
	tr := benchTrace()
	body := paperBody(t)
	prefix := tr[:20000]
	if testing.Short() {
		prefix = tr[:2000]
	}
	sets := make(ltl.Sets, len(prefix))
	for i, l := range prefix {
		sets[i] = []string{}
		for k, a := range []string{"p", "q", "r", "s"} {
			if l.Has(k) {
				sets[i] = append(sets[i], a)
			}
		}
	}
	ref := ltl.EvalAll(body, sets, ltl.LTLf)
	past, interp := newPaperPast(t, false), newPaperPast(t, true)
	var g gen.Paper
	var h paperHandwritten
	for i, l := range prefix {
		require.Equal(t, ref[i], h.stepLetter(l), "hand-written at %d", i)
		require.Equal(t, ref[i], g.StepLetter(uint64(l)), "generated at %d", i)
		require.Equal(t, ref[i], past.Step(l)&1 != 0, "NewPast at %d", i)
		require.Equal(t, ref[i], interp.Step(l)&1 != 0, "NewPastInterpreted at %d", i)
	}

	want := paperViolations()
	assert.Greater(t, want, 100, "the workload must violate the property")
	assert.Less(t, want, len(tr)/20, "the workload must mostly satisfy the property")
	past.Reset()
	interp.Reset()
	g.Reset()
	var nPast, nInterp, nGen int
	for _, l := range tr {
		if past.Step(l)&1 == 0 {
			nPast++
		}
		if interp.Step(l)&1 == 0 {
			nInterp++
		}
		if !g.StepLetter(uint64(l)) {
			nGen++
		}
	}
	assert.Equal(t, want, nPast)
	assert.Equal(t, want, nInterp)
	assert.Equal(t, want, nGen)

	// G(p -> F q): the engines agree on the whole trace and on every
	// prefix up to 3000 events, among which both verdicts occur.
	resp := ltl.MustParse(respSpec)
	fut, err := monitor.NewFuture(resp, ltl.LTLf)
	require.NoError(t, err)
	events := responseEvents(tr)
	assert.Equal(t, responseHandwritten(tr), fut.Eval(tr), "NewFuture on the whole trace")
	assert.Equal(t, responseHandwritten(tr), gen.Response(events), "generated on the whole trace")
	verdicts := map[bool]int{}
	for n := 0; n <= 3000; n++ {
		want := responseHandwritten(tr[:n])
		verdicts[want]++
		require.Equal(t, want, fut.Eval(tr[:n]), "NewFuture on %d events", n)
		require.Equal(t, want, gen.Response(events[:n]), "generated on %d events", n)
		if n <= 300 {
			require.Equal(t, want, ltl.Eval(resp, sets[:n], ltl.LTLf), "reference on %d events", n)
		}
	}
	assert.Len(t, verdicts, 2, "the prefixes must include both verdicts")
}

func responseEvents(tr []monitor.Letter) []gen.ResponseEvent {
	ev := make([]gen.ResponseEvent, len(tr))
	for i, l := range tr {
		ev[i] = gen.ResponseEventOf(uint64(l))
	}
	return ev
}

// loop runs body under b.Loop and reports allocations, events/s and
// ns/event of wall time, and cpu-ns/event: the CPU time of the benchmark's
// thread (locked to it) per event, where the platform can measure it.
func loop(b *testing.B, events int, body func()) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	b.ReportAllocs()
	cpu0, cpuOK := threadCPU()
	for b.Loop() {
		body()
	}
	cpu1, _ := threadCPU()
	total := float64(events) * float64(b.N)
	b.ReportMetric(total/b.Elapsed().Seconds(), "events/s")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/total, "ns/event")
	if cpuOK {
		b.ReportMetric(float64((cpu1-cpu0).Nanoseconds())/total, "cpu-ns/event")
	}
}

func checkViolations(b *testing.B, got int) {
	if want := paperViolations(); got != want {
		b.Fatalf("counted %d violations; the hand-written monitor counts %d", got, want)
	}
}

// BenchmarkPastTimeDP: the interpreted past-time DP (monitor.Past). "table"
// is NewPast, which tabulates the step of small formulas; "interpreter" is
// NewPastInterpreted, which runs the instruction interpreter every event.
func BenchmarkPastTimeDP(b *testing.B) {
	for _, mode := range []struct {
		name        string
		interpreted bool
	}{{"table", false}, {"interpreter", true}} {
		b.Run(mode.name, func(b *testing.B) {
			tr := benchTrace()
			m := newPaperPast(b, mode.interpreted)
			violations := 0
			loop(b, len(tr), func() {
				m.Reset()
				violations = 0
				for _, l := range tr {
					if m.Step(l)&1 == 0 {
						violations++
					}
				}
			})
			checkViolations(b, violations)
		})
	}
}

// BenchmarkPastTimeGenerated: the committed monitor.Generate output for the
// same formula (internal/gen/paper.go).
func BenchmarkPastTimeGenerated(b *testing.B) {
	tr := benchTrace()
	m := new(gen.Paper)
	violations := 0
	loop(b, len(tr), func() {
		m.Reset()
		violations = 0
		for _, l := range tr {
			if !m.StepLetter(uint64(l)) {
				violations++
			}
		}
	})
	checkViolations(b, violations)
}

// BenchmarkPastTimeHandwritten: the baseline, a hand-written state machine.
func BenchmarkPastTimeHandwritten(b *testing.B) {
	tr := benchTrace()
	h := new(paperHandwritten)
	violations := 0
	loop(b, len(tr), func() {
		*h = paperHandwritten{}
		violations = 0
		for _, l := range tr {
			if !h.stepLetter(l) {
				violations++
			}
		}
	})
	checkViolations(b, violations)
}

// BenchmarkFutureTimeDP: G(p -> F q) on the stored trace with the
// future-time DP (monitor.Future, backwards), next to the generated
// backward DP, a hand-written forward loop, and the naive reference
// evaluator, all on the same trace.
func BenchmarkFutureTimeDP(b *testing.B) {
	tr := benchTrace()
	f := ltl.MustParse(respSpec)
	want := responseHandwritten(tr)
	var v bool
	check := func(b *testing.B) {
		if v != want {
			b.Fatalf("verdict %v; the hand-written monitor says %v", v, want)
		}
	}
	b.Run("interpreted", func(b *testing.B) {
		m, err := monitor.NewFuture(f, ltl.LTLf)
		require.NoError(b, err)
		require.Equal(b, []string{"p", "q"}, m.Atoms())
		loop(b, len(tr), func() { v = m.Eval(tr) })
		check(b)
	})
	b.Run("generated", func(b *testing.B) {
		events := responseEvents(tr)
		loop(b, len(tr), func() { v = gen.Response(events) })
		check(b)
	})
	b.Run("handwritten", func(b *testing.B) {
		loop(b, len(tr), func() { v = responseHandwritten(tr) })
		check(b)
	})
	b.Run("naive", func(b *testing.B) {
		t := monitor.NewTrace("p", "q")
		for _, l := range tr {
			switch l & 3 {
			case 0:
				t.Append()
			case 1:
				t.Append("p")
			case 2:
				t.Append("q")
			case 3:
				t.Append("p", "q")
			}
		}
		loop(b, len(tr), func() { v = ltl.Eval(f, t, ltl.LTLf) })
		check(b)
	})
}
