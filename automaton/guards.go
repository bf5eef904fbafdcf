package automaton

// This file turns a state's decision diagram into guard-labelled edges, and
// counts them.

import (
	"fmt"
	"slices"

	"github.com/henceforth-go/henceforth/ltl"
	"github.com/henceforth-go/henceforth/monitor"
)

// A literal of a guard: the atom with letter bit "bit", negated or not.
type guardLit struct {
	bit int
	neg bool
}

// A cube is a conjunction of literals, sorted by bit; empty means true.
type cube []guardLit

// An edge is every transition from one state to another: the disjunction
// of cubes (paths of the decision diagram, pairwise disjoint).
type edge struct {
	to    int32
	cubes []cube
}

// edgeLister computes guard-labelled edges. Guards are irredundant sums of
// products (Minato–Morreale ISOP) of each successor's set of letters, so
// F(a || b) prints its edge as a || b, not as a || !a && b.
type edgeLister struct {
	d *DFA
	b *bdd
}

func (d *DFA) edgeLister() *edgeLister { return &edgeLister{d: d, b: newBDD()} }

// edges returns the edges leaving s, one per successor, by successor
// number.
func (el *edgeLister) edges(s int) []edge {
	d := el.d
	var out []edge
	index := map[int32]int{}
	seen := map[int32]bool{}
	var collect func(r int32)
	collect = func(r int32) {
		if r < 0 {
			if _, ok := index[^r]; !ok {
				index[^r] = len(out)
				out = append(out, edge{to: ^r})
			}
			return
		}
		if seen[r] {
			return
		}
		seen[r] = true
		collect(d.nodes[r].lo)
		collect(d.nodes[r].hi)
	}
	collect(d.roots[s])
	slices.SortFunc(out, func(a, b edge) int { return int(a.to - b.to) })
	for i := range out {
		g := el.guard(d.roots[s], out[i].to, map[int32]bref{})
		out[i].cubes = el.isop(g, g, map[[2]bref]isopResult{})
	}
	return out
}

// guard returns the BDD of the letters that lead from reference r to state
// t.
func (el *edgeLister) guard(r, t int32, memo map[int32]bref) bref {
	if r < 0 {
		if ^r == t {
			return bddTrue
		}
		return bddFalse
	}
	if g, ok := memo[r]; ok {
		return g
	}
	n := el.d.nodes[r]
	g := el.b.mk(n.level, el.guard(n.lo, t, memo), el.guard(n.hi, t, memo))
	memo[r] = g
	return g
}

type isopResult struct {
	cubes []cube
	cover bref
}

// isop returns an irredundant cover of some function between lower and
// upper (lower ⊆ upper), as cubes.
func (el *edgeLister) isop(lower, upper bref, memo map[[2]bref]isopResult) []cube {
	return el.isopRec(lower, upper, memo).cubes
}

func (el *edgeLister) isopRec(lower, upper bref, memo map[[2]bref]isopResult) isopResult {
	b := el.b
	if lower == bddFalse {
		return isopResult{nil, bddFalse}
	}
	if upper == bddTrue {
		return isopResult{[]cube{{}}, bddTrue}
	}
	k := [2]bref{lower, upper}
	if r, ok := memo[k]; ok {
		return r
	}
	top := min(b.level(lower), b.level(upper))
	l0, l1 := b.cofactors(lower, top)
	u0, u1 := b.cofactors(upper, top)
	r0 := el.isopRec(b.and(l0, b.not(u1)), u0, memo)
	r1 := el.isopRec(b.and(l1, b.not(u0)), u1, memo)
	lstar := b.or(b.and(l0, b.not(r0.cover)), b.and(l1, b.not(r1.cover)))
	rs := el.isopRec(lstar, b.and(u0, u1), memo)
	bit := el.d.order[top]
	var cubes []cube
	for _, c := range r0.cubes {
		cubes = append(cubes, withLiteral(c, guardLit{bit, true}))
	}
	for _, c := range r1.cubes {
		cubes = append(cubes, withLiteral(c, guardLit{bit, false}))
	}
	cubes = append(cubes, rs.cubes...)
	x := b.variable(top)
	cover := b.or(b.or(b.and(b.not(x), r0.cover), b.and(x, r1.cover)), rs.cover)
	r := isopResult{cubes, cover}
	memo[k] = r
	return r
}

// withLiteral returns c ∧ l, sorted by bit.
func withLiteral(c cube, l guardLit) cube {
	out := append(slices.Clone(c), l)
	slices.SortFunc(out, func(a, b guardLit) int { return a.bit - b.bit })
	return out
}

// rejectingSink returns the state from which no accepting state is
// reachable, or -1 if there is none.
func (d *DFA) rejectingSink() int {
	for s, v := range d.verdicts {
		if v == monitor.Violated {
			return s
		}
	}
	return -1
}

// Stats are the sizes of a DFA.
type Stats struct {
	// States counts every state, the rejecting sink included.
	States int
	// Transitions counts the guard-labelled edges: the pairs of states
	// (s, t) such that some letter leads from s to t, self-loops and the
	// sink's own loop included. Parallel paths of the decision diagram
	// to the same successor are one transition.
	Transitions int
}

// Stats returns the DFA's sizes.
func (d *DFA) Stats() Stats {
	sc := newSuccessorScanner(d)
	st := Stats{States: len(d.roots)}
	for s := range d.roots {
		st.Transitions += len(sc.successors(s))
	}
	return st
}

// String formats the stats as the CLI prints them: "states: N" and
// "transitions: M" lines.
func (s Stats) String() string {
	return fmt.Sprintf("states: %d\ntransitions: %d\n", s.States, s.Transitions)
}

// atomText is how an atom prints in formulas: bare when it is an
// identifier, in double quotes otherwise (ltl's printer decides).
func atomText(name string) string { return ltl.Atom(name).String() }
