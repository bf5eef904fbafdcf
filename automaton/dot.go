package automaton

// This file prints DFAs in Graphviz DOT.

import (
	"bufio"
	"io"
	"strconv"
	"strings"
)

// dotQuote returns s as a DOT double-quoted string.
func dotQuote(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)
	return `"` + r.Replace(s) + `"`
}

// guardText prints a disjunction of cubes with the formula syntax of
// docs/semantics.md: a && !b || c; true for the empty cube.
func (d *DFA) guardText(cubes []cube) string {
	parts := make([]string, len(cubes))
	for i, c := range cubes {
		if len(c) == 0 {
			return "true"
		}
		lits := make([]string, len(c))
		for j, l := range c {
			lits[j] = atomText(d.atoms[l.bit])
			if l.neg {
				lits[j] = "!" + lits[j]
			}
		}
		parts[i] = strings.Join(lits, " && ")
	}
	return strings.Join(parts, " || ")
}

// WriteDOT writes the DFA as a Graphviz digraph: states are circles labelled
// with their number (double circles when accepting; the rejecting sink is
// drawn dashed), an arrow from a point marks the initial state, and each
// edge is labelled with its guard.
func (d *DFA) WriteDOT(w io.Writer) error {
	el := d.edgeLister()
	bw := bufio.NewWriter(w)
	bw.WriteString("digraph " + dotQuote(d.formula.String()) + " {\n")
	bw.WriteString("  rankdir=LR;\n  node [shape=circle];\n")
	bw.WriteString("  init [shape=point, label=\"\"];\n")
	bw.WriteString("  init -> " + strconv.Itoa(int(d.initial)) + ";\n")
	sink := d.rejectingSink()
	for s := range d.roots {
		attrs := "label=" + dotQuote(strconv.Itoa(s))
		if d.accept[s] {
			attrs += ", shape=doublecircle"
		}
		if s == sink {
			attrs += ", style=dashed"
		}
		bw.WriteString("  " + strconv.Itoa(s) + " [" + attrs + "];\n")
	}
	for s := range d.roots {
		for _, e := range el.edges(s) {
			bw.WriteString("  " + strconv.Itoa(s) + " -> " + strconv.Itoa(int(e.to)) + " [label=" + dotQuote(d.guardText(e.cubes)) + "];\n")
		}
	}
	bw.WriteString("}\n")
	return bw.Flush()
}
