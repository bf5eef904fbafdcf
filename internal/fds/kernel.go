package fds

import (
	"errors"
	"fmt"
	"runtime"
	"sync"
)

// kernel is the native Backend: a BDD package with an array node table, a
// chained unique table and a direct-mapped operation cache, written for the
// operations the GR(1) algorithms use (relational products with early
// termination, renamings that preserve the variable order).
//
// Node 0 is false and node 1 is true. Garbage collection is mark-and-sweep
// from the nodes that handles (Node values) refer to; a handle's release is
// reported by a runtime cleanup, queued under a mutex, and applied by the
// kernel's own goroutine. Collection and table growth happen only between
// operations, never inside one, so intermediate results need no protection.
type kernel struct {
	nvars int32

	nodes []knode
	refs  []int32 // external references
	mark  []bool

	buckets  []int32
	freeHead int32
	nfree    int
	produced int
	peakUsed int
	maxNodes int

	cache     []cacheEntry
	cacheMask uint32

	quantIn   []uint32 // per level: == quantStamp when in the current cube
	quantLast int32    // deepest level in the current cube
	quantID   int32    // node of the current cube, for cache keys
	quantStmp uint32

	renamings   int32 // renamings made, for their cache ids
	collections int

	mu      sync.Mutex
	pending []int32 // released handles, to be applied

	err error
}

// knode is a node of the table: its variable's level, its two cofactors and
// the next node of its hash chain (or of the free list). low is -1 in a free
// node. The four fields share a cache line.
type knode struct {
	level, low, high, next int32
}

type cacheEntry struct {
	op      int32
	a, b, c int32
	res     int32
}

// cache operation codes (beyond the Op values).
const (
	opNot int32 = 16 + iota
	opIte
	opExist
	opAndExist
	opReplace
	opForall
	opOrForall
)

// ErrNodeLimit is reported when a kernel's node table reaches its limit.
var ErrNodeLimit = errors.New("fds: BDD node table limit reached")

// handle is the Node a kernel hands out: it keeps node id alive until it is
// garbage.
type handle struct {
	id int32
}

// NewKernel returns the native Backend with nvars variables. nodes is the
// initial node table size (0 for a default); maxNodes limits it (0: no
// limit).
func NewKernel(nvars, nodes, maxNodes int) Backend {
	switch {
	case nodes <= 0:
		nodes = 1 << 16
	case nodes < 64:
		nodes = 64
	}
	k := &kernel{nvars: int32(nvars), maxNodes: maxNodes}
	k.allocTable(nodes)
	k.nodes[0] = knode{level: k.nvars, low: 0, high: 0}
	k.nodes[1] = knode{level: k.nvars, low: 1, high: 1}
	k.rebuildFree()
	k.resizeCache(nodes)
	k.quantIn = make([]uint32, nvars+1)
	return k
}

func (k *kernel) allocTable(n int) {
	nodes := make([]knode, n)
	copy(nodes, k.nodes)
	k.nodes = nodes
	refs := make([]int32, n)
	copy(refs, k.refs)
	k.refs = refs
	m := make([]bool, n)
	copy(m, k.mark)
	k.mark = m
	k.buckets = make([]int32, n)
}

func (k *kernel) resizeCache(nodes int) {
	size := 1
	for size < nodes {
		size <<= 1
	}
	k.cache = make([]cacheEntry, size)
	k.cacheMask = uint32(size - 1)
	for i := range k.cache {
		k.cache[i].op = -1
	}
}

