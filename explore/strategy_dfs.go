package explore

import (
	"context"
	"fmt"
	"sync/atomic"
)

// DFS enumerates every schedule depth-first, statelessly: each execution
// re-runs the entry from the start, replays the choices of the current
// path and extends it with first alternatives; the next path changes the
// deepest choice that has an alternative left. PB (strategy_pb.go) is DFS
// with a preemption bound. Both run on treeSearch (treesearch.go): a
// unit of work is a path prefix, a []dfsEntry.

// dfsChooser walks the subtree below a path prefix (a walker of
// []dfsEntry units): it replays the prefix and extends it with first
// alternatives.
type dfsChooser struct {
	stack []dfsEntry
	pos   int
	// bound limits preemptions (-1: none); pruned records that an
	// alternative was skipped because of it.
	bound    int
	pruned   bool
	preempts int
	// part follows the path through the shard partition; skipped
	// records that the path reached a split point without an
	// alternative of this shard.
	part    shardPath
	skipped bool
}

// dfsEntry is a choice point of the current path: n alternatives, of
// which the path takes choice().
type dfsEntry struct {
	n int
	// end, if not 0, limits the alternatives this chooser explores to
	// k < end (the others were handed to other workers).
	end  int
	alts []int // allowed alternatives (nil: all)
	k    int   // index into alts (or the choice itself)
}

func (e *dfsEntry) choice() int {
	if e.alts == nil {
		return e.k
	}
	return e.alts[e.k]
}

func (e *dfsEntry) count() int {
	n := e.n
	if e.alts != nil {
		n = len(e.alts)
	}
	if e.end > 0 {
		n = min(n, e.end)
	}
	return n
}

func (d *dfsChooser) choose(x *execution, ts []transition) int {
	if d.pos < len(d.stack) {
		e := &d.stack[d.pos]
		d.pos++
		if e.n != len(ts) {
			x.internal(fmt.Sprintf("nondeterministic execution: choice point %d had %d alternatives, now %d", d.pos-1, e.n, len(ts)))
			return 0
		}
		if e.count() == 0 {
			d.skipped = true
			return sleepBlocked
		}
		c := e.choice()
		d.preempts += preemptionCost(x, ts, c)
		d.part.take(c, e.n)
		return c
	}
	e := dfsEntry{n: len(ts)}
	if d.bound >= 0 {
		for i := range ts {
			if d.preempts+preemptionCost(x, ts, i) <= d.bound {
				e.alts = append(e.alts, i)
			} else {
				d.pruned = true
			}
		}
	}
	if d.part.active() {
		// (the pieces are divided among all n alternatives, not only
		// those the bound allows: PB's rounds, with growing bounds,
		// divide them alike)
		e.alts = d.part.ownedAlts(e.alts, e.n)
	}
	d.stack = append(d.stack, e)
	d.pos++
	if e.count() == 0 {
		d.skipped = true
		return sleepBlocked
	}
	c := e.choice()
	d.preempts += preemptionCost(x, ts, c)
	d.part.take(c, e.n)
	return c
}

// split hands the unexplored siblings of the shallowest choice point
// that has any to other workers: each becomes a job, a prefix of fixed
// choices.
func (d *dfsChooser) split() [][]dfsEntry {
	for i := range d.stack {
		e := &d.stack[i]
		if e.k+1 >= e.count() {
			continue
		}
		var jobs [][]dfsEntry
		for k := e.k + 1; k < e.count(); k++ {
			job := make([]dfsEntry, i+1)
			copy(job, d.stack[:i+1])
			for j := range job[:i] {
				job[j].end = job[j].k + 1
			}
			job[i].k, job[i].end = k, k+1
			jobs = append(jobs, job)
		}
		e.end = e.k + 1
		return jobs
	}
	return nil
}

// next moves to the next path; false when the tree is exhausted.
func (d *dfsChooser) next() bool {
	d.pos = 0
	d.preempts = 0
	d.part.reset()
	d.skipped = false
	for len(d.stack) > 0 {
		top := &d.stack[len(d.stack)-1]
		if top.k+1 < top.count() {
			top.k++
			return true
		}
		d.stack = d.stack[:len(d.stack)-1]
	}
	return false
}

// exploreDFS explores every schedule depth-first.
func (p *Program) exploreDFS(ctx context.Context, e *Entry, opts *Options, r *Report) error {
	c := newCollector(opts)
	p.dfsLoop(ctx, e, opts, c, nil, -1)
	c.fill(r)
	return nil
}

// dfsLoop runs the DFS with a preemption bound (-1: none), recording in c
// (and in also, if not nil: PB's collector of all its rounds). It reports
// whether the bound pruned alternatives. Several workers explore the same
// tree as one. The pruning of a walk cut short by the end of the search
// counts with one worker; with several, only that of walks that
// exhausted their subtree does.
func (p *Program) dfsLoop(ctx context.Context, e *Entry, opts *Options, c, also *collector, bound int) bool {
	var pruned atomic.Bool
	s := treeSearch[[]dfsEntry, *dfsChooser]{
		p: p, e: e, opts: opts, c: c, also: also,
		walk: func(prefix []dfsEntry) *dfsChooser {
			return &dfsChooser{bound: bound, stack: prefix, part: newShardPath(opts.Shard)}
		},
		run: func(m *machine, d *dfsChooser, n int) bool {
			return p.runCollect(m, e, opts, d, n, opts.Seed, c, also)
		},
		end: func(d *dfsChooser, exhausted bool) {
			if d.pruned && (exhausted || opts.Workers <= 1) {
				pruned.Store(true)
			}
		},
	}
	s.search(ctx)
	if pruned.Load() {
		c.bound("preemptions")
	}
	return pruned.Load()
}
