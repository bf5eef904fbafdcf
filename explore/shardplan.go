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
// not asleep) at the first choice point below the state, and its race
// point: the first choice point whose transition taken may be contended
// (execution.contended: any but a shared memory access that no later
// transition of another goroutine depends on). The choice points above it
// split nothing as far as the dive shows: their other alternatives put a
// transition to sleep that nothing wakes (with Options.Shared, the reads
// of captured variables that start every goroutine), so one DPOR run
// does not explore them unless a race it finds later says so.
//
// The plan starts with the root as its one leaf and repeatedly expands
// the largest leaf (by its share, planNode.share: its estimate, except
// that a cut below free nodes divides the leaf's share among its kids
// instead of adding theirs, divide) at its race point, diving below each alternative of
// the race point; the choice points above it become free nodes
// (planNode.free), which every shard through them explores as ordinary
// DPOR states, so that their other alternatives cost nothing unless a
// shard's own races add them (and then that shard explores them). It
// stops when every leaf is small against a shard's share (1/leafShare
// of it), or the leaves already deal evenly among the shards by their
// estimates (within 1+1/balanceSlack of the mean) and the next cut is
// below free nodes (balanced), or the budget of dives is spent (a budget
// that grows with the estimated size of the tree, so that the dives,
// which every shard repeats, stay a small part of it, and is smaller for
// cuts below free nodes, freeDivesPerShard); then it deals the leaves to
// the shards by their shares largest first, each to the shard with the least
// estimated work so far (ties: the lower index).
// An alternative of a race point other than the first whose dive ends
// sleep-set blocked (a subtree without a class of its own, as far as the
// dive shows) is left open (planNode.open): it is neither expanded nor
// explored as a piece, only by a shard whose races add it, as at a free
// node.
// A dive passes the free nodes above it as the shards do, as ordinary
// DPOR states, and notes the alternatives its races add there
// (planNode.raced). Every shard below such a node would explore what its
// own races add, each such subtree once per shard where one run explores
// it once (on the philosophers N = 5 with Shared, 169 sleep-set-blocked
// executions per shard at one node of the root's chain). So once the
// cuts are made, each free node with such alternatives becomes a fixed
// state (settle): those alternatives are pieces of share 0, explored once
// by the shard they are dealt to, and the others are left open.
// It computes in integers only, so that shards on different machines
// compute the same plan.