func (k *kernel) clearCache() {
	for i := range k.cache {
		k.cache[i].op = -1
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
	for i := len(k.nodes) - 1; i >= 2; i-- {
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

func (k *kernel) hash(level, lo, hi int32) uint32 {
	h := uint32(level)*0x9E3779B1 ^ uint32(lo)*0x85EBCA77 ^ uint32(hi)*0xC2B2AE3D
	h ^= h >> 15
	return h % uint32(len(k.buckets))
}

// mk returns the node (level, lo, hi), creating it if needed.
func (k *kernel) mk(level, lo, hi int32) int32 {
	if lo == hi {
		return lo
	}
	h := k.hash(level, lo, hi)
	for n := k.buckets[h]; n >= 0; {
		nd := &k.nodes[n]
		if nd.level == level && nd.low == lo && nd.high == hi {
			return n
		}
		n = nd.next
	}
	if k.freeHead < 0 {
		if !k.grow() {
			return 0
		}
		h = k.hash(level, lo, hi)
	}
	n := k.freeHead
	k.freeHead = k.nodes[n].next
	k.nfree--
	k.produced++
	k.nodes[n] = knode{level: level, low: lo, high: hi, next: k.buckets[h]}
	k.buckets[h] = n
	return n
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

// maintain runs before each operation: it applies released handles and
// collects garbage when the table is nearly full.
func (k *kernel) maintain() {
	size := len(k.nodes)
	used := size - k.nfree
	if used > k.peakUsed {
		k.peakUsed = used
	}
	if k.nfree > size/8 {
		return
	}
	k.waitReleases()
	k.collect()
	k.collections++
	if k.nfree < size/4 {
		k.grow()
	}
}

// waitReleases runs the Go garbage collector so that the cleanups of
// unreachable handles are queued, and yields until they have been reported
// (or a bounded number of times).
func (k *kernel) waitReleases() {
	runtime.GC()
	last := -1
	for range 64 {
		runtime.Gosched()
		k.mu.Lock()
		n := len(k.pending)
		k.mu.Unlock()
		if n == last {
			break
		}
		last = n
	}
}

func (k *kernel) collect() {
	k.mu.Lock()
	for _, id := range k.pending {
		k.refs[id]--
	}
	k.pending = k.pending[:0]
	k.mu.Unlock()
	for i := range k.mark {
		k.mark[i] = false
	}
	for i := 2; i < len(k.nodes); i++ {
		if k.refs[i] > 0 && k.nodes[i].low >= 0 {
			k.markRec(int32(i))
		}
	}
	for i := 2; i < len(k.nodes); i++ {
		if !k.mark[i] {
			k.nodes[i].low = -1
		}
	}
	k.rebuildFree()
	k.sweepCache()
}

// sweepCache drops the cache entries that mention a collected node, keeping
// the results that are still valid across operations.
func (k *kernel) sweepCache() {
	alive := func(n int32) bool { return n < 2 || k.nodes[n].low >= 0 }
	for i := range k.cache {
		e := &k.cache[i]
		if e.op < 0 {
			continue
		}
		ok := alive(e.a) && alive(e.res)
		switch e.op {
		case opReplace, opNot:
			// b is a renaming id or unused
		case opIte, opAndExist, opOrForall:
			ok = ok && alive(e.b) && alive(e.c)
		default: // Apply ops, opExist, opForall: b is a node or a cube node
			ok = ok && alive(e.b)
		}
		if !ok {
			e.op = -1
		}
	}
}

func (k *kernel) markRec(n int32) {
	for n >= 2 && !k.mark[n] {
		k.mark[n] = true
		k.markRec(k.nodes[n].low)
		n = k.nodes[n].high
	}
}

func (k *kernel) release(id int32) {
	k.mu.Lock()
	k.pending = append(k.pending, id)
	k.mu.Unlock()
}

// ret wraps a result in a handle.
func (k *kernel) ret(n int32) Node {
	if k.err != nil {
		n = 0
	}
	h := &handle{id: n}
	if n >= 2 {
		k.refs[n]++
		runtime.AddCleanup(h, k.release, n)
	}
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
	if e.op == op && e.a == a && e.b == b && e.c == c {
		return e.res, true
	}
	return 0, false
}

func (k *kernel) store(op, a, b, c, res int32) int32 {
	*k.slot(op, a, b, c) = cacheEntry{op: op, a: a, b: b, c: c, res: res}
	return res
}

// Backend methods.

func (k *kernel) True() Node  { return &handle{id: 1} }
func (k *kernel) False() Node { return &handle{id: 0} }

func (k *kernel) Var(level int) Node {
	k.maintain()
	return k.ret(k.mk(int32(level), 0, 1))
}

func (k *kernel) Not(f Node) Node {
	k.maintain()
	return k.ret(k.not(id(f)))
}

func (k *kernel) not(a int32) int32 {
	if a < 2 {
		return 1 - a
	}
	if r, ok := k.lookup(opNot, a, 0, 0); ok {
		return r
	}
	lo := k.not(k.nodes[a].low)
	hi := k.not(k.nodes[a].high)
	return k.store(opNot, a, 0, 0, k.mk(k.nodes[a].level, lo, hi))
}

func (k *kernel) Apply(op Op, f, g Node) Node {
	k.maintain()
	return k.ret(k.apply(int32(op), id(f), id(g)))
}

func (k *kernel) apply(op, a, b int32) int32 {
	switch Op(op) {
	case OpAnd:
		switch {
		case a == 0 || b == 0:
			return 0
		case a == 1 || a == b:
			return b
		case b == 1:
			return a
		}
		if a > b {
			a, b = b, a
		}
	case OpOr:
		switch {
		case a == 1 || b == 1:
			return 1
		case a == 0 || a == b:
			return b
		case b == 0:
			return a
		}
		if a > b {
			a, b = b, a
		}
	case OpXor:
		switch {
		case a == b:
			return 0
		case a == 0:
			return b
		case b == 0:
			return a
		case a == 1:
			return k.not(b)
		case b == 1:
			return k.not(a)
		}
		if a > b {
			a, b = b, a
		}
	case OpImp:
		switch {
		case a == 0 || b == 1 || a == b:
			return 1
		case a == 1:
			return b
		case b == 0:
			return k.not(a)
		}
	case OpIff:
		switch {
		case a == b:
			return 1
		case a == 1:
			return b
		case b == 1:
			return a
		case a == 0:
			return k.not(b)
		case b == 0:
			return k.not(a)
		}
		if a > b {
			a, b = b, a
		}
	case OpDiff:
		switch {
		case a == 0 || b == 1 || a == b:
			return 0
		case b == 0:
			return a
		case a == 1:
			return k.not(b)
		}
	}
	if r, ok := k.lookup(op, a, b, 0); ok {
		return r
	}
	la, lb := k.nodes[a].level, k.nodes[b].level
	var lvl, a0, a1, b0, b1 int32
	switch {
	case la == lb:
		lvl, a0, a1, b0, b1 = la, k.nodes[a].low, k.nodes[a].high, k.nodes[b].low, k.nodes[b].high
	case la < lb:
		lvl, a0, a1, b0, b1 = la, k.nodes[a].low, k.nodes[a].high, b, b
	default:
		lvl, a0, a1, b0, b1 = lb, a, a, k.nodes[b].low, k.nodes[b].high
	}
	lo := k.apply(op, a0, b0)
	hi := k.apply(op, a1, b1)
	return k.store(op, a, b, 0, k.mk(lvl, lo, hi))
}

func (k *kernel) Ite(f, g, h Node) Node {
	k.maintain()
	return k.ret(k.ite(id(f), id(g), id(h)))
}

func (k *kernel) ite(f, g, h int32) int32 {
	switch {
	case f == 1:
		return g
	case f == 0:
		return h
	case g == h:
		return g
	case g == 1 && h == 0:
		return f
	case g == 0 && h == 1:
		return k.not(f)
	case g == 1:
		return k.apply(int32(OpOr), f, h)
	case h == 0:
		return k.apply(int32(OpAnd), f, g)
	}
	if r, ok := k.lookup(opIte, f, g, h); ok {
		return r
	}
	lvl := min(k.nodes[f].level, k.nodes[g].level, k.nodes[h].level)
	cof := func(n int32) (int32, int32) {
		if k.nodes[n].level == lvl {
			return k.nodes[n].low, k.nodes[n].high
		}
		return n, n
	}
	f0, f1 := cof(f)
	g0, g1 := cof(g)
	h0, h1 := cof(h)
	lo := k.ite(f0, g0, h0)
	hi := k.ite(f1, g1, h1)
	return k.store(opIte, f, g, h, k.mk(lvl, lo, hi))
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
	for n := cube; n >= 2; n = k.nodes[n].high {
		k.quantIn[k.nodes[n].level] = k.quantStmp
		k.quantLast = k.nodes[n].level
	}
}

func (k *kernel) Exist(f, cube Node) Node {
	k.maintain()
	k.setQuant(id(cube))
	return k.ret(k.exist(id(f)))
}

func (k *kernel) exist(a int32) int32 {
	if a < 2 || k.nodes[a].level > k.quantLast {
		return a
	}
	if r, ok := k.lookup(opExist, a, k.quantID, 0); ok {
		return r
	}
	lvl := k.nodes[a].level
	var r int32
	if k.quantIn[lvl] == k.quantStmp {
		lo := k.exist(k.nodes[a].low)
		if lo == 1 {
			r = 1
		} else {
			r = k.apply(int32(OpOr), lo, k.exist(k.nodes[a].high))
		}
	} else {
		r = k.mk(lvl, k.exist(k.nodes[a].low), k.exist(k.nodes[a].high))
	}
	return k.store(opExist, a, k.quantID, 0, r)
}

func (k *kernel) AndExist(f, g, cube Node) Node {
	k.maintain()
	k.setQuant(id(cube))
	return k.ret(k.andExist(id(f), id(g)))
}

func (k *kernel) andExist(a, b int32) int32 {
	switch {
	case a == 0 || b == 0:
		return 0
	case a == 1 && b == 1:
		return 1
	case a == 1 || a == b:
		return k.exist(b)
	case b == 1:
		return k.exist(a)
	}
	la, lb := k.nodes[a].level, k.nodes[b].level
	if la > k.quantLast && lb > k.quantLast {
		return k.apply(int32(OpAnd), a, b)
	}
	if a > b {
		a, b = b, a
		la, lb = lb, la
	}
	if r, ok := k.lookup(opAndExist, a, b, k.quantID); ok {
		return r
	}
	var lvl, a0, a1, b0, b1 int32
	switch {
	case la == lb:
		lvl, a0, a1, b0, b1 = la, k.nodes[a].low, k.nodes[a].high, k.nodes[b].low, k.nodes[b].high
	case la < lb:
		lvl, a0, a1, b0, b1 = la, k.nodes[a].low, k.nodes[a].high, b, b
	default:
		lvl, a0, a1, b0, b1 = lb, a, a, k.nodes[b].low, k.nodes[b].high
	}
	var r int32
	if k.quantIn[lvl] == k.quantStmp {
		lo := k.andExist(a0, b0)
		if lo == 1 {
			r = 1
		} else {
			r = k.apply(int32(OpOr), lo, k.andExist(a1, b1))
		}
	} else {
		r = k.mk(lvl, k.andExist(a0, b0), k.andExist(a1, b1))
	}
	return k.store(opAndExist, a, b, k.quantID, r)
}

func (k *kernel) OrForall(f, g, cube Node) Node {
	k.maintain()
	k.setQuant(id(cube))
	return k.ret(k.orForall(id(f), id(g)))
}

func (k *kernel) forall(a int32) int32 {
	if a < 2 || k.nodes[a].level > k.quantLast {
		return a
	}
	if r, ok := k.lookup(opForall, a, k.quantID, 0); ok {
		return r
	}
	nd := k.nodes[a]
	var r int32
	if k.quantIn[nd.level] == k.quantStmp {
		lo := k.forall(nd.low)
		if lo == 0 {
			r = 0
		} else {
			r = k.apply(int32(OpAnd), lo, k.forall(nd.high))
		}
	} else {
		r = k.mk(nd.level, k.forall(nd.low), k.forall(nd.high))
	}
	return k.store(opForall, a, k.quantID, 0, r)
}

// orForall computes ∀cube. a ∨ b.
func (k *kernel) orForall(a, b int32) int32 {
	switch {
	case a == 1 || b == 1:
		return 1
	case a == 0 || a == b:
		return k.forall(b)
	case b == 0:
		return k.forall(a)
	}
	la, lb := k.nodes[a].level, k.nodes[b].level
	if la > k.quantLast && lb > k.quantLast {
		return k.apply(int32(OpOr), a, b)
	}
	if a > b {
		a, b = b, a
		la, lb = lb, la
	}
	if r, ok := k.lookup(opOrForall, a, b, k.quantID); ok {
		return r
	}
	var lvl, a0, a1, b0, b1 int32
	switch {
	case la == lb:
		lvl, a0, a1, b0, b1 = la, k.nodes[a].low, k.nodes[a].high, k.nodes[b].low, k.nodes[b].high
	case la < lb:
		lvl, a0, a1, b0, b1 = la, k.nodes[a].low, k.nodes[a].high, b, b
	default:
		lvl, a0, a1, b0, b1 = lb, a, a, k.nodes[b].low, k.nodes[b].high
	}
	var r int32
	if k.quantIn[lvl] == k.quantStmp {
		lo := k.orForall(a0, b0)
		if lo == 0 {
			r = 0
		} else {
			r = k.apply(int32(OpAnd), lo, k.orForall(a1, b1))
		}
	} else {
		r = k.mk(lvl, k.orForall(a0, b0), k.orForall(a1, b1))
	}
	return k.store(opOrForall, a, b, k.quantID, r)
}

func (k *kernel) Cube(levels []int) Node {
	k.maintain()
	sorted := append([]int(nil), levels...)
	for i := 1; i < len(sorted); i++ { // insertion sort: cubes are short
		for j := i; j > 0 && sorted[j] < sorted[j-1]; j-- {
			sorted[j], sorted[j-1] = sorted[j-1], sorted[j]
		}
	}
	r := int32(1)
	for i := len(sorted) - 1; i >= 0; i-- {
		r = k.mk(int32(sorted[i]), 0, r)
	}
	return k.ret(r)
}

// renaming maps levels to levels; last is the deepest level it moves.
type renaming struct {
	id   int32
	to   []int32
	last int32
}

func (k *kernel) NewRenaming(from, to []int) (Renaming, error) {
	if len(from) != len(to) {
		return nil, fmt.Errorf("fds: renaming: %d levels to %d", len(from), len(to))
	}
	r := &renaming{to: make([]int32, k.nvars), last: -1}
	for i := range r.to {
		r.to[i] = int32(i)
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
		r.to[l] = int32(to[i])
		r.last = max(r.last, int32(l))
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
	k.maintain()
	return k.ret(k.rename(id(f), ren.(*renaming)))
}

func (k *kernel) rename(a int32, r *renaming) int32 {
	if a < 2 || k.nodes[a].level > r.last {
		return a
	}
	if res, ok := k.lookup(opReplace, a, r.id, 0); ok {
		return res
	}
	lo := k.rename(k.nodes[a].low, r)
	hi := k.rename(k.nodes[a].high, r)
	nl := r.to[k.nodes[a].level]
	var res int32
	if nl < k.nodes[lo].level && nl < k.nodes[hi].level {
		res = k.mk(nl, lo, hi)
	} else {
		res = k.ite(k.mk(nl, 0, 1), hi, lo)
	}
	return k.store(opReplace, a, r.id, 0, res)
}

func (k *kernel) Equal(f, g Node) bool { return id(f) == id(g) }

func (k *kernel) IsConst(f Node) (bool, bool) {
	n := id(f)
	return n < 2, n == 1
}

func (k *kernel) Branch(f Node) (int, Node, Node) {
	n := id(f)
	return int(k.nodes[n].level), k.ret(k.nodes[n].low), k.ret(k.nodes[n].high)
}

func (k *kernel) Size(roots ...Node) int {
	seen := map[int32]bool{}
	var rec func(n int32)
	rec = func(n int32) {
		for n >= 2 && !seen[n] {
			seen[n] = true
			rec(k.nodes[n].low)
			n = k.nodes[n].high
		}
	}
	for _, r := range roots {
		rec(id(r))
	}
	return len(seen)
}

func (k *kernel) Walk(root Node, visit func(id, level, low, high int)) int {
	seen := map[int32]bool{}
	var rec func(n int32)
	rec = func(n int32) {
		if n < 2 || seen[n] {
			return
		}
		seen[n] = true
		rec(k.nodes[n].low)
		rec(k.nodes[n].high)
		visit(int(n), int(k.nodes[n].level), int(k.nodes[n].low), int(k.nodes[n].high))
	}
	r := id(root)
	rec(r)
	return int(r)
}

func (k *kernel) Stats() Stats {
	used := len(k.nodes) - k.nfree
	return Stats{Allocated: len(k.nodes), Used: max(used, k.peakUsed), Produced: k.produced, Collections: k.collections}
}

func (k *kernel) Err() error { return k.err }
