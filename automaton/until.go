package automaton

// This file builds the DFA of g U h and g W h, for a propositional g and a
// temporal h, from the minimal DFA of h.
//
// The residual of g U h after a letter l is h's residual after l, or that
// together with g U h itself when g holds on l. So a state of the
// construction is a macro state: a flag "still waiting" (g has held on every
// letter so far: g U h is still one of the disjuncts) and a set S of states
// of h's DFA (runs of h started earlier), and its language is the union of
// theirs. Without more, S ranges over subsets of h's states: the tableau's
// 2^n states of p0 U p1 U … U pn. But the states of a minimal DFA have
// languages ordered by inclusion, and a union only needs the maximal ones:
// S is kept an antichain of h's states under language inclusion, and
// while waiting the states below h's initial state are dropped unless they
// accept the empty trace (L(h) ∖ {ε} ⊆ L(g U h), and g U h fails on ε).
// For p0 U (p1 U … U pn) the macro states are then n+2 at most.

import (
	"context"
	"encoding/binary"
	"slices"

	"github.com/henceforth-go/henceforth/ltl"
)

// maxUntilOperandStates bounds the states of the right operand's DFA for
// which untilDFA computes language inclusion (quadratic in them).
const maxUntilOperandStates = 128

// isPropositional reports whether f has no temporal operator.
func isPropositional(f ltl.Formula) bool {
	for _, g := range f.Subformulas() {
		if g.Op().IsFuture() || g.Op().IsPast() {
			return false
		}
	}
	return true
}

// isUntilOfTemporal reports whether f is g U h or g W h with g
// propositional and h temporal: the form untilDFA builds.
func isUntilOfTemporal(f ltl.Formula) bool {
	op := f.Op()
	return (op == ltl.OpUntil || op == ltl.OpWeakUntil) && isPropositional(f.Left()) && !isPropositional(f.Right())
}

// inclusion returns incl with incl[a*n+b] true when L(a) ⊆ L(b), for the
// states of d: the greatest relation with acceptance a ⇒ acceptance b that
// is closed under successors on every letter.
func inclusion(d *DFA) []bool {
	n := len(d.roots)
	incl := make([]bool, n*n)
	for a := range n {
		for b := range n {
			incl[a*n+b] = !d.accept[a] || d.accept[b]
		}
	}
	// succ[a*n+b]: the pairs of states a and b reach on a common letter.
	succ := make([][]int32, n*n)
	for a := range n {
		for b := range n {
			seen := map[int32]bool{}
			var walk func(ra, rb int32)
			walk = func(ra, rb int32) {
				if ra < 0 && rb < 0 {
					p := ^ra*int32(n) + ^rb
					if !seen[p] {
						seen[p] = true
						succ[a*n+b] = append(succ[a*n+b], p)
					}
					return
				}
				la, lb := dagLevel(d.nodes, ra), dagLevel(d.nodes, rb)
				top := min(la, lb)
				a0, a1, b0, b1 := ra, ra, rb, rb
				if la == top {
					a0, a1 = d.nodes[ra].lo, d.nodes[ra].hi
				}
				if lb == top {
					b0, b1 = d.nodes[rb].lo, d.nodes[rb].hi
				}
				walk(a0, b0)
				walk(a1, b1)
			}
			walk(d.roots[a], d.roots[b])
		}
	}
	for changed := true; changed; {
		changed = false
		for p := range incl {
			if !incl[p] {
				continue
			}
			for _, q := range succ[p] {
				if !incl[q] {
					incl[p] = false
					changed = true
					break
				}
			}
		}
	}
	return incl
}

// untilBuilder holds the state of one untilDFA construction.
type untilBuilder struct {
	guard *DFA // g's DFA: a leaf of its initial diagram accepts when g holds
	h     *DFA
	weak  bool // g W h: waiting accepts the end of the trace
	incl  []bool
	empty []bool // h's states with the empty language

	g      *dag
	ids    map[string]int32 // macro state key → state
	macros []macro
	memo   map[string]int32 // tuple of references → diagram reference
	key    []byte
}

// macro is a state of the construction: waiting, and an antichain of h's
// states (sorted).
type macro struct {
	waiting bool
	set     []int32
}

