package fds

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestWalkAll walks random BDDs, complements among them, with one WalkAll
// and requires what successive Walks give: the same ids for the roots,
// every node visited once with the level and children Walk reports, the
// nodes a Walk would visit anew in the same order, and every root's
// function rebuilt from the one node list.
func TestWalkAll(t *testing.T) {
	seed := uint64(20261128)
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 2))
	s, vs := tinySpace(t, 4, 3)
	pool := randomPool(r, s, vs, 3, 60)
	pool = append(pool, pool[len(pool)-1].Not(), s.True(), s.False(), pool[0])
	roots := make([]Node, len(pool))
	for i, f := range pool {
		roots[i] = f.Node()
	}
	type node struct{ level, lo, hi int }
	// Successive Walks, each node kept the first time it is met.
	var wantOrder []int
	want := map[int]node{}
	var wantRoots []int
	for _, f := range pool {
		wantRoots = append(wantRoots, s.Backend().Walk(f.Node(), func(id, level, lo, hi int) {
			if n, ok := want[id]; ok {
				require.Equal(t, node{level, lo, hi}, n, "Walk gave node %d two ways", id)
				return
			}
			want[id] = node{level, lo, hi}
			wantOrder = append(wantOrder, id)
		}))
	}
	var gotOrder []int
	var levels []int
	var low, high []int32
	local := map[int]int32{0: 0, 1: 1}
	gotRoots := s.Backend().(MultiWalker).WalkAll(roots, func(id, level, lo, hi int) {
		_, dup := local[id]
		require.False(t, dup, "node %d visited twice", id)
		require.Equal(t, want[id], node{level, lo, hi}, "node %d", id)
		gotOrder = append(gotOrder, id)
		local[id] = int32(len(levels) + 2)
		levels = append(levels, level)
		low, high = append(low, local[lo]), append(high, local[hi])
	})
	require.Equal(t, wantRoots, gotRoots)
	require.Equal(t, wantOrder, gotOrder)
	ids := make([]int32, len(gotRoots))
	for i, x := range gotRoots {
		ids[i] = local[x]
	}
	built := s.Backend().(GraphBuilder).BuildGraph(levels, low, high, ids)
	for i, f := range pool {
		require.True(t, BDD{s, built[i]}.Equal(f), "function %d", i)
	}
	require.NoError(t, s.Err())
}
