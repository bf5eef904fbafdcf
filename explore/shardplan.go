package explore

import (
	"cmp"
	"context"
	"math"
	"math/bits"
	"slices"
)

// A shard plan is DPOR's partition of the schedule tree among the shards
// of an exploration, cut where estimated subtree sizes say: every shard
// computes the same plan, with the same executions (dives), before it
// explores its part, so the shards agree without communicating.
//
// A dive below a state of the top of the tree runs the first execution
// DPOR runs below it, with the sleep set the partition gives it (that of
// the shard that explores it, shard.go), and analyzes its races. Its
// estimate of the subtree's size is the fourth root of the product of
// the backtrack sets' sizes (transitions not asleep) along the execution:
// the product alone counts every combination of the races the first
// execution shows, far more than DPOR explores once the sleep sets of the
// later executions prune them (on the dining philosophers the product
// grows about as the fourth power of the subtree's executions); a dive
// that ends sleep-set blocked (a subtree without a class of its own) has
// estimate 1. The dive also gives the number of alternatives (transitions
// not asleep) at the first choice point below the state.
//
// The plan starts with the root as its one leaf and repeatedly expands
// the largest leaf into its alternatives (at the first choice point below
// it with two or more), diving below each, until every leaf is small
// against a shard's share (1/leafShare of it) or the budget of dives is
// spent (a budget that grows with the estimated size of the tree, so that
// the dives, which every shard repeats, stay a small part of it); then it deals the leaves to the shards largest first, each to
// the shard with the least estimated work so far (ties: the lower index).
// It computes in integers only, so that shards on different machines
// compute the same plan.

// planNode is a node of a shard plan: a state at or above a split point,
// identified by its path (the ranks, among the alternatives not asleep,
// taken at the choice points above it that have two or more).
type planNode struct {
	// kids are the node's alternatives at its choice point (nil: a leaf,
	// the root of a subtree one shard explores).
	kids []*planNode
	// lo, hi are the leaves below the node, in depth-first order:
	// [lo, hi).
	lo, hi int
	path   []int
	// width is the number of alternatives at the first choice point
	// below the node (0 or 1: none, the execution ends first).
	width int
	// est is the node's estimated size (see dive).
	est uint64
}

// shardPlan is a partition of the schedule tree among the shards.
type shardPlan struct {
	root *planNode
	// owner[i] is the shard of leaf i (in depth-first order).
	owner []int
}

// Bounds of the plan: the dives it may run per shard and per unit of
// the estimated total (diveBudget), the most leaves per shard, and how
// small a leaf must be against a shard's share of the estimated total
// (1/leafShare) to stay unexpanded.
const (
	divesPerShard = 8
	maxLeaves     = 64
	leafShare     = 4
	divesPerUnit  = 4
)

// diveBudget is the most dives a plan of total shards may run when the
// leaves' estimates add up to sum: divesPerShard per shard, and the
// dives of all the shards together (every shard repeats them) at most
// divesPerUnit per unit of the estimated size, so that a small tree gets
// a shallow plan. On the dining philosophers a unit of the estimate stands
// for about 60 (N = 5) to 300 (N = 6) executions, so that the dives stay
// within about 5 % of the tree's executions; the constant is fitted
// there, not derived.
func diveBudget(sum uint64, total int) int {
	return int(min(satMul(sum, divesPerUnit)/uint64(total), uint64(divesPerShard*total)))
}

// mine returns, for each i from 0 to the number of leaves, the number of
// leaves below i that are shard index's (as Shard.pieces does for the
// even division).
func (pl *shardPlan) mine(index int) []int {
	mine := make([]int, len(pl.owner)+1)
	for i, o := range pl.owner {
		mine[i+1] = mine[i]
		if o == index {
			mine[i+1]++
		}
	}
	return mine
}

// planDiver runs the dives of a plan.
type planDiver struct {
	e     *Entry
	o     *Options
	m     *machine
	root  *planNode
	dives int
	// failed records that a dive could not run the program: the plan is
	// then not used (every shard sees the same failure).
	failed bool
}

