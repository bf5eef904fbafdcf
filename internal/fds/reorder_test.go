package fds

import (
	"context"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// density is the fraction of all assignments that satisfy f (its sat-count
// over 2^levels), computed on the nodes as they are now.
func density(k *kernel, r int32, memo map[int32]float64) float64 {
	switch r {
	case refTrue:
		return 1
	case refFalse:
		return 0
	}
	if d, ok := memo[r]; ok {
		return d
	}
	lo, hi := k.cof(r)
	d := (density(k, lo, memo) + density(k, hi, memo)) / 2
	memo[r] = d
	return d
}

// checkOrder asserts the kernel's invariants (checkKernel) and that its
// order is a permutation.
func checkOrder(t *testing.T, k *kernel) {
	t.Helper()
	for v := range k.nvars {
		require.Equal(t, v, k.level2var[k.var2level[v]], "order permutation at variable %d", v)
	}
	checkKernel(t, k)
}

// firstDiff returns the first assignment where a and b differ, or -1.
func firstDiff(a, b table) int {
	for i := range a {
		if a[i] != b[i] {
			return i
		}
	}
	return -1
}

// randomPool builds n random functions over vs from equalities with
// constants, And, Or, Xor and Ite.
func randomPool(r *rand.Rand, s *Space, vs []*Var, hi, n int) []BDD {
	pool := []BDD{s.True(), s.False()}
	for _, v := range vs {
		for range 3 {
			pool = append(pool, v.Eq(r.IntN(hi+1), r.IntN(2) == 0))
		}
	}
	ops := []func(a, b, c BDD) BDD{
		func(a, b, _ BDD) BDD { return a.And(b) },
		func(a, b, _ BDD) BDD { return a.Or(b).Not() },
		func(a, b, _ BDD) BDD { return a.Xor(b) },
		BDD.Ite,
	}
	for len(pool) < n {
		a, b, c := pool[r.IntN(len(pool))], pool[r.IntN(len(pool))], pool[r.IntN(len(pool))]
		pool = append(pool, ops[r.IntN(len(ops))](a, b, c))
	}
	return pool
}

// TestSwapsAndSiftsKeepFunctions applies random adjacent-level swaps and
// sifts to random BDDs and checks, after each, that every BDD still has
// its truth table (evaluation on every assignment) and its sat-count, that
// the kernel's invariants hold, and that operations after the reordering
// give the same (canonical) BDDs as the same operations before it.
func TestSwapsAndSiftsKeepFunctions(t *testing.T) {
	seed := uint64(20261127)
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 2))
	s, vs := tinySpace(t, 3, 3) // 12 levels
	k := s.Backend().(*kernel)
	size := 1 << s.NumLevels()
	n, rounds := 150, 25
	if testing.Short() {
		n, rounds = 60, 10
	}
	pool := randomPool(r, s, vs, 3, n)
	tables := make([]table, len(pool))
	counts := make([]float64, len(pool))
	for i, f := range pool {
		tables[i] = truthTable(f, size)
		counts[i] = density(k, id(f.n), map[int32]float64{})
	}
	// Results of operations on the pool, to recompute after reordering.
	type opResult struct {
		a, b int
		and  BDD
	}
	var ops []opResult
	for range 40 {
		a, b := r.IntN(len(pool)), r.IntN(len(pool))
		ops = append(ops, opResult{a, b, pool[a].And(pool[b])})
	}
	moved := false
	for round := range rounds {
		if round%3 == 2 {
			st := s.Reorder(context.Background())
			t.Logf("round %d: sift %+v", round, st)
			require.LessOrEqual(t, st.After, st.Before, "round %d: sifting made the BDDs larger", round)
		} else {
			runtime.GC()
			k.countHandles()
			k.collect()
			sf := newSifter(k, context.Background())
			for range 1 + r.IntN(8) {
				require.True(t, sf.swap(int32(r.IntN(int(k.nvars)-1))))
			}
			sf.finish()
		}
		checkOrder(t, k)
		for v := range k.nvars {
			moved = moved || k.var2level[v] != v
		}
		for i, f := range pool {
			if a := firstDiff(tables[i], truthTable(f, size)); a >= 0 {
				t.Fatalf("round %d: function %d changed at assignment %#x", round, i, a)
			}
			require.Equal(t, counts[i], density(k, id(f.n), map[int32]float64{}), "round %d: sat-count of function %d changed", round, i)
		}
		// Empty the operation cache, which keeps the results of live nodes
		// across a reordering: the conjunctions are then computed again,
		// on the reordered unique table.
		k.resizeCache(len(k.cache))
		for j, o := range ops {
			require.True(t, pool[o.a].And(pool[o.b]).Equal(o.and), "round %d: operation %d is not canonical after reordering", round, j)
		}
		require.NoError(t, s.Err())
	}
	require.True(t, moved, "the swaps changed the order")
}

