package fds

import (
	"context"
	"errors"
	"fmt"
	"runtime"
)

// kernel is the native Backend: a BDD package with complement edges, an
// array node table, a chained unique table and a direct-mapped operation
// cache, written for the operations the GR(1) algorithms use (relational
// products with early termination, renamings that preserve the variable
// order).
//
// A reference (ref) is a node index shifted left by one, with the low bit
// set for the complement of the node's function. Index 0 is the single
// terminal: ref 0 is true and ref 1 false. A node's high (then) edge is
// never complemented, which makes the representation canonical; negation is
// flipping the low bit.
//
// Garbage collection is mark-and-sweep from the nodes that handles (Node
// values) refer to. The kernel hands out at most one handle per ref and
// keeps a weak pointer to it; a collection first runs the Go garbage
// collector, after which exactly the unreachable handles' weak pointers
// are nil, so what is collected depends only on what the program still
// holds, never on when the runtime got round to noticing garbage: the same
// operations give the same node table, the same collections and the same
// reorderings. Collection and table growth happen only between
// operations, never inside one, so intermediate results need no
// protection.
//
// An operation is abandoned (see SetContext and the node limit) by a panic
// with the unexported value abort, raised only at points where the tables
// are consistent (a cache miss before anything is computed, an allocation
// that cannot grow the table) and recovered by the public method, which
// returns false with err set. An abandoned operation leaves behind only
// unreferenced nodes (collected later) and cache entries whose results are
// complete and correct, so the kernel stays consistent.
type kernel struct {
	nvars int32

	nodes []knode
	// handles keeps a weak pointer to the handle of each ref that was
	// handed one; refs counts, per index, the handles found reachable by
	// the last countHandles (0, 1 or 2).
	handles handleTable
	refs    []int32
	mark    []bool

	buckets  []int32
	freeHead int32
	nfree    int
	produced int
	peakUsed int
	maxNodes int
	growUpTo int // below this size a full table grows instead of collecting

	cache     []cacheEntry
	cacheMask uint32

	quantIn   []uint32 // per level: == quantStmp when in the current cube
	quantLast int32    // deepest level in the current cube
	quantID   int32    // ref of the current cube, for cache keys
	quantStmp uint32

	renamings   int32 // renamings made, for their cache ids
	collections int

	// The variable order: a node's level is its variable's current
	// position. The Backend methods name variables by their initial
	// position (the identity order); var2level and level2var translate,
	// and change only in a reordering (reorder.go).
	var2level, level2var []int32
	orderEpoch           int32   // reorderings that ran (renamings recompute their level maps)
	groupOf              []int32 // per variable: its reorder group, -1 for none (nil: no groups)
	autoReorder          bool
	autoGrowth           float64 // the dynamic reorderings' bound on a block's excursion (0: maxSiftGrowth)
	nextReorder          int     // live nodes that trigger the next dynamic reordering
	siftMade             int     // produced at the end of the last reordering
	siftVisits           int     // nodes the last reordering's swaps visited
	siftVisitsAll        int     // nodes every reordering's swaps visited (Stats.SiftVisits)
	siftSpacing          int     // the second trigger's spacing, in shares of siftVisits: 1, 2, 4, … (reorderPaid)
	reorderings          int

	err error
	// interrupted reports that err is an interruption (cleared by
	// SetContext), not a node-table failure (permanent).
	interrupted bool
	ctx         context.Context
	done        <-chan struct{} // ctx.Done(); nil: never interrupted
	poll        int32           // mk calls until the next look at done
	pollHook    func()          // tests: called before each look at done
}

// pollEvery is the number of node constructions (mk calls: one per
// recursive step that misses the cache) between two looks at the context:
// a non-blocking channel receive per 2^14 steps costs nothing measurable,
// and 2^14 steps take well under a millisecond.
const pollEvery = 1 << 14

// abort is the panic value that abandons an operation; err is already set.
type abort struct{}

// knode is a node of the table: its variable's level, its two cofactors (as
// refs; high is never complemented) and the next node of its hash chain (or
// of the free list). low is -1 in a free node. The four fields share a cache
// line.
type knode struct {
	level, low, high, next int32
}

