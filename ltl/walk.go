package ltl

import "sort"

// Subformulas returns the distinct subformulas of f, f included, in an order
// where every formula comes after all of its operands (a topological order of
// the formula's DAG, children first). Shared subformulas appear once. It uses
// an explicit stack, so arbitrarily deep formulas are safe.
func (f Formula) Subformulas() []Formula {
	if f.IsZero() {
		return nil
	}
	seen := map[Formula]bool{}
	var order []Formula
	type frame struct {
		f    Formula
		next int // index of the next operand to visit
	}
	stack := []frame{{f: f}}
	seen[f] = true
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		ops := top.f.Operands()
		if top.next < len(ops) {
			c := ops[top.next]
			top.next++
			if !seen[c] {
				seen[c] = true
				stack = append(stack, frame{f: c})
			}
			continue
		}
		order = append(order, top.f)
		stack = stack[:len(stack)-1]
	}
	return order
}

// Size is the number of distinct subformulas of f (the number of nodes of its
// DAG), f included.
func (f Formula) Size() int { return len(f.Subformulas()) }

// Depth is the height of f's syntax tree: 1 for constants and atoms.
func (f Formula) Depth() int {
	depth := map[Formula]int{}
	max := 0
	for _, g := range f.Subformulas() {
		d := 1
		for _, c := range g.Operands() {
			if depth[c]+1 > d {
				d = depth[c] + 1
			}
		}
		depth[g] = d
		if d > max {
			max = d
		}
	}
	return max
}

// Atoms returns the names of the distinct atoms of f, sorted.
func (f Formula) Atoms() []string {
	set := map[string]bool{}
	for _, g := range f.Subformulas() {
		if g.Op() == OpAtom {
			set[g.Name()] = true
		}
	}
	names := make([]string, 0, len(set))
	for n := range set {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Class says which temporal operators a formula uses.
type Class uint8

const (
	// Propositional formulas have no temporal operator.
	Propositional Class = iota
	// PurePast formulas use past operators (including start, end and the
	// intervals) and no future ones.
	PurePast
	// PureFuture formulas use future operators and no past ones.
	PureFuture
	// Mixed formulas use both.
	Mixed
)

func (c Class) String() string {
	switch c {
	case Propositional:
		return "propositional"
	case PurePast:
		return "pure past"
	case PureFuture:
		return "pure future"
	case Mixed:
		return "mixed"
	}
	return "invalid"
}

// Classify reports which temporal operators f uses.
func (f Formula) Classify() Class {
	past, future := false, false
	for _, g := range f.Subformulas() {
		op := g.Op()
		past = past || op.IsPast()
		future = future || op.IsFuture()
	}
	switch {
	case past && future:
		return Mixed
	case past:
		return PurePast
	case future:
		return PureFuture
	}
	return Propositional
}

// IsPastSafety reports whether f has the form G(φ) with φ propositional or
// pure past: the shape the online past-time DP monitor checks.
func (f Formula) IsPastSafety() bool {
	if f.Op() != OpAlways {
		return false
	}
	c := f.Left().Classify()
	return c == Propositional || c == PurePast
}
