package explore

import (
	"context"
	"fmt"
	"time"
)

// Explore explores the executions of entry e with opts.Strategy (Auto if
// empty), or runs the one execution of opts.Replay, and reports what it
// found and how far it got.
func (p *Program) Explore(ctx context.Context, e *Entry, opts Options) (*Report, error) {
	if opts.Strategy == "" {
		opts.Strategy = Auto
	}
	switch opts.MapOrders {
	case "":
		opts.MapOrders = MapOffsets
	case MapOffsets, MapPermutations:
	default:
		return nil, fmt.Errorf("explore: unknown map order mode %q (want offsets or permutations)", opts.MapOrders)
	}
	if err := opts.Shard.Validate(); err != nil {
		return nil, fmt.Errorf("explore: shard: %w", err)
	}
	if opts.Replay != "" {
		opts.Shard = Shard{} // a token names one execution, whichever shard ran it
	}
	opts.recordEvents = opts.CountClasses || opts.Shared
	opts.symbolic = p.symbolicExploration(e, &opts)
	if opts.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, opts.Timeout)
		defer cancel()
	}
	opts.done = ctx.Done()
	opts.ctx = ctx
	opts.memory = newMemoryGauge(opts.maxMemory())
	opts.procs = &procCache{}
	defer opts.procs.cleanup()
	start := time.Now()
	r := &Report{Entry: e.Name, Strategy: string(opts.Strategy), Seed: opts.Seed, Shard: opts.Shard}
	specProblems, err := p.installSpecs(ctx, e, &opts, r)
	if err != nil {
		return nil, err
	}
	warnings := r.Warnings
	if e.Note != "" {
		warnings = append(warnings, e.Note)
	}
	if opts.Replay != "" {
		err = p.replay(ctx, e, &opts, r)
	} else {
		var explore driver
		if explore, err = opts.Strategy.driver(); err != nil {
			err = fmt.Errorf("explore: %w", err)
		} else {
			err = explore(p, ctx, e, &opts, r)
		}
	}
	if err == nil {
		p.completeRaces(e, &opts, r.Findings)
	}
	r.Warnings = append(warnings, r.Warnings...)
	r.Warnings = append(r.Warnings, opts.procs.warningList()...)
	r.Findings = append(r.Findings, specProblems...)
	r.Elapsed = time.Since(start)
	if err == nil {
		r.Suggestion = suggest(r, &opts)
	}
	return r, err
}

// chooseLocal makes a choice point of n ≥ 2 alternatives of goroutine g
// alone, inside its transition (kind choiceBranch or choiceMapOrder): it
// is not a scheduling state, the alternatives are g's local
// nondeterminism. Every strategy explores it as any choice (DPOR backtracks
// every alternative of a goroutine at a state), and replay tokens record
// it.
func (x *execution) chooseLocal(g *goroutine, n int, kind choiceKind) (int, ctrl) {
	ts := make([]transition, n)
	for i := range ts {
		ts[i] = transition{g: g, alt: i}
	}
	x.branching = true
	i := x.chooser.choose(x, ts)
	x.branching = false
	switch {
	case i == sleepBlocked:
		x.sleepBlocked = true
		x.stopped = true
		return 0, ctrlStop
	case i < 0 || i >= n:
		x.stopWith("replay", "diverged at choice %d", len(x.path))
		return 0, ctrlStop
	}
	x.path = append(x.path, choice{n: n, c: i, kind: kind, g: g.key})
	return i, ctrlNext
}

// chooser picks one transition at a choice point.
type chooser interface {
	choose(x *execution, ts []transition) int
}

// runOne performs one execution.
func (p *Program) runOne(m *machine, e *Entry, opts *Options, ch chooser, num int, seed int64) *execution {
	x := newExecution(m, e, opts, ch, num, seed)
	x.run()
	return x
}

// runCollect performs one execution, records it in c (and also, if not
// nil), and releases it. It reports whether the execution could not run
// the program (unsupported, internal), which ends the exploration.
func (p *Program) runCollect(m *machine, e *Entry, opts *Options, ch chooser, num int, seed int64, c, also *collector) bool {
	x := p.runOne(m, e, opts, ch, num, seed)
	if o, ok := ch.(shardOwner); ok && !o.owned() {
		c.skip(also)
		x.release()
		return false
	}
	c.add(x)
	if also != nil {
		also.add(x)
	}
	fatal := x.hasFatalFinding()
	x.release()
	return fatal
}