// cacheEntry is a slot of the operation cache: the result res of the
// operation with operands a and b and key. key is the operation's third
// operand, a cube's ref, for opAndExist (≥ 0), and -op-1 (< 0) for the
// others, whose third operand is 0: 16 bytes, so that an entry never
// straddles two cache lines (with the operation code in a field of its own,
// 20 bytes, a quarter of them did, and a lookup read two lines). An empty
// slot has a == -1, which no ref is.
type cacheEntry struct {
	a, b, key int32
	res       int32
}

// cacheKey returns the key field of operation op's entries with third
// operand c (see cacheEntry).
func cacheKey(op, c int32) int32 {
	if op == opAndExist {
		return c
	}
	return -op - 1
}

const (
	refTrue  int32 = 0
	refFalse int32 = 1
)

// cache operation codes.
const (
	opAnd int32 = iota
	opXor
	opExist
	opAndExist
	opReplace
	opRestrict
)

// ErrNodeLimit is reported when a kernel's node table reaches its limit.
var ErrNodeLimit = errors.New("fds: BDD node table limit reached")

// ErrInterrupted is reported when an operation was abandoned because the
// Space's context was done; the error also wraps the context's error
// (context.Canceled or context.DeadlineExceeded).
var ErrInterrupted = errors.New("fds: BDD operation interrupted")

// handle is the Node a kernel hands out: it keeps its ref's node alive
// until it is garbage. Its padding makes it 16 bytes: the runtime puts
// smaller pointer-free objects together in shared blocks, which would keep
// an unreachable handle's weak pointer alive for as long as a neighbour is
// reachable (neighbours that depend on goroutine scheduling).
type handle struct {
	id int32
	_  [12]byte
}

// NewKernel returns the native Backend with nvars variables. nodes is the
// initial node table size (0 for a default); maxNodes limits it (0: no
// limit).
func NewKernel(nvars, nodes, maxNodes int) Backend {
	return NewKernelLimits(nvars, KernelLimits{Nodes: nodes, MaxNodes: maxNodes})
}

// KernelLimits size the native kernel's node table.
type KernelLimits struct {
	Nodes    int // initial size (0: a default)
	MaxNodes int // limit (0: none); reaching it is ErrNodeLimit
	// GrowUpTo: while the table is smaller than this, a full table doubles
	// instead of being garbage-collected (0: always collect first, and
	// grow only when a collection leaves less than a quarter free).
	// Collecting throws away the intermediate nodes of earlier operations
	// and the cache entries that point to them; workloads whose later
	// operations rebuild them (fixpoints of relational products over
	// similar sets) then redo most of their work: GERMAN N = 7's split
	// invariant created 43.5 M nodes with 62 collections of a 2^21-node
	// table, and 6.8 M with no collection (28.5 s → 9.6 s). About 49 bytes
	// per node.
	GrowUpTo int
}

// NewKernelLimits is NewKernel with a growth policy.
func NewKernelLimits(nvars int, l KernelLimits) Backend {
	nodes, maxNodes := l.Nodes, l.MaxNodes
	switch {
	case nodes <= 0:
		nodes = 1 << 16
	case nodes < 64:
		nodes = 64
	}
	for nodes&(nodes-1) != 0 {
		nodes &= nodes - 1 // round down to a power of two
	}
	k := &kernel{nvars: int32(nvars), maxNodes: maxNodes, growUpTo: l.GrowUpTo, siftSpacing: 1}
	k.allocTable(nodes)
	k.nodes[0] = knode{level: k.nvars, low: refTrue, high: refTrue}
	for i := 1; i < nodes; i++ {
		k.nodes[i].low = -1
	}
	k.rebuildFree()
	k.resizeCache(nodes)
	k.quantIn = make([]uint32, nvars+1)
	k.var2level = make([]int32, nvars)
	k.level2var = make([]int32, nvars)
	for i := range nvars {
		k.var2level[i], k.level2var[i] = int32(i), int32(i)
	}
	return k
}

func (k *kernel) allocTable(n int) {
	nodes := make([]knode, n)
	adviseHuge(nodes)
	copy(nodes, k.nodes)
	k.nodes = nodes
	refs := make([]int32, n)
	adviseHuge(refs)
	copy(refs, k.refs)
	k.refs = refs
	k.handles.resize(2 * n)
	m := make([]bool, n)
	adviseHuge(m)
	copy(m, k.mark)
	k.mark = m
	k.buckets = make([]int32, n)
	adviseHuge(k.buckets)
}