// planNode is a node of a shard plan: a state at or above a split point,
// identified by its path (the ranks, among the alternatives not asleep,
// taken at the choice points above it that have two or more).
type planNode struct {
	// kids are the node's alternatives at its choice point (nil: a leaf,
	// the root of a subtree one shard explores), or, at a free node, its
	// continuation alone.
	kids []*planNode
	// free marks a choice point above a race point (racePoint): the
	// shards explore it as an ordinary DPOR state (its backtrack set
	// grows by their races), its first alternative not asleep is its one
	// kid, with all its pieces, and every other alternative a shard
	// takes there is wholly that shard's.
	free bool
	// blocked records that the node's dive ended sleep-set blocked; open
	// marks an alternative of a race point other than the first whose
	// dive did: not a piece any shard explores as such, but an
	// alternative of the fixed state that a shard explores, as its own,
	// if its races add it (dporNode.open).
	blocked, open bool
	// raced, at a free node, holds the ranks (among the alternatives not
	// asleep) of the alternatives other than its continuation that the
	// races of a dive through it added to its backtrack set, in
	// increasing order: see settle.
	raced []int
	// lo, hi are the leaves below the node, in depth-first order:
	// [lo, hi).
	lo, hi int
	path   []int
	// width is the number of alternatives at the first choice point
	// below the node (0 or 1: none, the execution ends first).
	width int
	// est is the node's estimated size (see dive).
	est uint64
	// share is the node's part of the tree by which the plan ranks and
	// deals its leaves, in units of 1/shareUnit of an estimate: the
	// root's is its estimate; below a cut, see divide.
	share uint64
	// race holds the widths of the choice points below the node along
	// its dive, from the first (race[0] == width) to its race point: the
	// first whose transition taken in the dive may be contended
	// (execution.contended).
	// nil if the dive found none or ended sleep-set blocked.
	race []int
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
	// idle counts the dives of cuts below free nodes that split nothing
	// (every alternative of the race point but the first left open):
	// freeDivesPerShard bounds the others.
	idle := 0
	root.share = satMul(root.est, shareUnit)
	for len(leaves) < maxLeaves*total {
		// the largest expandable leaf by share (the first in
		// depth-first order among equals)
		at, all := -1, shares(leaves)
		for i, l := range leaves {
			if !l.open && l.width >= 2 && l.share > all/uint64(leafShare*total) && (at < 0 || l.share > leaves[at].share) {
				at = i
			}
		}
		if at < 0 || len(leaves[at].race) > 1 && balanced(leaves, all, total) {
			// nothing to cut, or no need to cut through choice points
			// that split nothing
			break
		}
		nd := leaves[at]
		below := len(nd.race) > 1 // a cut below free nodes
		if w := nd.pointWidth(); dv.dives+w > diveBudget(sum, total) || below && dv.dives-idle+w > freeDivesPerShard*total {
			break
		}
		point := nd.racePoint()
		point.kids = make([]*planNode, point.width)
		for r := range point.kids {
			k := &planNode{path: append(slices.Clip(point.path), r)}
			point.kids[r] = k
			if dv.dive(k); dv.failed || ctx.Err() != nil {
				return nil, dv.dives
			}
			k.open = r > 0 && k.blocked
		}
		if below && !slices.ContainsFunc(point.kids[1:], func(k *planNode) bool { return !k.open }) {
			idle += point.width
		}
		nd.divide(point)
		sum -= nd.est
		kids := nd.leaves(nil)
		for _, l := range kids {
			sum = satAdd(sum, l.est)
		}
		leaves = slices.Replace(leaves, at, at+1, kids...)
	}
	root.settle()
	leaves = root.leaves(leaves[:0])
	pl := &shardPlan{root: root}
	pl.number(root)
	owner, _ := deal(leaves, total)
	copy(pl.owner, owner)
	return pl, dv.dives
}

// balanced reports whether dealing the leaves (of estimates summing to
// sum) gives no shard more than 1+1/balanceSlack times the mean: a plan
// stops there rather than cut below free nodes (racePoint). Cutting
// there costs only the dives now that free nodes explore no alternative
// of their own, but the estimates below them are poor (with
// Options.Shared on the philosophers N = 5, a leaf of estimate 10 held
// 1800 of the 3600 classes and leaves of estimate 15–17 held 120–960):
// going on cut the small subtrees deeper and dealt 2760 of the 3600
// executions to one of 4 shards, where stopping deals 1800. Other cuts go
// on while the budget lasts: the estimates are rough, and on the
// philosophers without Shared stopping at an even deal of the estimates
// dealt 1.19× the mean at 2 shards of N = 6 instead of 1.03.
func balanced(leaves []*planNode, sum uint64, total int) bool {
	_, most := deal(leaves, total)
	return satMul(most, uint64(total*balanceSlack)) <= satMul(sum, balanceSlack+1)
}

// balanceSlack: see balanced.
const balanceSlack = 8

// shareUnit: see planNode.share.
const shareUnit = 1 << 20

// freeDivesPerShard bounds the dives, per shard, of a plan that cuts
// below free nodes, not counting those of cuts that split nothing (every
// alternative of the race point but the first left open). With
// Options.Shared on the dining philosophers N = 5 at 8 shards: 45 probes
// per shard, max/mean 1.71 and 5.5 % overhead; counting every cut, 4
// gave 28 probes and 2.13 (the 960-class leaves stay whole), 6 at 2
// shards of N = 4 dealt 144 and 192 classes instead of 168 and 168.
// Before free nodes with races became fixed states (settle), deeper cuts
// cost far more than their dives (5: 38 probes, 2.13 and 14.3 %; 8: 1.71
// and 17.1 %): every shard below a free node explored the alternatives
// its own races added there, which one run explores once. Fitted, not
// derived.
const freeDivesPerShard = 4

