package automaton

// This file is the synchronous product of two DFAs over one alphabet
// layout: the DFA of a Boolean combination of their languages.
//
// Both DFAs store their transition functions as decision diagrams over the
// same levels (they were translated from parts of one prepared formula),
// so the product's diagram for the pair of states (s, t) is the apply of
// s's diagram and t's diagram, with pairs of states as leaves. The apply is
// memoized on pairs of diagram references across all states, so the
// product's diagram is shared the way its factors' diagrams are, and the
// work is proportional to the product's diagram, not to its letters.
//
// The memo is the product diagram's unique table too: the factors'
// diagrams are reduced and canonical and a leaf is a distinct pair of
// states, so the function of the product node of (rx, ry) determines
// both rx's and ry's functions. Two pairs never make equal nodes, and a
// node's children differ (the top level is tested by rx or ry).

import (
	"context"
	"fmt"
	"slices"

	"github.com/henceforth-go/henceforth/ltl"
)

// pairMap maps pairs of int32 to int32 by open addressing. The pair
// (-1, -1) cannot be a key: it marks empty slots.
type pairMap struct {
	slots []pairSlot
	n     int
}

type pairSlot struct {
	key uint64
	val int32
}

const emptyPair = ^uint64(0)

// newPairMap returns a map sized for about size keys.
func newPairMap(size int) *pairMap {
	m := &pairMap{}
	m.resize(max(size+size/3+1, 1<<10))
	return m
}

func pairKey(a, b int32) uint64 { return uint64(uint32(a))<<32 | uint64(uint32(b)) }

func hashPair(k uint64) uint64 {
	k ^= k >> 31
	k *= 0x9E3779B97F4A7C15
	k ^= k >> 29
	return k
}

func (m *pairMap) resize(size int) {
	n := 1
	for n < size {
		n <<= 1
	}
	old := m.slots
	m.slots = make([]pairSlot, n)
	for i := range m.slots {
		m.slots[i].key = emptyPair
	}
	mask := uint64(n - 1)
	for _, sl := range old {
		if sl.key == emptyPair {
			continue
		}
		j := hashPair(sl.key) & mask
		for m.slots[j].key != emptyPair {
			j = (j + 1) & mask
		}
		m.slots[j] = sl
	}
}

// get returns the value of key k.
func (m *pairMap) get(k uint64) (int32, bool) {
	mask := uint64(len(m.slots) - 1)
	for j := hashPair(k) & mask; ; j = (j + 1) & mask {
		switch m.slots[j].key {
		case k:
			return m.slots[j].val, true
		case emptyPair:
			return 0, false
		}
	}
}

// put sets the value of key k, which must not be present.
func (m *pairMap) put(k uint64, v int32) {
	if 4*(m.n+1) > 3*len(m.slots) { // load factor 3/4
		m.resize(2 * len(m.slots))
	}
	mask := uint64(len(m.slots) - 1)
	j := hashPair(k) & mask
	for m.slots[j].key != emptyPair {
		j = (j + 1) & mask
	}
	m.slots[j] = pairSlot{k, v}
	m.n++
}

// boolOp combines the acceptance of two states into the acceptance of
// their pair.
type boolOp func(a, b bool) bool

// productBuilder holds the state of one product construction.
type productBuilder struct {
	x, y  *DFA
	nodes []ddNode // the product diagram, children before parents
	// memo finds the product node of a pair of diagram references:
	// keys[i] is the pair of node i, and table (open addressing) holds
	// node indexes plus one, 0 for empty.
	keys  []uint64
	table []int32
	ids   *pairMap // pair of states → product state
	pairs []uint64 // product state → its pair of states
	lim   limits
	err   error
}

// product returns the DFA of the states pairs reachable from the pair of
// initial states of x and y, a pair accepting when op says so of its
// components; it is not minimized. x and y must have the same alphabet
// layout (atoms and level order). ctx and lim bound the construction as
// they bound the subset construction.
func product(ctx context.Context, x, y *DFA, op boolOp, lim limits) (*DFA, error) {
	if !slices.Equal(x.atoms, y.atoms) || !slices.Equal(x.order, y.order) {
		return nil, fmt.Errorf("automaton: product of DFAs over different alphabets (%v and %v)", x.atoms, y.atoms)
	}
	// Size the tables for the product of independent factors, whose
	// diagram has about the nodes of each factor times the states of the
	// other.
	est := min(len(x.nodes)*len(y.roots)+len(y.nodes)*len(x.roots), 1<<23)
	pb := &productBuilder{
		x: x, y: y,
		nodes: make([]ddNode, 0, est),
		keys:  make([]uint64, 0, est),
		table: make([]int32, tableSize(est)),
		ids:   newPairMap(min(len(x.roots)*len(y.roots), 1<<20)),
		lim:   lim,
	}
	pb.state(x.initial, y.initial)
	d := x.layout()
	for i := 0; i < len(pb.pairs); i++ {
		if err := lim.progress(ctx, i, len(pb.pairs)); err != nil {
			return nil, err
		}
		s, t := int32(pb.pairs[i]>>32), int32(uint32(pb.pairs[i]))
		r := pb.apply(x.roots[s], y.roots[t])
		if pb.err != nil {
			return nil, pb.err
		}
		d.roots = append(d.roots, r)
		d.accept = append(d.accept, op(x.accept[s], y.accept[t]))
	}
	d.nodes = pb.nodes
	d.initial = 0
	return d, nil
}

