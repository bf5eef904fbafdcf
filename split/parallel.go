package split

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/henceforth-go/henceforth/internal/fds"
)

// hub carries the broadcasts of the parallel fixpoint (Listing 4.2) and
// detects its termination. Each worker owns a BDD store; what it sends is
// its group's summary transition ⋁_{k∈group} T̄_k, serialised. Summaries
// only grow, so a mailbox keeps just the latest summary of each sender.
//
// Termination: the computation is over when every worker is idle (its
// components are stable under everything it has received) and no message
// is waiting in a mailbox. busy counts workers that are not idle and
// queued counts full mailbox slots; both change only under mu, and a worker
// that takes mail becomes busy in the same critical section, so
// busy+queued reaches 0 exactly once, at global convergence.
type hub struct {
	mu     sync.Mutex
	mail   [][]*serial // mail[dst][src]
	wake   []chan struct{}
	done   chan struct{}
	busy   int
	queued int
	closed bool
	err    error

	messages int
	copied   int
}

func newHub(workers int) *hub {
	h := &hub{mail: make([][]*serial, workers), wake: make([]chan struct{}, workers), done: make(chan struct{}), busy: workers}
	for w := range workers {
		h.mail[w] = make([]*serial, workers)
		h.wake[w] = make(chan struct{}, 1)
	}
	return h
}

// post delivers src's summary to every other worker.
func (h *hub) post(src int, x *serial) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return
	}
	for dst := range h.mail {
		if dst == src {
			continue
		}
		if h.mail[dst][src] == nil {
			h.queued++
		}
		h.mail[dst][src] = x
		h.messages++
		h.copied += x.size()
		select {
		case h.wake[dst] <- struct{}{}:
		default:
		}
	}
}

// collect takes w's mail without blocking.
func (h *hub) collect(w int) []*serial {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.takeLocked(w)
}

func (h *hub) takeLocked(w int) []*serial {
	var out []*serial
	for src, x := range h.mail[w] {
		if x != nil {
			out = append(out, x)
			h.mail[w][src] = nil
			h.queued--
		}
	}
	return out
}

// idle makes w idle until mail arrives (returned, w busy again) or the
// computation ends (nil, false).
func (h *hub) idle(ctx context.Context, w int) ([]*serial, bool) {
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return nil, false
	}
	if m := h.takeLocked(w); len(m) > 0 {
		h.mu.Unlock()
		return m, true
	}
	h.busy--
	if h.busy == 0 && h.queued == 0 {
		h.closeLocked(nil)
		h.mu.Unlock()
		return nil, false
	}
	h.mu.Unlock()
	for {
		select {
		case <-h.done:
			return nil, false
		case <-ctx.Done():
			h.fail(ctx.Err())
			return nil, false
		case <-h.wake[w]:
		}
		h.mu.Lock()
		if h.closed {
			h.mu.Unlock()
			return nil, false
		}
		if m := h.takeLocked(w); len(m) > 0 {
			h.busy++
			h.mu.Unlock()
			return m, true
		}
		h.mu.Unlock()
	}
}

func (h *hub) closeLocked(err error) {
	if h.closed {
		return
	}
	h.closed = true
	h.err = err
	close(h.done)
}

// fail ends the computation with an error.
func (h *hub) fail(err error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.closeLocked(err)
}

// workerResult is what a worker hands back: its components and summaries,
// serialised, and its statistics.
type workerResult struct {
	theta, sum []serial
	rounds     int
	images     int
	peak       int
	copyTime   time.Duration
	messages   int // summaries received (Rounds schedule)
	copied     int
}

