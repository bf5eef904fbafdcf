package explore

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Sharding splits one exploration into Shard.Total parts that run
// anywhere (other processes, other machines) without communicating, and
// whose union is the whole exploration.
//
// The exhaustive strategies (DFS, PB, DPOR) and Find partition the
// schedule tree alike (shardPath): the tree is cut into pieces, each
// choice point with two or more alternatives dividing its path's pieces
// among them in contiguous runs, until a path holds a single piece (its
// split point); each piece belongs to one shard. Every shard walks the
// choice points above the split points whose pieces include one of its
// own (they depend only on the program, so the division is the same in
// every shard), and explores the subtrees below its pieces. A shard never
// runs an execution that has no piece of its own, except one that ends
// above every split point: that one belongs to the shard of its path's
// first piece, and the others that ran it count it as skipped
// (Report.Skipped). A trivial choice (one alternative) divides nothing,
// so a program that spawns its goroutines one by one is still split where
// they race.
//
// How the pieces are cut and dealt depends on the strategy. DPOR computes
// a shard plan first (shardplan.go): it cuts deeper where dives (one DPOR
// execution and its races, the same in every shard) estimate big
// subtrees, at the first choice point whose operation another goroutine
// contends (those above it split nothing), until the pieces deal evenly,
// with fewer dives the smaller the estimated tree, and deals the pieces
// largest first to the least loaded shard. DFS, PB and Find (and DPOR when the plan finds no choice point
// to cut) use the even division: splitWidth × Total pieces, each choice
// point dividing them as evenly as integer division makes them, dealt to
// the shards in turn in the order of a hash of their numbers.
//
// DPOR explores every alternative of the choice points at and above the
// split points that holds a piece of its shard (its backtrack sets there
// are fixed: those enabled transitions not asleep), with sleep sets
// ordered by the alternatives' order: a shard's sleep sets do not depend
// on what other shards explored. Below the split points each shard runs
// DPOR on its subtrees. The plan's free nodes (choice points above a
// race point, planNode.free) are not fixed: every shard through one
// explores it as an ordinary DPOR state, taking its first alternative
// not asleep (the plan's continuation, with all the node's pieces) and
// any other that a race of its own executions adds to its backtrack set;
// such an alternative's subtree is wholly that shard's. So are the open
// alternatives of a fixed state (planNode.open: those whose dive ended
// sleep-set blocked), which no shard explores unless its races add them;
// they come after the state's other alternatives in the sleep sets'
// order (fixedBefore).
//
// Soundness: the union of the shards' trees satisfies DPOR's invariant
// at every state: a fixed state explores every awake alternative not
// left open (each by the shard of its pieces); at a free state, for the
// open alternatives of a fixed state and below the split points, every
// race of an execution some shard ran is handled where one DPOR run
// handles it, by the shard that ran it (an execution that ends above
// every split point is run, and analyzed, by its owner; a race whose
// reversal starts with an alternative the shards explore anyway is
// covered). A state's sleep set holds only transitions whose subtrees
// the union explores (the earlier alternatives of a fixed state not left
// open, the continuation and the shard's own earlier alternatives at a
// free state, all of those and the shard's own earlier open ones for an
// open alternative): no more than one run's. So every class is explored
// by some shard, as by one DPOR run.
//
// With sleep sets, no two complete executions of one shard are
// equivalent, and the shards' trees below different alternatives of a
// fixed state are disjoint; but two shards whose executions show the
// same race at a free state (or at an open alternative) both explore
// that alternative's subtree, and its classes, twice: the shards'
// executions and their findings' Seen counts then add up to more than
// one run's (TestShardOverlap: 192 executions for 180 classes at 3
// shards of LateWriters with Shared; none on the philosophers and the
// programs of TestShardPartition, whose races do not reach those
// alternatives). The plan keeps this small by settling the free nodes
// where its dives' races add alternatives (planNode.settle): those
// alternatives become pieces, each explored by one shard.
//
// Random and PCT draw disjoint seed streams: execution i of shard k of n
// takes the seed of execution (i-1)·n+k+1 of an unsharded run, so n
// shards of m samples run the first n·m samples of one run.

// Shard selects one part of a sharded exploration. The zero value (and
// any Total of 1) selects the whole exploration.
type Shard struct {
	// Index is the part, from 0 to Total-1.
	Index int
	// Total is the number of parts (0 or 1: not sharded).
	Total int
}