// planShards computes the shard plan of entry e for o.Shard.Total shards
// (nil if a dive could not run the program or ctx ended) and returns it
// with the number of dives it ran.
func (p *Program) planShards(ctx context.Context, e *Entry, o *Options) (*shardPlan, int) {
	total := o.Shard.Total
	m := p.acquireMachine(e, o)
	defer p.releaseMachine(m)
	root := &planNode{}
	dv := &planDiver{e: e, o: o, m: m, root: root}
	if dv.dive(root); dv.failed {
		return nil, dv.dives
	}
	leaves := []*planNode{root}
	sum := root.est
	for len(leaves) < maxLeaves*total {
		// the largest expandable leaf (the first in depth-first order
		// among equals)
		at := -1
		for i, l := range leaves {
			if l.width >= 2 && l.est > sum/uint64(leafShare*total) && (at < 0 || l.est > leaves[at].est) {
				at = i
			}
		}
		if at < 0 || dv.dives+leaves[at].width > diveBudget(sum, total) {
			break
		}
		nd := leaves[at]
		nd.kids = make([]*planNode, nd.width)
		for r := range nd.kids {
			k := &planNode{path: append(slices.Clip(nd.path), r)}
			nd.kids[r] = k
			if dv.dive(k); dv.failed || ctx.Err() != nil {
				return nil, dv.dives
			}
		}
		leaves = slices.Replace(leaves, at, at+1, nd.kids...)
		sum -= nd.est
		for _, k := range nd.kids {
			sum = satAdd(sum, k.est)
		}
	}
	pl := &shardPlan{root: root}
	pl.number(root)
	// deal the leaves, largest first, to the least loaded shard
	order := make([]int, len(leaves))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(leaves[b].est, leaves[a].est) })
	load := make([]uint64, total)
	for _, i := range order {
		to := 0
		for s := range load {
			if load[s] < load[to] {
				to = s
			}
		}
		pl.owner[i] = to
		load[to] = satAdd(load[to], leaves[i].est)
	}
	return pl, dv.dives
}

// number sets the leaf ranges of nd's subtree, from len(pl.owner) on
// (pl.owner grows by one per leaf, with owner 0 until dealt).
func (pl *shardPlan) number(nd *planNode) {
	nd.lo = len(pl.owner)
	if nd.kids == nil {
		pl.owner = append(pl.owner, 0)
	}
	for _, k := range nd.kids {
		pl.number(k)
	}
	nd.hi = len(pl.owner)
}

// dive sets nd's width and estimate: it runs the first execution DPOR
// runs below nd (its path is through dv.root, whose nodes above nd have
// their widths), as the shard exploring nd runs it, and analyzes its
// races.
func (dv *planDiver) dive(nd *planNode) {
	// a plan of nd's path alone, nd the one leaf of shard 1
	var build func(c *planNode, depth int) *planNode
	build = func(c *planNode, depth int) *planNode {
		s := &planNode{}
		if depth == len(nd.path) {
			return s
		}
		s.kids = make([]*planNode, c.width)
		for r := range s.kids {
			s.kids[r] = &planNode{}
			if r == nd.path[depth] {
				s.kids[r] = build(c.kids[r], depth+1)
			}
		}
		return s
	}
	pl := &shardPlan{root: build(dv.root, 0)}
	pl.number(pl.root)
	d := &dporChooser{}
	if len(pl.owner) > 1 {
		leaf := pl.root
		for _, r := range nd.path {
			leaf = leaf.kids[r]
		}
		pl.owner[leaf.lo] = 1
		d.part = newPlanPath(pl, pl.mine(1))
	}
	x := newExecution(dv.m, dv.e, dv.o, d, 0, dv.o.Seed)
	defer x.release()
	x.chooseAll = true
	x.run()
	dv.dives++
	if x.hasFatalFinding() {
		dv.failed = true
		return
	}
	// Below nd the execution takes the first transition not asleep at
	// each state, as a fixed state's first alternative: the states'
	// sleep sets are those of the shard's fixed states, and the first
	// with two or more awake is nd's choice point.
	if !x.sleepBlocked {
		d.analyze(x)
	}
	product := uint64(1)
	for _, st := range d.stack {
		s := st.node
		if s.fixed {
			continue
		}
		_, awake := s.awakeRank(tid{})
		if nd.width < 2 {
			nd.width = awake
		}
		n := 0
		for t := range s.backtrack {
			if _, asleep := s.sleep[t]; !asleep {
				n++
			}
		}
		product = satMul(product, uint64(max(n, 1)))
	}
	if x.sleepBlocked {
		product = 1
	}
	nd.est = fourthRoot(product)
}

// fourthRoot is the integer fourth root of n, rounded down.
func fourthRoot(n uint64) uint64 {
	r := min(uint64(math.Sqrt(math.Sqrt(float64(n)))), 1<<16-1)
	for r > 0 && r*r*r*r > n {
		r--
	}
	for r < 1<<16-1 && (r+1)*(r+1)*(r+1)*(r+1) <= n {
		r++
	}
	return r
}

func satMul(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	if hi != 0 {
		return math.MaxUint64
	}
	return lo
}

func satAdd(a, b uint64) uint64 {
	s, carry := bits.Add64(a, b, 0)
	if carry != 0 {
		return math.MaxUint64
	}
	return s
}
