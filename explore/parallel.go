package explore

import (
	"context"
	"sync"
)

// Parallel DFS: the schedule tree is split among workers. A job is a
// prefix of fixed choices; a worker explores the subtree below its job
// depth-first and, when another worker is idle, hands it the unexplored
// siblings of its shallowest open choice point. Each worker has its own
// machine. The explored tree is the same as with one worker; only the
// numbering of executions (and so which of two equally short findings is
// reported) depends on timing.

// workPool hands jobs of type J to a fixed number of workers (parallel
// DFS and parallel DPOR). The exploration is over when every worker waits
// for a job and none is queued, or after stop.
type workPool[J any] struct {
	mu      sync.Mutex
	cond    *sync.Cond
	jobs    []J
	idle    int
	workers int
	done    bool
	started int // executions started
	pruned  bool
}

func newWorkPool[J any](workers int, first J) *workPool[J] {
	p := &workPool[J]{workers: workers, jobs: []J{first}}
	p.cond = sync.NewCond(&p.mu)
	return p
}

// get returns the next job; false when the exploration is over.
func (p *workPool[J]) get() (J, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for len(p.jobs) == 0 && !p.done {
		p.idle++
		if p.idle == p.workers {
			p.done = true
			p.cond.Broadcast()
			p.idle--
			var zero J
			return zero, false
		}
		p.cond.Wait()
		p.idle--
	}
	if p.done {
		var zero J
		return zero, false
	}
	job := p.jobs[len(p.jobs)-1]
	p.jobs = p.jobs[:len(p.jobs)-1]
	return job, true
}

func (p *workPool[J]) put(jobs []J) {
	if len(jobs) == 0 {
		return
	}
	p.mu.Lock()
	p.jobs = append(p.jobs, jobs...)
	p.cond.Broadcast()
	p.mu.Unlock()
}

// hungry reports whether a worker waits for work.
func (p *workPool[J]) hungry() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.idle > 0 && len(p.jobs) == 0
}

// next numbers an execution; false when the execution bound is reached.
func (p *workPool[J]) next(max int) (int, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.started >= max {
		return 0, false
	}
	p.started++
	return p.started, true
}

func (p *workPool[J]) stop() {
	p.mu.Lock()
	p.done = true
	p.cond.Broadcast()
	p.mu.Unlock()
}

func (p *Program) parallelDFS(ctx context.Context, e *Entry, opts *Options, c, also *collector, bound int) bool {
	pool := newWorkPool[[]dfsEntry](opts.Workers, nil)
	var wg sync.WaitGroup
	for range opts.Workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			m := newMachine(p, opts)
			defer c.warnings(m)
			if also != nil {
				defer also.warnings(m)
			}
			for {
				job, ok := pool.get()
				if !ok {
					return
				}
				d := &dfsChooser{bound: bound, stack: job}
				for {
					if c.stopped(ctx) {
						pool.stop()
						return
					}
					n, ok := pool.next(opts.maxExecutions())
					if !ok {
						c.bound("executions")
						pool.stop()
						return
					}
					if p.runCollect(m, e, opts, d, n, opts.Seed, c, also) {
						pool.stop()
						return
					}
					if !d.next() {
						break
					}
					if pool.hungry() {
						pool.put(d.split())
					}
				}
				if d.pruned {
					pool.mu.Lock()
					pool.pruned = true
					pool.mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	if pool.pruned {
		c.bound("preemptions")
	}
	return pool.pruned
}