// splitWidth is the number of pieces per shard: enough subtrees for the
// shards' sizes to even out, few enough that the choice points above the
// split points, where DPOR explores every awake alternative instead of
// the racing ones only, stay a small share of the tree.
const splitWidth = 16

// ParseShard parses "I/N", the I-th of N shards counted from 1 (as
// GitLab's CI_NODE_INDEX): "1/4" … "4/4" are Shard{0, 4} … Shard{3, 4}.
func ParseShard(s string) (Shard, error) {
	i, n, ok := strings.Cut(strings.TrimSpace(s), "/")
	if !ok {
		return Shard{}, fmt.Errorf("shard %q: want I/N, the I-th of N shards counted from 1 (e.g. 2/4)", s)
	}
	index, err := strconv.Atoi(strings.TrimSpace(i))
	if err != nil {
		return Shard{}, fmt.Errorf("shard %q: index %q is not an integer", s, i)
	}
	total, err := strconv.Atoi(strings.TrimSpace(n))
	if err != nil {
		return Shard{}, fmt.Errorf("shard %q: total %q is not an integer", s, n)
	}
	sh := Shard{Index: index - 1, Total: total}
	if sh == (Shard{}) {
		sh.Index = -1 // "1/0" is not the zero value
	}
	if err := sh.Validate(); err != nil {
		return Shard{}, fmt.Errorf("shard %q: %w", s, err)
	}
	return sh, nil
}

// Validate reports whether s selects a part: 0 ≤ Index < Total, or the
// zero value.
func (s Shard) Validate() error {
	switch {
	case s == Shard{}:
		return nil
	case s.Total < 1:
		return fmt.Errorf("total %d: want at least 1 shard", s.Total)
	case s.Index < 0 || s.Index >= s.Total:
		return fmt.Errorf("index %d out of range: want 1 to %d", s.Index+1, s.Total)
	}
	return nil
}

// String is "I/N" counted from 1 ("2/4"), as ParseShard reads it; "" for
// the zero value.
func (s Shard) String() string {
	if s == (Shard{}) {
		return ""
	}
	return fmt.Sprintf("%d/%d", s.Index+1, s.Total)
}

// Sharded reports whether s selects a proper part (Total > 1).
func (s Shard) Sharded() bool { return s.Total > 1 }

// sampleSeed is the seed of execution i (from 1) of a sampling strategy
// in shard s: that of execution (i-1)·Total+Index+1 of an unsharded run.
func (s Shard) sampleSeed(seed int64, i int) int64 {
	if s.Sharded() {
		i = (i-1)*s.Total + s.Index + 1
	}
	return int64(mix(uint64(seed), uint64(i)))
}

// shardPath follows one execution's path through the partition. The
// partition cuts the schedule tree into pieces (splitWidth × Total with
// the even division, a plan's leaves with a shard plan); mine says which
// are a shard's. A path starts with all the pieces; a choice point of
// n ≥ 2 alternatives divides the path's pieces among them in order, in n
// contiguous runs: with a plan, those of the plan node's kids; else as
// even as integer division makes them (alternative r of n among m pieces
// gets [m·r/n, m·(r+1)/n), at least one). A path holding one piece is
// below its split point; a shard follows only the alternatives whose
// pieces include one of its own, so it never runs an execution that has
// no part for it above the split point (except one that ends above every
// split point). The zero value (Total ≤ 1) owns everything.
type shardPath struct {
	lo, hi int // the path's pieces: [lo, hi)
	// mine[i] counts the pieces below i that are this shard's, for i
	// from 0 to the number of pieces (nil: not sharded).
	mine []int
	// plan, if not nil, divides the pieces (its leaves) instead of the
	// even division: node is the path's node (its leaf once the path
	// holds one piece), nil once the path left the plan: through an
	// alternative of a free node other than its continuation (the path
	// then holds one piece: it is this shard's alone), or at a choice
	// point whose width is not the plan's, which a deterministic program
	// does not reach (then the even division goes on).
	plan, node *planNode
}

// newPlanPath is the path through plan's partition of shard index's
// pieces (mine: shardPlan.mine).
func newPlanPath(plan *shardPlan, mine []int) shardPath {
	p := shardPath{mine: mine, plan: plan.root}
	p.reset()
	return p
}

