package fds

import (
	"context"
	"fmt"
)

// OrderSetter is implemented by backends whose variable order can be set
// outright while they hold no node (the native kernel): how Sibling
// reproduces a reordered Space's order without sifting.
type OrderSetter interface {
	// SetOrder makes order[p] the variable at position p. order must be a
	// permutation of the variables, and the backend must hold no internal
	// node yet.
	SetOrder(order []int) error
}

// SetOrder implements OrderSetter.
func (k *kernel) SetOrder(order []int) error {
	if len(order) != int(k.nvars) {
		return fmt.Errorf("fds: order of %d variables for %d", len(order), k.nvars)
	}
	if used := len(k.nodes) - 1 - k.nfree; used != 0 {
		return fmt.Errorf("fds: order set with %d nodes in the table", used)
	}
	seen := make([]bool, k.nvars)
	for _, v := range order {
		if v < 0 || v >= int(k.nvars) || seen[v] {
			return fmt.Errorf("fds: order is not a permutation (variable %d)", v)
		}
		seen[v] = true
	}
	for p, v := range order {
		k.level2var[p], k.var2level[v] = int32(v), int32(p)
	}
	k.orderEpoch++
	return nil
}

// Sibling returns a new, empty Space with s's variables (the same names,
// ranges and levels, so that a level names the same bit in both), s's
// backend constructor (so the same node-table limits), s's current
// variable order, and dynamic reordering off; its operations are bounded
// by ctx (SetContext). Functions move between the two with Copy.
//
// The sibling shares no mutable state with s: once made it may be used by
// another goroutine than s's, each Space by one goroutine at a time.
// Making it reads s (building s if needed), so it must not run while s is
// in use elsewhere.
func (s *Space) Sibling(ctx context.Context) (*Space, error) {
	if err := s.Build(); err != nil {
		return nil, err
	}
	t := &Space{byName: map[string]*Var{}, levels: s.levels, newBackend: s.newBackend, ctx: ctx}
	for _, v := range s.vars {
		w := &Var{sp: t, name: v.name, lo: v.lo, hi: v.hi, isBool: v.isBool,
			cur: append([]int(nil), v.cur...), next: append([]int(nil), v.next...)}
		t.vars = append(t.vars, w)
		t.byName[w.name] = w
	}
	if r, ok := s.be.(Reorderer); ok {
		n := max(s.levels, 2)
		t.order = make([]int, n)
		for v := range n {
			t.order[r.Position(v)] = v
		}
	}
	if err := t.Build(); err != nil {
		return nil, fmt.Errorf("fds: sibling space: %w", err)
	}
	return t, nil
}

// Copy returns the functions fs, BDDs of one other Space over the same
// levels (a Sibling, or the Space a sibling was made from), as BDDs of s:
// the copy of fs[i] is the same function of the same levels. It walks
// fs's nodes once, shared between them, and rebuilds them in s in one
// operation; where the two Spaces have the same order every node is made
// directly, without Ite. Copy reads the source Space and writes s, so
// neither may be in use elsewhere while it runs. A failure of s (its node
// limit, its context) is returned as Err reports it.
func (s *Space) Copy(fs ...BDD) ([]BDD, error) {
	if len(fs) == 0 {
		return nil, nil
	}
	src := fs[0].s
	for _, f := range fs {
		if f.s != src {
			return nil, fmt.Errorf("fds: copy of BDDs of several spaces")
		}
	}
	if src == s {
		return append([]BDD(nil), fs...), nil
	}
	if src.levels != s.levels {
		return nil, fmt.Errorf("fds: copy between spaces of %d and %d levels", src.levels, s.levels)
	}
	if err := src.Err(); err != nil {
		return nil, fmt.Errorf("fds: copy from a failed space: %w", err)
	}
	var levels []int
	var low, high []int32
	local := []int32{0, 1} // walk id → node list id
	at := func(id int) int32 {
		if id < 2 {
			return int32(id)
		}
		return local[id]
	}
	visit := func(id, level, lo, hi int) {
		if id >= len(local) {
			local = append(local, make([]int32, id+1-len(local)+len(local)/2)...)
		}
		local[id] = int32(len(levels) + 2)
		levels = append(levels, level)
		low, high = append(low, at(lo)), append(high, at(hi))
	}
	roots := make([]int32, len(fs))
	be := src.backend()
	if mw, ok := be.(MultiWalker); ok {
		ns := make([]Node, len(fs))
		for i, f := range fs {
			ns[i] = f.n
		}
		for i, id := range mw.WalkAll(ns, visit) {
			roots[i] = at(id)
		}
	} else {
		// Walk ids name (node, polarity) pairs of the backend, which are
		// canonical: a node met again in a later walk is visited again
		// and gets a new entry with the same function.
		for i, f := range fs {
			roots[i] = at(be.Walk(f.n, visit))
		}
	}
	out := make([]BDD, len(fs))
	if gb, ok := s.backend().(GraphBuilder); ok {
		for i, n := range gb.BuildGraph(levels, low, high, roots) {
			out[i] = BDD{s, n}
		}
	} else {
		for i, r := range roots {
			out[i] = s.FromNodes(levels, low, high, r)
		}
	}
	if err := s.Err(); err != nil {
		return nil, err
	}
	return out, nil
}
