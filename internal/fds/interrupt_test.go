package fds

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// equalities returns the Space of 2n Boolean variables x0..x(n-1),
// y0..y(n-1) (declared in that order, so that ⋀ xi ↔ yi has 2^n nodes) and
// its kernel.
func equalities(t *testing.T, n int, nodes, maxNodes int) (*Space, *kernel, []*Var) {
	t.Helper()
	var k *kernel
	s := NewSpace(WithBackend(func(nv int) (Backend, error) {
		k = NewKernel(nv, nodes, maxNodes).(*kernel)
		return k, nil
	}))
	vs := make([]*Var, 2*n)
	for i := range vs {
		name := "x"
		if i >= n {
			name = "y"
		}
		v, err := s.Bool(name + string(rune('a'+i%n)))
		require.NoError(t, err)
		vs[i] = v
	}
	require.NoError(t, s.Build())
	return s, k, vs
}

// hardConjunction builds ⋀ xi ↔ yi by one And of two halves, each half
// built by cheap operations first.
func hardConjunction(s *Space, vs []*Var) (left, right BDD) {
	n := len(vs) / 2
	left, right = s.True(), s.True()
	for i := range n {
		eq := vs[i].Bit(0, false).Iff(vs[n+i].Bit(0, false))
		if i%2 == 0 {
			left = left.And(eq)
		} else {
			right = right.And(eq)
		}
	}
	return left, right
}

// checkKernel verifies the kernel's invariants: the free list holds exactly
// the free nodes, every live node is canonical (distinct cofactors, regular
// high edge, children below it and alive) and is found in its unique-table
// chain, no two live nodes are equal, and no operation-cache entry
// mentions a free node.
func checkKernel(t *testing.T, k *kernel) {
	t.Helper()
	free := 0
	for i := k.freeHead; i >= 0; i = k.nodes[i].next {
		require.Less(t, k.nodes[i].low, int32(0), "free-list node %d is live", i)
		free++
	}
	require.Equal(t, k.nfree, free, "free count")
	seen := map[knode]int32{}
	live := 0
	for i := int32(1); i < int32(len(k.nodes)); i++ {
		nd := k.nodes[i]
		if nd.low < 0 {
			continue
		}
		live++
		require.NotEqual(t, nd.low, nd.high, "node %d is redundant", i)
		require.Zero(t, nd.high&1, "node %d has a complemented high edge", i)
		for _, c := range []int32{nd.low, nd.high} {
			require.GreaterOrEqual(t, k.nodes[c>>1].low, int32(0), "node %d has a dead child", i)
			require.Greater(t, k.level(c), nd.level, "node %d is out of order", i)
		}
		key := knode{level: nd.level, low: nd.low, high: nd.high}
		_, dup := seen[key]
		require.False(t, dup, "node %d is a duplicate", i)
		seen[key] = i
		found := false
		for n := k.buckets[k.hash(nd.level, nd.low, nd.high)]; n >= 0; n = k.nodes[n].next {
			found = found || n == i
		}
		require.True(t, found, "node %d is not in its chain", i)
	}
	require.Equal(t, len(k.nodes)-1-free, live, "live + free = table")
	alive := func(r int32) bool { return r < 2 || k.nodes[r>>1].low >= 0 }
	for i, e := range k.cache {
		if e.a < 0 {
			continue
		}
		refs := []int32{e.a, e.res}
		switch {
		case e.key == cacheKey(opReplace, 0):
		case e.key >= 0:
			refs = append(refs, e.b, e.key)
		default:
			refs = append(refs, e.b)
		}
		for _, r := range refs {
			require.True(t, alive(r), "cache slot %d mentions the free node %d", i, r>>1)
		}
	}
}

// count is the number of assignments of f over the 2n unprimed bits.
func count(f BDD, vs []*Var) int { return f.Count(vs, false, 1<<30) }

// TestInterruptMidOperation cancels the context from inside a large And
// (at the kernel's third look at it): the And returns false, Err wraps
// ErrInterrupted and context.Canceled, later operations return false at
// once, and the kernel is consistent. After SetContext with a live context
// the same Space computes the same function as an uninterrupted Space.
func TestInterruptMidOperation(t *testing.T) {
	const n = 14
	s, k, vs := equalities(t, n, 1<<10, 0)
	left, right := hardConjunction(s, vs)
	require.NoError(t, s.Err())

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s.SetContext(ctx)
	polls := 0
	k.pollHook = func() {
		polls++
		if polls == 3 {
			cancel()
		}
	}
	produced := k.produced
	f := left.And(right)
	require.True(t, f.IsFalse(), "an abandoned operation returns false")
	require.Equal(t, 3, polls, "the operation stopped at the first look after the cancellation")
	require.Greater(t, k.produced, produced, "the operation was interrupted mid-way, after creating nodes")
	err := s.Err()
	require.ErrorIs(t, err, ErrInterrupted)
	require.ErrorIs(t, err, context.Canceled)
	require.True(t, left.Or(right).IsFalse(), "operations after the interruption return false")
	require.Equal(t, 3, polls, "and do no work")
	checkKernel(t, k)

	// Collect the abandoned nodes and check again.
	k.countHandles()
	k.collect()
	checkKernel(t, k)

	k.pollHook = nil
	s.SetContext(context.Background())
	require.NoError(t, s.Err(), "SetContext clears an interruption")
	f = left.And(right)
	require.NoError(t, s.Err())
	checkKernel(t, k)

	s2, _, vs2 := equalities(t, n, 0, 0)
	l2, r2 := hardConjunction(s2, vs2)
	f2 := l2.And(r2)
	require.Equal(t, f2.Size(), f.Size())
	require.Equal(t, 1<<n, count(f, vs))
	require.Equal(t, count(f2, vs2), count(f, vs))
	require.Equal(t, l2.Size(), left.Size(), "BDDs made before the interruption are intact")
	require.Equal(t, r2.Size(), right.Size())
}

// TestInterruptBeforeOperation: a Space whose context is already done
// refuses operations, also when the context was given at creation.
func TestInterruptBeforeOperation(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	s := NewSpace(WithContext(ctx))
	x, err := s.Bool("x")
	require.NoError(t, err)
	require.NoError(t, s.Build())
	require.True(t, x.Bit(0, false).IsFalse())
	require.ErrorIs(t, s.Err(), context.Canceled)
}

// TestInterruptDeadline: a deadline is reported as DeadlineExceeded.
func TestInterruptDeadline(t *testing.T) {
	s, k, vs := equalities(t, 12, 0, 0)
	left, right := hardConjunction(s, vs)
	ctx, cancel := context.WithDeadline(context.Background(), time.Unix(1, 0))
	defer cancel()
	s.SetContext(ctx)
	require.True(t, left.And(right).IsFalse())
	require.ErrorIs(t, s.Err(), context.DeadlineExceeded)
	checkKernel(t, k)
}

// TestNodeLimitAbandons: exhausting the node table abandons the operation
// (same mechanism), leaves the kernel consistent, and is not cleared by
// SetContext.
func TestNodeLimitAbandons(t *testing.T) {
	s, k, vs := equalities(t, 14, 1<<10, 1<<12)
	left, right := hardConjunction(s, vs)
	require.NoError(t, s.Err())
	require.True(t, left.And(right).IsFalse())
	require.True(t, errors.Is(s.Err(), ErrNodeLimit))
	checkKernel(t, k)
	s.SetContext(context.Background())
	require.ErrorIs(t, s.Err(), ErrNodeLimit, "a node-limit failure is permanent")
}
