package explore

import (
	"fmt"
	"go/token"
	"strings"
)

// Data race detection, on by default (Options.NoRaces turns it off).
//
// Every explored execution is checked the way Go's race detector checks
// a real run, but on every schedule the explorer reaches: each goroutine
// carries a vector clock, synchronization moves clocks exactly as Go's
// memory model orders operations (happens-before), and every load and
// store of interpreted memory is checked against the last accesses of
// the same cell (the FastTrack algorithm: an epoch for the last write and
// for ordered reads, one entry per goroutine for concurrent reads). Two
// accesses by different goroutines to the same cell, at least one a
// write and not both atomic, that happens-before does not order are a
// data race, whatever order they happened to run in.
//
// Happens-before edges (Go's memory model, as the race detector models
// it):
//   - go statement → the new goroutine's start;
//   - a send → the receive that gets its value; the k-th receive on a
//     channel of capacity C → the (k+C)-th send; an unbuffered receive →
//     its send's completion; close → a receive that sees the channel
//     closed;
//   - Unlock → the next Lock (RWMutex: Unlock → RLock and Lock, RUnlock →
//     Lock);
//   - WaitGroup Done → the Wait it releases; Once's f → every Do
//     returning after it; sync.Map and sync.Pool operations → later ones
//     on the same value; t.Run's subtest end → Run's return;
//   - atomic operations on one address: a store (or read-modify-write) →
//     later loads (and read-modify-writes) of the same address; atomics
//     are accesses too, racing with plain ones;
//   - a timer's creation or reset → its firing (the AfterFunc goroutine,
//     the value its channel delivers).
//
// Sleeps and clock advances order nothing. Checking an access never
// makes it a scheduling point: Options.Shared does that.

// vclock is a vector clock indexed by goroutine id (ids start at 1).
type vclock []uint32

func (v vclock) at(t int) uint32 {
	if t < len(v) {
		return v[t]
	}
	return 0
}

func (v *vclock) grow(n int) {
	if n > len(*v) {
		if n <= cap(*v) {
			*v = (*v)[:n]
		} else {
			w := make(vclock, n, max(n, 2*cap(*v)))
			copy(w, *v)
			*v = w
		}
	}
}

// set makes v a copy of w.
func (v *vclock) set(w vclock) { *v = append((*v)[:0], w...) }

// join sets v to the pointwise maximum of v and w.
func (v *vclock) join(w vclock) {
	v.grow(len(w))
	u := *v
	for i, c := range w {
		if c > u[i] {
			u[i] = c
		}
	}
}

// epoch packs a goroutine id, a clock value and whether the access was
// atomic: id<<33 | atomic<<32 | clock. The zero epoch is "no access".
type vepoch uint64

const epochAtomic = 1 << 32

// setEpoch recomputes g.ep after g's own clock changed.
func (g *goroutine) setEpoch() { g.ep = vepoch(g.id)<<33 | vepoch(g.vc[g.id]) }

func (e vepoch) tid() int             { return int(e >> 33) }
func (e vepoch) clock() uint32        { return uint32(e) }
func (e vepoch) atomic() bool         { return e&epochAtomic != 0 }
func (e vepoch) before(v vclock) bool { return e.clock() <= v.at(e.tid()) }

// shadowCell is the race detector's record of one memory cell. It holds
// no pointer, so shadows cost the garbage collector nothing to scan.
type shadowCell struct {
	w, r         vepoch // last write; last read while reads are ordered (or readsShared)
	wsite, rsite int32  // their access sites (machine.sites)
}

// readsShared in shadowCell.r says that unordered reads are kept in
// raceState.reads.
const readsShared vepoch = 1

// wgState is the race detector's bookkeeping of a WaitGroup: Adds from
// zero so far, and the round in which a waiter made its race-detector
// write (only the first waiter does).
type wgState struct{ round, written uint32 }
type readEntry struct {
	e    vepoch
	site int32
}

// shadow is the race detector's record of an object. It belongs to one
// execution (gen); globals outlive executions and get a fresh one.
type shadow struct {
	gen   uint32
	cells []shadowCell
}