func (k *kernel) resizeCache(nodes int) {
	size := 1
	for size < nodes {
		size <<= 1
	}
	k.cache = make([]cacheEntry, size)
	adviseHuge(k.cache)
	k.cacheMask = uint32(size - 1)
	for i := range k.cache {
		k.cache[i].a = -1
	}
}

// rebuildFree rebuilds the unique table and the free list from the nodes
// whose low is not -1 (live nodes).
func (k *kernel) rebuildFree() {
	for i := range k.buckets {
		k.buckets[i] = -1
	}
	k.freeHead = -1
	k.nfree = 0
	for i := len(k.nodes) - 1; i >= 1; i-- {
		nd := &k.nodes[i]
		if nd.low < 0 {
			nd.next = k.freeHead
			k.freeHead = int32(i)
			k.nfree++
			continue
		}
		h := k.hash(nd.level, nd.low, nd.high)
		nd.next = k.buckets[h]
		k.buckets[h] = int32(i)
	}
}

// hash returns the unique-table bucket of the node (level, lo, hi). It
// hashes the level's variable, not the level: a reordering's swap moves
// most nodes to another level with their variable and children unchanged,
// and those stay in their buckets (sifter.swap).
func (k *kernel) hash(level, lo, hi int32) uint32 {
	h := uint32(k.level2var[level])*0x9E3779B1 ^ uint32(lo)*0x85EBCA77 ^ uint32(hi)*0xC2B2AE3D
	h ^= h >> 15
	return h & uint32(len(k.buckets)-1)
}

// mk returns the ref of the function "if level then hi else lo". Every
// recursive step that misses the cache ends in mk, so mk is also where
// operations look at the context (every pollEvery calls), before anything
// is changed.
func (k *kernel) mk(level, lo, hi int32) int32 {
	k.poll--
	if k.poll <= 0 {
		k.lookAtContext()
	}
	r, h, ok := k.unique(level, lo, hi)
	if ok {
		return r
	}
	if k.freeHead < 0 {
		if !k.grow() {
			panic(abort{}) // grow set err; nothing has been changed
		}
		_, h, _ = k.unique(level, lo, hi)
	}
	return k.insert(level, lo, hi, h)
}

// unique returns the ref of "if level then hi else lo" if it needs no new
// node (lo == hi, or the node is in the unique table), and otherwise the
// bucket the new node belongs in.
func (k *kernel) unique(level, lo, hi int32) (r int32, h uint32, ok bool) {
	if lo == hi {
		return lo, 0, true
	}
	comp := hi & 1 // the high edge of a node is regular
	lo ^= comp
	hi ^= comp
	h = k.hash(level, lo, hi)
	for n := k.buckets[h]; n >= 0; {
		nd := &k.nodes[n]
		if nd.level == level && nd.low == lo && nd.high == hi {
			return n<<1 | comp, h, true
		}
		n = nd.next
	}
	return 0, h, false
}

// insert makes a node for "if level then hi else lo" (which unique did not
// find) from a free node, adds it to bucket h, and returns its ref; there
// must be a free node.
func (k *kernel) insert(level, lo, hi int32, h uint32) int32 {
	comp := hi & 1
	n := k.freeHead
	k.freeHead = k.nodes[n].next
	k.nfree--
	k.produced++
	k.nodes[n] = knode{level: level, low: lo ^ comp, high: hi ^ comp, next: k.buckets[h]}
	k.buckets[h] = n
	return n<<1 | comp
}

// level returns the level of a ref's node (nvars for the terminal).
func (k *kernel) level(r int32) int32 { return k.nodes[r>>1].level }

// cof returns the cofactors of a ref.
func (k *kernel) cof(r int32) (lo, hi int32) {
	nd := &k.nodes[r>>1]
	c := r & 1
	return nd.low ^ c, nd.high ^ c
}

// grow doubles the node table (during an operation: nothing is collected).
func (k *kernel) grow() bool {
	old := len(k.nodes)
	n := old * 2
	if k.maxNodes > 0 && n > k.maxNodes {
		n = k.maxNodes
	}
	if n <= old {
		if k.err == nil {
			k.err = fmt.Errorf("%w (%d nodes)", ErrNodeLimit, old)
		}
		return false
	}
	k.allocTable(n)
	for i := old; i < n; i++ {
		k.nodes[i].low = -1
	}
	k.rebuildFree()
	if len(k.cache) < n {
		k.resizeCache(n)
	}
	return true
}

