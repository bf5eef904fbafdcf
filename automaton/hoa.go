package automaton

// This file prints DFAs in the Hanoi Omega-Automata format (HOA v1).
//
// HOA describes ω-automata; it has no acceptance condition for finite words.
// Spot, the main HOA tool, uses two conventions for automata over finite
// words, and WriteHOA offers both:
//
//   - HOAAlive (the default) is the encoding of ltl2tgba --from-ltlf and
//     autfilt --to-finite: an extra atomic proposition "alive" holds on
//     the letters of the finite trace and is false forever after it. A
//     finite trace w is accepted exactly when the Büchi automaton accepts
//     the infinite word w·{¬alive}^ω. Each DFA state keeps its edges, each
//     conjoined with alive; each accepting state gets an edge on !alive to
//     one extra state, "end", which loops on !alive and is the only state
//     in the acceptance set (state-based Buchi, Acceptance: 1 Inf(0)). This
//     is a genuine ω-automaton, so Spot's algorithms (emptiness,
//     equivalence with ltl2tgba --from-ltlf output, autfilt --to-finite)
//     mean what they say. Unlike Spot's translation, the empty trace is
//     representable: it is {¬alive}^ω, accepted when the initial state
//     accepts. If an atom of the formula is itself named alive, the extra
//     proposition is alive', alive'', … (pass the name to autfilt
//     --to-finite=NAME).
//   - HOASpotDFA mirrors ltlf2dfa -H: the DFA's own states and edges,
//     read as a transition-based Büchi automaton whose accepting
//     transitions (marked {0}) are those entering an accepting state; a
//     finite run is accepted when its last transition is marked. The
//     rejecting sink and the edges into it are left out (so the automaton
//     is not complete), and the empty trace cannot be represented. As
//     Spot's documentation says, this abuses HOA: under HOA's own
//     semantics the automaton means something else.
//
// In both, labels are Boolean expressions over AP indices (0&!1 | 2), one
// edge per successor state.

import (
	"bufio"
	"io"
	"slices"
	"strconv"
	"strings"
)

// HOAStyle selects how WriteHOA encodes acceptance of finite traces.
type HOAStyle uint8

const (
	// HOAAlive encodes finite traces with an "alive" proposition, as
	// ltl2tgba --from-ltlf does (state-based Büchi acceptance).
	HOAAlive HOAStyle = iota
	// HOASpotDFA is the transition-based encoding of ltlf2dfa -H.
	HOASpotDFA
)

func (s HOAStyle) String() string {
	switch s {
	case HOAAlive:
		return "alive"
	case HOASpotDFA:
		return "spot-dfa"
	}
	return "invalid"
}

// hoaQuote returns s as a HOA string.
func hoaQuote(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)
	return `"` + r.Replace(s) + `"`
}

// hoaLabel prints cubes as a HOA label expression, each cube conjoined with
// extra (an AP index literal, or "" for none).
func hoaLabel(cubes []cube, extra string) string {
	parts := make([]string, 0, len(cubes))
	for _, c := range cubes {
		var lits []string
		if extra != "" {
			lits = append(lits, extra)
		}
		for _, l := range c {
			if l.neg {
				lits = append(lits, "!"+strconv.Itoa(l.bit))
			} else {
				lits = append(lits, strconv.Itoa(l.bit))
			}
		}
		if len(lits) == 0 {
			return "t"
		}
		parts = append(parts, strings.Join(lits, "&"))
	}
	if len(parts) == 0 {
		return "f"
	}
	return strings.Join(parts, " | ")
}

// WriteHOA writes the DFA in HOA v1 with the given encoding of finite-trace
// acceptance (see the file comment).
func (d *DFA) WriteHOA(w io.Writer, style HOAStyle) error {
	bw := bufio.NewWriter(w)
	bw.WriteString("HOA: v1\n")
	bw.WriteString("name: " + hoaQuote(d.formula.String()) + "\n")
	switch style {
	case HOASpotDFA:
		d.writeHOASpotDFA(bw)
	default:
		d.writeHOAAlive(bw)
	}
	bw.WriteString("--END--\n")
	return bw.Flush()
}

func (d *DFA) writeHOAAlive(bw *bufio.Writer) {
	el := d.edgeLister()
	alive := "alive"
	for slices.Contains(d.atoms, alive) {
		alive += "'"
	}
	a := strconv.Itoa(len(d.atoms))
	end := strconv.Itoa(len(d.roots))
	bw.WriteString("States: " + strconv.Itoa(len(d.roots)+1) + "\n")
	bw.WriteString("Start: " + strconv.Itoa(int(d.initial)) + "\n")
	d.writeAP(bw, alive)
	bw.WriteString("acc-name: Buchi\nAcceptance: 1 Inf(0)\n")
	bw.WriteString("properties: trans-labels explicit-labels state-acc deterministic\n")
	bw.WriteString("--BODY--\n")
	for s := range d.roots {
		bw.WriteString("State: " + strconv.Itoa(s) + "\n")
		for _, e := range el.edges(s) {
			bw.WriteString("[" + hoaLabel(e.cubes, a) + "] " + strconv.Itoa(int(e.to)) + "\n")
		}
		if d.accept[s] {
			bw.WriteString("[!" + a + "] " + end + "\n")
		}
	}
	bw.WriteString("State: " + end + " \"end\" {0}\n")
	bw.WriteString("[!" + a + "] " + end + "\n")
}

func (d *DFA) writeHOASpotDFA(bw *bufio.Writer) {
	el := d.edgeLister()
	sink := d.rejectingSink()
	id := make([]int, len(d.roots))
	n := 0
	for s := range d.roots {
		if s == sink && s != int(d.initial) {
			id[s] = -1
			continue
		}
		id[s] = n
		n++
	}
	bw.WriteString("States: " + strconv.Itoa(n) + "\n")
	bw.WriteString("Start: " + strconv.Itoa(id[d.initial]) + "\n")
	d.writeAP(bw, "")
	bw.WriteString("acc-name: Buchi\nAcceptance: 1 Inf(0)\n")
	bw.WriteString("properties: trans-labels explicit-labels trans-acc deterministic\n")
	bw.WriteString("--BODY--\n")
	for s := range d.roots {
		if id[s] < 0 {
			continue
		}
		bw.WriteString("State: " + strconv.Itoa(id[s]) + "\n")
		if s == sink {
			continue
		}
		for _, e := range el.edges(s) {
			if int(e.to) == sink {
				continue
			}
			line := "[" + hoaLabel(e.cubes, "") + "] " + strconv.Itoa(id[e.to])
			if d.accept[e.to] {
				line += " {0}"
			}
			bw.WriteString(line + "\n")
		}
	}
}

// writeAP writes the AP line: the DFA's atoms, then extra if not empty.
func (d *DFA) writeAP(bw *bufio.Writer, extra string) {
	names := slices.Clone(d.atoms)
	if extra != "" {
		names = append(names, extra)
	}
	bw.WriteString("AP: " + strconv.Itoa(len(names)))
	for _, n := range names {
		bw.WriteString(" " + hoaQuote(n))
	}
	bw.WriteString("\n")
}
