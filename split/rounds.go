package split

import (
	"context"
	"errors"
	"sync"
	"time"
)

// Schedule selects how the parallel fixpoint's workers interleave.
type Schedule uint8

const (
	// Rounds, the default, runs the workers in lockstep: each round, every
	// worker computes the summaries of its new states, the summaries are
	// exchanged, then every worker computes its images. This is exactly
	// the sequential algorithm's schedule split across stores (the same
	// intermediate sets), so the total work equals the sequential one; in
	// our measurements (BENCHMARKS.part.md) it is the faster schedule.
	Rounds Schedule = iota
	// Chaotic is Listing 4.2 of the thesis: every worker iterates at its
	// own pace, broadcasting its summary whenever it grows and reading
	// summaries whenever they arrive; the chaotic iteration theorem makes
	// any such schedule reach the least fixpoint. Termination: every worker
	// idle and no message in flight (see hub). Stale interference makes
	// the intermediate sets larger, so it does more work than Rounds.
	Chaotic
)

func (s Schedule) String() string {
	if s == Rounds {
		return "rounds"
	}
	return "chaotic"
}

// barrier is a reusable barrier for a fixed number of goroutines that can
// be broken (every waiter then returns the error).
type barrier struct {
	mu     sync.Mutex
	cond   *sync.Cond
	n      int
	count  int
	gen    int
	broken error
}

func newBarrier(n int) *barrier {
	b := &barrier{n: n}
	b.cond = sync.NewCond(&b.mu)
	return b
}

func (b *barrier) wait() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.broken != nil {
		return b.broken
	}
	g := b.gen
	b.count++
	if b.count == b.n {
		b.count = 0
		b.gen++
		b.cond.Broadcast()
		return nil
	}
	for g == b.gen && b.broken == nil {
		b.cond.Wait()
	}
	return b.broken
}

func (b *barrier) abort(err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.broken == nil {
		b.broken = err
	}
	b.cond.Broadcast()
}

// lockstep is the shared state of the Rounds schedule. Slots are double
// buffered by round parity: a slot of parity p is rewritten two rounds
// later, after every worker has passed the barrier that ends its reads.
type lockstep struct {
	bar     *barrier
	slot    [2][]*serial
	changed [2][]bool
	staged  bool // the engines are staged (InvariantOptions.Staged)
}

var errAborted = errors.New("split: parallel fixpoint aborted")

// runWorkerRounds is the Rounds schedule for worker w.
func runWorkerRounds(ctx context.Context, ls *lockstep, e *engine, w int, res *workerResult) error {
	m := e.m
	sent := m.st.sp.False()
	for round := 0; ; round++ {
		p := round % 2
		if err := ctx.Err(); err != nil {
			ls.bar.abort(err)
			return err
		}
		e.summarize()
		ls.slot[p][w] = nil
		if g := e.groupSummary(); !g.Equal(sent) {
			sent = g
			t0 := time.Now()
			x := m.st.export(g)
			res.copyTime += time.Since(t0)
			ls.slot[p][w] = &x
		}
		if err := ls.bar.wait(); err != nil {
			return err
		}
		t0 := time.Now()
		for v, x := range ls.slot[p] {
			if v != w && x != nil {
				e.addExternal(m.st.load(*x, nil, false))
				res.messages++
				res.copied += x.size()
			}
		}
		res.copyTime += time.Since(t0)
		changed, err := e.images(ctx)
		if err != nil {
			ls.bar.abort(err)
			return err
		}
		ls.changed[p][w] = changed
		res.peak = max(res.peak, m.st.nodes())
		if err := ls.bar.wait(); err != nil {
			return err
		}
		any := false
		for _, c := range ls.changed[p] {
			any = any || c
		}
		// Staged: every worker sees the same changed flags, so all
		// start the next stage together.
		if !any && !e.activate() {
			return nil
		}
	}
}