// maintain runs before each operation: when the table is nearly full, it
// collects garbage and reorders the variables if dynamic reordering is
// due (the live nodes have grown enough, or reorderDue), and then, if
// still needed, grows the table (below growUpTo) or collects garbage.
func (k *kernel) maintain() {
	size := len(k.nodes)
	used := size - k.nfree
	if used > k.peakUsed {
		k.peakUsed = used
	}
	if k.nfree > size/8 {
		return
	}
	collected := false
	if k.autoReorder && (used >= k.nextReorder || k.reorderDue()) {
		// used counts garbage too: the live nodes decide. Reordering
		// whenever the table fills with garbage sifted 16 times for
		// AMBA n = 10's fixpoint, mostly to gain nothing.
		k.countHandles()
		k.collect()
		k.collections++
		collected = true
		if len(k.nodes)-k.nfree >= k.nextReorder || k.reorderDue() {
			growth := k.autoGrowth
			if growth == 0 {
				growth = maxSiftGrowth
			}
			k.reorderPaid(k.reorderCollected(k.ctx, growth))
			k.nextReorder = max(AutoReorderMin, reorderGrowth*(len(k.nodes)-k.nfree))
		}
		if k.nfree > size/8 {
			return
		}
	}
	if size < k.growUpTo && (k.maxNodes == 0 || size < k.maxNodes) && k.grow() {
		return
	}
	if !collected {
		k.countHandles()
		k.collect()
		k.collections++
	}
	if k.nfree < size/4 {
		k.grow()
	}
}

// countHandles runs the Go garbage collector, which leaves nil exactly
// the weak pointers of the handles that are no longer reachable, forgets
// those, and counts the reachable handles of each node index in refs.
func (k *kernel) countHandles() {
	runtime.GC()
	for i := range k.refs {
		k.refs[i] = 0
	}
	k.handles.sweep(k.refs)
}

// collect frees the nodes that no handle counted in refs (countHandles)
// reaches.
func (k *kernel) collect() {
	for i := range k.mark {
		k.mark[i] = false
	}
	for i := 1; i < len(k.nodes); i++ {
		if k.refs[i] > 0 && k.nodes[i].low >= 0 {
			k.markRec(int32(i))
		}
	}
	for i := 1; i < len(k.nodes); i++ {
		if !k.mark[i] {
			k.nodes[i].low = -1
		}
	}
	k.rebuildFree()
	k.sweepCache(k.mark, true) // marked: alive
}

// sweepCache drops the cache entries that mention a freed node, keeping
// the results that are still valid across operations. The node of index
// i ≥ 1 is alive exactly when alive[i] == want (the terminal, index 0,
// always is): collect's marks, or the sifter's set of the nodes it freed.
// Reading one byte per node instead of the node itself (16 bytes) keeps
// the sweep in the processor's caches on a table that does not fit them,
// where the entries name nodes at random (on AMBA n = 12, reading the
// nodes was 1.5 s of the sweep's 2.5 s of profile; synth's
// BENCHMARKS.part.md).
func (k *kernel) sweepCache(alive []bool, want bool) {
	live := func(r int32) bool { return r < 2 || alive[r>>1] == want }
	for i := range k.cache {
		e := &k.cache[i]
		if e.a < 0 {
			continue
		}
		ok := live(e.a) && live(e.res)
		switch {
		case e.key == cacheKey(opReplace, 0):
			// b is a renaming id
		case e.key >= 0: // opAndExist: key is a cube's ref
			ok = ok && live(e.b) && live(e.key)
		default: // opAnd, opXor, opRestrict: b is a ref; opExist: b is a cube ref
			ok = ok && live(e.b)
		}
		if !ok {
			e.a = -1
		}
	}
}

func (k *kernel) markRec(i int32) {
	for i > 0 && !k.mark[i] {
		k.mark[i] = true
		k.markRec(k.nodes[i].low >> 1)
		i = k.nodes[i].high >> 1
	}
}

// ret wraps a result in a handle: the ref's handle if one is still
// reachable, else a new one.
func (k *kernel) ret(r int32) Node {
	if k.err != nil {
		r = refFalse
	}
	if r>>1 == 0 {
		return &handle{id: r}
	}
	if h := k.handles.get(r); h != nil {
		return h
	}
	h := &handle{id: r}
	k.handles.put(r, h)
	return h
}

