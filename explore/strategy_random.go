package explore

import (
	"context"
	"sync"
	"sync/atomic"
)

// The Random and PCT strategies sample schedules: each execution draws
// its choices from a generator seeded by Options.Seed and the execution's
// number, so a run is reproducible whatever the number of workers. Random
// picks every choice uniformly; PCT (strategy_pct.go) by priorities. A
// sample never proves the absence of bugs: the report is incomplete
// (Bound "executions") even when nothing else cut it.

// randomChooser picks uniformly at random, or, if pct is set, by PCT's
// priorities.
type randomChooser struct {
	rng *rng
	pct *pctState
}

func (rc *randomChooser) choose(x *execution, ts []transition) int {
	if rc.pct != nil {
		return rc.pct.choose(x, ts, rc.rng)
	}
	return rc.rng.intn(len(ts))
}

// exploreRandom samples Options.MaxExecutions executions with Random or
// PCT (opts.Strategy), with Options.Workers workers taking the next
// execution number in turn.
func (p *Program) exploreRandom(ctx context.Context, e *Entry, opts *Options, r *Report) error {
	c := newCollector(opts)
	workers := max(1, opts.Workers)
	total := opts.maxExecutions()
	var next atomic.Int64
	var wg sync.WaitGroup
	// maxSteps is the longest execution so far (at least 100 steps, or
	// MaxSteps): PCT draws its priority change points below it
	var maxSteps atomic.Int64
	maxSteps.Store(int64(min(opts.maxSteps(), 100)))
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			m := p.acquireMachine(e, opts)
			defer p.releaseMachine(m)
			defer c.warnings(m)
			for !c.stopped(ctx) {
				i := int(next.Add(1))
				if i > total {
					c.bound("executions")
					return
				}
				seed := opts.Shard.sampleSeed(opts.Seed, i)
				rc := &randomChooser{rng: newRNG(uint64(seed))}
				if opts.Strategy == PCT {
					rc.pct = newPCT(opts.pctDepth(), int(maxSteps.Load()), rc.rng)
				}
				x := p.runOne(m, e, opts, rc, i, seed)
				if int64(x.steps) > maxSteps.Load() {
					maxSteps.Store(int64(x.steps))
				}
				c.add(x)
				if x.hasFatalFinding() {
					c.stop.Store(true)
				}
				x.release()
			}
		}()
	}
	wg.Wait()
	c.fill(r)
	// Random exploration never proves absence of bugs.
	if r.Bound == "" {
		r.Bound = "executions"
		r.Complete = false
	}
	return nil
}
