package fds

import (
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestHandleTableKeepsOnlyHeldHandles checks the kernel's record of the
// handles it handed out across collections: after one, it has exactly one
// entry per ref whose handle the program still holds (not one per ref the
// table could hold), each such ref's handle is the one handed out before,
// and the counts that keep nodes alive are those of the held handles.
func TestHandleTableKeepsOnlyHeldHandles(t *testing.T) {
	seed := uint64(20261129)
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 2))
	k := NewKernel(12, 1<<12, 0).(*kernel)
	pool := []Node{}
	for l := range 12 {
		pool = append(pool, k.Var(l))
	}
	for range 3000 {
		a, b := pool[r.IntN(len(pool))], pool[r.IntN(len(pool))]
		switch r.IntN(3) {
		case 0:
			pool = append(pool, k.Apply(OpAnd, a, b))
		case 1:
			pool = append(pool, k.Not(k.Apply(OpXor, a, b)))
		case 2:
			pool = append(pool, k.Apply(OpOr, a, b))
		}
	}
	require.NoError(t, k.Err())
	handedOut := len(k.handles.weak)

	// Hold every third function and drop the others.
	var held []Node
	for i, f := range pool {
		if i%3 == 0 {
			held = append(held, f)
		}
	}
	pool = nil
	heldRefs := map[int32]*handle{}
	for _, f := range held {
		if r := id(f); r>>1 != 0 { // the constants have no entry
			heldRefs[r] = f.(*handle)
		}
	}
	k.countHandles()
	k.collect()

	require.Equal(t, len(heldRefs), len(k.handles.weak), "entries after the collection (%d before)", handedOut)
	require.Equal(t, len(heldRefs), len(k.handles.ref))
	require.Less(t, cap(k.handles.weak), handedOut, "the room of dropped handles is given back")
	counts := map[int32]int32{}
	for r, h := range heldRefs {
		require.Same(t, h, k.handles.get(r), "ref %d", r)
		require.Same(t, h, k.ret(r).(*handle), "ref %d handed out again", r)
		counts[r>>1]++
	}
	for r, i := range k.handles.slot {
		if _, ok := heldRefs[int32(r)]; !ok && i != 0 {
			t.Fatalf("ref %d has entry %d but no held handle", r, i)
		}
	}
	for i := range k.refs {
		require.Equal(t, counts[int32(i)], k.refs[i], "handles of node %d", i)
	}
	runtime.KeepAlive(held)
}
