package split

import (
	"fmt"
	"strings"
)

// Trace is a computation of a Program: a sequence of global states and the
// moves between them. States[j] holds the value of every variable of
// Program.Vars() (in that order); Steps[j] is the move from States[j] to
// States[j+1]. A finite trace (Loop < 0) is a counterexample to an
// invariant: its last state violates it. A lasso (Loop ≥ 0) is an infinite
// computation: its last state equals States[Loop] and the moves from
// States[Loop] on repeat forever.
type Trace struct {
	prog   *Program
	States [][]int
	Steps  []Step
	Loop   int
}

// Step is one move of the interleaving.
type Step struct {
	Process string // the process that moved
	Command string // the command it performed ("skip" when none was enabled)
}

// NewTrace returns the trace of p with the given states (each a value per
// variable of p.Vars(), in order), steps (one fewer than states) and loop
// (-1 for none), for a front end that maps a trace of one program to
// another; Replay checks it is a computation of p.
func NewTrace(p *Program, states [][]int, steps []Step, loop int) *Trace {
	return &Trace{prog: p, States: states, Steps: steps, Loop: loop}
}

// Value returns the value of the named variable in state j.
func (t *Trace) Value(j int, name string) (int, bool) {
	v := t.prog.Lookup(name)
	if v == nil || j < 0 || j >= len(t.States) {
		return 0, false
	}
	return t.States[j][v.index], true
}

// Len returns the number of states.
func (t *Trace) Len() int { return len(t.States) }

// String prints the trace: the first state in full, then each move with
// the variables it changed.
func (t *Trace) String() string {
	var b strings.Builder
	vars := t.prog.vars
	for j, s := range t.States {
		if j == 0 {
			fmt.Fprintf(&b, "state 0:")
			for _, v := range vars {
				fmt.Fprintf(&b, " %s=%s", v.name, v.format(s[v.index]))
			}
			if t.Loop == 0 {
				b.WriteString("  [loop starts]")
			}
			b.WriteByte('\n')
			continue
		}
		st := t.Steps[j-1]
		fmt.Fprintf(&b, "state %d: %s %s:", j, st.Process, st.Command)
		prev := t.States[j-1]
		changed := false
		for _, v := range vars {
			if s[v.index] != prev[v.index] {
				fmt.Fprintf(&b, " %s=%s", v.name, v.format(s[v.index]))
				changed = true
			}
		}
		if !changed {
			b.WriteString(" (no change)")
		}
		if t.Loop >= 0 && j == t.Loop {
			b.WriteString("  [loop starts]")
		}
		if t.Loop >= 0 && j == len(t.States)-1 {
			fmt.Fprintf(&b, "  [= state %d]", t.Loop)
		}
		b.WriteByte('\n')
	}
	return b.String()
}