// TestReorderShrinksAndKeepsPairs sifts x1∧y1 ∨ x2∧y2 ∨ x3∧y3 ∨ x4∧y4
// declared in the order x1…x4 y1…y4 (exponential: 2·2⁴−2 nodes) and
// expects the linear size of an interleaved order, every bit still next to
// its primed twin, and Prime, Unprime and ForEach still right.
func TestReorderShrinksAndKeepsPairs(t *testing.T) {
	s := NewSpace(WithBackend(func(n int) (Backend, error) { return NewKernel(n, 64, 0), nil }))
	const n = 4
	var xs, ys []*Var
	for i := range n {
		v, err := s.Bool("x" + string(rune('1'+i)))
		require.NoError(t, err)
		xs = append(xs, v)
	}
	for i := range n {
		v, err := s.Bool("y" + string(rune('1'+i)))
		require.NoError(t, err)
		ys = append(ys, v)
	}
	f := s.False()
	for i := range n {
		f = f.Or(xs[i].Eq(1, false).And(ys[i].Eq(1, false)))
	}
	before := f.Size()
	require.Equal(t, 2*(1<<n)-2, before)
	all := append(append([]*Var(nil), xs...), ys...)
	var want [][]int
	f.ForEach(all, false, func(vals []int) bool { want = append(want, append([]int(nil), vals...)); return true })

	require.Zero(t, s.Stats().SiftVisits, "no reordering yet")
	st := s.Reorder(context.Background())
	t.Logf("sift %+v", st)
	assert.Equal(t, 2*n, f.Size(), "sifting finds the interleaved order")
	visits := s.Stats().SiftVisits
	assert.GreaterOrEqual(t, visits, st.Swaps, "each swap reads its two levels' nodes")
	s.Reorder(context.Background())
	assert.Greater(t, s.Stats().SiftVisits, visits, "SiftVisits adds up every reordering's")
	for _, v := range all {
		assert.Equal(t, s.Position(v.Levels(false)[0])+1, s.Position(v.Levels(true)[0]), "%s and %s′ adjacent", v, v)
	}
	fp := f.Prime()
	assert.False(t, fp.DependsOnUnprimed())
	assert.True(t, fp.Unprime().Equal(f))
	var got [][]int
	f.ForEach(all, false, func(vals []int) bool { got = append(got, append([]int(nil), vals...)); return true })
	assert.ElementsMatch(t, want, got, "ForEach enumerates the same assignments")
	assert.Equal(t, 2, s.Stats().Reorderings)
	require.NoError(t, s.Err())
}

// TestAutoReorder runs random operations with dynamic reordering on and a
// tiny trigger, and checks the results against truth tables.
func TestAutoReorder(t *testing.T) {
	seed := uint64(20261128)
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 3))
	s, vs := tinySpace(t, 3, 3)
	k := s.Backend().(*kernel)
	k.SetAutoReorder(true)
	k.nextReorder = 40
	size := 1 << s.NumLevels()
	n := 400
	if testing.Short() {
		n = 150
	}
	pool := randomPool(r, s, vs, 3, n)
	require.NoError(t, s.Err())
	require.Positive(t, s.Stats().Reorderings, "dynamic reordering ran")
	// Recompute the pool's functions with truth tables, from the leaves
	// (the same random sequence).
	r = rand.New(rand.NewPCG(seed, 3))
	ref := NewSpace(WithBackend(func(n int) (Backend, error) { return NewKernel(n, 64, 0), nil }))
	var rvs []*Var
	for _, v := range vs {
		rv, err := ref.Int(v.Name(), v.Lo(), v.Hi())
		require.NoError(t, err)
		rvs = append(rvs, rv)
	}
	want := randomPool(r, ref, rvs, 3, n)
	for i := range pool {
		if a := firstDiff(truthTable(want[i], size), truthTable(pool[i], size)); a >= 0 {
			t.Fatalf("function %d is wrong at assignment %#x", i, a)
		}
	}
	checkOrder(t, k)
}

