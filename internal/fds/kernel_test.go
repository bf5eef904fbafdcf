package fds

import (
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"
)

// table is a reference implementation of Boolean functions over a Space's
// levels: the truth table, indexed by assignments (bit l = level l).
type table []bool

func (t table) apply(u table, op func(a, b bool) bool) table {
	out := make(table, len(t))
	for i := range t {
		out[i] = op(t[i], u[i])
	}
	return out
}

// exists quantifies the levels ls.
func (t table) exists(ls []int) table {
	out := append(table(nil), t...)
	for _, l := range ls {
		bit := 1 << l
		for i := range out {
			if out[i] || out[i^bit] {
				out[i], out[i^bit] = true, true
			}
		}
	}
	return out
}

// truthTable evaluates f at every assignment (bit l = level l) of size.
func truthTable(f BDD, size int) table {
	be := f.Space().Backend()
	if c, v := be.IsConst(f.Node()); c {
		out := make(table, size)
		for i := range out {
			out[i] = v
		}
		return out
	}
	type node struct{ level, lo, hi int }
	nodes := map[int]node{}
	root := be.Walk(f.Node(), func(id, level, lo, hi int) { nodes[id] = node{level, lo, hi} })
	out := make(table, size)
	for a := range out {
		n := root
		for n > 1 {
			d := nodes[n]
			if a&(1<<d.level) != 0 {
				n = d.hi
			} else {
				n = d.lo
			}
		}
		out[a] = n == 1
	}
	return out
}

// TestKernelMatchesTruthTables builds random functions with the native
// kernel (with a tiny node table, so that it grows and collects garbage
// between operations) and with truth tables, and compares them on every
// assignment of every level.
func TestKernelMatchesTruthTables(t *testing.T) {
	seed := uint64(20261122)
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 1))
	const nv = 3
	s, kv := tinySpace(t, nv, 2)
	size := 1 << s.NumLevels()
	eq := func(v *Var, k int, next bool) table {
		out := make(table, size)
		for a := range out {
			val := 0
			for b, l := range v.Levels(next) {
				if a&(1<<l) != 0 {
					val |= 1 << b
				}
			}
			out[a] = val == k
		}
		return out
	}
	levelsOf := func(vs []*Var, next bool) []int {
		var ls []int
		for _, v := range vs {
			ls = append(ls, v.Levels(next)...)
		}
		return ls
	}
	type pair struct {
		k BDD
		r table
	}
	var pool []pair
	var ops []int
	for i := range nv {
		pool = append(pool, pair{kv[i].Eq(1, false), eq(kv[i], 1, false)}, pair{kv[i].Eq(2, true), eq(kv[i], 2, true)})
	}
	and := func(a, b bool) bool { return a && b }
	for step := range 250 {
		a := pool[r.IntN(len(pool))]
		b := pool[r.IntN(len(pool))]
		c := pool[r.IntN(len(pool))]
		var p pair
		op := r.IntN(10)
		ops = append(ops, op)
		switch op {
		case 0:
			p = pair{a.k.And(b.k), a.r.apply(b.r, and)}
		case 1:
			p = pair{a.k.Or(b.k), a.r.apply(b.r, func(x, y bool) bool { return x || y })}
		case 2:
			p = pair{a.k.Xor(b.k), a.r.apply(b.r, func(x, y bool) bool { return x != y })}
		case 3:
			p = pair{a.k.Imp(b.k).Iff(c.k), a.r.apply(b.r, func(x, y bool) bool { return !x || y }).apply(c.r, func(x, y bool) bool { return x == y })}
		case 4:
			ite := make(table, size)
			for i := range ite {
				ite[i] = a.r[i] && b.r[i] || !a.r[i] && c.r[i]
			}
			p = pair{a.k.Ite(b.k, c.k), ite}
		case 5:
			i, next := r.IntN(nv), r.IntN(2) == 0
			p = pair{a.k.Exists(s.CubeOf(kv[i:i+1], next)), a.r.exists(kv[i].Levels(next))}
		case 6:
			next := r.IntN(2) == 0
			p = pair{a.k.AndExists(b.k, s.CubeOf(kv[:2], next)), a.r.apply(b.r, and).exists(levelsOf(kv[:2], next))}
		case 7:
			ex := a.r.exists(levelsOf(kv, true))
			primed := make(table, size)
			for i := range primed {
				// f′(cur, next) = f(next, ·): read next's bits as cur's.
				j := 0
				for _, v := range kv {
					for b, l := range v.Levels(true) {
						if i&(1<<l) != 0 {
							j |= 1 << v.Levels(false)[b]
						}
					}
				}
				primed[i] = ex[j]
			}
			p = pair{a.k.Exists(s.NextCube()).Prime(), primed}
		case 8:
			p = pair{a.k.Diff(b.k).Not(), a.r.apply(b.r, func(x, y bool) bool { return !(x && !y) })}
		case 9:
			// Restrict agrees with a wherever b holds.
			g := a.k.Restrict(b.k)
			want := truthTable(g, size)
			for i := range want {
				if b.r[i] {
					want[i] = a.r[i]
				}
			}
			p = pair{g, want}
		}
		pool = append(pool, p)
		if step%50 == 0 {
			runtime.GC()
		}
	}
	require.NoError(t, s.Err())
	for j, p := range pool {
		got := truthTable(p.k, size)
		for a := range size {
			require.Equal(t, p.r[a], got[a], "function %d (op %d) at assignment %#x", j, ops[max(j-2*nv, 0)], a)
		}
	}
	st := s.Stats()
	t.Logf("kernel: %+v", st)
	require.Greater(t, st.Allocated, 64, "the tiny table grew")
}

