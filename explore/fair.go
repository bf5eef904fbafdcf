package explore

import "strings"

// Fair scheduling of polling loops. A goroutine that polls and fails (a
// select whose default case runs because no case is ready, a TryLock of
// a held lock, runtime.Gosched, time.Sleep(0)) can run forever without
// blocking. Go's scheduler preempts it and lets the others run. An
// explorer that offers the failed poll at every state would explore one
// execution per number of failed polls before another goroutine's move
// (infinitely many, each a different order of dependent operations), or
// spend a whole execution in the loop.
//
// The explorer therefore assumes fairness, as CHESS does for a yielding
// thread: once a goroutine's last spinLimit steps were failed polls, its
// next failed poll is not offered while any other transition (another
// goroutine's, or the clock's advance) is enabled. Its successful
// alternatives are (a select case that became ready, a TryLock of a free
// lock), and so is the failed poll when nothing else can move (a
// livelock then runs into the steps bound). What is not explored is a
// failed poll repeated more than spinLimit times in a row while others
// could run: it observes nothing new, so it differs from the explored
// executions only in the poller's own local state (an iteration count).
//
// The clock waits for a poller that may see something new. Every step
// that may change what another goroutine reads counts as a change
// (changes; reads and failed polls do not, clock advances do), and each
// goroutine remembers the changes at its last read (seen: any step but
// runtime.Gosched and time.Sleep(0); a failed select or TryLock reads).
// A goroutine that failed a poll and read since the last change, and
// polls again, is stalled (stalled): polling again shows it nothing new. Only
// stalled pollers let the clock run to a deadline farther than
// Options.EarlyFire (clock.go: canMove); one that may see a change runs
// first, as in Go, where it sees it within microseconds (a worker in a
// spin lock's Gosched backoff takes the lock that was freed before a
// timeout expires). Stalled pollers are held back like spinning ones, so
// a loop that polls an atomic flag or time.Now with Gosched lets the
// clock advance; the advance is a change, after which each poller polls
// again. A goroutine is also stalled after maxFreshPolls failed polls in
// a row without a read, whatever changed (a yield loop that reads
// nothing would otherwise hold the clock forever).

// spinLimit is the number of consecutive failed polls after which a
// goroutine's failed poll waits for the others.
const spinLimit = 2

// maxFreshPolls is the number of consecutive failed polls after which a
// goroutine is stalled even if something changed since its last read:
// more than a spin lock's longest Gosched backoff (commonly 16).
const maxFreshPolls = 32

// nextSpin returns g's count of consecutive failed polls after it takes
// alternative alt of its pending operation.
func nextSpin(g *goroutine, alt int) int {
	if failedPoll(&g.pend, alt) {
		return min(g.spin+1, spinLimit)
	}
	return 0
}

// failedPoll reports whether alternative alt of a pending operation is a
// poll that fails: it changes nothing but the goroutine's own state.
func failedPoll(p *pendingOp, alt int) bool {
	switch p.kind {
	case opSelect:
		return alt < 0
	case opSync:
		return p.label == "runtime.Gosched" || p.label == "time.Sleep(0)"
	case opTryLock:
		cell := func(i int) uint64 { return p.obj.cells[p.off+i].a }
		switch p.label {
		case "sync.(*Mutex).TryLock":
			return cell(0) != 0
		case "sync.(*RWMutex).TryLock":
			return cell(rwWriter) != 0 || cell(rwReaders) != 0
		case "sync.(*RWMutex).TryRLock":
			return cell(rwWriter) != 0
		}
	}
	return false
}

// observe records, when g takes alternative alt of its pending
// operation, whether the step may change what other goroutines read
// (changes) and whether g read (seen), for stalled.
func (x *execution) observe(g *goroutine, alt int) {
	p := &g.pend
	poll := failedPoll(p, alt)
	if !poll && !readOnly(p) {
		x.changes++
	}
	if !poll {
		g.polls = 0
	} else if g.polls < maxFreshPolls {
		g.polls++
	}
	if !poll || p.kind != opSync {
		g.seen = x.changes + 1
	}
	if poll {
		g.polled = x.changes + 1
	}
}

// readOnly reports whether performing p changes nothing another
// goroutine reads: an atomic or shared-memory load, a compare-and-swap
// of a scalar that will fail, a read of the clock, the end of a sleep.
// Every other step counts as a change.
func readOnly(p *pendingOp) bool {
	switch p.kind {
	case opAtomic, opShared:
		if !p.write {
			return true
		}
		if strings.HasSuffix(p.label, "CompareAndSwap") && p.obj != nil {
			cell := p.obj.cells[p.off]
			return cell.p == nil && p.val.p == nil && cell.a != p.val.a
		}
	case opTime:
		return !p.write
	case opSleep:
		return true
	}
	return false
}

// stalled reports whether t is a failed poll of a goroutine that polls
// again: it has seen every change (its last read and a failed poll came
// after the last change), or has polled maxFreshPolls times in a row
// without reading. A first poll is not stalled: it may read what the
// goroutine has not read yet.
func (t transition) stalled() bool {
	return failedPoll(&t.g.pend, t.alt) && t.g.pollsAgain()
}

// pollsAgain reports whether g, about to fail a poll, has seen every
// change or has polled maxFreshPolls times in a row (stalled).
func (g *goroutine) pollsAgain() bool {
	now := g.x.changes + 1
	return g.seen == now && g.polled == now || g.polls >= maxFreshPolls
}

// fair removes from ts the failed polls of goroutines that have failed
// spinLimit polls in a row or are stalled, unless nothing else is enabled
// (or the exploration is a scenario search, Options.unfair).
func (x *execution) fair(ts []transition) []transition {
	if x.opts.unfair {
		return ts
	}
	spinning := 0
	for _, t := range ts {
		if t.spinning() {
			spinning++
		}
	}
	if spinning == 0 || spinning == len(ts) {
		return ts
	}
	out := ts[:0]
	for _, t := range ts {
		if !t.spinning() {
			out = append(out, t)
		}
	}
	return out
}

// spinning reports whether t is a failed poll of a goroutine whose last
// spinLimit steps were failed polls, or that is stalled: the transition
// fair holds back.
func (t transition) spinning() bool {
	return failedPoll(&t.g.pend, t.alt) && (t.g.spin >= spinLimit || t.g.pollsAgain())
}
