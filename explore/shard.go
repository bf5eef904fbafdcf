package explore

import (
	"fmt"
	"strconv"
	"strings"
)

// Sharding splits one exploration into Shard.Total parts that run
// anywhere (other processes, other machines) without communicating, and
// whose union is the whole exploration.
//
// The exhaustive strategies (DFS, PB, DPOR) share one partition of the
// schedule tree. Along every path, the choice points with two or more
// alternatives multiply a width, the number of paths the tree would have
// at that depth if every choice point had the same number of
// alternatives. The first choice point at which the width reaches
// splitWidth × Total is the path's split point: its alternatives go to
// the shards in turn, starting at a shard given by a hash of the choices
// above it, and each shard explores only the subtrees of its
// alternatives. Every shard walks the choice points above the split
// points (the same ones in every shard: they depend only on the program);
// an execution that reaches a split point without an alternative for its
// shard is cut there (Report.Skipped), and one that ends above every split
// point belongs to the shard its choices hash to. A trivial first choice
// (one alternative) does not count, so a program that spawns its
// goroutines one by one is still split where they race.
//
// DPOR explores every alternative of the choice points at and above the
// split points (its backtrack sets there are fixed: all enabled
// transitions not asleep), with sleep sets ordered by the alternatives'
// order: a shard's sleep sets do not depend on what other shards
// explored. Below the split points each shard runs DPOR on its subtrees.
// With sleep sets, no two complete executions of the run are equivalent,
// so no happens-before class is explored by two shards; and every class
// is explored by some shard, as by one DPOR run.
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

// splitWidth is the number of split-point alternatives per shard the
// partition aims at: enough subtrees for the shards' sizes to even out,
// few enough that the executions cut at split points stay a small share.
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

// shardPath follows one execution's path through the partition: the
// width and hash of its choices above the split point, and whether it
// has passed it. The zero value (Total ≤ 1) owns everything.
type shardPath struct {
	shard Shard
	width int    // product of the alternative counts so far (saturates at the target)
	hash  uint64 // of the choices so far
	below bool   // the path passed its split point, with an alternative of this shard
}

func newShardPath(s Shard) shardPath { return shardPath{shard: s, width: 1} }

// reset starts a new path.
func (p *shardPath) reset() {
	p.width, p.hash, p.below = 1, 0, false
}

// active reports whether the path is still above its split point (in a
// sharded exploration).
func (p *shardPath) active() bool { return p.shard.Sharded() && !p.below }

// splitsAt reports whether a choice point of n alternatives at the
// current position is the path's split point.
func (p *shardPath) splitsAt(n int) bool {
	return p.active() && n >= 2 && p.width*n >= splitWidth*p.shard.Total
}

// owns reports whether alternative k of the split point is this shard's.
func (p *shardPath) owns(k int) bool {
	return (int(p.hash%uint64(p.shard.Total))+k)%p.shard.Total == p.shard.Index
}

// take records choice k among n alternatives.
func (p *shardPath) take(k, n int) {
	if !p.active() || n < 2 {
		return
	}
	if p.splitsAt(n) {
		p.below = true
		return
	}
	p.width *= n
	p.hash = mix(p.hash^uint64(n)<<32, uint64(k)+1)
}

// ownsEnd reports whether an execution whose path ended here belongs to
// this shard: always below a split point (the split point chose), by the
// hash of its choices above every split point.
func (p *shardPath) ownsEnd() bool {
	if !p.active() {
		return true
	}
	return int(p.hash%uint64(p.shard.Total)) == p.shard.Index
}

// ownedAlts returns the alternatives among alts (nil: all n) that are
// this shard's at a split point: a non-nil slice, empty if none is.
func (p *shardPath) ownedAlts(alts []int, n int) []int {
	own := []int{}
	if alts == nil {
		for k := range n {
			if p.owns(k) {
				own = append(own, k)
			}
		}
		return own
	}
	for _, k := range alts {
		if p.owns(k) {
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
func (s *dporNode) fixedBefore(t tid, add func(tid, event)) {
	for _, u := range s.enabled {
		if u == t {
			return
		}
		if _, asleep := s.sleep[u]; asleep {
			continue
		}
		add(u, s.events[u])
	}
}

// chooseFixed chooses at the new fixed state s (k: its index in the
// path), above or at the path's split point: every enabled transition
// not asleep (at the split point, of this shard's) is in its backtrack
// set; the first is taken. With none of this shard's the execution is
// cut (skipped); with none awake, it is sleep-set blocked.
func (d *dporChooser) chooseFixed(s *dporNode, ts []transition, k int) int {
	_, awake := s.awakeRank(tid{})
	split := d.part.splitsAt(awake)
	first, rank := -1, 0
	for i, t := range s.enabled {
		if _, asleep := s.sleep[t]; asleep {
			continue
		}
		rank++
		if split && !d.part.owns(rank-1) {
			continue
		}
		s.backtrack[t] = true
		s.backG[t.g] = true
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
		d.takeFixed(s, t)
		return first
	case awake > 0:
		d.skipped = true
	default:
		d.blocked++
	}
	return sleepBlocked
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

// takeFixed records in the chooser's shard path that t is taken at the
// fixed state s.
func (d *dporChooser) takeFixed(s *dporNode, t tid) {
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