// accessSite is a place that accesses memory, for reports.
type accessSite struct {
	pos   token.Pos
	label string // "read *p", "write counter", "atomic.AddInt64"…
}

// mapSiteKey caches the sites of map operations (machine.mapSites).
type mapSiteKey struct {
	pos   token.Pos
	write bool
}

// site interns an access site of the machine.
func (m *machine) site(pos token.Pos, label string) int32 {
	k := accessSite{pos, label}
	if i, ok := m.siteIdx[k]; ok {
		return i
	}
	if m.siteIdx == nil {
		m.siteIdx = map[accessSite]int32{}
	}
	i := int32(len(m.sites))
	m.sites = append(m.sites, k)
	m.siteIdx[k] = i
	return i
}

// raceState is an execution's race detector.
type raceState struct {
	gen  uint32
	seen map[[2]int32]bool
	// reads holds the unordered reads of the cells whose r is
	// readsShared, one entry per goroutine.
	reads map[*shadowCell][]readEntry
	// sync holds the release clocks of synchronization variables (a
	// mutex, an atomic's address…) by cell.
	sync map[objKey]*vclock
	wg   map[objKey]*wgState
	// capture, when set, asks for the stack of one earlier access (a
	// replay that completes a race report, see completeRaces).
	capture *raceCapture
}

// raceCapture identifies an access of an execution by its epoch and
// site, for a replay of the execution to record its stack.
type raceCapture struct {
	e     vepoch
	site  accessSite
	stack []rawFrame
}

func (m *machine) racesOn() bool { return m.opts == nil || !m.opts.NoRaces }

func newRaceState(m *machine) *raceState {
	if !m.racesOn() {
		return nil
	}
	m.raceGen++
	return &raceState{gen: m.raceGen, capture: m.raceCapture}
}

// shadowOf returns the shadow cells of o for this execution.
func (rs *raceState) shadowOf(o *object) []shadowCell {
	sh := o.race
	if sh == nil {
		sh = &shadow{gen: rs.gen, cells: make([]shadowCell, len(o.cells))}
		o.race = sh
		return sh.cells
	}
	if sh.gen != rs.gen {
		sh.gen = rs.gen
		if len(sh.cells) < len(o.cells) {
			sh.cells = make([]shadowCell, len(o.cells))
		} else {
			clear(sh.cells)
		}
	}
	return sh.cells
}

// epochOf is g's current epoch.
func (g *goroutine) epochOf(atomic bool) vepoch {
	if atomic {
		return g.ep | epochAtomic
	}
	return g.ep
}

// access1 checks a one-cell access: the common cases inline (the cell's
// last access of this kind was g's at this site in this epoch; or only g
// accessed the cell so far), the rest in accessCell.
func (rs *raceState) access1(g *goroutine, o *object, off int, write bool, site int32) {
	sh := o.race
	if sh == nil || sh.gen != rs.gen || off >= len(sh.cells) {
		rs.access(g, o, off, 1, write, false, site)
		return
	}
	c := &sh.cells[off]
	last, lastSite := &c.r, &c.rsite
	if write {
		last, lastSite = &c.w, &c.wsite
	}
	if *last == g.ep && *lastSite == site {
		return
	}
	if rs.capture == nil && (c.w == 0 || c.w.tid() == g.id) && (c.r == 0 || c.r.tid() == g.id) {
		*last, *lastSite = g.ep, site // only g accessed it: nothing to check
		return
	}
	rs.accessCell(g, c, g.ep, write, site)
}

// access checks n cells of o from off, read or written by g at site.
func (rs *raceState) access(g *goroutine, o *object, off, n int, write, atomic bool, site int32) {
	cells := rs.shadowOf(o)
	if off < 0 || off+n > len(cells) {
		return
	}
	e := g.epochOf(atomic)
	for i := off; i < off+n; i++ {
		rs.accessCell(g, &cells[i], e, write, site)
	}
}