func newShardPath(s Shard) shardPath {
	var p shardPath
	if s.Sharded() {
		p.mine = s.pieces()
	}
	p.reset()
	return p
}

// pieces returns, for each i from 0 to splitWidth × Total, the number of
// pieces below i that are shard s's. The pieces are dealt to the shards
// in the order of a hash of their numbers, in turn, so that each shard
// has splitWidth of them and neighbouring pieces (the first alternatives
// of choice points, whose subtrees DPOR's sleep sets leave the biggest,
// start runs of pieces at regular positions) land on different shards.
func (s Shard) pieces() []int {
	v := splitWidth * s.Total
	order := make([]int, v)
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return cmp.Compare(mix(0x5eed, uint64(a)), mix(0x5eed, uint64(b))) })
	owner := make([]int, v)
	for rank, piece := range order {
		owner[piece] = rank % s.Total
	}
	mine := make([]int, v+1)
	for i, o := range owner {
		mine[i+1] = mine[i]
		if o == s.Index {
			mine[i+1]++
		}
	}
	return mine
}

// reset starts a new path, with all the pieces (one when not sharded).
func (p *shardPath) reset() {
	p.lo, p.hi = 0, max(len(p.mine)-1, 1)
	p.node = p.plan
}

// active reports whether the path is still above its split point (in a
// sharded exploration): it holds two or more pieces.
func (p *shardPath) active() bool { return p.hi-p.lo > 1 }

// sub returns the pieces alternative r of n gets.
func (p *shardPath) sub(r, n int) (lo, hi int) {
	if p.node != nil && n == len(p.node.kids) {
		k := p.node.kids[r]
		return k.lo, k.hi
	}
	m := p.hi - p.lo
	lo = p.lo + m*r/n
	hi = max(p.lo+m*(r+1)/n, lo+1)
	return lo, hi
}

// owns reports whether alternative r of n has a piece of this shard:
// at a free plan node, every alternative may be (the continuation has
// all the node's pieces, the others are the shard's if it takes them).
func (p *shardPath) owns(r, n int) bool {
	if !p.active() || n < 2 || p.atFree() {
		return true
	}
	lo, hi := p.sub(r, n)
	return p.mine[hi] > p.mine[lo]
}

// take records alternative r among n. At a free plan node the
// continuation (r = 0) keeps the path's pieces and moves on in the plan;
// another alternative leaves the partition: the path is then wholly this
// shard's (not active), as below a split point.
func (p *shardPath) take(r, n int) {
	if !p.active() || n < 2 {
		return
	}
	if p.atFree() {
		if r == 0 {
			p.node = p.node.kids[0]
		} else {
			p.hi, p.node = p.lo+1, nil
		}
		return
	}
	p.lo, p.hi = p.sub(r, n)
	if p.node != nil && n == len(p.node.kids) {
		p.node = p.node.kids[r]
	} else {
		p.node = nil
	}
}

// leftOpen reports whether the plan leaves alternative r of n to the
// races (planNode.open).
func (p *shardPath) leftOpen(r, n int) bool {
	return p.active() && p.node != nil && n == len(p.node.kids) && p.node.kids[r].open
}

// atFree reports whether the path is active at a free plan node
// (planNode.free): the state there is an ordinary DPOR state.
func (p *shardPath) atFree() bool { return p.active() && p.node != nil && p.node.free }

// ownsEnd reports whether an execution whose path ended here belongs to
// this shard: always below its split point (the shard followed the path
// for its piece), else if the first piece of the path is the shard's.
func (p *shardPath) ownsEnd() bool {
	if !p.active() {
		return true
	}
	return p.mine[p.lo+1] > p.mine[p.lo]
}

// ownedAlts returns the alternatives among alts (nil: all n) that have a
// piece of this shard: a non-nil slice, empty if none is.
func (p *shardPath) ownedAlts(alts []int, n int) []int {
	own := []int{}
	if alts == nil {
		for k := range n {
			if p.owns(k, n) {
				own = append(own, k)
			}
		}
		return own
	}
	for _, k := range alts {
		if p.owns(k, n) {
			own = append(own, k)
		}
	}
	return own
}