// reorderingSpace is a Space with dynamic reordering on, a kernel of the
// given limits and n variables ranging over 0…3.
func reorderingSpace(t *testing.T, n int, l KernelLimits) (*Space, []*Var) {
	t.Helper()
	s := NewSpace(WithReordering(), WithBackend(func(nvars int) (Backend, error) {
		return NewKernelLimits(nvars, l), nil
	}))
	var vs []*Var
	for i := range n {
		v, err := s.Int(string(rune('a'+i)), 0, 3)
		require.NoError(t, err)
		vs = append(vs, v)
	}
	require.NoError(t, s.Build())
	return s, vs
}

// TestAutoReorderCountsLiveNodes: garbage that fills the table is
// collected, not sifted; dynamic reordering waits until the live nodes
// themselves reach the trigger.
func TestAutoReorderCountsLiveNodes(t *testing.T) {
	seed := uint64(20261129)
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 5))
	s, vs := reorderingSpace(t, 4, KernelLimits{Nodes: 64, GrowUpTo: 1024})
	k := s.Backend().(*kernel)
	k.nextReorder = 600
	kept := randomPool(r, s, vs, 3, 20)
	for range 200 {
		_ = randomPool(r, s, vs, 3, 60) // garbage once the call returns
	}
	require.NoError(t, s.Err())
	require.GreaterOrEqual(t, k.collections, 2, "the garbage filled the table")
	assert.Zero(t, k.reorderings, "a table full of garbage is no reason to sift")
	for len(kept) < 4000 && k.reorderings == 0 {
		kept = append(kept, randomPool(r, s, vs, 3, 60)...)
	}
	require.NoError(t, s.Err())
	assert.Positive(t, k.reorderings, "live nodes past the trigger sift")
	runtime.KeepAlive(kept)
	checkOrder(t, k)
}

// TestAutoReorderFollowsLongComputations: after a reordering, a
// computation whose live nodes stay level is sifted again once it has made
// 1/reorderEvery of the nodes that reordering's swaps visited.
func TestAutoReorderFollowsLongComputations(t *testing.T) {
	c := newSiftedChurn(t, 20261130)
	k := c.k
	made0, visits := k.siftMade, k.siftVisits
	for k.reorderings == 1 && k.produced-made0 < 2*visits {
		c.step()
	}
	require.NoError(t, c.s.Err())
	t.Logf("the reordering visited %d nodes; the next came %d nodes made later", visits, k.produced-made0)
	assert.GreaterOrEqual(t, k.reorderings, 2, "the live nodes stayed level; the nodes made since called for a reordering")
	runtime.KeepAlive(c.kept)
	checkOrder(t, k)
}

// siftedChurn is a Space with dynamic reordering on, holding a pool of
// live BDDs that one explicit reordering has just sifted, in which only
// the second trigger can fire (the live-node trigger is out of reach):
// each step makes garbage from the pool, so the live nodes stay level.
type siftedChurn struct {
	s    *Space
	k    *kernel
	r    *rand.Rand
	kept []BDD
}

func newSiftedChurn(t *testing.T, seed uint64) *siftedChurn {
	t.Helper()
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 7))
	s, vs := reorderingSpace(t, 8, KernelLimits{Nodes: 64})
	k := s.Backend().(*kernel)
	kept := randomPool(r, s, vs, 3, 40)
	s.Reorder(context.Background())
	k.nextReorder = 1 << 20
	return &siftedChurn{s: s, k: k, r: r, kept: kept}
}

// step combines three BDDs of the pool into garbage.
func (c *siftedChurn) step() {
	pick := func() BDD { return c.kept[c.r.IntN(len(c.kept))] }
	a, b, d := pick(), pick(), pick()
	_ = a.Xor(b).Ite(d, a.Or(d))
}

