package explore

import (
	"context"
	"fmt"
)

// dfsChooser replays a prefix and extends it with first alternatives.
type dfsChooser struct {
	stack []dfsEntry
	pos   int
	// bound limits preemptions (-1: none); pruned records that an
	// alternative was skipped because of it.
	bound    int
	pruned   bool
	preempts int
}

type dfsEntry struct {
	n int
	// end, if not 0, limits the alternatives this chooser explores to
	// k < end (the others were handed to other workers).
	end  int
	alts []int // allowed alternatives (nil: all)
	k    int   // index into alts (or the choice itself)
	cost []int // preemption count before this point (PB)
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
		c := e.choice()
		d.preempts += preemptionCost(x, ts, c)
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
	d.stack = append(d.stack, e)
	d.pos++
	c := e.choice()
	d.preempts += preemptionCost(x, ts, c)
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

func (p *Program) exploreDFS(ctx context.Context, e *Entry, opts *Options, r *Report, bound int) error {
	c := newCollector(opts)
	p.dfsLoop(ctx, e, opts, c, nil, bound)
	c.fill(r)
	return nil
}

// dfsLoop runs the DFS with a preemption bound (-1: none), recording in c
// (and in also, if not nil). It reports whether the bound pruned
// alternatives.
func (p *Program) dfsLoop(ctx context.Context, e *Entry, opts *Options, c, also *collector, bound int) bool {
	if opts.Workers > 1 {
		return p.parallelDFS(ctx, e, opts, c, also, bound)
	}
	m := newMachine(p, opts)
	defer c.warnings(m)
	if also != nil {
		defer also.warnings(m) // PB's merged collector builds the report
	}
	d := &dfsChooser{bound: bound}
	for n := 1; !c.stopped(ctx); n++ {
		if n > opts.maxExecutions() {
			c.bound("executions")
			break
		}
		if p.runCollect(m, e, opts, d, n, opts.Seed, c, also) || !d.next() {
			break
		}
	}
	if d.pruned {
		c.bound("preemptions")
	}
	return d.pruned
}