// accessCell checks one access of a cell by g at epoch e.
func (rs *raceState) accessCell(g *goroutine, c *shadowCell, e vepoch, write bool, site int32) {
	if write {
		if c.w == e && c.wsite == site {
			return
		}
		rs.checkWrite(g, c, e, site)
		c.w, c.wsite = e, site
	} else {
		if c.r == e && c.rsite == site {
			return
		}
		rs.checkRead(g, c, e, site)
	}
	if cp := rs.capture; cp != nil && cp.stack == nil && cp.e == e && g.x.m.sites[site] == cp.site {
		cp.stack = g.accessStack(site)
	}
}

// conflict reports whether an earlier access p (not ordered before g's
// clock) races with the current one.
func conflict(p, cur vepoch, v vclock) bool {
	if p == 0 || p.tid() == cur.tid() || p.before(v) {
		return false
	}
	return !(p.atomic() && cur.atomic())
}

func (rs *raceState) checkWrite(g *goroutine, c *shadowCell, e vepoch, site int32) {
	v := g.vc
	if conflict(c.w, e, v) {
		rs.report(g, c.w, c.wsite, true, site, true)
	}
	if c.r == readsShared {
		for _, r := range rs.reads[c] {
			if conflict(r.e, e, v) {
				rs.report(g, r.e, r.site, false, site, true)
			}
		}
		// Every read is now ordered before this write or reported.
		delete(rs.reads, c)
		c.r = 0
		return
	}
	if conflict(c.r, e, v) {
		rs.report(g, c.r, c.rsite, false, site, true)
	}
}

func (rs *raceState) checkRead(g *goroutine, c *shadowCell, e vepoch, site int32) {
	v := g.vc
	if conflict(c.w, e, v) {
		rs.report(g, c.w, c.wsite, true, site, false)
	}
	if c.r == readsShared {
		reads := rs.reads[c]
		for i := range reads {
			if reads[i].e.tid() == g.id {
				reads[i] = readEntry{e, site}
				return
			}
		}
		rs.reads[c] = append(reads, readEntry{e, site})
		return
	}
	if c.r == 0 || c.r.tid() == g.id || c.r.before(v) {
		c.r, c.rsite = e, site
		return
	}
	// Two unordered reads: keep both.
	if rs.reads == nil {
		rs.reads = map[*shadowCell][]readEntry{}
	}
	rs.reads[c] = []readEntry{{c.r, c.rsite}, {e, site}}
	c.r, c.rsite = readsShared, -1
}

// report records the race between an earlier access (prev, at psite) and
// g's current one.
func (rs *raceState) report(g *goroutine, prev vepoch, psite int32, pwrite bool, site int32, write bool) {
	x := g.x
	if x.inInit {
		return
	}
	key := [2]int32{psite, site}
	if psite > site {
		key = [2]int32{site, psite}
	}
	if rs.seen[key] {
		return
	}
	if rs.seen == nil {
		rs.seen = map[[2]int32]bool{}
	}
	rs.seen[key] = true
	m := x.m
	cur, old := m.sites[site], m.sites[psite]
	fset := m.prog.Fset
	msg := fmt.Sprintf("data race: %s at %s by goroutine %d and %s at %s by goroutine %d, not ordered by synchronization",
		cur.label, shortPos(fset.Position(cur.pos)), g.id, old.label, shortPos(fset.Position(old.pos)), prev.tid())
	msg += mapRaceNote(cur.label, old.label)
	explain := ""
	if strings.HasPrefix(cur.label, "sync.(*WaitGroup).") || strings.HasPrefix(old.label, "sync.(*WaitGroup).") {
		explain = "The waiting goroutine reached Wait before the Add from zero and was still at it afterwards: " +
			"Go allows a schedule in which it calls Wait right after the Add, finds the counter positive and blocks. " +
			"Go's race detector reports that Add against such a Wait unless the Add happens before the Wait " +
			"(call Add before starting the goroutine that calls Done, and before Wait)."
	}
	f := x.addFinding(KindRace, msg, cur.pos, explain)
	// Both accesses' stacks, as Go's race detector prints them: the
	// current one now; the previous one is completed by a replay
	// (completeRaces), since recording every access's stack would cost
	// more than the detection itself.
	f.Goroutines = []GoroutineStack{
		{ID: g.id, State: cur.label, Frames: x.frames(g.accessStack(site))},
		{ID: prev.tid(), State: "previous " + old.label, Frames: []StackFrame{{Pos: fset.Position(old.pos)}}},
	}
	f.race = &raceCapture{e: prev, site: old}
	f.raceKey = raceKey(fset.Position(cur.pos), fset.Position(old.pos))
}