// TestFromNodes rebuilds random BDDs from their walked nodes, in the same
// variable order (the kernel's direct path) and with the levels reversed
// (its Ite path), against BDDs built with one Ite per node.
func TestFromNodes(t *testing.T) {
	seed := uint64(20261126)
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 1))
	s, vs := tinySpace(t, 4, 3)
	pool := []BDD{s.True(), s.False()}
	for i := range vs {
		pool = append(pool, vs[i].Eq(1, false), vs[i].Eq(2, true), vs[i].Eq(3, false))
	}
	for range 200 {
		a, b := pool[r.IntN(len(pool))], pool[r.IntN(len(pool))]
		switch r.IntN(3) {
		case 0:
			pool = append(pool, a.And(b))
		case 1:
			pool = append(pool, a.Or(b).Not())
		case 2:
			pool = append(pool, a.Xor(b))
		}
	}
	top := s.NumLevels() - 1
	for i, f := range pool {
		var levels []int
		var low, high []int32
		ids := map[int]int32{0: 0, 1: 1}
		rootID := s.Backend().Walk(f.Node(), func(id, level, lo, hi int) {
			ids[id] = int32(len(levels) + 2)
			levels = append(levels, level)
			low, high = append(low, ids[lo]), append(high, ids[hi])
		})
		root := ids[rootID]
		if c, v := s.Backend().IsConst(f.Node()); c {
			root = 0
			if v {
				root = 1
			}
		}
		require.True(t, s.FromNodes(levels, low, high, root).Equal(f), "function %d, same order", i)
		reversed := make([]int, len(levels))
		want := []BDD{s.False(), s.True()}
		for j, l := range levels {
			reversed[j] = top - l
			want = append(want, s.Level(top-l).Ite(want[high[j]], want[low[j]]))
		}
		require.True(t, s.FromNodes(reversed, low, high, root).Equal(want[root]), "function %d, reversed order", i)
	}
	require.NoError(t, s.Err())
}

// TestBuildGraph rebuilds several random BDDs walked into one shared node
// list with one BuildGraph, and requires every root's function back.
func TestBuildGraph(t *testing.T) {
	seed := uint64(20261127)
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 1))
	s, vs := tinySpace(t, 4, 3)
	pool := randomPool(r, s, vs, 3, 100)
	var levels []int
	var low, high []int32
	var roots []int32
	for _, f := range pool {
		ids := map[int]int32{0: 0, 1: 1}
		rootID := s.Backend().Walk(f.Node(), func(id, level, lo, hi int) {
			ids[id] = int32(len(levels) + 2)
			levels = append(levels, level)
			low, high = append(low, ids[lo]), append(high, ids[hi])
		})
		roots = append(roots, ids[rootID])
	}
	got := s.Backend().(GraphBuilder).BuildGraph(levels, low, high, roots)
	require.Len(t, got, len(pool))
	for i, f := range pool {
		require.True(t, BDD{s, got[i]}.Equal(f), "function %d", i)
	}
	require.NoError(t, s.Err())
}
