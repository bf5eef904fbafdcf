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

type dfsPool struct {
	mu      sync.Mutex
	cond    *sync.Cond
	jobs    [][]dfsEntry
	idle    int
	workers int
	done    bool
	started int // executions started
	pruned  bool
}

// get returns the next job; false when the exploration is over.
func (p *dfsPool) get() ([]dfsEntry, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for len(p.jobs) == 0 && !p.done {
		p.idle++
		if p.idle == p.workers {
			p.done = true
			p.cond.Broadcast()
			p.idle--
			return nil, false
		}
		p.cond.Wait()
		p.idle--
	}
	if p.done {
		return nil, false
	}
	job := p.jobs[len(p.jobs)-1]
	p.jobs = p.jobs[:len(p.jobs)-1]
	return job, true
}

func (p *dfsPool) put(jobs [][]dfsEntry) {
	if len(jobs) == 0 {
		return
	}
	p.mu.Lock()
	p.jobs = append(p.jobs, jobs...)
	p.cond.Broadcast()
	p.mu.Unlock()
}

// hungry reports whether a worker waits for work.
func (p *dfsPool) hungry() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.idle > 0 && len(p.jobs) == 0
}

// next numbers an execution; false when the execution bound is reached.
func (p *dfsPool) next(max int) (int, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.started >= max {
		return 0, false
	}
	p.started++
	return p.started, true
}

func (p *dfsPool) stop() {
	p.mu.Lock()
	p.done = true
	p.cond.Broadcast()
	p.mu.Unlock()
}

func (p *Program) parallelDFS(ctx context.Context, e *Entry, opts *Options, c, also *collector, bound int) bool {
	pool := &dfsPool{workers: opts.Workers, jobs: [][]dfsEntry{nil}}
	pool.cond = sync.NewCond(&pool.mu)
	var wg sync.WaitGroup
	for range opts.Workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			m := newMachine(p, opts)
			defer c.warnings(m)
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
