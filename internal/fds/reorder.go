package fds

import (
	"context"
	"fmt"
	"slices"
)

// Reorderer is implemented by backends that can change their variable
// order while BDDs exist (the native kernel): dynamic reordering by
// Rudell's sifting. Reordering keeps every BDD's function and changes only
// its shape; it runs between operations, never inside one.
//
// Variables keep their identity: a "level" in the Backend interface names a
// variable by its position in the initial order, and Position tells where
// that variable is now.
type Reorderer interface {
	// Position returns the current position of variable v (0 is the top).
	Position(v int) int
	// SetGroups declares blocks of variables that reordering moves as
	// units, keeping their relative order (a bit and its primed twin).
	// Each group must occupy consecutive positions, and the groups must be
	// disjoint; variables in no group move alone.
	SetGroups(groups [][]int) error
	// Reorder sifts every block once: each is moved through all positions
	// and left where the BDDs were smallest. It stops early, leaving a
	// valid order, when ctx is done or the node table cannot grow.
	Reorder(ctx context.Context) ReorderStats
	// SetAutoReorder turns dynamic reordering on or off: when on, a
	// reordering runs between operations, when the node table fills and
	// has been collected, once the live nodes have grown to
	// reorderGrowth (4) times those after the previous one (and at least
	// AutoReorderMin), or once the nodes made since the previous one
	// reach a share of its work (reorderEvery; reorderPaid halves the
	// share after a reordering that gained little).
	SetAutoReorder(on bool)
}

// AutoReorderMin is the number of live nodes below which dynamic
// reordering never triggers: smaller tables are cheap whatever the order.
const AutoReorderMin = 1 << 17

// reorderEvery sets the second trigger of dynamic reordering: a
// reordering is also due, at a collection, once the nodes made since the
// last one reach 1/reorderEvery of the nodes its swaps visited, so that
// sifting keeps following a long computation whose live nodes stay level,
// at a bounded share of its cost. The order sifting leaves at the end of
// realizability's fixpoint is the one its determinization and the check
// of its circuit start from: on AMBA n = 11 the live-node trigger alone
// sifted once, early, and the whole pipeline took 137 s; with 3, 10, 33
// and 67 here 99, 75, 69 and 71 s, and with a sifting at every collection
// (what the trigger did when it counted garbage as live) 83–98 s (synth's
// BENCHMARKS.part.md).
const reorderEvery = 33

// reorderDue reports the second trigger (reorderEvery, spaced out by
// reorderPaid).
func (k *kernel) reorderDue() bool {
	return k.siftVisits > 0 && (k.produced-k.siftMade)*reorderEvery >= k.siftVisits*k.siftSpacing
}

// reorderPaid spaces the second trigger out after a dynamic reordering
// that gained little: one that removed less than minSiftGain of the live
// nodes doubles the nodes to be made before the next is due, one that
// removed more resets the spacing. Once the order has settled, sifting
// again at the same pace mostly confirms it: on AMBA n = 12's fixpoint 6
// of its 9 reorderings gained under 10 %, for 13 of its 23 s.
func (k *kernel) reorderPaid(st ReorderStats) {
	if float64(st.After) > (1-minSiftGain)*float64(st.Before) {
		k.siftSpacing *= 2
	} else {
		k.siftSpacing = 1
	}
}

// minSiftGain is the share of the live nodes below which a dynamic
// reordering counts as having gained little (reorderPaid). At 10 % AMBA
// n = 10's and 11's fixpoints kept sifting at full pace after passes that
// removed 22 % and then 11 % of the live nodes; at 25 % they made 33 %
// and 23 % fewer nodes and their passes visited 45 % and 31 % fewer
// (n = 4…9 and 12 sift as before: each of their passes gains more than
// 33 % or less than 10 %; synth's BENCHMARKS.part.md).
const minSiftGain = 0.25