func id(n Node) int32 { return n.(*handle).id }

// Cache helpers.

func (k *kernel) slot(op, a, b, c int32) *cacheEntry {
	h := uint32(op)*0x2545F491 ^ uint32(a)*0x9E3779B1 ^ uint32(b)*0x85EBCA77 ^ uint32(c)*0xC2B2AE3D
	h ^= h >> 16
	return &k.cache[h&k.cacheMask]
}

func (k *kernel) lookup(op, a, b, c int32) (int32, bool) {
	e := k.slot(op, a, b, c)
	if e.a == a && e.b == b && e.key == cacheKey(op, c) {
		return e.res, true
	}
	return 0, false
}

// lookAtContext abandons the running operation if the context is done. It
// is kept out of mk, which every recursive step calls.
//
//go:noinline
func (k *kernel) lookAtContext() {
	k.poll = pollEvery
	if k.pollHook != nil {
		k.pollHook()
	}
	if k.done != nil {
		select {
		case <-k.done:
			k.interrupt()
			panic(abort{})
		default:
		}
	}
}

// interrupt records that the context is done.
func (k *kernel) interrupt() {
	if k.err == nil {
		k.err = fmt.Errorf("%w: %w", ErrInterrupted, k.ctx.Err())
		k.interrupted = true
	}
}

// SetContext makes the kernel's operations look at ctx: once it is done,
// the running operation is abandoned, Err reports an error wrapping
// ErrInterrupted and ctx.Err(), and operations return false. The kernel
// stays consistent; a later SetContext clears an interruption (not a
// node-limit failure), after which the kernel can be used again. A nil ctx
// means context.Background().
func (k *kernel) SetContext(ctx context.Context) {
	if ctx == nil {
		ctx = context.Background()
	}
	k.ctx, k.done = ctx, ctx.Done()
	k.poll = pollEvery
	if k.interrupted {
		k.err, k.interrupted = nil, false
	}
}

// begin starts an operation: it reports false (the operation must return
// false) after a failure or when the context is done, and otherwise does
// the maintenance due between operations.
func (k *kernel) begin() bool {
	if k.err != nil {
		return false
	}
	if k.done != nil {
		select {
		case <-k.done:
			k.interrupt()
			return false
		default:
		}
	}
	k.maintain()
	return k.err == nil
}

// run performs one operation: op computes a ref, run wraps it in a handle.
// An abandoned operation (panic with abort) returns false. op must read its
// operands' refs itself (not before run): begin may collect garbage, and
// only op's references keep the operand handles reachable.
func (k *kernel) run(op func() int32) (n Node) {
	if !k.begin() {
		return &handle{id: refFalse}
	}
	defer func() {
		if p := recover(); p != nil {
			if _, ok := p.(abort); !ok {
				panic(p)
			}
			n = &handle{id: refFalse}
		}
	}()
	return k.ret(op())
}

func (k *kernel) store(op, a, b, c, res int32) int32 {
	*k.slot(op, a, b, c) = cacheEntry{a: a, b: b, key: cacheKey(op, c), res: res}
	return res
}

// Backend methods.

func (k *kernel) True() Node  { return &handle{id: refTrue} }
func (k *kernel) False() Node { return &handle{id: refFalse} }

func (k *kernel) Var(v int) Node {
	return k.run(func() int32 { return k.mk(k.var2level[v], refFalse, refTrue) })
}

func (k *kernel) Not(f Node) Node { return k.ret(id(f) ^ 1) }

func (k *kernel) Apply(op Op, f, g Node) Node {
	return k.run(func() int32 {
		// The operands are read here, after begin: the closure keeps f and
		// g reachable through the collection begin may run.
		a, b := id(f), id(g)
		switch op {
		case OpAnd:
			return k.and(a, b)
		case OpOr:
			return k.and(a^1, b^1) ^ 1
		case OpXor:
			return k.xor(a, b)
		case OpImp:
			return k.and(a, b^1) ^ 1
		case OpIff:
			return k.xor(a, b) ^ 1
		case OpDiff:
			return k.and(a, b^1)
		}
		return refFalse
	})
}

