package rv

import (
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/henceforth-go/henceforth/ltl"
	"github.com/henceforth-go/henceforth/monitor"
)

// A Violation reports a violated formula: where it was decided, the events
// kept around it, and why. Its fields are set when the Monitor passes it
// on and do not change; String and WriteTo render it as ltltest and
// cmd/ltl print failures.
type Violation struct {
	// Formula is the formula monitored.
	Formula ltl.Formula
	// Conjunct, when not zero, is the conjunct of Formula found violated;
	// Why explains it.
	Conjunct ltl.Formula
	// At is the event at which the violation was decided: the first event
	// after which no continuation can satisfy the formula, or, when Final,
	// the last event (-1 for a run without events).
	At int
	// Final: decided at Finish, on the run as it ended, rather than online.
	Final bool
	// Len is the number of events when it was decided.
	Len int
	// Window holds the events kept when it was decided: events First …
	// First+Window.Len()-1, the last of them At.
	Window *monitor.Trace
	First  int
	// StandIn is a shortest trace that leaves the engine in the state it
	// was in before the first event Why reads, standing in for the events
	// before it (nil when that is event 0, when the state was initial, and
	// when the state is not known).
	StandIn ltl.Sets
	// Why explains the violation, as monitor.Explain does, over StandIn
	// followed by the kept events from the one WhyNote names (First, unless
	// the engine's state is known only at a later one) up to At. A Reason's Position is a position of the run, or,
	// when negative, the event len(StandIn)+Position of StandIn; its text
	// names stand-in events ~0, ~1, …. Nil when the kept events do not
	// explain it (WhyNote says so).
	Why []monitor.Reason
	// WhyNote qualifies Why: how it was computed when not from the whole
	// run, or why there is none.
	WhyNote string
	// Err is set when the verdict could not be computed at Finish (the
	// full-trace check failed); the formula is then taken as violated.
	Err error

	sem        ltl.Semantics
	from       int  // the first event Why reads after StandIn
	knownStart bool // the engine's state before from is known (StandIn is valid)
	once       sync.Once
}

// snapshot records a violation decided at event at. m.mu is held; the
// explanation is computed later, without it (explain).
func (m *Monitor) snapshot(f ltl.Formula, at int, final bool) *Violation {
	first, letters := m.kept()
	v := &Violation{Formula: f, At: at, Final: final, Len: m.n, Window: m.traceOf(letters), First: first, from: first, sem: m.cfg.semantics}
	switch {
	case m.cfg.full || first == 0:
		v.knownStart = true
	case m.dfa != nil:
		v.knownStart = true
		if s := int(m.ring.before(first)); s != m.dfa.Initial() {
			v.StandIn, v.knownStart = m.dfa.ShortestTo(s)
		}
	case m.gen != nil && m.gen.saved >= first:
		v.from = m.gen.saved
		v.StandIn, v.knownStart = m.gen.shortestToSaved(m.names[:len(m.formula.Atoms())])
	}
	return v
}

// explain computes Why once.
func (v *Violation) explain() {
	v.once.Do(func() {
		if v.Err != nil || v.Window.Len() == 0 {
			return
		}
		f := v.Formula
		if !v.Conjunct.IsZero() {
			f = v.Conjunct
		}
		k := len(v.StandIn)
		t := monitor.NewTrace(v.Window.Atoms()...)
		for _, e := range v.StandIn {
			t.Append(e...)
		}
		// The trace ends at At: events after it (recorded after an online
		// verdict) are not part of the explanation.
		for i := v.from; i <= v.At; i++ {
			t.Append(v.Window.At(i - v.First)...)
		}
		pos := 0
		if f.IsPastSafety() {
			f, pos = f.Left(), k+v.At-v.from
		}
		name := func(p int) string {
			if p < k {
				return fmt.Sprintf("~%d", p)
			}
			return fmt.Sprint(v.from + p - k)
		}
		why, err := monitor.ExplainAs(f, t, pos, v.sem, name)
		if err != nil || len(why) == 0 || why[0].Holds {
			// The kept events alone do not show the violation.
			v.WhyNote = fmt.Sprintf("not available: the events that decide it are older than the %d kept; WithFullTrace keeps them", v.Window.Len())
			return
		}
		for i := range why {
			if why[i].Position < k {
				why[i].Position -= k
			} else {
				why[i].Position += v.from - k
			}
		}
		v.Why = why
		switch {
		case v.from == 0:
		case !v.knownStart:
			v.WhyNote = fmt.Sprintf("from the kept events %d–%d alone; the events before them are not kept", v.from, v.At)
		case k == 0:
			v.WhyNote = fmt.Sprintf("from the kept events %d–%d; the events before them leave the monitor in its initial state", v.from, v.At)
		default:
			standIn := "~0"
			if k > 1 {
				standIn = fmt.Sprintf("~0…~%d", k-1)
			}
			v.WhyNote = fmt.Sprintf("from the kept events %d–%d after %s, a shortest trace leaving the monitor in the state the events before them did", v.from, v.At, standIn)
		}
	})
}

// String is the report WriteTo writes.
func (v *Violation) String() string {
	var b strings.Builder
	v.WriteTo(&b)
	return b.String()
}

// WriteTo writes the report: the formula (and the violated conjunct), the
// verdict and where it was decided, why, and the kept events around it.
func (v *Violation) WriteTo(w io.Writer) (int64, error) {
	v.explain()
	cw := &countWriter{w: w}
	f := v.Formula
	if !v.Conjunct.IsZero() && v.Conjunct != v.Formula {
		fmt.Fprintf(cw, "property: %s\nviolated conjunct below\n", v.Formula)
		f = v.Conjunct
	}
	fmt.Fprintf(cw, "formula: %s\n", f)
	switch {
	case v.Err != nil:
		fmt.Fprintf(cw, "verdict: unknown (trace of %d events): %v\n", v.Len, v.Err)
	case v.Final && !f.IsPastSafety():
		fmt.Fprintf(cw, "verdict: violated (trace of %d events)\n", v.Len)
	default:
		fmt.Fprintf(cw, "verdict: violated at event %d (trace of %d events)\n", v.At, v.Len)
	}
	switch {
	case len(v.Why) > 0 && v.WhyNote != "":
		fmt.Fprintf(cw, "why (%s):\n", v.WhyNote)
	case len(v.Why) > 0:
		fmt.Fprintf(cw, "why:\n")
	case v.WhyNote != "":
		fmt.Fprintf(cw, "why: %s\n", v.WhyNote)
	}
	for _, line := range monitor.FormatReasons(v.Why) {
		fmt.Fprintf(cw, "  %s\n", line)
	}
	if v.Window.Len() > 0 {
		monitor.WriteWindowAt(cw, v.Window, v.First, v.Len, v.focus())
	}
	return cw.n, cw.err
}

// focus is the event the report's window centres on.
func (v *Violation) focus() int {
	if v.Final && !v.Formula.IsPastSafety() && len(v.Why) > 0 {
		if p := v.Why[len(v.Why)-1].Position; p >= v.First {
			return p
		}
	}
	return v.At
}

type countWriter struct {
	w   io.Writer
	n   int64
	err error
}

func (c *countWriter) Write(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.w.Write(p)
	c.n += int64(n)
	c.err = err
	return n, err
}