// reorderGrowth is the growth of the node count that triggers the next
// dynamic reordering. CUDD uses 2; on the AMBA arbiter's fixpoint (n = 8)
// 2 (measured with a table that grew before collecting) reordered 5 times
// for 22 s of CPU, 4 twice for 7.5 s, with winning regions of similar
// size (synth's BENCHMARKS.part.md).
const reorderGrowth = 4

// ReorderStats describes one reordering.
type ReorderStats struct {
	Before, After int // live nodes before and after
	Swaps         int // adjacent-level swaps
	Blocks        int // blocks sifted
}

// maxSiftGrowth bounds a block's excursion in one direction: sifting turns
// back once the live nodes exceed the best size seen by this factor (as
// CUDD's siftMaxGrowth).
const maxSiftGrowth = 1.2

// Position implements Reorderer.
func (k *kernel) Position(v int) int {
	if v < 0 || v >= int(k.nvars) {
		return v
	}
	return int(k.var2level[v])
}

// SetGroups implements Reorderer.
func (k *kernel) SetGroups(groups [][]int) error {
	owner := make([]int, k.nvars)
	for i := range owner {
		owner[i] = -1
	}
	for gi, g := range groups {
		if len(g) == 0 {
			return fmt.Errorf("fds: reorder group %d is empty", gi)
		}
		lv := make([]int, len(g))
		for j, v := range g {
			if v < 0 || v >= int(k.nvars) {
				return fmt.Errorf("fds: reorder group %d: variable %d out of range", gi, v)
			}
			if owner[v] >= 0 {
				return fmt.Errorf("fds: reorder groups %d and %d share variable %d", owner[v], gi, v)
			}
			owner[v] = gi
			lv[j] = int(k.var2level[v])
		}
		lo, hi := slices.Min(lv), slices.Max(lv)
		if hi-lo+1 != len(g) {
			return fmt.Errorf("fds: reorder group %d: variables are not adjacent in the order", gi)
		}
	}
	k.groupOf = make([]int32, k.nvars)
	for v, g := range owner {
		k.groupOf[v] = int32(g)
	}
	return nil
}

// SetAutoReorder implements Reorderer.
func (k *kernel) SetAutoReorder(on bool) {
	k.autoReorder = on
	if k.nextReorder == 0 {
		k.nextReorder = AutoReorderMin
	}
}

// Reorder implements Reorderer.
func (k *kernel) Reorder(ctx context.Context) ReorderStats {
	return k.ReorderWithin(ctx, maxSiftGrowth)
}

// GrowthReorderer is implemented by backends whose sifting can be given
// its own bound on a block's excursion (the native kernel).
type GrowthReorderer interface {
	// ReorderWithin is Reorder with the excursion of each block bounded
	// by growth (> 1) instead of maxSiftGrowth: a block stops moving in
	// a direction once the live nodes exceed growth times the fewest
	// seen. A smaller growth makes fewer swaps and may miss a better
	// position behind a bump.
	ReorderWithin(ctx context.Context, growth float64) ReorderStats
	// SetAutoReorderGrowth bounds the excursion of each block in the
	// dynamic reorderings (SetAutoReorder) by growth as ReorderWithin
	// does, maxSiftGrowth for growth ≤ 1, and returns the bound it
	// replaces (0 for maxSiftGrowth).
	SetAutoReorderGrowth(growth float64) (was float64)
}

// SetAutoReorderGrowth implements GrowthReorderer.
func (k *kernel) SetAutoReorderGrowth(growth float64) (was float64) {
	was = k.autoGrowth
	k.autoGrowth = growth
	if k.autoGrowth <= 1 {
		k.autoGrowth = 0
	}
	return was
}

// ReorderWithin implements GrowthReorderer.
func (k *kernel) ReorderWithin(ctx context.Context, growth float64) ReorderStats {
	if k.err != nil {
		return ReorderStats{}
	}
	k.countHandles()
	k.collect()
	k.collections++
	return k.reorderCollected(ctx, growth)
}

