package automaton

// This file answers language questions: emptiness, universality, shortest
// accepted and rejected traces, and equivalence of formulas by product.

import (
	"context"
	"fmt"
	"slices"

	"github.com/henceforth-go/henceforth/ltl"
	"github.com/henceforth-go/henceforth/monitor"
)

// IsEmpty reports whether the DFA accepts no trace over its Atoms().
func (d *DFA) IsEmpty() bool { return !slices.Contains(d.accept, true) }

// IsUniversal reports whether the DFA accepts every trace over its Atoms(),
// the empty one included.
func (d *DFA) IsUniversal() bool { return !slices.Contains(d.accept, false) }

// ShortestAccepted returns a shortest trace the DFA accepts, as the atoms
// that hold at each position (at each step the first letter of the
// decision diagram's false-before-true order that leads on a shortest
// path, so atoms are false wherever they can be), and false if it accepts
// none.
func (d *DFA) ShortestAccepted() (ltl.Sets, bool) {
	return d.shortestFrom(d.initial, func(s int32) bool { return d.accept[s] })
}

// ShortestRejected returns a shortest trace the DFA rejects, and false if
// it accepts every trace.
func (d *DFA) ShortestRejected() (ltl.Sets, bool) {
	return d.shortestFrom(d.initial, func(s int32) bool { return !d.accept[s] })
}

// shortestFrom returns the letters of a shortest path from state start to a
// state where goal holds, by breadth-first search.
func (d *DFA) shortestFrom(start int32, goal func(int32) bool) (ltl.Sets, bool) {
	n := len(d.roots)
	parent := make([]int32, n)
	for i := range parent {
		parent[i] = -1
	}
	parent[start] = start
	queue := []int32{start}
	sc := newSuccessorScanner(d)
	found := int32(-1)
	for len(queue) > 0 && found < 0 {
		s := queue[0]
		queue = queue[1:]
		if goal(s) {
			found = s
			break
		}
		for _, t := range sc.successors(int(s)) {
			if parent[t] < 0 {
				parent[t] = s
				queue = append(queue, t)
			}
		}
	}
	if found < 0 {
		return nil, false
	}
	var path []int32
	for s := found; s != start; s = parent[s] {
		path = append(path, s)
	}
	slices.Reverse(path)
	trace := ltl.Sets{}
	from := start
	for _, to := range path {
		trace = append(trace, d.atomsOf(d.letterTo(from, to)))
		from = to
	}
	return trace, true
}

// letterTo returns a letter leading from s to t, which must be a successor
// of s: the lo-first path of s's decision diagram to the leaf t.
func (d *DFA) letterTo(s, t int32) monitor.Letter {
	seen := map[int32]bool{}
	var find func(r int32) (monitor.Letter, bool)
	find = func(r int32) (monitor.Letter, bool) {
		if r < 0 {
			return 0, ^r == t
		}
		if seen[r] {
			return 0, false
		}
		seen[r] = true
		n := d.nodes[r]
		if l, ok := find(n.lo); ok {
			return l, true
		}
		if l, ok := find(n.hi); ok {
			return l | 1<<uint(d.order[n.level]), true
		}
		return 0, false
	}
	l, _ := find(d.roots[s])
	return l
}

// atomsOf returns the atoms that hold in l, in Atoms() order; never nil.
func (d *DFA) atomsOf(l monitor.Letter) []string {
	out := []string{}
	for i, a := range d.atoms {
		if l.Has(i) {
			out = append(out, a)
		}
	}
	return out
}

// Equivalent reports whether f and g have the same LTLf verdict on every
// trace, the empty one included. When they differ it returns a shortest
// trace on which their verdicts differ. Past operators are translated
// exactly (Options.ExactPast), so mixed formulas compare correctly. Both
// formulas are translated by FromFormula with ctx and opts (the zero
// Options are the defaults).
func Equivalent(ctx context.Context, f, g ltl.Formula, opts Options) (bool, ltl.Sets, error) {
	if f.IsZero() || g.IsZero() {
		return false, nil, fmt.Errorf("automaton: invalid (zero) formula")
	}
	opts.ExactPast = true
	// Both automata over the union of the atoms, in one level order.
	atoms := atomsInOrder(f)
	for _, a := range atomsInOrder(g) {
		if !slices.Contains(atoms, a) {
			atoms = append(atoms, a)
		}
	}
	opts.Atoms = append(slices.Clip(atoms), opts.Atoms...)
	df, err := FromFormula(ctx, f, opts)
	if err != nil {
		return false, nil, err
	}
	dg, err := FromFormula(ctx, g, opts)
	if err != nil {
		return false, nil, err
	}
	p, err := product(ctx, df, dg, func(x, y bool) bool { return x != y }, opts.limits())
	if err != nil {
		return false, nil, err
	}
	w, differ := p.ShortestAccepted()
	return !differ, w, nil
}