func (k *kernel) and(a, b int32) int32 {
	switch {
	case a == refFalse || b == refFalse || a == b^1:
		return refFalse
	case a == refTrue || a == b:
		return b
	case b == refTrue:
		return a
	}
	if a > b {
		a, b = b, a
	}
	if r, ok := k.lookup(opAnd, a, b, 0); ok {
		return r
	}
	lvl, a0, a1, b0, b1 := k.split(a, b)
	lo := k.and(a0, b0)
	hi := k.and(a1, b1)
	return k.store(opAnd, a, b, 0, k.mk(lvl, lo, hi))
}

// split returns the top level of a and b and their cofactors there.
func (k *kernel) split(a, b int32) (lvl, a0, a1, b0, b1 int32) {
	la, lb := k.level(a), k.level(b)
	lvl = min(la, lb)
	a0, a1, b0, b1 = a, a, b, b
	if la == lvl {
		a0, a1 = k.cof(a)
	}
	if lb == lvl {
		b0, b1 = k.cof(b)
	}
	return lvl, a0, a1, b0, b1
}

func (k *kernel) xor(a, b int32) int32 {
	switch {
	case a == b:
		return refFalse
	case a == b^1:
		return refTrue
	case a == refFalse:
		return b
	case b == refFalse:
		return a
	case a == refTrue:
		return b ^ 1
	case b == refTrue:
		return a ^ 1
	}
	// xor(¬a, b) = ¬xor(a, b): compute on regular refs.
	flip := (a ^ b) & 1
	a &^= 1
	b &^= 1
	if a > b {
		a, b = b, a
	}
	if r, ok := k.lookup(opXor, a, b, 0); ok {
		return r ^ flip
	}
	lvl, a0, a1, b0, b1 := k.split(a, b)
	lo := k.xor(a0, b0)
	hi := k.xor(a1, b1)
	return k.store(opXor, a, b, 0, k.mk(lvl, lo, hi)) ^ flip
}

func (k *kernel) or(a, b int32) int32 { return k.and(a^1, b^1) ^ 1 }

func (k *kernel) Ite(f, g, h Node) Node {
	return k.run(func() int32 {
		a, b, c := id(f), id(g), id(h)
		return k.or(k.and(a, b), k.and(a^1, c))
	})
}

// Build implements Builder. A node whose level is above both cofactors'
// roots is made directly; any other (the nodes come from a store with
// another variable order) is combined with Ite.
func (k *kernel) Build(levels []int, low, high []int32, root int32) Node {
	return k.run(func() int32 { return k.build(levels, low, high)[root] })
}

// BuildGraph implements GraphBuilder.
func (k *kernel) BuildGraph(levels []int, low, high []int32, roots []int32) []Node {
	var res []int32
	k.run(func() int32 {
		res = k.build(levels, low, high)
		return refTrue
	})
	out := make([]Node, len(roots))
	for i, r := range roots {
		if res == nil { // the operation failed (err is set)
			out[i] = k.ret(refFalse)
			continue
		}
		out[i] = k.ret(res[r])
	}
	return out
}

// build returns the refs of the nodes given children first (Build), with
// 0 and 1 for false and true.
func (k *kernel) build(levels []int, low, high []int32) []int32 {
	res := make([]int32, len(levels)+2)
	res[0], res[1] = refFalse, refTrue
	for i, v := range levels {
		lo, hi, lv := res[low[i]], res[high[i]], k.var2level[v]
		if lv < k.level(lo) && lv < k.level(hi) {
			res[i+2] = k.mk(lv, lo, hi)
			continue
		}
		v := k.mk(lv, refFalse, refTrue)
		res[i+2] = k.or(k.and(v, hi), k.and(v^1, lo))
	}
	return res
}

// setQuant makes cube the current quantification set.
func (k *kernel) setQuant(cube int32) {
	k.quantStmp++
	if k.quantStmp == 0 { // wrapped: reset stamps
		for i := range k.quantIn {
			k.quantIn[i] = 0
		}
		k.quantStmp = 1
	}
	k.quantID = cube
	k.quantLast = -1
	for n := cube; n>>1 != 0; {
		l := k.level(n)
		k.quantIn[l] = k.quantStmp
		k.quantLast = l
		_, n = k.cof(n)
	}
}

func (k *kernel) Exist(f, cube Node) Node {
	return k.run(func() int32 {
		k.setQuant(id(cube))
		return k.exist(id(f))
	})
}