// reorderCollected sifts a table just collected: every node in it is live.
func (k *kernel) reorderCollected(ctx context.Context, growth float64) ReorderStats {
	if ctx == nil {
		ctx = context.Background()
	}
	s := newSifter(k, ctx)
	s.growth = growth
	st := s.sift()
	s.finish()
	k.reorderings++
	k.siftMade, k.siftVisits = k.produced, s.visits
	k.siftVisitsAll += s.visits
	return st
}

// sifter is the state of one reordering. Between reorderings the kernel
// keeps no internal reference counts; a sifter computes them (external
// handles plus parent edges) so that the nodes a swap orphans are freed at
// once and live counts the nodes still reachable.
//
// Invariants between two swaps: every node with low ≥ 0 is live, in the
// unique table under its (level, low, high), and listed once in at[level]
// and in no other list (which may also hold stale indexes: nodes freed
// since); freed nodes wait in dead and are not reused before flush, which
// drops the stale indexes, so a stale index never names a new node.
type sifter struct {
	k     *kernel
	ctx   context.Context
	rc    []int32   // per node index: handles plus parent edges
	marks []bool    // per node index: sweepDead's marks (all false between calls)
	at    [][]int32 // per level: its nodes
	dead  []int32   // freed since the last flush
	work  []rewrite // swap's scratch, kept to spare an allocation per swap
	live  int
	// visits counts the list entries the swaps read (reorderEvery).
	visits int
	// growth bounds a block's excursion (maxSiftGrowth unless
	// ReorderWithin says otherwise).
	growth float64
}

func newSifter(k *kernel, ctx context.Context) *sifter {
	s := &sifter{k: k, ctx: ctx, growth: maxSiftGrowth, rc: make([]int32, len(k.nodes)), marks: make([]bool, len(k.nodes)), at: make([][]int32, k.nvars)}
	adviseHuge(s.rc)
	for i := 1; i < len(k.nodes); i++ {
		nd := &k.nodes[i]
		if nd.low < 0 {
			continue
		}
		s.live++
		s.rc[i] += k.refs[i]
		s.rc[nd.low>>1]++
		s.rc[nd.high>>1]++
		s.at[nd.level] = append(s.at[nd.level], int32(i))
	}
	return s
}

// finish returns the freed nodes to the free list and drops the cache
// entries that mention them. Cached results of live nodes stay valid: a
// swap keeps every node's function.
func (s *sifter) finish() {
	k := s.k
	s.sweepDead()
	s.dead = s.dead[:0]
	k.rebuildFree()
	k.orderEpoch++
}

// sweepDead drops the cache entries that mention a node in dead. Those are
// all the entries that mention a freed node: a node that was free before
// the reordering had its entries swept when it was collected, a node
// freed by a flush had them swept then, and the sifter makes no entries.
// The dead nodes are marked in marks for the sweep, and unmarked after it.
func (s *sifter) sweepDead() {
	for _, n := range s.dead {
		s.marks[n] = true
	}
	s.k.sweepCache(s.marks, false)
	for _, n := range s.dead {
		s.marks[n] = false
	}
}

// flush cleans the level lists, drops the cache entries that mention
// freed nodes, and lets the freed nodes be reused.
func (s *sifter) flush() {
	if len(s.dead) == 0 {
		return
	}
	for l := range s.at {
		s.at[l] = s.clean(int32(l))
	}
	k := s.k
	s.sweepDead()
	for _, n := range s.dead {
		k.nodes[n].next = k.freeHead
		k.freeHead = n
		k.nfree++
	}
	s.dead = s.dead[:0]
}

// clean returns the nodes at level l without its stale entries (the
// nodes freed since they were listed: a list repeats no node and names
// none of another level, the sifter's invariant).
func (s *sifter) clean(l int32) []int32 {
	k := s.k
	in := s.at[l]
	out := in[:0]
	for _, n := range in {
		if k.nodes[n].low >= 0 {
			out = append(out, n)
		}
	}
	return out
}