// shares returns the sum of the leaves' shares.
func shares(leaves []*planNode) uint64 {
	var s uint64
	for _, l := range leaves {
		s = satAdd(s, l.share)
	}
	return s
}

// divide sets the shares of the kids of nd's race point, point, whose
// dives have run. A cut at nd's first choice point gives each kid the
// share its estimate gives at nd's rate (share per unit of estimate), as
// the estimates alone would rank them. A cut below free nodes divides
// nd's share among the kids that are not open in proportion to their
// estimates (the open ones get none), so that the subtree keeps its
// share however deep it is cut: the estimates below free nodes (with
// Options.Shared) add up to far more than their parent's (on the
// philosophers N = 5 the first alternative of the first race point held
// 1800 classes at estimate 15, and its leaves' estimates added up to 57
// and more once it was cut, while its sibling, also 1800 classes, stayed
// at 10 and was never cut: 4.00× the mean at 8 shards, 2.00 at 4).
func (nd *planNode) divide(point *planNode) {
	denom := nd.est
	if len(nd.race) > 1 {
		denom = 0
		for _, k := range point.kids {
			if !k.open {
				denom = satAdd(denom, k.est)
			}
		}
	}
	for _, k := range point.kids {
		if !k.open || len(nd.race) <= 1 {
			k.share = satMul(nd.share, k.est) / max(denom, 1)
		}
	}
}

// deal deals the leaves, largest estimate first, each to the shard with
// the least estimated work so far (ties: the lower index), and returns
// the leaves' shards and the largest shard's estimated work.
func deal(leaves []*planNode, total int) (owner []int, most uint64) {
	order := make([]int, len(leaves))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(leaves[b].share, leaves[a].share) })
	owner = make([]int, len(leaves))
	load := make([]uint64, total)
	for _, i := range order {
		to := 0
		for s := range load {
			if load[s] < load[to] {
				to = s
			}
		}
		owner[i] = to
		load[to] = satAdd(load[to], leaves[i].share)
	}
	return owner, slices.Max(load)
}

// racePoint expands the leaf nd down to its race point: the choice points
// of nd.race above the last become free nodes, each with one kid, its
// continuation (the first alternative not asleep, the one the dive took,
// carrying all the node's pieces). Their other alternatives are not
// planned: the transition they put to sleep is contended by nothing the
// dive ran, so as far as it shows nothing races with it and one DPOR run
// does not explore them; if some shard's executions show a race there,
// that shard explores the alternative as one DPOR run would, as its own
// (shardPath.take). It returns the race point's node, whose kids the
// caller dives (nd itself if nd.race has one choice point or none).
func (nd *planNode) racePoint() *planNode {
	at := nd
	for j := 0; j+1 < len(nd.race); j++ {
		next := &planNode{path: append(slices.Clip(at.path), 0)}
		at.free, at.kids = true, []*planNode{next}
		next.width, next.est, next.share, next.race = nd.race[j+1], nd.est, nd.share, nd.race[j+1:]
		at = next
	}
	return at
}

// pointWidth is the width of nd's race point (see racePoint).
func (nd *planNode) pointWidth() int {
	if len(nd.race) > 0 {
		return nd.race[len(nd.race)-1]
	}
	return nd.width
}