// parallelInvariant computes the strongest split invariant with one worker
// (goroutine and BDD store) per group of processes and loads the result
// into m, whose store holds every variable.
func parallelInvariant(ctx context.Context, m *model, workers int, sched Schedule, staged bool, lim storeLimits) (theta, sums []fds.BDD, st InvariantStats, err error) {
	lay := m.lay
	n := len(lay.prog.procs)
	workers = min(workers, n)
	groups := make([][]int, workers)
	for k := range n {
		w := k * workers / n
		groups[w] = append(groups[w], k)
	}
	h := newHub(workers)
	var ls *lockstep
	if sched == Rounds {
		ls = &lockstep{bar: newBarrier(workers), staged: staged}
		for p := range 2 {
			ls.slot[p] = make([]*serial, workers)
			ls.changed[p] = make([]bool, workers)
		}
	}
	results := make([]workerResult, workers)
	initProj := make([]serial, workers)
	var ready sync.WaitGroup
	ready.Add(workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			readyDone := false
			signal := func() {
				if !readyDone {
					readyDone = true
					ready.Done()
				}
			}
			defer signal()
			r, err := runWorker(ctx, h, ls, lay, groups, w, lim, initProj, signal, &ready)
			if err != nil {
				h.fail(err)
				if ls != nil {
					ls.bar.abort(err)
				}
				return
			}
			results[w] = r
		}()
	}
	wg.Wait()
	if h.err != nil {
		return nil, nil, st, h.err
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, st, err
	}
	theta = make([]fds.BDD, n)
	sums = make([]fds.BDD, n)
	for w, g := range groups {
		r := results[w]
		if len(r.theta) != len(g) {
			return nil, nil, st, errors.New("split: parallel worker ended without a result")
		}
		for j, k := range g {
			theta[k] = m.st.load(r.theta[j], nil, false)
			sums[k] = m.st.load(r.sum[j], nil, false)
		}
		st.Rounds = max(st.Rounds, r.rounds)
		st.Images += r.images
		st.PeakNodes += r.peak
		st.CopyTime += r.copyTime
	}
	st.Workers = workers
	st.Messages = h.messages
	st.CopiedNodes = h.copied
	for _, r := range results {
		st.Messages += r.messages
		st.CopiedNodes += r.copied
	}
	return theta, sums, st, nil
}

// runWorker is Listing 4.2 for a group of processes.
func runWorker(ctx context.Context, h *hub, ls *lockstep, lay *layout, groups [][]int, w int, lim storeLimits,
	initProj []serial, signal func(), ready *sync.WaitGroup) (workerResult, error) {
	var res workerResult
	m, err := compileModel(lay, groups[w], lim)
	if err != nil {
		return res, err
	}
	sp := m.st.sp
	// Exchange the projections ∃L_k: I_k so that θ_i starts at ∃L∖L_i: I.
	proj := sp.True()
	for _, k := range groups[w] {
		proj = proj.And(m.init[k].Exists(m.lCur[k]))
	}
	initProj[w] = m.st.export(proj)
	signal()
	ready.Wait()
	select {
	case <-h.done:
		return res, errAborted
	default:
	}
	outside := sp.True()
	for v := range groups {
		if v != w {
			outside = outside.And(m.st.load(initProj[v], nil, false))
		}
	}
	e, err := newEngine(m, groups[w], outside)
	if err != nil {
		return res, err
	}
	if ls != nil {
		e.staged = ls.staged
		if err := runWorkerRounds(ctx, ls, e, w, &res); err != nil {
			return res, err
		}
		return finishWorker(e, m, groups[w], res), nil
	}
	// Rounds of the group's fixpoint, exchanging summaries between rounds
	// (eagerly: a summary is sent as soon as it grows, and mail is read
	// before every round), so that the workers progress together instead
	// of each stabilising on stale interference first.
	sent := sp.False()
	var mail []*serial
	for {
		t0 := time.Now()
		for _, x := range mail {
			e.addExternal(m.st.load(*x, nil, false))
		}
		res.copyTime += time.Since(t0)
		changed, err := e.step(ctx)
		if err != nil {
			return res, err
		}
		if g := e.groupSummary(); !g.Equal(sent) {
			sent = g
			t0 := time.Now()
			x := m.st.export(g)
			res.copyTime += time.Since(t0)
			h.post(w, &x)
		}
		res.peak = max(res.peak, m.st.nodes())
		if mail = h.collect(w); changed || len(mail) > 0 {
			continue
		}
		var ok bool
		if mail, ok = h.idle(ctx, w); !ok {
			break
		}
	}
	if h.err != nil {
		return res, nil
	}
	return finishWorker(e, m, groups[w], res), nil
}

// finishWorker serialises a worker's components and summaries.
func finishWorker(e *engine, m *model, group []int, res workerResult) workerResult {
	for j := range group {
		res.theta = append(res.theta, m.st.export(e.theta[j]))
		res.sum = append(res.sum, m.st.export(e.sum[j]))
	}
	res.rounds = e.rounds
	res.images = e.nimages
	res.peak = max(res.peak, m.st.nodes())
	return res
}