// reserve makes room for n new nodes, flushing and then growing the
// table; it reports false when the table cannot grow.
func (s *sifter) reserve(n int) bool {
	k := s.k
	if k.nfree >= n {
		return true
	}
	s.flush()
	for k.nfree < n {
		old := len(k.nodes)
		if k.maxNodes > 0 && old*2 > k.maxNodes {
			return false
		}
		if !k.grow() {
			return false
		}
		s.rc = append(s.rc, make([]int32, len(k.nodes)-old)...)
		s.marks = append(s.marks, make([]bool, len(k.nodes)-old)...)
	}
	return true
}

// unlink removes node n from its unique-table chain.
func (k *kernel) unlink(n int32) {
	nd := &k.nodes[n]
	h := k.hash(nd.level, nd.low, nd.high)
	p := &k.buckets[h]
	for *p >= 0 {
		if *p == n {
			*p = nd.next
			nd.next = -1
			return
		}
		p = &k.nodes[*p].next
	}
}

// link inserts node n into the unique table.
func (k *kernel) link(n int32) {
	nd := &k.nodes[n]
	h := k.hash(nd.level, nd.low, nd.high)
	nd.next = k.buckets[h]
	k.buckets[h] = n
}

// mk is kernel.mk for swaps: it counts references and lists new nodes.
// The caller has reserved room.
func (s *sifter) mk(level, lo, hi int32) int32 {
	k := s.k
	r, h, ok := k.unique(level, lo, hi)
	if ok {
		return r
	}
	r = k.insert(level, lo, hi, h)
	nd := &k.nodes[r>>1]
	s.rc[r>>1] = 0
	s.rc[nd.low>>1]++
	s.rc[nd.high>>1]++
	s.at[level] = append(s.at[level], r>>1)
	s.live++
	return r
}

// deref drops one reference to r's node, freeing it (and what only it
// reached) when none is left.
func (s *sifter) deref(r int32) {
	k := s.k
	for i := r >> 1; i > 0; {
		s.rc[i]--
		if s.rc[i] > 0 {
			return
		}
		nd := &k.nodes[i]
		k.unlink(i)
		lo, hi := nd.low, nd.high
		nd.low = -1
		s.dead = append(s.dead, i)
		s.live--
		s.deref(lo)
		i = hi >> 1
	}
}

// swap exchanges the variables at levels x and x+1. Every node keeps its
// index and its function: a node at x that does not test x+1 below it
// moves to x+1 unchanged, the nodes at x+1 move to x, and a node at x with
// a child at x+1 is rewritten in place as a node of the other variable
// whose children are (new or existing) nodes at x+1. It reports false,
// changing nothing, when the table has no room for the rewrite.
func (s *sifter) swap(x int32) bool {
	k := s.k
	y := x + 1
	if !s.reserve(2*len(s.at[x]) + 1) {
		return false
	}
	// The lists may name nodes freed since they were made (stale entries);
	// they are skipped here, where each node is read anyway, instead of in
	// a pass of their own (clean): on AMBA n = 10's fixpoint that pass was
	// a fifth of the sifting's time.
	xs, ys := s.at[x], s.at[y]
	s.visits += len(xs) + len(ys)
	work := s.work[:0]
	stay := make([]int32, 0, len(xs)) // becomes level y's slice
	for _, n := range xs {
		nd := &k.nodes[n]
		if nd.low < 0 {
			continue
		}
		f0, f1 := nd.low, nd.high
		f0y, f1y := k.level(f0) == y, k.level(f1) == y
		if !f0y && !f1y {
			stay = append(stay, n)
			continue
		}
		w := rewrite{n: n, f00: f0, f01: f0, f10: f1, f11: f1}
		if f0y {
			w.f00, w.f01 = k.cof(f0)
		}
		if f1y {
			w.f10, w.f11 = k.cof(f1)
		}
		work = append(work, w)
	}
	// The unique table hashes a node's variable, not its level (kernel.hash):
	// the nodes that keep their variable and children (those of y, and
	// those of x that do not test y) keep their buckets across the swap;
	// only the rewritten nodes leave theirs, before the variables trade
	// levels.
	for _, w := range work {
		k.unlink(w.n)
	}
	vx, vy := k.level2var[x], k.level2var[y]
	k.level2var[x], k.level2var[y] = vy, vx
	k.var2level[vx], k.var2level[vy] = y, x
	newX := ys[:0] // the live nodes of ys, in place
	for _, n := range ys {
		if nd := &k.nodes[n]; nd.low >= 0 {
			nd.level = x
			newX = append(newX, n)
		}
	}
	for _, n := range stay {
		k.nodes[n].level = y
	}
	s.at[y] = stay // s.mk appends the new nodes at y
	for _, w := range work {
		lo := s.mk(y, w.f00, w.f10)
		hi := s.mk(y, w.f01, w.f11) // regular: f11 is (high edges are)
		s.rc[lo>>1]++
		s.rc[hi>>1]++
		nd := &k.nodes[w.n]
		oldLo, oldHi := nd.low, nd.high
		nd.level, nd.low, nd.high = x, lo, hi
		k.link(w.n)
		newX = append(newX, w.n)
		s.deref(oldLo)
		s.deref(oldHi)
	}
	s.at[x] = newX
	s.work = work[:0]
	return true
}