// state returns the product state of the pair (s, t), numbering it if it
// is new.
func (pb *productBuilder) state(s, t int32) int32 {
	k := pairKey(s, t)
	if id, ok := pb.ids.get(k); ok {
		return id
	}
	id := int32(len(pb.pairs))
	pb.ids.put(k, id)
	pb.pairs = append(pb.pairs, k)
	return id
}

// apply returns the product diagram of references rx (into x's nodes) and
// ry (into y's nodes).
func (pb *productBuilder) apply(rx, ry int32) int32 {
	if rx < 0 && ry < 0 {
		return leaf(pb.state(^rx, ^ry))
	}
	k := pairKey(rx, ry)
	if r, ok := pb.find(k); ok {
		return r
	}
	lx, ly := dagLevel(pb.x.nodes, rx), dagLevel(pb.y.nodes, ry)
	top := min(lx, ly)
	x0, x1 := rx, rx
	if lx == top {
		x0, x1 = pb.x.nodes[rx].lo, pb.x.nodes[rx].hi
	}
	y0, y1 := ry, ry
	if ly == top {
		y0, y1 = pb.y.nodes[ry].lo, pb.y.nodes[ry].hi
	}
	lo := pb.apply(x0, y0)
	hi := pb.apply(x1, y1)
	r := int32(len(pb.nodes))
	pb.nodes = append(pb.nodes, ddNode{top, lo, hi})
	if pb.lim.maxNodes > 0 && len(pb.nodes) > pb.lim.maxNodes && pb.err == nil {
		pb.err = fmt.Errorf("automaton: %w: more than %d BDD nodes in a product", ErrTooLarge, pb.lim.maxNodes)
	}
	pb.keys = append(pb.keys, k)
	pb.insert(r)
	return r
}

// tableSize returns the power of two that holds n keys at a load factor
// of at most 3/4.
func tableSize(n int) int {
	size := 1 << 10
	for 3*size < 4*n {
		size <<= 1
	}
	return size
}

// find returns the product node of the pair of references k.
func (pb *productBuilder) find(k uint64) (int32, bool) {
	mask := uint64(len(pb.table) - 1)
	for j := hashPair(k) & mask; ; j = (j + 1) & mask {
		v := pb.table[j]
		if v == 0 {
			return 0, false
		}
		if pb.keys[v-1] == k {
			return v - 1, true
		}
	}
}

// insert enters node r, whose pair is keys[r], into the table.
func (pb *productBuilder) insert(r int32) {
	if 4*len(pb.keys) > 3*len(pb.table) {
		pb.table = make([]int32, 2*len(pb.table))
		for i := range int32(len(pb.keys) - 1) {
			pb.place(i)
		}
	}
	pb.place(r)
}

func (pb *productBuilder) place(r int32) {
	mask := uint64(len(pb.table) - 1)
	j := hashPair(pb.keys[r]) & mask
	for pb.table[j] != 0 {
		j = (j + 1) & mask
	}
	pb.table[j] = r + 1
}

// layout returns a DFA with d's alphabet layout and no states or
// diagram, for a construction to fill.
func (d *DFA) layout() *DFA {
	l := &DFA{}
	*l = *d
	l.formula = ltl.Formula{}
	l.nodes, l.roots, l.accept = nil, nil, nil
	l.verdicts, l.walk, l.flat = nil, nil, nil
	return l
}

// complement returns the DFA of the complement of d's language: d with
// accepting and rejecting states exchanged. The complement of a minimal
// DFA is minimal.
func complement(d *DFA) *DFA {
	c := &DFA{}
	*c = *d
	c.accept = make([]bool, len(d.accept))
	for i, a := range d.accept {
		c.accept[i] = !a
	}
	c.verdicts, c.walk, c.flat = nil, nil, nil
	return c
}
