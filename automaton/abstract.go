package automaton

// This file prepares a formula for translation: unless its past is to be
// translated exactly, it replaces every maximal pure-past subformula by a
// fresh atom (whose value the past-time DP monitor computes online); and it
// fixes the alphabet and the variable order.

import (
	"fmt"
	"slices"

	"github.com/henceforth-go/henceforth/ltl"
)

// prepared is a formula ready for translation.
type prepared struct {
	orig ltl.Formula // the formula as given
	f    ltl.Formula // orig with maximal pure-past subformulas replaced by fresh atoms

	// inputs are the atoms of orig and the extra ones, sorted: what a
	// monitor is fed.
	inputs []string
	// atoms is the DFA's alphabet: the visible atoms (atoms of f other
	// than fresh ones, plus requested extras), sorted, then the fresh
	// atoms in order of first occurrence. Letter bit i is atoms[i].
	atoms []string
	// past[j] is the pure-past formula that fresh atom atoms[visible+j]
	// stands for.
	past    []ltl.Formula
	visible int
	// order lists the alphabet's bits in BDD level order: the extra atoms
	// in the order given, then the others by first occurrence in f, left
	// to right (which keeps related atoms such as p_i and q_i of
	// G(p_i -> F q_i) adjacent), then the fresh atoms.
	order []int
	// emptyHolds is the verdict of orig on the empty trace.
	emptyHolds bool
	// exactPast is set when f keeps its past operators, which the
	// translator then handles itself (translate.go: memory levels).
	exactPast bool
}

// prepare abstracts the past of f (unless exactPast is set or f applies a
// past operator to a future subformula, which the past-time monitor cannot
// compute) and lays out the alphabet; extra atoms join the visible ones and
// come first in the level order, so two formulas prepared with the same
// extra list over the same atoms have the same layout.
func prepare(f ltl.Formula, extra []string, exactPast bool) (*prepared, error) {
	if f.IsZero() {
		return nil, fmt.Errorf("automaton: invalid (zero) formula")
	}
	p := &prepared{orig: f, inputs: f.Atoms(), emptyHolds: ltl.Eval(f, ltl.Sets{}, ltl.LTLf)}
	for _, a := range extra {
		if !slices.Contains(p.inputs, a) {
			p.inputs = append(p.inputs, a)
		}
	}
	slices.Sort(p.inputs)

	// hasFuture/hasPast per subformula, children first.
	hasFuture := map[ltl.Formula]bool{}
	hasPast := map[ltl.Formula]bool{}
	for _, g := range f.Subformulas() {
		fut, past := g.Op().IsFuture(), g.Op().IsPast()
		for _, c := range g.Operands() {
			fut = fut || hasFuture[c]
			past = past || hasPast[c]
		}
		hasFuture[g], hasPast[g] = fut, past
		if g.Op().IsPast() && fut {
			exactPast = true
		}
	}
	if exactPast {
		for _, g := range f.Subformulas() {
			if hasPast[g] {
				p.exactPast = true
				break
			}
		}
		// No fresh atoms: the past is translated exactly.
		hasPast = map[ltl.Formula]bool{}
	}

	taken := map[string]bool{}
	for _, a := range p.inputs {
		taken[a] = true
	}
	for _, a := range extra {
		taken[a] = true
	}
	fresh := map[ltl.Formula]ltl.Formula{}
	var freshNames []string
	memo := map[ltl.Formula]ltl.Formula{}
	var abstract func(g ltl.Formula) ltl.Formula
	abstract = func(g ltl.Formula) ltl.Formula {
		if r, ok := memo[g]; ok {
			return r
		}
		var r ltl.Formula
		switch {
		case hasPast[g] && !hasFuture[g]:
			if a, ok := fresh[g]; ok {
				r = a
				break
			}
			name := g.String()
			for taken[name] {
				name += "'"
			}
			taken[name] = true
			r = ltl.QuotedAtom(name)
			fresh[g] = r
			freshNames = append(freshNames, name)
			p.past = append(p.past, g)
		case !hasPast[g]:
			r = g
		case g.Op().Arity() == 1:
			r = ltl.Unary(g.Op(), abstract(g.Left()))
		default:
			r = ltl.Binary(g.Op(), abstract(g.Left()), abstract(g.Right()))
		}
		memo[g] = r
		return r
	}
	p.f = abstract(f)

	isFresh := map[string]bool{}
	for _, n := range freshNames {
		isFresh[n] = true
	}
	var visible []string
	for _, a := range p.f.Atoms() {
		if !isFresh[a] {
			visible = append(visible, a)
		}
	}
	for _, a := range extra {
		if !slices.Contains(visible, a) && !isFresh[a] {
			visible = append(visible, a)
		}
	}
	slices.Sort(visible)
	p.visible = len(visible)
	p.atoms = append(visible, freshNames...)
	if len(p.atoms) > maxAtoms {
		return nil, fmt.Errorf("automaton: %w: %d atoms (past subformulas count as one each); a letter holds at most %d",
			ErrTooLarge, len(p.atoms), maxAtoms)
	}
	if len(p.inputs) > maxAtoms {
		return nil, fmt.Errorf("automaton: %w: %d atoms; a letter holds at most %d", ErrTooLarge, len(p.inputs), maxAtoms)
	}

	bit := map[string]int{}
	for i, a := range p.atoms {
		bit[a] = i
	}
	seen := make([]bool, len(p.atoms))
	for _, a := range append(slices.Clip(extra), atomsInOrder(p.f)...) {
		if i := bit[a]; !seen[i] {
			seen[i] = true
			p.order = append(p.order, i)
		}
	}
	for i := range p.atoms {
		if !seen[i] {
			p.order = append(p.order, i)
		}
	}
	return p, nil
}

// atomsInOrder returns the atoms of f in order of first occurrence, reading
// f left to right.
func atomsInOrder(f ltl.Formula) []string {
	var out []string
	seen := map[ltl.Formula]bool{}
	stack := []ltl.Formula{f}
	for len(stack) > 0 {
		g := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[g] {
			continue
		}
		seen[g] = true
		if g.Op() == ltl.OpAtom {
			out = append(out, g.Name())
			continue
		}
		ops := g.Operands()
		for i := len(ops) - 1; i >= 0; i-- {
			stack = append(stack, ops[i])
		}
	}
	return out
}
