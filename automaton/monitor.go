package automaton

// This file is the online monitor: one DFA step per event, with the four
// verdicts of monitor.Verdict.

import (
	"fmt"

	"github.com/henceforth-go/henceforth/ltl"
	"github.com/henceforth-go/henceforth/monitor"
)

// Monitor runs a DFA online, one event at a time. After each event its
// verdict is Violated as soon as no continuation of the events seen can
// satisfy the formula, Satisfied as soon as every continuation does, and
// otherwise CurrentlyTrue or CurrentlyFalse: the LTLf verdict if the trace
// ended now. Violated and Satisfied are final. Step does one table lookup
// or one descent of a decision diagram (at most one node per atom) and
// does not allocate.
//
// For a formula with past operators, each maximal pure-past subformula is
// computed by a monitor.Past and enters the DFA as a fresh atom. The
// verdicts stay exact at the end of the trace and Violated/Satisfied stay
// sound (never reported when some continuation disagrees), but they can
// come later than the earliest position at which they are decided: the DFA
// treats the fresh atoms as free, so it does not know, for instance, that
// O req stays true once req has been seen.
//
// A Monitor is not safe for concurrent use; create one per goroutine from
// the shared DFA.
type Monitor struct {
	d        *DFA
	state    int32
	n        int
	verdicts []monitor.Verdict // d.verdicts

	// The DFA's flat table when the monitor can use it directly (no past
	// subformulas to compute).
	flat     []int32
	flatBits uint
	flatMask uint64

	names map[string]int // input atom → bit of an input letter

	// Mixed formulas only: the past monitor and bit maps from input
	// letters to its input and to the DFA's visible atoms.
	past      *monitor.Past
	pastIn    []bitMove // input bit → past monitor input bit
	visibleIn []bitMove // input bit → DFA letter bit
	pastShift uint      // the past monitor's output bit j is DFA bit pastShift+j
}

type bitMove struct{ from, to uint8 }

// Monitor returns a new monitor of d at the start of a trace. FromFormula
// has checked that d's past subformulas can be monitored, so it does not
// fail (it would panic only on a DFA built otherwise).
func (d *DFA) Monitor() *Monitor {
	m, err := d.newMonitor()
	if err != nil {
		panic(err)
	}
	return m
}

func (d *DFA) newMonitor() (*Monitor, error) {
	m := &Monitor{d: d, state: d.initial, names: map[string]int{}, verdicts: d.verdicts}
	if len(d.past) == 0 && d.flat != nil {
		m.flat, m.flatBits, m.flatMask = d.flat, d.flatBits, 1<<d.flatBits-1
	}
	for i, a := range d.inputs {
		m.names[a] = i
	}
	if len(d.past) > 0 {
		p, err := monitor.NewPast(ltl.LTLf, d.past...)
		if err != nil {
			return nil, fmt.Errorf("automaton: monitoring past subformulas: %w", err)
		}
		m.past = p
		for j, a := range p.Atoms() {
			m.pastIn = append(m.pastIn, bitMove{uint8(m.names[a]), uint8(j)})
		}
		for j := 0; j < d.visible; j++ {
			m.visibleIn = append(m.visibleIn, bitMove{uint8(m.names[d.atoms[j]]), uint8(j)})
		}
		m.pastShift = uint(d.visible)
	}
	return m, nil
}

// DFA returns the automaton the monitor runs.
func (m *Monitor) DFA() *DFA { return m.d }

// Atoms returns the monitor's input vocabulary: the formula's atoms,
// sorted. Bit i of a Letter given to Step is the value of Atoms()[i]. For
// a formula without past operators it equals the DFA's Atoms(). The caller
// must not modify it.
func (m *Monitor) Atoms() []string { return m.d.inputs }

// Letter returns the input letter in which exactly the named atoms hold;
// names that are not atoms of the formula are ignored.
func (m *Monitor) Letter(names ...string) monitor.Letter {
	var l monitor.Letter
	for _, a := range names {
		if i, ok := m.names[a]; ok {
			l |= 1 << uint(i)
		}
	}
	return l
}

// Step consumes one event, at which exactly the atoms of l hold (bit i is
// Atoms()[i]), and returns the verdict after it.
func (m *Monitor) Step(l monitor.Letter) monitor.Verdict {
	m.n++
	if m.flat != nil {
		m.state = m.flat[uint64(m.state)<<m.flatBits|uint64(l)&m.flatMask]
		return m.verdicts[m.state]
	}
	if m.past != nil {
		l = m.dfaLetter(l)
	}
	m.state = m.d.next(m.state, l)
	return m.verdicts[m.state]
}

// StepAtoms is Step with the event given by the names of the atoms that
// hold; names that are not atoms of the formula are ignored.
func (m *Monitor) StepAtoms(names ...string) monitor.Verdict {
	return m.Step(m.Letter(names...))
}

// dfaLetter maps an input letter of a mixed formula to the DFA's letter:
// the visible atoms, then the values of the past subformulas.
func (m *Monitor) dfaLetter(in monitor.Letter) monitor.Letter {
	var pin, out monitor.Letter
	for _, b := range m.pastIn {
		pin |= (in >> b.from & 1) << b.to
	}
	for _, b := range m.visibleIn {
		out |= (in >> b.from & 1) << b.to
	}
	return out | m.past.Step(pin)<<m.pastShift
}

// Verdict returns the verdict after the events seen so far (before any, the
// verdict on the empty trace).
func (m *Monitor) Verdict() monitor.Verdict { return m.d.verdicts[m.state] }

// State returns the DFA state the monitor is in.
func (m *Monitor) State() int { return int(m.state) }

// Len returns the number of events seen since creation or Reset.
func (m *Monitor) Len() int { return m.n }

// Reset returns the monitor to the start of a trace.
func (m *Monitor) Reset() {
	m.state = m.d.initial
	m.n = 0
	if m.past != nil {
		m.past.Reset()
	}
}

// Run resets the monitor, feeds it every position of t (an atom holds at a
// position when t.Holds says so) and returns the final verdict: the LTLf
// verdict of the formula on t, or Violated/Satisfied when it was decided
// earlier. It allocates nothing per position.
func (m *Monitor) Run(t ltl.Trace) monitor.Verdict {
	m.Reset()
	for i := range t.Len() {
		var l monitor.Letter
		for j, a := range m.d.inputs {
			if t.Holds(i, a) {
				l |= 1 << uint(j)
			}
		}
		m.Step(l)
	}
	return m.Verdict()
}
