package report

import (
	"context"
	"fmt"

	"github.com/henceforth-go/henceforth/automaton"
	"github.com/henceforth-go/henceforth/explore"
	"github.com/henceforth-go/henceforth/ltl"
	"github.com/henceforth-go/henceforth/monitor"
)

// Verdict is an LTL formula's verdict on a trace as the page shows it.
type Verdict struct {
	Formula   string `json:"formula"`
	Semantics string `json:"semantics"`
	Holds     bool   `json:"holds"`
	// Length is the number of positions of the trace.
	Length int `json:"length"`
	// Atoms are the waveform: one row per atom of the trace's vocabulary
	// and of the formula.
	Atoms []Wave `json:"atoms"`
	// Table is the value of the formula (first) and of each of its
	// subformulas at every position: the monitors' dynamic-programming
	// table. Empty when the formula has too many atoms for a monitor
	// (TableNote says so).
	Table     []Wave `json:"table,omitempty"`
	TableNote string `json:"tableNote,omitempty"`
	// Online is the online verdict after each prefix (violated,
	// satisfied, currently true, currently false), as runs; empty when
	// it is not computed (not LTLf, or the formula's DFA is too large).
	Online []Run `json:"online,omitempty"`
	// Final is the first position after which the online verdict was
	// final (violated or satisfied); -1 if it never was.
	Final int `json:"final"`
	// Violation is the first violating position of G(φ), φ past or
	// propositional; -1 otherwise.
	Violation int `json:"violation"`
	// Why explains a failed verdict, each reason at a position.
	Why []Reason `json:"why,omitempty"`
	// Labels name the positions (for an explored spec: the step and
	// goroutine of each event); nil or one per position.
	Labels []string `json:"labels,omitempty"`
	// Steps link the positions of an explored spec to its finding's
	// interleaving: the index in Finding.Trace of the step each position
	// followed (-1 before the first step); nil for a recorded trace.
	Steps []int `json:"steps,omitempty"`
}

// Wave is one row of a waveform: the runs of positions where Name is
// true ([from, to) pairs, ascending).
type Wave struct {
	Name string   `json:"name"`
	High [][2]int `json:"high"`
}

// Run is a run of positions [From, To) with the same online verdict.
type Run struct {
	From    int    `json:"from"`
	To      int    `json:"to"`
	Verdict string `json:"verdict"`
}

// Reason is one step of an explanation: Formula has value Holds at
// Position.
type Reason struct {
	Formula  string `json:"formula"`
	Position int    `json:"pos"`
	Holds    bool   `json:"holds"`
	Why      string `json:"why"`
}

// maxTableRows bounds the subformulas in a verdict's table.
const maxTableRows = 64

// FromCheck is the verdict of f on t under sem, with res the result of
// automaton.Check (or of any engine): the waveform of t, the table of
// subformula values, the online verdicts and res's explanation. ctx
// bounds the construction of the DFA for the online verdicts.
func FromCheck(ctx context.Context, f ltl.Formula, t *monitor.Trace, res monitor.Result, sem ltl.Semantics) *Verdict {
	v := &Verdict{Formula: f.String(), Semantics: sem.String(), Holds: res.Holds, Length: t.Len(), Final: -1, Violation: res.Violation}
	names := append([]string(nil), t.Atoms()...)
	known := map[string]bool{}
	for _, a := range names {
		known[a] = true
	}
	for _, a := range f.Atoms() {
		if !known[a] {
			names = append(names, a)
		}
	}
	v.Atoms = atomWaves(t, names)
	v.table(f, t, sem)
	v.online(ctx, f, t, sem)
	for _, r := range res.Why {
		v.Why = append(v.Why, Reason{Formula: r.Formula.String(), Position: r.Position, Holds: r.Holds, Why: r.Why})
	}
	return v
}