// rewrite is a node of the upper level of a swap that depends on the
// lower one: n, and its grandchildren by the values of the two variables.
type rewrite struct{ n, f00, f01, f10, f11 int32 }

// block is a run of consecutive levels that sifting moves as a unit.
type block struct {
	size int32 // levels
}

// blocks returns the blocks of the current order, top first.
func (k *kernel) blocks() []block {
	var out []block
	for l := int32(0); l < k.nvars; {
		g := int32(-1)
		if k.groupOf != nil {
			g = k.groupOf[k.level2var[l]]
		}
		n := int32(1)
		for g >= 0 && l+n < k.nvars && k.groupOf[k.level2var[l+n]] == g {
			n++
		}
		out = append(out, block{size: n})
		l += n
	}
	return out
}

// swapBlocks exchanges the blocks at i and i+1 (top at level top),
// reporting false if a swap failed midway (the order is then valid but
// the blocks are mixed: sifting stops).
func (s *sifter) swapBlocks(bs []block, i int, top int32, st *ReorderStats) bool {
	p, q := bs[i].size, bs[i+1].size
	for j := int32(0); j < q; j++ {
		for l := top + p + j; l > top+j; l-- {
			if !s.swap(l - 1) {
				return false
			}
			st.Swaps++
		}
	}
	bs[i], bs[i+1] = bs[i+1], bs[i]
	return true
}

// sift moves each block, largest first, through every position and leaves
// it at the best one.
func (s *sifter) sift() ReorderStats {
	k := s.k
	st := ReorderStats{Before: s.live}
	bs := k.blocks()
	// The blocks by decreasing node count, identified by their first
	// variable (blocks move; variables identify them).
	type cand struct {
		first int32
		nodes int
	}
	var cands []cand
	l := int32(0)
	for _, b := range bs {
		c := cand{first: k.level2var[l]}
		for j := l; j < l+b.size; j++ {
			c.nodes += len(s.at[j])
		}
		cands = append(cands, c)
		l += b.size
	}
	slices.SortStableFunc(cands, func(a, b cand) int { return b.nodes - a.nodes })
	for _, c := range cands {
		if s.ctx.Err() != nil {
			break
		}
		// Locate the block.
		i, top := 0, int32(0)
		for top != k.var2level[c.first] {
			top += bs[i].size
			i++
		}
		if !s.siftBlock(bs, i, &st) {
			break
		}
		st.Blocks++
		s.flush()
	}
	st.After = s.live
	return st
}

