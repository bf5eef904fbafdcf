package explore

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

// spinLimit is the number of consecutive failed polls after which a
// goroutine's failed poll waits for the others. A goroutine that can only
// poll does not hold the clock back either: the clock advances when
// nothing else can move (clock.go).
const spinLimit = 2

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

// fair removes from ts the failed polls of goroutines that have failed
// spinLimit polls in a row, unless nothing else is enabled (or the
// exploration is a scenario search, Options.unfair).
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
// spinLimit steps were failed polls: the transition fair holds back.
func (t transition) spinning() bool {
	return t.g.spin >= spinLimit && failedPoll(&t.g.pend, t.alt)
}
