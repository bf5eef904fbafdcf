package main

import (
	"context"
	"fmt"

	"github.com/henceforth-go/henceforth/automaton"
)

const automatonUsage = `Usage: ltl automaton -f FORMULA [-format hoa|dot|promela|stats] [-minimal=true]

Prints the minimal complete DFA of FORMULA under LTLf semantics (a rejecting
sink counts as a state; the initial state accepts exactly when the formula
holds on the empty trace):

  stats    "states: N" and "transitions: M" (guard-labelled edges between
           pairs of states, self-loops included)
  hoa      HOA v1, finite-word acceptance marked by an "alive" atom as
           Spot's ltlf2dfa does; readable by autfilt
  dot      Graphviz
  promela  a never claim

-minimal=false prints the DFA of the subset construction before
minimization.

Exit status: 0 on success, 2 usage or input error.
`

func init() {
	register(&command{name: "automaton", summary: "the minimal DFA of a formula", usage: automatonUsage, run: runAutomaton})
}

func runAutomaton(e *env, args []string) (int, error) {
	fs := newFlags("automaton")
	src := fs.String("f", "", "the `formula`")
	format := fs.String("format", "stats", "output `format`: hoa, dot, promela or stats")
	minimal := fs.Bool("minimal", true, "minimize the DFA (false: the subset construction as built)")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return 2, err
	}
	if len(pos) > 0 {
		return 2, fmt.Errorf("unexpected argument %q", pos[0])
	}
	f, err := parseFormula("f", *src)
	if err != nil {
		return 2, err
	}
	switch *format {
	case "hoa", "dot", "promela", "stats":
	default:
		return 2, fmt.Errorf("-format: unknown format %q (want hoa, dot, promela or stats)", *format)
	}
	d, err := automaton.FromFormula(context.Background(), f, automaton.Options{Unminimized: !*minimal})
	if err != nil {
		return 2, err
	}
	switch *format {
	case "hoa":
		err = d.WriteHOA(e.stdout, automaton.HOAAlive)
	case "dot":
		err = d.WriteDOT(e.stdout)
	case "promela":
		err = d.WritePromela(e.stdout, f.String())
	case "stats":
		st := d.Stats()
		_, err = fmt.Fprintf(e.stdout, "states: %d\ntransitions: %d\n", st.States, st.Transitions)
	}
	if err != nil {
		return 2, err
	}
	return 0, nil
}
