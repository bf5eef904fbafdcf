package automaton

// This file prints automata as Promela never claims in the format of the
// Java thesis's figures (Figure 16 of the thesis on LTL checking in Java
// PathFinder):
//
//	never {
//	S0:
//	    if
//	    :: (field == 0) -> goto S0
//	    :: (myMethod(int).z > 0) -> goto accept_S1
//	    fi;
//
//	accept_S1:
//	    if
//	    :: (1) -> goto accept_S1
//	    fi;
//	}
//
// States are S<n>, prefixed accept_ when accepting; each line is one guard
// (a conjunction of literals, (1) for true). Atoms print as their text, as
// the thesis prints Java expressions; a negated atom that is not a plain
// identifier prints as !(text). As in the thesis, a trace is rejected when
// the claim blocks (no line applies) or ends in a state that is not
// accept_: so the DFA's rejecting sink and the edges into it are left out.
// Figure 10 differs only in spelling true as (true) and a guard a without
// parentheses.

import (
	"bufio"
	"io"
	"regexp"
	"strconv"
	"strings"
)

var promelaIdent = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.]*$`)

func promelaLiteral(atom string, neg bool) string {
	if !neg {
		return atom
	}
	if promelaIdent.MatchString(atom) {
		return "!" + atom
	}
	return "!(" + atom + ")"
}

func promelaGuard(lits []string) string {
	if len(lits) == 0 {
		return "(1)"
	}
	return "(" + strings.Join(lits, " && ") + ")"
}

type promelaState struct {
	name  string
	lines []string // "guard -> goto name"
}

func writePromela(w io.Writer, comment string, states []promelaState) error {
	bw := bufio.NewWriter(w)
	if comment != "" {
		bw.WriteString("never { /* " + strings.ReplaceAll(comment, "*/", "* /") + " */\n")
	} else {
		bw.WriteString("never {\n")
	}
	for i, st := range states {
		if i > 0 {
			bw.WriteString("\n")
		}
		bw.WriteString(st.name + ":\n    if\n")
		for _, l := range st.lines {
			bw.WriteString("    :: " + l + "\n")
		}
		bw.WriteString("    fi;\n")
	}
	bw.WriteString("}\n")
	return bw.Flush()
}

func promelaName(id int, accepting bool) string {
	if accepting {
		return "accept_S" + strconv.Itoa(id)
	}
	return "S" + strconv.Itoa(id)
}

// WritePromela writes the NFA as a never claim in the thesis's format.
// comment, if not empty, goes in a /* */ comment after "never {" (the
// thesis's figures have none).
func (a *NFA) WritePromela(w io.Writer, comment string) error {
	states := make([]promelaState, len(a.States))
	for i, st := range a.States {
		states[i].name = promelaName(i, st.Accepting)
	}
	for i, st := range a.States {
		for _, e := range st.Edges {
			lits := make([]string, len(e.Guard))
			for j, l := range e.Guard {
				lits[j] = promelaLiteral(l.Atom, l.Negated)
			}
			states[i].lines = append(states[i].lines, promelaGuard(lits)+" -> goto "+states[e.To].name)
		}
	}
	return writePromela(w, comment, states)
}

// WritePromela writes the DFA as a never claim in the thesis's format: one
// line per path of each state's decision diagram, without the rejecting
// sink (where the claim blocks instead). comment as for NFA.WritePromela.
func (d *DFA) WritePromela(w io.Writer, comment string) error {
	el := d.edgeLister()
	sink := d.rejectingSink()
	var states []promelaState
	id := make([]int, len(d.roots))
	for s := range d.roots {
		if s == sink && s != int(d.initial) {
			id[s] = -1
			continue
		}
		id[s] = len(states)
		states = append(states, promelaState{name: promelaName(len(states), d.accept[s])})
	}
	for s := range d.roots {
		if id[s] < 0 || s == sink {
			continue
		}
		for _, e := range el.edges(s) {
			if int(e.to) == sink {
				continue
			}
			for _, c := range e.cubes {
				lits := make([]string, len(c))
				for j, l := range c {
					lits[j] = promelaLiteral(d.atoms[l.bit], l.neg)
				}
				states[id[s]].lines = append(states[id[s]].lines, promelaGuard(lits)+" -> goto "+states[id[e.to]].name)
			}
		}
	}
	return writePromela(w, comment, states)
}
