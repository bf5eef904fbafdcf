package explore

import (
	"context"
	"sync"
)

// The depth-first strategies (DFS, each round of PB, DPOR) share one
// search of the schedule tree, by one worker or several. A unit of work
// is a prefix of choices, the root of a subtree (a []dfsEntry for DFS
// and PB, a []dporStep for DPOR; the first unit, the zero value, is the
// whole tree). A worker walks the subtree of one unit at a time
// depth-first, one path per execution, and, when another worker is idle,
// hands it unexplored parts of its subtree as new units. Each worker has
// its own machine. With one worker the executions are those of the plain
// sequential search, in its order; with several, the strategies say what
// is the same (dfsLoop, exploreDPOR): the numbering of executions (and so
// which of two equally short findings is reported) depends on timing.

// walker walks a subtree of the schedule tree depth-first, one path per
// execution: it is the chooser of the executions it runs. U is the
// strategy's unit of work.
type walker[U any] interface {
	chooser
	// next moves to the subtree's next path; false when the subtree is
	// exhausted.
	next() bool
	// split takes unexplored parts out of the subtree and returns them
	// as units for other workers (none if there are none).
	split() []U
}

// treeSearch is one depth-first search of the schedule tree with
// Options.Workers workers (at least one). It ends when every subtree is
// exhausted, or at the first of: c's stop flag (a first finding, the
// memory bound), the context's end (the time bound), the executions bound
// (Options.MaxExecutions, over all workers, not counting the executions c
// recorded as pruned) and a run that ends it.
type treeSearch[U any, W walker[U]] struct {
	p    *Program
	e    *Entry // the explored entry (for the machines' pool key)
	opts *Options
	// c records the bounds that cut the search and the warnings of the
	// workers' machines; also, if not nil, records the warnings too.
	c, also *collector
	// walk returns a walker of the subtree below u.
	walk func(u U) W
	// run performs execution n along w's current path with machine m and
	// records it; true ends the search (the execution could not run the
	// program, or the search is over).
	run func(m *machine, w W, n int) bool
	// end, if not nil, is called when w's walk ends: exhausted, or cut
	// by the end of the search.
	end func(w W, exhausted bool)
}

// search runs the search to its end.
func (s *treeSearch[U, W]) search(ctx context.Context) {
	workers := max(1, s.opts.Workers)
	var root U
	pool := newWorkPool(workers, root)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.work(ctx, pool)
		}()
	}
	wg.Wait()
}

// work is one worker: it walks the subtrees of the units it gets until
// the search ends.
func (s *treeSearch[U, W]) work(ctx context.Context, pool *workPool[U]) {
	m := s.p.acquireMachine(s.e, s.opts)
	defer s.p.releaseMachine(m)
	defer s.c.warnings(m)
	if s.also != nil {
		defer s.also.warnings(m)
	}
	for {
		u, ok := pool.get()
		if !ok {
			return
		}
		w := s.walk(u)
		exhausted := s.walkSubtree(ctx, pool, m, w)
		if s.end != nil {
			s.end(w, exhausted)
		}
		if !exhausted {
			pool.stop()
			return
		}
	}
}

// walkSubtree runs the executions of w's subtree; false if the search
// ended first.
func (s *treeSearch[U, W]) walkSubtree(ctx context.Context, pool *workPool[U], m *machine, w W) bool {
	for {
		if s.c.stopped(ctx) {
			return false
		}
		// Pruned executions (DPOR's sleep-set-blocked ones) do not count
		// toward the bound: started - pruned is at most the bound.
		n, ok := pool.next(s.opts.maxExecutions() + s.c.prunedCount())
		if !ok {
			s.c.bound("executions")
			return false
		}
		if s.run(m, w, n) {
			return false
		}
		if !w.next() {
			return true
		}
		if pool.hungry() {
			pool.put(w.split())
		}
	}
}

// workPool hands units of work of type U to a fixed number of workers.
// The search is over when every worker waits for a unit and none is
// queued, or after stop.
type workPool[U any] struct {
	mu      sync.Mutex
	cond    *sync.Cond
	units   []U
	idle    int
	workers int
	done    bool
	started int // executions started
}

func newWorkPool[U any](workers int, first U) *workPool[U] {
	p := &workPool[U]{workers: workers, units: []U{first}}
	p.cond = sync.NewCond(&p.mu)
	return p
}

// get returns the next unit; false when the search is over.
func (p *workPool[U]) get() (U, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for len(p.units) == 0 && !p.done {
		p.idle++
		if p.idle == p.workers {
			p.done = true
			p.cond.Broadcast()
			p.idle--
			var zero U
			return zero, false
		}
		p.cond.Wait()
		p.idle--
	}
	if p.done {
		var zero U
		return zero, false
	}
	u := p.units[len(p.units)-1]
	p.units = p.units[:len(p.units)-1]
	return u, true
}

func (p *workPool[U]) put(units []U) {
	if len(units) == 0 {
		return
	}
	p.mu.Lock()
	p.units = append(p.units, units...)
	p.cond.Broadcast()
	p.mu.Unlock()
}

// hungry reports whether a worker waits for work.
func (p *workPool[U]) hungry() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.idle > 0 && len(p.units) == 0
}

// next numbers an execution; false when max executions have started.
func (p *workPool[U]) next(max int) (int, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.started >= max {
		return 0, false
	}
	p.started++
	return p.started, true
}

func (p *workPool[U]) stop() {
	p.mu.Lock()
	p.done = true
	p.cond.Broadcast()
	p.mu.Unlock()
}