// table fills Table: the formula first, then its proper subformulas from
// the largest down (atoms are the waveform's rows already).
func (v *Verdict) table(f ltl.Formula, t *monitor.Trace, sem ltl.Semantics) {
	subs := f.Subformulas()
	var rows []ltl.Formula
	for i := len(subs) - 1; i >= 0; i-- {
		switch subs[i].Op() {
		case ltl.OpAtom, ltl.OpTrue, ltl.OpFalse:
			continue
		}
		rows = append(rows, subs[i])
	}
	if len(rows) > maxTableRows {
		v.TableNote = fmt.Sprintf("the first %d of %d subformulas", maxTableRows, len(rows))
		rows = rows[:maxTableRows]
	}
	for _, g := range rows {
		m, err := monitor.NewFuture(g, sem)
		if err != nil {
			v.Table, v.TableNote = nil, "no table: "+err.Error()
			return
		}
		letters, err := t.Letters(m.Atoms())
		if err != nil {
			v.Table, v.TableNote = nil, "no table: "+err.Error()
			return
		}
		vals := m.EvalAll(letters)
		v.Table = append(v.Table, Wave{Name: g.String(), High: runsOf(len(vals), func(i int) bool { return vals[i] })})
	}
}

// online fills Online and Final with the formula's DFA monitor, stepped
// over t (LTLf only).
func (v *Verdict) online(ctx context.Context, f ltl.Formula, t *monitor.Trace, sem ltl.Semantics) {
	if sem != ltl.LTLf {
		return
	}
	d, err := automaton.FromFormula(ctx, f, automaton.Options{ExactPast: true, MaxStates: 1 << 14})
	if err != nil {
		return
	}
	m := d.Monitor()
	for i := 0; i < t.Len(); i++ {
		verdict := m.StepAtoms(t.At(i)...).String()
		if v.Final < 0 && m.Verdict().Decided() {
			v.Final = i
		}
		if n := len(v.Online); n > 0 && v.Online[n-1].Verdict == verdict {
			v.Online[n-1].To = i + 1
			continue
		}
		v.Online = append(v.Online, Run{From: i, To: i + 1, Verdict: verdict})
	}
}

// atomWaves is the waveform of the named atoms on t.
func atomWaves(t *monitor.Trace, names []string) []Wave {
	waves := make([]Wave, len(names))
	for k, a := range names {
		waves[k] = Wave{Name: a, High: runsOf(t.Len(), func(i int) bool { return t.Holds(i, a) })}
	}
	return waves
}

// runsOf returns the runs of [0, n) where holds is true.
func runsOf(n int, holds func(int) bool) [][2]int {
	runs := [][2]int{}
	for i := 0; i < n; i++ {
		if !holds(i) {
			continue
		}
		if k := len(runs); k > 0 && runs[k-1][1] == i {
			runs[k-1][1] = i + 1
		} else {
			runs = append(runs, [2]int{i, i + 1})
		}
	}
	return runs
}

// specVerdict is the verdict of a violated //ltl:spec on its explored
// trace.
func specVerdict(s *explore.SpecTrace) *Verdict {
	f, err := ltl.Parse(s.Formula)
	t := monitor.NewTrace(s.Atoms...)
	labels := make([]string, len(s.Events))
	for i, e := range s.Events {
		t.Append(e.Atoms...)
		labels[i] = fmt.Sprintf("step %d, goroutine %d: %s", e.Step, e.Goroutine, e.What)
	}
	if err != nil {
		// The spec's source may use Go expressions the explorer resolved;
		// show the trace without a table.
		v := &Verdict{Formula: s.Formula, Semantics: ltl.LTLf.String(), Length: t.Len(), Final: s.Violation, Violation: -1, Labels: labels, TableNote: "no table: " + err.Error()}
		v.Atoms = atomWaves(t, s.Atoms)
		return v
	}
	res, err := automaton.Check(context.Background(), f, t, monitor.Options{})
	if err != nil {
		res = monitor.Result{Violation: -1}
	}
	v := FromCheck(context.Background(), f, t, res, ltl.LTLf)
	v.Formula = s.Name + ": " + v.Formula
	v.Labels = labels
	return v
}
