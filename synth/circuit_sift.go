package synth

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"github.com/henceforth-go/henceforth/internal/fds"
)

// sift shrinks the circuit's decision graph by reordering its signals for
// the graph alone. The BDD space the circuit comes from keeps the
// controller's fixpoint iterates and transition relation alive, so its
// variable order is chosen for them, not for the computed bits; here the
// graph is rebuilt in a kernel of its own whose variables are the signals,
// in the order pos gives (pos[s] is signal s's position in the space, so
// the copy is node for node), sifted with only the circuit's roots alive,
// and copied back. The graph is replaced only if that made it smaller.
// Every root keeps its function: a decision graph reads its signals in any
// order.
func (c *Circuit) sift(ctx context.Context, pos []int) error {
	if len(c.Nodes) == 0 {
		return nil
	}
	// Kernel variable v is the signal of rank v in pos: the graph's order.
	sigOf := make([]int32, len(pos))
	for s := range sigOf {
		sigOf[s] = int32(s)
	}
	slices.SortFunc(sigOf, func(a, b int32) int { return cmp.Compare(pos[a], pos[b]) })
	varOf := make([]int, len(pos))
	for v, s := range sigOf {
		varOf[s] = v
	}
	be := fds.NewKernel(len(pos), len(c.Nodes)*2, 0)
	gb, ok1 := be.(fds.GraphBuilder)
	r, ok2 := be.(fds.Reorderer)
	if !ok1 || !ok2 {
		return nil
	}
	if ib, ok := be.(fds.Interruptible); ok {
		ib.SetContext(ctx)
	}
	levels := make([]int, len(c.Nodes))
	low := make([]int32, len(c.Nodes))
	high := make([]int32, len(c.Nodes))
	for i, n := range c.Nodes {
		levels[i], low[i], high[i] = varOf[n.Signal], n.Lo, n.Hi
	}
	roots := c.roots()
	ids := make([]int32, len(roots))
	for i, p := range roots {
		ids[i] = *p
	}
	hs := gb.BuildGraph(levels, low, high, ids)
	if gr, ok := be.(fds.GrowthReorderer); ok {
		gr.ReorderWithin(ctx, passSiftGrowth)
	} else {
		r.Reorder(ctx)
	}
	if err := be.Err(); err != nil {
		return fmt.Errorf("synth: %s: sifting the circuit: %w", c.Name, err)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	b := newGraphBuilder(be)
	signal := func(v int) int32 { return sigOf[v] }
	out := b.addNodes(hs, signal)
	if len(b.nodes) >= len(c.Nodes) {
		return nil
	}
	c.Nodes = b.nodes
	for i, p := range roots {
		*p = out[i]
	}
	return nil
}

// passSiftGrowth bounds each block's excursion in the one sifting pass
// over finished functions: the circuit's (sifted before it is emitted),
// the check's (its gate functions, before they are conjoined) and
// determinization's inputs' (detInputs, when dynamic reordering never ran). 1.05
// instead of the kernel's 1.2 (which dynamic reordering keeps: there the
// tighter bound cost AMBA n = 12 twice the time), so a block turns back
// sooner once the graph grows; synth's BENCHMARKS.part.md has the figures.
//
// The circuit's graph starts several times larger than it ends (AMBA
// n = 9: 55,809 nodes, 29,379 after; 397,301 and 47,484 when freezeOrder
// still sifted the space once more, which is when this bound was
// measured); on AMBA n = 3, 4, 8, 11 and 12 the
// bound gives circuits of the same size and at n = 9 and 10 slightly
// smaller ones (n = 9: 47,617 nodes against 47,981, with 42 % fewer
// swaps). The check's pass is 2–3× cheaper and leaves an order as good or
// better for the step relation (check CPU s, 1.2 → 1.05: n = 8 20.3 →
// 19.7, n = 10 41.7 → 38.3, n = 11 62.8 → 56.8, n = 12 142.4 → 87.8,
// where sifting went 37.5 → 13.0 s and the relation 24.4 → 7.2 s).
const passSiftGrowth = 1.05

// roots returns pointers to every root of the circuit: the legality and
// computed bits of the first step and of the others.
func (c *Circuit) roots() []*int32 {
	var ps []*int32
	for _, rs := range []*CircuitRoots{&c.Init, &c.Step} {
		ps = append(ps, &rs.Legal)
		for k := range rs.Computed {
			ps = append(ps, &rs.Computed[k])
		}
	}
	return ps
}