// shardOwner is a chooser that knows whether its last execution belongs
// to its shard.
type shardOwner interface {
	owned() bool
}

// owned reports whether the chooser's last execution is its shard's.
func (d *dfsChooser) owned() bool { return !d.skipped && d.part.ownsEnd() }

// skip records an execution of another shard (in also too, if not nil).
func (c *collector) skip(also *collector) {
	c.mu.Lock()
	c.skipped++
	c.mu.Unlock()
	if also != nil {
		also.skip(nil)
	}
}

// fixedBefore calls add with every transition enabled at the fixed state
// s before t (in the order of enabled) that is not asleep at s: the
// siblings explored before t's subtree in the partition's order, by
// whichever shard owns them.
//
// An open alternative (dporNode.open) comes after all the others, which
// the shards together explore, and after the open ones this shard took
// before it; the others' sleep sets hold no open alternative.
func (s *dporNode) fixedBefore(t tid, add func(tid, *event)) {
	if s.open[t] {
		s.mu.Lock()
		defer s.mu.Unlock()
		before, _ := s.done.order(t)
		for _, u := range s.enabled {
			if _, asleep := s.sleep[u]; asleep || u == t {
				continue
			}
			if n, done := s.done.order(u); !s.open[u] || done && n < before {
				add(u, s.events[u])
			}
		}
		return
	}
	for _, u := range s.enabled {
		if u == t {
			return
		}
		if _, asleep := s.sleep[u]; asleep || s.open[u] {
			continue
		}
		add(u, s.events[u])
	}
}

// chooseFixed chooses at the new fixed state s (k: its index in the
// path), above or at the path's split point: every enabled transition
// not asleep whose pieces include one of this shard's is in its
// backtrack set, except those the plan leaves open (each the only
// transition of its goroutine there: a goroutine's local choices go
// together), which only races add; the first is taken. With none of
// this shard's (a shard whose pieces there are all open) the execution
// is cut (skipped); with none awake, it is sleep-set blocked.
func (d *dporChooser) chooseFixed(s *dporNode, ts []transition, k int) int {
	_, awake := s.awakeRank(tid{})
	first, rank := -1, 0
	for i, t := range s.enabled {
		if _, asleep := s.sleep[t]; asleep {
			continue
		}
		rank++
		if d.part.leftOpen(rank-1, awake) && s.alone(t) {
			if s.open == nil {
				s.open = map[tid]bool{}
			}
			s.open[t] = true
			continue
		}
		s.backG.add(t.g)
		if !d.part.owns(rank-1, awake) {
			continue
		}
		s.backtrack.add(t)
		if first < 0 {
			first = i
		}
	}
	s.fixed = true
	switch {
	case first >= 0:
		t := s.enabled[first]
		d.stack[k].chosen = t
		s.claimed(t)
		d.takePlanned(s, t)
		return first
	case awake > 0:
		d.skipped = true
	default:
		d.blocked++
	}
	return sleepBlocked
}

// alone reports whether t is the only transition of its goroutine
// enabled at s: a goroutine's local choices are explored together.
func (s *dporNode) alone(t tid) bool {
	for _, u := range s.enabled {
		if u.g == t.g && u != t {
			return false
		}
	}
	return true
}

// awakeRank returns the rank of t among the transitions enabled at s
// that are not asleep (-1 if t is not one) and their number: the width
// of a fixed state is what sleep sets leave of it.
func (s *dporNode) awakeRank(t tid) (rank, awake int) {
	rank = -1
	for _, u := range s.enabled {
		if _, asleep := s.sleep[u]; asleep {
			continue
		}
		if u == t {
			rank = awake
		}
		awake++
	}
	return rank, awake
}

// takePlanned records in the chooser's shard path that t is taken at the
// fixed or free state s.
func (d *dporChooser) takePlanned(s *dporNode, t tid) {
	rank, awake := s.awakeRank(t)
	d.part.take(rank, awake)
}

// owned reports whether the chooser's last execution is its shard's.
func (d *dporChooser) owned() bool { return !d.skipped && d.part.ownsEnd() }

// pathHash hashes the choices of a path.
func pathHash(path []choice) uint64 {
	h := uint64(len(path))
	for _, c := range path {
		h = mix(h, uint64(c.n)<<32|uint64(c.c))
	}
	return h
}
