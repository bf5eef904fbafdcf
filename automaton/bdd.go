package automaton

// This file is the binary decision diagram store used while a DFA is built:
// reduced, ordered, hash-consed BDDs over numbered levels, with if-then-else,
// substitution, quantification and a lossy operation cache. Levels are variables: the atom
// levels come first (smallest numbers, nearest the root) and the obligation
// levels of the tableau are appended below them as they are discovered, so
// adding a variable never reorders existing nodes.

import (
	"context"
	"fmt"
)

// bref is a reference to a BDD node: an index into bdd.nodes.
type bref = int32

const (
	bddFalse bref = 0
	bddTrue  bref = 1
)

// terminalLevel is the level of the two terminals: below every variable.
const terminalLevel = int32(1<<31 - 1)

// iteEntry is one slot of the lossy if-then-else cache.
type iteEntry struct {
	f, g, h, r bref
}

// bdd is a store of reduced ordered BDDs: a dag (dag.go) whose nodes[0] and
// nodes[1] are the terminals false and true, with every other node
// reduced, children at strictly greater levels, and unique. So two refs
// are equal exactly when they denote the same Boolean function. A bdd is
// not safe for concurrent use.
type bdd struct {
	dag
	cache []iteEntry

	// Bounds, checked as nodes are made: past maxNodes nodes, or when
	// ctx is done (looked at every 1<<16 nodes), mk panics with a
	// bddAbort, which the construction recovers into an error. A single
	// BDD operation can be exponential, so the check cannot wait for it
	// to return.
	ctx      context.Context
	maxNodes int
}

// bddAbort carries the reason a construction stopped out of a BDD
// operation; it never escapes the package (see catchAbort).
type bddAbort struct{ err error }

// catchAbort turns a bddAbort panic into *err; other panics go on.
func catchAbort(err *error) {
	if r := recover(); r != nil {
		a, ok := r.(bddAbort)
		if !ok {
			panic(r)
		}
		*err = a.err
	}
}

func newBDD() *bdd {
	b := &bdd{dag: *newDAG()}
	b.nodes = []ddNode{{terminalLevel, 0, 0}, {terminalLevel, 1, 1}}
	b.growCache(1 << 12)
	return b
}

func (b *bdd) growCache(size int) {
	b.cache = make([]iteEntry, size)
	for i := range b.cache {
		b.cache[i].f = -1
	}
}

func (b *bdd) level(r bref) int32 { return b.nodes[r].level }

func hash3(a, c, d int32) uint32 {
	h := uint64(uint32(a))*0x9E3779B97F4A7C15 ^ uint64(uint32(c))*0xC2B2AE3D27D4EB4F ^ uint64(uint32(d))*0x165667B19E3779F9
	h ^= h >> 29
	h *= 0xBF58476D1CE4E5B9
	return uint32(h ^ h>>32)
}

// mk returns the node (level, lo, hi), creating it if needed, and keeps
// the operation cache about half the size of the store.
func (b *bdd) mk(level int32, lo, hi bref) bref {
	n := len(b.nodes)
	r := b.dag.mk(level, lo, hi)
	if len(b.nodes) == n {
		return r
	}
	if len(b.nodes) > 2*len(b.cache) && len(b.cache) < 1<<23 {
		b.growCache(2 * len(b.cache))
	}
	if b.maxNodes > 0 && len(b.nodes) > b.maxNodes {
		panic(bddAbort{fmt.Errorf("automaton: %w: more than %d BDD nodes", ErrTooLarge, b.maxNodes)})
	}
	if b.ctx != nil && len(b.nodes)&(1<<16-1) == 0 {
		if err := b.ctx.Err(); err != nil {
			panic(bddAbort{fmt.Errorf("automaton: translation stopped: %w", err)})
		}
	}
	return r
}

// variable returns the function that is true exactly when level holds.
func (b *bdd) variable(level int32) bref { return b.mk(level, bddFalse, bddTrue) }

func (b *bdd) not(f bref) bref     { return b.ite(f, bddFalse, bddTrue) }
func (b *bdd) and(f, g bref) bref  { return b.ite(f, g, bddFalse) }
func (b *bdd) or(f, g bref) bref   { return b.ite(f, bddTrue, g) }
func (b *bdd) xor(f, g bref) bref  { return b.ite(f, b.not(g), g) }
func (b *bdd) iff(f, g bref) bref  { return b.ite(f, g, b.not(g)) }
func (b *bdd) impl(f, g bref) bref { return b.ite(f, g, bddTrue) }

// cofactors returns the restrictions of f to level = false and level = true,
// for a level at or above f's top level.
func (b *bdd) cofactors(f bref, level int32) (bref, bref) {
	n := b.nodes[f]
	if n.level != level {
		return f, f
	}
	return n.lo, n.hi
}

// ite returns if f then g else h.
func (b *bdd) ite(f, g, h bref) bref {
	switch {
	case f == bddTrue:
		return g
	case f == bddFalse:
		return h
	case g == h:
		return g
	case g == bddTrue && h == bddFalse:
		return f
	}
	slot := &b.cache[hash3(f, g, h)&uint32(len(b.cache)-1)]
	if slot.f == f && slot.g == g && slot.h == h {
		return slot.r
	}
	top := b.nodes[f].level
	if l := b.nodes[g].level; l < top {
		top = l
	}
	if l := b.nodes[h].level; l < top {
		top = l
	}
	f0, f1 := b.cofactors(f, top)
	g0, g1 := b.cofactors(g, top)
	h0, h1 := b.cofactors(h, top)
	lo := b.ite(f0, g0, h0)
	hi := b.ite(f1, g1, h1)
	r := b.mk(top, lo, hi)
	// The cache may have been reallocated by mk; index it again.
	slot = &b.cache[hash3(f, g, h)&uint32(len(b.cache)-1)]
	*slot = iteEntry{f, g, h, r}
	return r
}

// substitute returns f with every variable replaced by a function:
// ite(sub(level), f|level, f|¬level) from the bottom up. memo caches results
// for one sub.
func (b *bdd) substitute(f bref, sub func(level int32) bref, memo map[bref]bref) bref {
	if f <= bddTrue {
		return f
	}
	if r, ok := memo[f]; ok {
		return r
	}
	n := b.nodes[f]
	hi := b.substitute(n.hi, sub, memo)
	lo := b.substitute(n.lo, sub, memo)
	r := b.ite(sub(n.level), hi, lo)
	memo[f] = r
	return r
}

// exists returns f with every level l for which quantified(l) holds
// existentially quantified away. memo caches results for one quantifier set.
func (b *bdd) exists(f bref, quantified func(int32) bool, memo map[bref]bref) bref {
	if f <= bddTrue {
		return f
	}
	if r, ok := memo[f]; ok {
		return r
	}
	n := b.nodes[f]
	lo := b.exists(n.lo, quantified, memo)
	hi := b.exists(n.hi, quantified, memo)
	var r bref
	if quantified(n.level) {
		r = b.or(lo, hi)
	} else {
		r = b.mk(n.level, lo, hi)
	}
	memo[f] = r
	return r
}