// untilDFA returns the DFA of g U h (weak: g W h) from the DFA of the
// propositional g and the minimal DFA of h, over one layout. It is not
// minimized; its states are numbered breadth-first.
func untilDFA(ctx context.Context, guard, h *DFA, weak bool, lim limits) (*DFA, error) {
	n := len(h.roots)
	ub := &untilBuilder{
		guard: guard, h: h, weak: weak, incl: inclusion(h), empty: make([]bool, n),
		g: newDAG(), ids: map[string]int32{}, memo: map[string]int32{},
	}
	canAccept, _ := h.reachability(false)
	for q, ok := range canAccept {
		ub.empty[q] = !ok
	}
	ub.state(macro{waiting: true})
	d := h.layout()
	for i := 0; i < len(ub.macros); i++ {
		if err := lim.progress(ctx, i, len(ub.macros)); err != nil {
			return nil, err
		}
		m := ub.macros[i]
		refs := []int32{}
		if m.waiting {
			refs = append(refs, guard.roots[guard.initial], h.roots[h.initial])
		}
		for _, q := range m.set {
			refs = append(refs, h.roots[q])
		}
		d.roots = append(d.roots, ub.apply(m.waiting, refs))
		acc := m.waiting && weak
		for _, q := range m.set {
			acc = acc || h.accept[q]
		}
		d.accept = append(d.accept, acc)
	}
	d.nodes = ub.g.nodes
	d.initial = 0
	return d, nil
}

// state returns the number of macro state m, canonicalized, numbering it
// if it is new.
func (ub *untilBuilder) state(m macro) int32 {
	n := len(ub.h.roots)
	h0 := int(ub.h.initial)
	slices.Sort(m.set)
	m.set = slices.Compact(m.set)
	var keep []int32
	for _, q := range m.set {
		if ub.empty[q] || m.waiting && !ub.h.accept[q] && ub.incl[int(q)*n+h0] {
			continue
		}
		below := false
		for _, r := range m.set {
			if r != q && ub.incl[int(q)*n+int(r)] {
				below = true
				break
			}
		}
		if !below {
			keep = append(keep, q)
		}
	}
	m.set = keep
	key := make([]byte, 0, 1+4*len(keep))
	if m.waiting {
		key = append(key, 1)
	} else {
		key = append(key, 0)
	}
	for _, q := range keep {
		key = binary.LittleEndian.AppendUint32(key, uint32(q))
	}
	if id, ok := ub.ids[string(key)]; ok {
		return id
	}
	id := int32(len(ub.macros))
	ub.ids[string(key)] = id
	ub.macros = append(ub.macros, m)
	return id
}

// apply returns the diagram of the macro state's transition function:
// refs are references into the guard's nodes (first, when waiting) and
// h's nodes (the others), read in parallel.
func (ub *untilBuilder) apply(waiting bool, refs []int32) int32 {
	ub.key = ub.key[:0]
	if waiting {
		ub.key = append(ub.key, 1)
	} else {
		ub.key = append(ub.key, 0)
	}
	for _, r := range refs {
		ub.key = binary.LittleEndian.AppendUint32(ub.key, uint32(r))
	}
	if r, ok := ub.memo[string(ub.key)]; ok {
		return r
	}
	key := string(ub.key)
	top := terminalLevel
	for i, r := range refs {
		nodes := ub.h.nodes
		if waiting && i == 0 {
			nodes = ub.guard.nodes
		}
		top = min(top, dagLevel(nodes, r))
	}
	var r int32
	if top == terminalLevel {
		m := macro{}
		rest := refs
		if waiting {
			m.waiting = ub.guard.accept[^refs[0]]
			rest = refs[1:]
		}
		for _, q := range rest {
			m.set = append(m.set, ^q)
		}
		r = leaf(ub.state(m))
	} else {
		lo := make([]int32, len(refs))
		hi := make([]int32, len(refs))
		for i, r := range refs {
			nodes := ub.h.nodes
			if waiting && i == 0 {
				nodes = ub.guard.nodes
			}
			lo[i], hi[i] = r, r
			if dagLevel(nodes, r) == top {
				lo[i], hi[i] = nodes[r].lo, nodes[r].hi
			}
		}
		r = ub.g.mk(top, ub.apply(waiting, lo), ub.apply(waiting, hi))
	}
	ub.memo[key] = r
	return r
}