func (k *kernel) exist(a int32) int32 {
	lvl := k.level(a)
	if lvl > k.quantLast {
		return a
	}
	if r, ok := k.lookup(opExist, a, k.quantID, 0); ok {
		return r
	}
	a0, a1 := k.cof(a)
	var r int32
	if k.quantIn[lvl] == k.quantStmp {
		lo := k.exist(a0)
		if lo == refTrue {
			r = refTrue
		} else {
			r = k.or(lo, k.exist(a1))
		}
	} else {
		r = k.mk(lvl, k.exist(a0), k.exist(a1))
	}
	return k.store(opExist, a, k.quantID, 0, r)
}

func (k *kernel) AndExist(f, g, cube Node) Node {
	return k.run(func() int32 {
		k.setQuant(id(cube))
		return k.andExist(id(f), id(g))
	})
}

// andExist computes ∃Q. a ∧ b for the current quantification set Q.
func (k *kernel) andExist(a, b int32) int32 {
	switch {
	case a == refFalse || b == refFalse || a == b^1:
		return refFalse
	case a == refTrue || a == b:
		return k.exist(b)
	case b == refTrue:
		return k.exist(a)
	}
	la, lb := k.level(a), k.level(b)
	if la > k.quantLast && lb > k.quantLast {
		return k.and(a, b)
	}
	if a > b {
		a, b = b, a
		la, lb = lb, la
	}
	if r, ok := k.lookup(opAndExist, a, b, k.quantID); ok {
		return r
	}
	lvl, a0, a1, b0, b1 := k.split(a, b)
	var r int32
	if k.quantIn[lvl] == k.quantStmp {
		lo := k.andExist(a0, b0)
		if lo == refTrue {
			r = refTrue
		} else {
			r = k.or(lo, k.andExist(a1, b1))
		}
	} else {
		r = k.mk(lvl, k.andExist(a0, b0), k.andExist(a1, b1))
	}
	return k.store(opAndExist, a, b, k.quantID, r)
}

// OrForall is ∀Q. f ∨ g = ¬∃Q. ¬f ∧ ¬g.
func (k *kernel) OrForall(f, g, cube Node) Node {
	return k.run(func() int32 {
		k.setQuant(id(cube))
		return k.andExist(id(f)^1, id(g)^1) ^ 1
	})
}

func (k *kernel) Cube(vars []int) Node {
	sorted := make([]int, len(vars))
	for i, v := range vars {
		sorted[i] = int(k.var2level[v])
	}
	for i := 1; i < len(sorted); i++ { // insertion sort: cubes are short
		for j := i; j > 0 && sorted[j] < sorted[j-1]; j-- {
			sorted[j], sorted[j-1] = sorted[j-1], sorted[j]
		}
	}
	return k.run(func() int32 {
		r := refTrue
		for i := len(sorted) - 1; i >= 0; i-- {
			r = k.mk(int32(sorted[i]), refFalse, r)
		}
		return r
	})
}

func (k *kernel) Minterm(vars []int, values []bool) Node {
	levels := make([]int32, len(vars))
	for i, v := range vars {
		levels[i] = k.var2level[v]
	}
	idx := make([]int, len(levels))
	for i := range idx {
		idx[i] = i
	}
	for i := 1; i < len(idx); i++ {
		for j := i; j > 0 && levels[idx[j]] < levels[idx[j-1]]; j-- {
			idx[j], idx[j-1] = idx[j-1], idx[j]
		}
	}
	return k.run(func() int32 {
		r := refTrue
		for i := len(idx) - 1; i >= 0; i-- {
			l := levels[idx[i]]
			if values[idx[i]] {
				r = k.mk(l, refFalse, r)
			} else {
				r = k.mk(l, r, refFalse)
			}
		}
		return r
	})
}

// renaming maps variables to variables (vto) and, for the variable order
// of epoch, levels to levels (to); last is the deepest level it moves.
type renaming struct {
	id    int32
	vto   []int32
	to    []int32
	last  int32
	epoch int32
}

// levels brings r's level map up to date with the variable order.
func (k *kernel) levels(r *renaming) {
	if r.epoch == k.orderEpoch {
		return
	}
	r.epoch, r.last = k.orderEpoch, -1
	for v, w := range r.vto {
		l := k.var2level[v]
		r.to[l] = k.var2level[w]
		if int32(v) != w {
			r.last = max(r.last, l)
		}
	}
}

