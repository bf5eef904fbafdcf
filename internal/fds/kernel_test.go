package fds

import (
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestKernelMatchesRudd builds the same random functions with the native
// kernel (with a tiny node table, so that it grows and collects garbage
// between operations) and with rudd, and compares them on every assignment.
func TestKernelMatchesRudd(t *testing.T) {
	if raceDetector {
		t.Skip("rudd races with its own finalizers (see race_on_test.go)")
	}
	seed := uint64(20261122)
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 1))
	const nv = 3
	mkSpace := func(b func(int) (Backend, error)) (*Space, []*Var) {
		s := NewSpace(WithBackend(b))
		var vs []*Var
		for i := range nv {
			v, err := s.Int(string(rune('a'+i)), 0, 2)
			require.NoError(t, err)
			vs = append(vs, v)
		}
		require.NoError(t, s.Build())
		return s, vs
	}
	ks, kv := mkSpace(func(n int) (Backend, error) { return NewKernel(n, 64, 0), nil })
	rs, rv := mkSpace(func(n int) (Backend, error) { return NewRudd(n, 0, 0) })
	type pair struct{ k, r BDD }
	var pool []pair
	var ops []int
	for i := range nv {
		pool = append(pool, pair{kv[i].Eq(1, false), rv[i].Eq(1, false)}, pair{kv[i].Eq(2, true), rv[i].Eq(2, true)})
	}
	for step := range 250 {
		a := pool[r.IntN(len(pool))]
		b := pool[r.IntN(len(pool))]
		c := pool[r.IntN(len(pool))]
		var p pair
		op := r.IntN(9)
		ops = append(ops, op)
		switch op {
		case 0:
			p = pair{a.k.And(b.k), a.r.And(b.r)}
		case 1:
			p = pair{a.k.Or(b.k), a.r.Or(b.r)}
		case 2:
			p = pair{a.k.Xor(b.k), a.r.Xor(b.r)}
		case 3:
			p = pair{a.k.Imp(b.k).Iff(c.k), a.r.Imp(b.r).Iff(c.r)}
		case 4:
			p = pair{a.k.Ite(b.k, c.k), a.r.Ite(b.r, c.r)}
		case 5:
			i, next := r.IntN(nv), r.IntN(2) == 0
			p = pair{a.k.Exists(ks.CubeOf(kv[i:i+1], next)), a.r.Exists(rs.CubeOf(rv[i:i+1], next))}
		case 6:
			next := r.IntN(2) == 0
			p = pair{a.k.AndExists(b.k, ks.CubeOf(kv[:2], next)), a.r.AndExists(b.r, rs.CubeOf(rv[:2], next))}
		case 7:
			p = pair{a.k.Exists(ks.NextCube()).Prime(), a.r.Exists(rs.NextCube()).Prime()}
		case 8:
			p = pair{a.k.Diff(b.k).Not(), a.r.Diff(b.r).Not()}
		}
		pool = append(pool, p)
		if step%50 == 0 {
			runtime.GC()
		}
	}
	require.NoError(t, ks.Err())
	require.NoError(t, rs.Err())
	// Compare every function on every assignment of the 8 copies (3^6).
	var assigns [][2]BDD
	vals := make([]int, 2*nv)
	var rec func(i int)
	rec = func(i int) {
		if i == len(vals) {
			assigns = append(assigns, [2]BDD{
				ks.Assign(kv, vals[:nv], false).And(ks.Assign(kv, vals[nv:], true)),
				rs.Assign(rv, vals[:nv], false).And(rs.Assign(rv, vals[nv:], true)),
			})
			return
		}
		for v := range 3 {
			vals[i] = v
			rec(i + 1)
		}
	}
	rec(0)
	for j, p := range pool {
		for a, c := range assigns {
			require.Equal(t, !p.r.And(c[1]).IsFalse(), !p.k.And(c[0]).IsFalse(), "function %d (op %d) at assignment %d", j, ops[max(j-2*nv, 0)], a)
		}
	}
	st := ks.Stats()
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
	s := NewSpace(WithBackend(func(n int) (Backend, error) { return NewKernel(n, 64, 0), nil }))
	var vs []*Var
	for i := range 4 {
		v, err := s.Int(string(rune('a'+i)), 0, 3)
		require.NoError(t, err)
		vs = append(vs, v)
	}
	require.NoError(t, s.Build())
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
