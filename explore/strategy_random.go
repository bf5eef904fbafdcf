package explore

import (
	"context"
	"sync"
	"sync/atomic"
)

// randomChooser picks uniformly; pct adds PCT priorities.
type randomChooser struct {
	rng *rng
	pct *pctState
}

type pctState struct {
	depth   int
	prio    map[uint64]int
	changes []int // steps at which the running goroutine's priority drops
	next    int   // next low priority to assign
}

func (rc *randomChooser) choose(x *execution, ts []transition) int {
	if rc.pct == nil {
		return rc.rng.intn(len(ts))
	}
	ps := rc.pct
	prio := func(t transition) int {
		k := t.g.key
		p, ok := ps.prio[k]
		if !ok {
			p = ps.depth + rc.rng.intn(1<<20)
			ps.prio[k] = p
		}
		return p
	}
	pick := func() (best int) {
		best = -1
		bp := -1
		for i, t := range ts {
			if p := prio(t); p > bp {
				best, bp = i, p
			}
		}
		return best
	}
	best := pick()
	for _, cp := range ps.changes {
		if cp == x.steps {
			ps.prio[ts[best].g.key] = ps.next
			ps.next--
			best = pick()
		}
	}
	// Several alternatives of the chosen goroutine: choose randomly.
	g := ts[best].g
	var same []int
	for i, t := range ts {
		if t.g == g {
			same = append(same, i)
		}
	}
	return same[rc.rng.intn(len(same))]
}

func (p *Program) exploreRandom(ctx context.Context, e *Entry, opts *Options, r *Report) error {
	c := newCollector(opts)
	workers := max(1, opts.Workers)
	total := opts.maxExecutions()
	var next atomic.Int64
	var wg sync.WaitGroup
	var maxSteps atomic.Int64
	maxSteps.Store(int64(min(opts.maxSteps(), 100)))
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			m := newMachine(p, opts)
			defer c.warnings(m)
			for !c.stopped(ctx) {
				i := int(next.Add(1))
				if i > total {
					c.bound("executions")
					return
				}
				seed := int64(mix(uint64(opts.Seed), uint64(i)))
				rc := &randomChooser{rng: newRNG(uint64(seed))}
				if opts.Strategy == PCT {
					d := opts.PCTDepth
					if d <= 0 {
						d = 3
					}
					k := int(maxSteps.Load())
					ps := &pctState{depth: d, prio: map[uint64]int{}, next: d - 1}
					for j := 1; j < d; j++ {
						ps.changes = append(ps.changes, 1+rc.rng.intn(max(1, k)))
					}
					rc.pct = ps
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
