package explore

import "context"

// Preemption bounding (Musuvathi and Qadeer, PLDI 2007): most
// concurrency bugs need few preemptions, switches away from a goroutine
// that could go on. PB runs the DFS (dfsLoop) in rounds with the bounds
// 0, 1, … up to Options.Preemptions; a round whose bound cut no schedule
// covered them all and ends the search.

// explorePB runs PB's rounds, into one report of all of them.
func (p *Program) explorePB(ctx context.Context, e *Entry, opts *Options, r *Report) error {
	maxB := opts.Preemptions
	if maxB < 0 {
		maxB = 2
	}
	merged := newCollector(opts)
	for b := 0; b <= maxB; b++ {
		c := newCollector(opts)
		pruned := p.dfsLoop(ctx, e, opts, c, merged, b)
		for k := range c.bounds {
			merged.bound(k)
		}
		if !pruned {
			// This bound covered every schedule.
			delete(merged.bounds, "preemptions")
			break
		}
		if merged.stop.Load() || ctx.Err() != nil {
			break
		}
	}
	merged.fill(r)
	return nil
}

// preemptionCost is 1 if choosing ts[i] preempts the goroutine that ran
// the previous step while it could continue.
func preemptionCost(x *execution, ts []transition, i int) int {
	last := x.lastG
	if last == nil || ts[i].g == last {
		return 0
	}
	for _, t := range ts {
		if t.g == last {
			return 1
		}
	}
	return 0
}