// mapRaceNote says what Go's runtime does with a race on a map without
// the race detector: when the two operations overlap it stops the
// program with a fatal error.
func mapRaceNote(a, b string) string {
	wa, wb := strings.HasPrefix(a, "write map "), strings.HasPrefix(b, "write map ")
	ra, rb := strings.HasPrefix(a, "read map "), strings.HasPrefix(b, "read map ")
	switch {
	case wa && wb:
		return " (without -race, Go stops such a program with \"fatal error: concurrent map writes\")"
	case wa && rb || ra && wb:
		return " (without -race, Go stops such a program with \"fatal error: concurrent map read and map write\")"
	}
	return ""
}

// raceKey identifies a race by its pair of positions, in either order:
// one finding per pair, whichever goroutines and order showed it.
func raceKey(a, b token.Position) string {
	x, y := a.String(), b.String()
	if x > y {
		x, y = y, x
	}
	return x + "\x00" + y
}

// accessStack is g's stack at the access of site: the innermost frame at
// the site's position.
func (g *goroutine) accessStack(site int32) []rawFrame {
	st := g.rawStack()
	if len(st) > 0 {
		if p := g.x.m.sites[site].pos; p.IsValid() {
			st[0].pos = p
		}
	}
	return st
}

// fork starts child's clock from parent's (a go statement).
func (rs *raceState) fork(parent, child *goroutine) {
	child.vc = child.vc[:0]
	if parent != nil {
		child.vc.join(parent.vc)
		parent.tick()
	}
	child.vc.grow(child.id + 1)
	child.vc[child.id]++
	child.setEpoch()
}

// tick advances g's own clock after a release.
func (g *goroutine) tick() {
	g.vc.grow(g.id + 1)
	g.vc[g.id]++
	g.setEpoch()
}

// acquire joins a release clock into g's.
func (g *goroutine) acquire(v vclock) {
	if len(v) > 0 {
		g.vc.join(v)
	}
}

// release merges g's clock into v.
func (g *goroutine) release(v *vclock) {
	v.join(g.vc)
	g.tick()
}

// releaseStore replaces v by g's clock: what was released into v before
// is no longer acquired through it.
func (g *goroutine) releaseStore(v *vclock) {
	v.set(g.vc)
	g.tick()
}

// syncClock returns the release clock of the sync variable at o's cell
// off (nil without race detection).
func (x *execution) syncClock(o *object, off int) *vclock {
	rs := x.race
	if rs == nil || o == nil {
		return nil
	}
	k := objKeyOf(o, off)
	v := rs.sync[k]
	if v == nil {
		if rs.sync == nil {
			rs.sync = map[objKey]*vclock{}
		}
		v = new(vclock)
		rs.sync[k] = v
	}
	return v
}

// wgOf returns the race detector's bookkeeping of the WaitGroup at o's
// cell off.
func (rs *raceState) wgOf(o *object, off int) *wgState {
	k := objKeyOf(o, off)
	w := rs.wg[k]
	if w == nil {
		if rs.wg == nil {
			rs.wg = map[objKey]*wgState{}
		}
		w = &wgState{}
		rs.wg[k] = w
	}
	return w
}

// acquireAt makes g acquire the sync variable at o's cell off.
func (g *goroutine) acquireAt(o *object, off int) {
	if v := g.x.syncClock(o, off); v != nil {
		g.acquire(*v)
	}
}

// releaseAt makes g release into the sync variable at o's cell off.
func (g *goroutine) releaseAt(o *object, off int) {
	if v := g.x.syncClock(o, off); v != nil {
		g.release(v)
	}
}

