package explore

import (
	"context"
	"fmt"
	"time"
)

// exploreDPOR runs source-set DPOR with Options.Workers workers.
//
// With one worker it is the sequential algorithm: exactly one complete
// execution per happens-before class on the tested programs. With more,
// the workers share the states of common prefixes (dporNode): a worker
// explores the subtree of a job depth-first and, when another worker is
// idle, hands it the pending backtrack transitions of its shallowest
// state. Races found by any worker add backtrack transitions to the
// shared states of its path, and any worker through a state may claim
// them; a transition is claimed once. The claims at a state are a linear
// order, and a new state's sleep set takes the transitions claimed at its
// parent before its own (explored, or being explored by another worker),
// so the run is a sequential run with another order of the alternatives
// at each state, except that subtrees are explored at the same time (a
// race's "already covered?" test sees the backtrack sets of that moment).
// Which execution represents a class, and so a finding's trace, replay
// token and execution number, depends on timing; the classes reached
// (and so the findings by kind, message, position and steps) do not, on
// the programs where sequential DPOR is complete.
//
// Tried and dropped: putting to sleep only siblings whose subtrees are
// finished (reference-counted states) ran 3–4× the executions of one
// worker and still missed classes on outcomes.Diners.
func (p *Program) exploreDPOR(ctx context.Context, e *Entry, opts *Options, r *Report) error {
	o := *opts
	o.recordEvents = true
	c := newCollector(&o)
	part := func() shardPath { return newShardPath(o.Shard) }
	if o.Shard.Sharded() {
		// the shard plan (shardplan.go); the even division if it has
		// nothing to cut or a dive could not run the program (the
		// exploration then reports why)
		pl, dives := p.planShards(ctx, e, &o)
		r.Probes = dives
		if c.stopped(ctx) {
			c.fill(r)
			return nil
		}
		if pl != nil && len(pl.owner) >= 2 {
			mine := pl.mine(o.Shard.Index)
			part = func() shardPath { return newPlanPath(pl, mine) }
		}
	}
	s := treeSearch[[]dporStep, *dporChooser]{
		p: p, e: e, opts: &o, c: c,
		walk: func(prefix []dporStep) *dporChooser {
			return &dporChooser{stack: prefix, eager: o.Workers > 1, part: part()}
		},
		run: func(m *machine, d *dporChooser, n int) bool {
			return p.runDPOR(m, e, &o, d, n, c)
		},
	}
	s.search(ctx)
	c.fill(r)
	r.Pruned = c.pruned
	return nil
}

// runDPOR runs execution n, records it in c (a sleep-set-blocked one only
// as pruned) and adds the backtrack points of its races. It reports
// whether the search must end: the execution could not run the program
// (unsupported, internal), or the time or memory bound cut it or its
// analysis.
func (p *Program) runDPOR(m *machine, e *Entry, o *Options, d *dporChooser, n int, c *collector) bool {
	t0 := time.Now()
	x := newExecution(m, e, o, d, n, o.Seed)
	defer x.release()
	x.chooseAll = true
	x.run()
	if !d.owned() {
		// another shard's (it ended above every split point): the
		// shard that owns it runs it too and adds its races, at the
		// free states of its path as at any other
		c.skip(nil)
		d.resetSpans()
		d.open = nil
		return false
	}
	if !x.sleepBlocked {
		c.add(x)
	} else {
		c.mu.Lock()
		c.pruned++
		c.mu.Unlock()
	}
	if x.hasFatalFinding() {
		return true
	}
	if x.bound == "time" || x.bound == "memory" {
		// The exploration is over: analysing a cut execution (possibly a
		// very long one) would only delay the report.
		return true
	}
	if !d.analyze(x) {
		// the time ran out during the analysis
		c.bound("time")
		return true
	}
	if o.autoShare > 0 {
		start := x.entered
		if start.IsZero() {
			start = t0
		}
		d.spent += time.Since(start)
		d.runs++
		if est, reason := d.tooLarge(c, o.autoShare); reason != "" {
			c.mu.Lock()
			c.bounds["schedules"] = true
			c.reason, c.estimate = reason, est
			c.mu.Unlock()
			return true
		}
	}
	return false
}

// autoMargin is how far beyond its share DPOR's estimated time must be for
// Auto to give up on it early: the estimate counts one execution per
// pending transition, and some of those end early (pruned).
const autoMargin = 2

// tooLarge says why DPOR cannot complete within share at its pace, with
// its estimate of the time it needs; "" if it may. It looks at the worker's executions 1, 2, 4, 8, … (d.runs):
// the transitions its path still has to explore (pending: each is at
// least one more execution, pruned or not) times its mean time per
// execution so far (package initialization excluded: it is snapshotted
// after the first execution) must exceed autoMargin times the share.
func (d *dporChooser) tooLarge(c *collector, share time.Duration) (time.Duration, string) {
	if d.runs&(d.runs-1) != 0 {
		return 0, ""
	}
	pending := d.pending()
	if pending == 0 {
		return 0, ""
	}
	per := d.spent / time.Duration(d.runs)
	est := time.Duration(pending) * per
	if est <= autoMargin*share {
		return 0, ""
	}
	c.mu.Lock()
	n := c.execs
	c.mu.Unlock()
	return est, fmt.Sprintf("at least %d schedules left to explore after %s: about %s at %s per execution, beyond DPOR's share of %s",
		pending, plural(n, "execution"), roundDuration(est), roundDuration(per), roundDuration(share))
}

// roundDuration rounds d for a message: to seconds from a minute up, to
// milliseconds from a second, else to microseconds.
func roundDuration(d time.Duration) time.Duration {
	switch {
	case d >= time.Minute:
		return d.Round(time.Second)
	case d >= time.Second:
		return d.Round(time.Millisecond)
	}
	return d.Round(time.Microsecond)
}