// siftBlock moves block i down to the bottom, then up to
// the top, then to the position where the live nodes were fewest. A
// direction is abandoned once the nodes exceed s.growth times the best
// count.
func (s *sifter) siftBlock(bs []block, i int, st *ReorderStats) bool {
	best, bestI := s.live, i
	limit := func() int { return int(float64(best) * s.growth) }
	tops := func(j int) int32 { // level of block j's top
		t := int32(0)
		for _, b := range bs[:j] {
			t += b.size
		}
		return t
	}
	cur := i
	for cur+1 < len(bs) && s.live <= limit() {
		if !s.swapBlocks(bs, cur, tops(cur), st) {
			return false
		}
		cur++
		if s.live < best {
			best, bestI = s.live, cur
		}
	}
	for cur > 0 && (s.live <= limit() || cur > i) {
		if !s.swapBlocks(bs, cur-1, tops(cur-1), st) {
			return false
		}
		cur--
		if s.live < best {
			best, bestI = s.live, cur
		}
	}
	for cur < bestI {
		if !s.swapBlocks(bs, cur, tops(cur), st) {
			return false
		}
		cur++
	}
	for cur > bestI {
		if !s.swapBlocks(bs, cur-1, tops(cur-1), st) {
			return false
		}
		cur--
	}
	return true
}

// Position returns the current position in the variable order of the BDD
// variable l (a level of the initial order, as Var.Levels gives): l itself
// unless the backend has reordered its variables.
func (s *Space) Position(l int) int {
	if r, ok := s.backend().(Reorderer); ok {
		return r.Position(l)
	}
	return l
}

// Reorder sifts the Space's variables once (Reorderer.Reorder), each bit
// moving together with its primed twin; it does nothing with a backend
// that cannot reorder.
func (s *Space) Reorder(ctx context.Context) ReorderStats {
	if r, ok := s.backend().(Reorderer); ok {
		return r.Reorder(ctx)
	}
	return ReorderStats{}
}

// ReorderWithin is Reorder with each block's excursion bounded by growth
// (GrowthReorderer.ReorderWithin) where the backend allows it; else
// Reorder.
func (s *Space) ReorderWithin(ctx context.Context, growth float64) ReorderStats {
	if r, ok := s.backend().(GrowthReorderer); ok {
		return r.ReorderWithin(ctx, growth)
	}
	return s.Reorder(ctx)
}

// SetAutoReorderGrowth bounds each block's excursion in the dynamic
// reorderings by growth (GrowthReorderer.SetAutoReorderGrowth: ≤ 1 for the
// kernel's own bound, maxSiftGrowth) where the backend allows it, and
// returns the bound it replaces (0 for the kernel's own, or a backend
// without the bound), to restore it with.
func (s *Space) SetAutoReorderGrowth(growth float64) (was float64) {
	if r, ok := s.backend().(GrowthReorderer); ok {
		return r.SetAutoReorderGrowth(growth)
	}
	return 0
}

// SetAutoReorder turns dynamic reordering on or off (Reorderer.SetAutoReorder)
// in a backend that can reorder, and reports whether it was on. Phases whose
// operations are few and whose intermediate results are short-lived (the
// determinization of a strategy, say) run faster with it off: a sifting
// pass costs many such operations.
func (s *Space) SetAutoReorder(on bool) (was bool) {
	was = s.autoReorder
	s.autoReorder = on
	if s.be == nil {
		return was
	}
	if r, ok := s.be.(Reorderer); ok {
		r.SetAutoReorder(on)
	}
	return was
}

// WithReordering turns on dynamic reordering (Reorderer.SetAutoReorder) in
// a backend that can reorder.
func WithReordering() Option {
	return func(s *Space) { s.autoReorder = true }
}

// reorderGroups returns the Space's reorder blocks: each bit with its
// primed twin, so that renaming between the copies stays order-preserving.
func (s *Space) reorderGroups() [][]int {
	var gs [][]int
	for _, v := range s.vars {
		for b := range v.cur {
			gs = append(gs, []int{v.cur[b], v.next[b]})
		}
	}
	return gs
}