// TestAutoReorderSpacesOutUnpaidReorderings: a dynamic reordering that
// gains little doubles the nodes to be made before the next is due; one
// that gains resets the spacing. The churn of
// TestAutoReorderFollowsLongComputations on an order sifted already gains
// nothing, so each reordering it triggers spaces the next further out.
func TestAutoReorderSpacesOutUnpaidReorderings(t *testing.T) {
	k := &kernel{siftVisits: 3300, produced: 1000, siftMade: 900, siftSpacing: 1}
	assert.True(t, k.reorderDue(), "100 nodes made: 1/33 of the visits")
	k.reorderPaid(ReorderStats{Before: 1000, After: 950})
	assert.Equal(t, 2, k.siftSpacing)
	assert.False(t, k.reorderDue(), "a gain of 5 %: twice the nodes first")
	k.produced = 1100
	assert.True(t, k.reorderDue())
	k.reorderPaid(ReorderStats{Before: 1000, After: 751})
	assert.Equal(t, 4, k.siftSpacing, "a gain under 25 % again")
	k.reorderPaid(ReorderStats{Before: 1000, After: 750})
	assert.Equal(t, 1, k.siftSpacing, "a gain of 25 % resets the spacing")

	c := newSiftedChurn(t, 20261201)
	k = c.k
	for i := 0; k.reorderings < 4 && i < 1_000_000; i++ {
		c.step()
	}
	require.NoError(t, c.s.Err())
	require.Equal(t, 4, k.reorderings, "the nodes made kept calling for reorderings")
	assert.Equal(t, 8, k.siftSpacing, "three reorderings of a sifted order, each gaining nothing")
	runtime.KeepAlive(c.kept)
	checkOrder(t, k)
}

// TestWithReordering: the Space option turns on the kernel's dynamic
// reordering; without it the kernel never reorders by itself.
func TestWithReordering(t *testing.T) {
	for _, on := range []bool{false, true} {
		var opts []Option
		if on {
			opts = append(opts, WithReordering())
		}
		s := NewSpace(opts...)
		_, err := s.Bool("a")
		require.NoError(t, err)
		require.NoError(t, s.Build())
		assert.Equal(t, on, s.Backend().(*kernel).autoReorder)
	}
}

// TestSetAutoReorder: Space.SetAutoReorder switches the kernel's dynamic
// reordering, before and after Build, and reports the previous setting, so
// that a phase can turn it off and restore it.
func TestSetAutoReorder(t *testing.T) {
	s := NewSpace(WithReordering())
	_, err := s.Bool("a")
	require.NoError(t, err)
	assert.True(t, s.SetAutoReorder(false), "on by WithReordering")
	require.NoError(t, s.Build())
	k := s.Backend().(*kernel)
	assert.False(t, k.autoReorder, "the setting before Build reaches the kernel")
	assert.False(t, s.SetAutoReorder(true))
	assert.True(t, k.autoReorder)
	assert.True(t, s.SetAutoReorder(false))
	assert.False(t, k.autoReorder)
}

// TestAutoReorderGrowth: SetAutoReorderGrowth bounds the dynamic
// reorderings' excursions: the same random operations, reordered with a
// tight bound, read fewer nodes per reordering than with the kernel's own,
// and their functions are still right; the setting returns the bound it
// replaces. (TestAutoReorder checks the functions against a Space that
// does not reorder.)
func TestAutoReorderGrowth(t *testing.T) {
	seed := uint64(20261129)
	t.Logf("seed %d", seed)
	run := func(growth float64) (*Space, []BDD) {
		r := rand.New(rand.NewPCG(seed, 3))
		s, vs := tinySpace(t, 3, 3)
		k := s.Backend().(*kernel)
		k.SetAutoReorder(true)
		k.nextReorder = 40
		assert.Zero(t, s.SetAutoReorderGrowth(growth), "the kernel's own bound at first")
		pool := randomPool(r, s, vs, 3, 150)
		require.NoError(t, s.Err())
		require.Positive(t, s.Stats().Reorderings, "dynamic reordering ran")
		checkOrder(t, k)
		return s, pool
	}
	perPass := func(s *Space) float64 { return float64(s.Stats().SiftVisits) / float64(s.Stats().Reorderings) }
	loose, want := run(0)
	tight, got := run(1.01)
	t.Logf("visits per reordering: %.0f at the kernel's bound, %.0f at 1.01", perPass(loose), perPass(tight))
	assert.Less(t, perPass(tight), perPass(loose))
	size := 1 << tight.NumLevels()
	for i := range got {
		if a := firstDiff(truthTable(want[i], size), truthTable(got[i], size)); a >= 0 {
			t.Fatalf("function %d is wrong at assignment %#x (seed %d)", i, a, seed)
		}
	}
	assert.Equal(t, 1.01, tight.SetAutoReorderGrowth(1.2))
	assert.Equal(t, 1.2, tight.SetAutoReorderGrowth(1), "≤ 1: back to the kernel's own")
	assert.Zero(t, tight.SetAutoReorderGrowth(1.05))
}