func (k *kernel) NewRenaming(from, to []int) (Renaming, error) {
	if len(from) != len(to) {
		return nil, fmt.Errorf("fds: renaming: %d levels to %d", len(from), len(to))
	}
	r := &renaming{vto: make([]int32, k.nvars), to: make([]int32, k.nvars), epoch: -1}
	for i := range r.vto {
		r.vto[i] = int32(i)
	}
	src := map[int]bool{}
	for i, l := range from {
		if l < 0 || l >= int(k.nvars) || to[i] < 0 || to[i] >= int(k.nvars) {
			return nil, fmt.Errorf("fds: renaming: level out of range")
		}
		if src[l] {
			return nil, fmt.Errorf("fds: renaming: level %d renamed twice", l)
		}
		src[l] = true
		r.vto[l] = int32(to[i])
	}
	for _, l := range to {
		if src[l] {
			return nil, fmt.Errorf("fds: renaming: level %d is both renamed and a target", l)
		}
	}
	k.renamings++
	r.id = k.renamings
	return r, nil
}

func (k *kernel) Rename(f Node, ren Renaming) Node {
	return k.run(func() int32 {
		r := ren.(*renaming)
		k.levels(r)
		return k.rename(id(f), r)
	})
}

func (k *kernel) rename(a int32, r *renaming) int32 {
	lvl := k.level(a)
	if lvl > r.last {
		return a
	}
	if res, ok := k.lookup(opReplace, a, r.id, 0); ok {
		return res
	}
	a0, a1 := k.cof(a)
	lo := k.rename(a0, r)
	hi := k.rename(a1, r)
	nl := r.to[lvl]
	var res int32
	if nl < k.level(lo) && nl < k.level(hi) {
		res = k.mk(nl, lo, hi)
	} else {
		v := k.mk(nl, refFalse, refTrue)
		res = k.or(k.and(v, hi), k.and(v^1, lo))
	}
	return k.store(opReplace, a, r.id, 0, res)
}

func (k *kernel) Equal(f, g Node) bool { return id(f) == id(g) }

func (k *kernel) IsConst(f Node) (bool, bool) {
	r := id(f)
	return r>>1 == 0, r == refTrue
}

func (k *kernel) Branch(f Node) (int, Node, Node) {
	r := id(f)
	lo, hi := k.cof(r)
	return int(k.level2var[k.level(r)]), k.ret(lo), k.ret(hi)
}

// Size counts the physical nodes reachable from the roots (a node and its
// complement count once).
func (k *kernel) Size(roots ...Node) int {
	seen := map[int32]bool{}
	var rec func(i int32)
	rec = func(i int32) {
		for i > 0 && !seen[i] {
			seen[i] = true
			rec(k.nodes[i].low >> 1)
			i = k.nodes[i].high >> 1
		}
	}
	for _, r := range roots {
		rec(id(r) >> 1)
	}
	return len(seen)
}

// walkID is the id Walk and WalkAll give the node (and polarity) r: 0
// and 1 for false and true, else r+2.
func walkID(r int32) int {
	switch r {
	case refTrue:
		return 1
	case refFalse:
		return 0
	}
	return int(r) + 2
}

// Walk presents the BDD without complement edges: each (node, polarity)
// reached is a node of its own, with id ref+2 (0 and 1 are false and true).
func (k *kernel) Walk(root Node, visit func(id, level, low, high int)) int {
	ext := walkID
	seen := map[int32]bool{}
	var rec func(r int32)
	rec = func(r int32) {
		if r>>1 == 0 || seen[r] {
			return
		}
		seen[r] = true
		lo, hi := k.cof(r)
		rec(lo)
		rec(hi)
		visit(ext(r), int(k.level2var[k.level(r)]), ext(lo), ext(hi))
	}
	r := id(root)
	rec(r)
	return ext(r)
}

func (k *kernel) Stats() Stats {
	used := len(k.nodes) - k.nfree
	return Stats{Allocated: len(k.nodes), Used: max(used, k.peakUsed), Produced: k.produced, Collections: k.collections, Reorderings: k.reorderings, SiftVisits: k.siftVisitsAll}
}

func (k *kernel) Err() error { return k.err }