// syncEvent records a synchronization that is not a scheduling point (the
// completion of a Once's function) in the event trace, for DPOR's
// happens-before classes.
func (x *execution) syncEvent(g *goroutine, kind opKind, o *object, off int) {
	if !x.opts.Shared {
		return
	}
	p := pendingOp{kind: kind, obj: o, off: off}
	e := event{g: g.key, obj: p.object(0), kind: kind, write: true, spawner: -1, gid: g.id, pos: g.sourcePos(), pseudo: true}
	if !g.evStarted {
		g.evStarted = true
		e.spawner = g.spawnEv
	}
	x.events = append(x.events, e)
}

// wgAddRace is the race detector's view of WaitGroup.Add(delta) taking
// the counter from v0, as Go's sync package annotates it: a decrement
// releases into the WaitGroup (Wait acquires it); an increment from zero
// is a read of the WaitGroup's semaphore, which the first waiter writes,
// so an Add from zero not ordered before a concurrent Wait is a race.
func (g *goroutine) wgAddRace(o *object, off int, v0, delta int64, pos token.Pos) {
	rs := g.x.race
	if rs == nil {
		return
	}
	if delta < 0 {
		g.releaseAt(o, off)
	}
	if delta > 0 && v0 == 0 {
		rs.wgOf(o, off).round++
		rs.access(g, o, off, 1, false, false, g.x.m.site(pos, "sync.(*WaitGroup).Add from zero"))
	}
}

// wgWaitMark is recorded when a goroutine reaches Wait: the number of
// Adds from zero so far, and whether the counter is positive. The Wait
// could have been called at any instant until it returns.
func (x *execution) wgWaitMark(o *object, off int) int64 {
	rs := x.race
	if rs == nil {
		return 0
	}
	mark := int64(rs.wgOf(o, off).round) << 1
	if o.cells[off].a != 0 {
		mark |= 1
	}
	return mark
}

// wgWaitRace is the race detector's view of a Wait that returns: if the
// counter was positive at some instant while g was at the Wait, Go's
// first waiter writes the semaphore (racing with an unordered Add from
// zero); then Wait acquires the WaitGroup's releases.
func (g *goroutine) wgWaitRace(o *object, off int, mark int64, pos token.Pos) {
	rs := g.x.race
	if rs == nil {
		return
	}
	w := rs.wgOf(o, off)
	round := w.round
	if (mark&1 != 0 || uint32(mark>>1) != round) && w.written != round {
		w.written = round
		rs.access(g, o, off, 1, true, false, g.x.m.site(pos, "sync.(*WaitGroup).Wait"))
	}
	g.acquireAt(o, off)
}

// completeRaces fills in the stack of each race finding's earlier access:
// the execution is replayed from the finding's token, and the stack is
// recorded when that access happens again. (Findings whose replay does
// not reach it keep the access's position alone.)
func (p *Program) completeRaces(e *Entry, opts *Options, fs []*Finding) {
	for _, f := range fs {
		if f.race == nil || f.race.stack != nil || f.Replay == "" || len(f.Goroutines) < 2 {
			continue
		}
		tok, err := decodeToken(f.Replay)
		if err != nil {
			continue
		}
		o := *opts
		o.Replay, o.Progress = "", nil
		if o.observer != nil {
			o.observer = quietObserver{o.observer}
		}
		m := newMachine(p, &o)
		cp := &raceCapture{e: f.race.e, site: f.race.site}
		m.raceCapture = cp
		x := p.runOne(m, e, &o, &replayChooser{choices: tok.choices}, f.Execution, tok.seed)
		if cp.stack != nil && x.replayErr == "" {
			f.Goroutines[1].Frames = x.frames(cp.stack)
			f.race.stack = cp.stack
		}
		x.release()
	}
}

// quietObserver has the events of an observer without its monitors: a
// replay that completes a race report must schedule the same events but
// not feed the observer a second time.
type quietObserver struct{ observer }

func (quietObserver) NewPath() pathMonitor { return quietPath{} }

type quietPath struct{}

func (quietPath) Event(*obsEvent, obsState) *violation { return nil }
func (quietPath) End(obsState) *violation              { return nil }