// leaves appends the leaves of nd's subtree to ls, in depth-first order.
func (nd *planNode) leaves(ls []*planNode) []*planNode {
	if nd.kids == nil {
		return append(ls, nd)
	}
	for _, k := range nd.kids {
		ls = k.leaves(ls)
	}
	return ls
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
		if c.free {
			// free as in the shards, so that the dive's races show
			// the alternatives they add there (planNode.raced)
			s.free, s.kids = true, []*planNode{build(c.kids[0], depth+1)}
			return s
		}
		s.kids = make([]*planNode, c.width)
		for r := range s.kids {
			s.kids[r] = &planNode{}
			if r == nd.path[depth] {
				s.kids[r] = build(c.kids[r], depth+1)
			} else if r < len(c.kids) && c.kids[r] != nil {
				// an open alternative stays open, as in the shards'
				// sleep sets (the kids after the one being dived are
				// not made yet)
				s.kids[r].open = c.kids[r].open
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
		dv.noteRaces(nd, d)
	}
	product := uint64(1)
	raced := false
	for _, st := range d.stack {
		s := st.node
		if s.fixed || s.free {
			continue
		}
		_, awake := s.awakeRank(tid{})
		if nd.width < 2 {
			nd.width = awake
		}
		n := s.backtrack.count(func(t tid) bool {
			_, asleep := s.sleep[t]
			return !asleep
		})
		if awake >= 2 && !raced {
			nd.race = append(nd.race, awake)
			raced = x.contended(st.ev)
		}
		product = satMul(product, uint64(max(n, 1)))
	}
	if x.sleepBlocked {
		product = 1
		nd.blocked = true
	}
	if !raced || x.sleepBlocked {
		nd.race = nil
	}
	nd.est = fourthRoot(product)
}

// noteRaces adds to the free nodes of the plan above nd (dv.root's) the
// ranks of the alternatives the races of d's dive added to their
// backtrack sets (planNode.raced): other goroutines' transitions, not
// asleep, besides the one taken.
func (dv *planDiver) noteRaces(nd *planNode, d *dporChooser) {
	pn, depth := dv.root, 0
	for _, st := range d.stack {
		s := st.node
		if depth == len(nd.path) || !s.fixed && !s.free {
			return
		}
		_, awake := s.awakeRank(tid{})
		if awake < 2 {
			continue
		}
		if s.free {
			for t := range s.backtrack.all() {
				if r, _ := s.awakeRank(t); r > 0 && t.g != st.chosen.g {
					if at, found := slices.BinarySearch(pn.raced, r); !found {
						pn.raced = slices.Insert(pn.raced, at, r)
					}
				}
			}
		}
		pn = pn.kids[nd.path[depth]]
		depth++
	}
}

// settle makes every free node of nd's subtree whose dives showed races
// adding alternatives there (planNode.raced) a fixed state: its
// continuation keeps its pieces, each of those alternatives is a piece of
// its own (a leaf of share 0, explored by the shard it is dealt to,
// whether or not its races add it), and the others are left open.
// Every shard whose races added such an alternative at the free node
// explored its subtree, as its own, where one run explores it once; as a
// piece it is explored once. The fixed state is sound as a race point's
// is (shard.go).
func (nd *planNode) settle() {
	for _, k := range nd.kids {
		k.settle()
	}
	if !nd.free || len(nd.raced) == 0 || nd.width < 2 {
		return
	}
	kids := make([]*planNode, nd.width)
	kids[0] = nd.kids[0]
	for r := 1; r < nd.width; r++ {
		kids[r] = &planNode{path: append(slices.Clip(nd.path), r), open: !slices.Contains(nd.raced, r)}
	}
	nd.free, nd.kids = false, kids
}

// contended reports whether event i of x (an index past the events:
// unknown) may be contended: it is not a shared memory access
// (Options.Shared), or it is dependent with a later event of another
// goroutine (one
// that is not a rendezvous or join with i's goroutines, which program
// order puts after i anyway). If it is not, the other alternatives at
// i's state, which put i's transition to sleep, leave it asleep as far
// as x shows (nothing that runs later wakes it): their executions end
// sleep-set blocked, and a plan cut there splits nothing. Other
// operations count as contended: on the philosophers without Shared,
// taking their choice points as splitting nothing cut the tree in pieces
// that dealt less evenly (2.77× the mean at 8 shards instead of 1.71).
func (x *execution) contended(i int) bool {
	if i < 0 || i >= len(x.events) {
		return true
	}
	e := &x.events[i]
	if e.kind != opShared {
		return true
	}
	ours := func(g uint64) bool { return g != 0 && (g == e.g || g == e.partner) }
	for k := i + 1; k < len(x.events); k++ {
		if f := &x.events[k]; !ours(f.g) && !ours(f.partner) && !ours(f.join) && dependent(e, f) {
			return true
		}
	}
	return false
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
