package explore

import (
	"encoding/binary"
	"go/token"
	"iter"
	"slices"
	"sort"
	"sync"
	"time"
)

// Dynamic partial-order reduction.
//
// The explorer is stateless: every execution re-runs the entry from the
// start, replaying a prefix of choices. DPOR keeps, for each state along
// the current execution, the enabled transitions, a backtrack set, the
// transitions already explored (done) and a sleep set. After each
// execution it finds the races of the trace (pairs of dependent events of
// different goroutines not ordered by happens-before through other
// events) and, for each race (e, e'), makes sure the backtrack set of the
// state before e contains an initial of notdep(e).e' — the source-set
// algorithm of Abdulla, Aronis, Jonsson and Sagonas (POPL 2014), with
// sleep sets. A transition is identified across executions by its
// goroutine (a key derived from the spawning tree, not the creation
// number), its alternative (select case), and its rendezvous partner.
//
// All alternatives of a goroutine at a state (select cases, rendezvous
// partners) are explored once the goroutine is explored there: they are
// local nondeterminism, not reorderings.
//
// Dependencies: two events conflict if they belong to a common
// goroutine, or touch the same object (channel, sync variable, atomic or
// shared cell) and one writes (every channel operation and WaitGroup.Add
// writes), except the pairs Go's semantics make commute: a lock and an
// unlock, read locks (syncConflict); WaitGroup decrements that leave the
// counter positive, increments from a positive counter, either with a
// Wait that has not registered, and a send and a receive on different
// slots of a buffered channel (commute, independence.go).
// Clock advances are barriers. Observer events all conflict with each
// other (the monitor sees their order); so do the writes state predicates
// read (predwatch.go).

// event is the record of one scheduling step.
type event struct {
	g       uint64 // goroutine key (stable across executions)
	partner uint64 // rendezvous partner's key, 0 if none
	join    uint64 // opJoin: the awaited goroutine
	obj     evKey
	// also are further objects the event reads: the other channels of a
	// select (their readiness decided which cases could be chosen).
	also    []evKey
	kind    opKind
	write   bool // conflicts with every other access to obj
	barrier bool // depends on everything (clock advances)
	// spawner is the event during which goroutine g was started (-1:
	// none); set on g's first event.
	spawner int
	// pseudo marks a synchronization that is not a scheduling point (the
	// completion of Once.Do's f): race detection uses it, partial-order
	// reduction ignores it (it cannot be reordered).
	pseudo bool
	// ind is what the refined relation knows of the event (commute,
	// independence.go), decided in the state before it.
	ind indep
	// for race reports
	pos   token.Pos
	gid   int
	label string
}

// eventsObj is the pseudo-object all observer events conflict on.
var eventsObj = evKey{id: 1<<63 | 0xe7e7, off: -3}

func (x *execution) newEvent(t transition) event {
	p := &t.g.pend
	e := event{g: t.g.key, obj: p.object(t.alt), kind: p.kind, write: true, spawner: -1, pos: p.pos, gid: t.g.id, label: p.label}
	if t.partner != nil {
		e.partner = t.partner.key
	}
	e.ind = x.indepOf(t)
	switch p.kind {
	case opShared, opAtomic:
		e.write = p.write
	case opWGWait:
		e.write = false
	case opSleep, opClock:
		// a sleeper wakes when the clock has advanced far enough
		e.obj, e.write = clockObj, p.kind == opClock
	case opTime:
		e.obj, e.write = clockObj, p.write
		if p.obj != nil {
			// a method of one timer: it conflicts with the others on it
			e.also = []evKey{p.object(0)}
		}
	case opRecv:
		if p.ch != nil && p.ch.timer {
			e.also = []evKey{clockObj}
		}
	case opNet:
		if p.write {
			// an operation on a connection with a deadline: the clock's
			// advance may time it out
			e.also = []evKey{clockObj}
		}
	case opJoin:
		e.obj = evKey{}
		e.join = p.g2.key
	case opEvent:
		if k := p.object(t.alt); k.id != 0 {
			// a write a state predicate reads (predwatch.go): it
			// conflicts with the accesses of its cell, with observer
			// events and with the other watched writes
			e.obj, e.also = k, []evKey{eventsObj}
		} else {
			e.obj = eventsObj
		}
	case opSelect:
		timer := false
		for i, c := range p.cases {
			if c.ch == nil {
				continue
			}
			timer = timer || c.ch.timer
			if i != t.alt {
				e.also = append(e.also, chanKey(c.ch))
			}
		}
		if timer {
			// it looked at a timer's channel, which the clock fills
			e.also = append(e.also, clockObj)
		}
	}
	if !t.g.evStarted {
		t.g.evStarted = true
		e.spawner = t.g.spawnEv
	}
	x.predConflicts(&e, p)
	return e
}

// dependent reports whether two events do not commute.
func dependent(a, b *event) bool { return depends(a, b, true) }

// depends is dependent; refine selects the partial-order reduction's
// refinements (syncConflict, commute). Without them, every pair of
// operations on a sync variable or channel with a write conflicts. (The
// race detector does not use this relation: its happens-before is Go's
// memory model's, with vector clocks, race.go.)
func depends(a, b *event, refine bool) bool {
	if refine && (a.pseudo || b.pseudo) {
		return sameThread(a, b)
	}
	if a.barrier || b.barrier {
		return true
	}
	if a.g == b.g || a.g == b.partner || a.partner != 0 && (a.partner == b.g || a.partner == b.partner) {
		return true
	}
	if a.join != 0 && (a.join == b.g || a.join == b.partner) || b.join != 0 && (b.join == a.g || b.join == a.partner) {
		return true
	}
	if a.obj.id != 0 && a.obj == b.obj && (a.write || b.write) && (!refine || syncConflict(a.kind, b.kind) && !commute(a, b)) {
		// commute (independence.go) takes out the pairs Go's semantics
		// make commute, each decided from the two events alone (their
		// labels, taken in the state before each): WaitGroup decrements
		// that leave the counter positive with each other, increments
		// from a positive counter with each other, both with a Wait
		// that has not registered (only the Add that reaches zero
		// enables it); a send and a receive on different slots of an
		// open buffered channel. The decrement that reaches zero
		// depends on every Add: taken as independent of the other
		// decrements, it lost classes (which goroutine had registered
		// in Wait, and so whether a later Add from zero panics).
		// Sleep sets compare labels taken after the chosen event
		// (choose, relabel).
		return true
	}
	// a select depends on every channel it looked at
	for _, k := range a.also {
		if k == b.obj || slicesContains(b.also, k) {
			return true
		}
	}
	for _, k := range b.also {
		if k == a.obj {
			return true
		}
	}
	return false
}

func slicesContains(s []evKey, k evKey) bool {
	for _, x := range s {
		if x == k {
			return true
		}
	}
	return false
}

// syncConflict refines conflicts between operations on the same sync
// variable: pairs that are never enabled together (an unlock and a lock of
// a mutex: the lock waits until the mutex is free) or that commute (two
// read locks) are independent. Acquisitions conflict with each other, so
// lock orders are still explored.
func syncConflict(a, b opKind) bool {
	if a > b {
		a, b = b, a
	}
	type pair struct{ a, b opKind }
	switch (pair{a, b}) {
	case pair{opLock, opUnlock},
		pair{opRLock, opRLock}, pair{opRLock, opRUnlock}, pair{opRUnlock, opRUnlock},
		pair{opRLock, opWAcquire}, pair{opRLock, opWUnlock},
		pair{opRUnlock, opWAnnounce}, pair{opRUnlock, opWAcquire}, pair{opRUnlock, opWUnlock},
		pair{opWAnnounce, opWAcquire}, pair{opWAnnounce, opWUnlock},
		pair{opWAcquire, opWAcquire}, pair{opWAcquire, opWUnlock}:
		return false
	case pair{opSleep, opSleep}, pair{opSleep, opTime}, pair{opTime, opTime}:
		// Only the clock's advance conflicts with the goroutines'
		// operations on the clock: reading it, setting timers (their
		// relative order decides only which timer fires first within one
		// advance, which fires them all at once) and waking up commute.
		return false
	}
	return true
}

// hb is the happens-before relation of an execution's events, as vector
// clocks over goroutines.
type hb struct {
	evs  []event
	gidx map[uint64]int // goroutine key → clock index
	seq  []int32        // seq[i]: position of event i in its goroutine's order (1-based)
	vc   [][]int32
}

func newHB(evs []event) *hb { return newHBIndexed(evs) }

// newHBWith computes happens-before from the given dependency relation.
func newHBWith(evs []event, dependent func(a, b *event) bool) *hb {
	h := &hb{evs: evs, gidx: map[uint64]int{}, seq: make([]int32, len(evs)), vc: make([][]int32, len(evs))}
	idx := func(k uint64) int {
		i, ok := h.gidx[k]
		if !ok {
			i = len(h.gidx)
			h.gidx[k] = i
		}
		return i
	}
	for i := range evs {
		idx(evs[i].g)
		if evs[i].partner != 0 {
			idx(evs[i].partner)
		}
	}
	n := len(h.gidx)
	last := make([]int, n) // last event index+1 per goroutine
	count := make([]int32, n)
	for j := range evs {
		e := &evs[j]
		vc := make([]int32, n)
		join := func(k int) {
			for c, v := range h.vc[k] {
				if v > vc[c] {
					vc[c] = v
				}
			}
		}
		gi := h.gidx[e.g]
		if last[gi] > 0 {
			join(last[gi] - 1)
		}
		if e.partner != 0 {
			if pi := h.gidx[e.partner]; last[pi] > 0 {
				join(last[pi] - 1)
			}
		}
		if e.spawner >= 0 && e.spawner < j {
			join(e.spawner)
		}
		for i := 0; i < j; i++ {
			if dependent(&evs[i], e) {
				join(i)
			}
		}
		count[gi]++
		h.seq[j] = count[gi]
		vc[gi] = count[gi]
		last[gi] = j + 1
		if e.partner != 0 {
			pi := h.gidx[e.partner]
			count[pi]++
			vc[pi] = count[pi]
			last[pi] = j + 1
		}
		h.vc[j] = vc
	}
	return h
}

// before reports whether event i happens before event k (i < k).
func (h *hb) before(i, k int) bool {
	return h.vc[k][h.gidx[h.evs[i].g]] >= h.seq[i]
}

// sameThread reports whether two events share a goroutine.
func sameThread(a, b *event) bool {
	return a.g == b.g || a.g == b.partner || a.partner != 0 && (a.partner == b.g || a.partner == b.partner)
}

// hbHash hashes the happens-before relation of the execution's events:
// equivalent executions (same events, same order of dependent events)
// hash equally. Events are identified by (goroutine key, index within the
// goroutine) and described with the identities of their dependent
// predecessors.
func (x *execution) hbHash() uint64 {
	evs := x.events
	type id struct {
		g uint64
		i int
	}
	ids := make([]id, len(evs))
	count := map[uint64]int{}
	for i := range evs {
		count[evs[i].g]++
		ids[i] = id{evs[i].g, count[evs[i].g]}
	}
	lines := make([]string, len(evs))
	var buf []byte
	for j := range evs {
		buf = buf[:0]
		buf = binary.AppendUvarint(buf, ids[j].g)
		buf = binary.AppendUvarint(buf, uint64(ids[j].i))
		buf = binary.AppendUvarint(buf, uint64(evs[j].kind))
		buf = binary.AppendUvarint(buf, evs[j].partner)
		buf = binary.AppendUvarint(buf, evs[j].obj.id)
		var preds []id
		for i := 0; i < j; i++ {
			if dependent(&evs[i], &evs[j]) {
				preds = append(preds, ids[i])
			}
		}
		sort.Slice(preds, func(a, b int) bool {
			if preds[a].g != preds[b].g {
				return preds[a].g < preds[b].g
			}
			return preds[a].i < preds[b].i
		})
		for _, p := range preds {
			buf = binary.AppendUvarint(buf, p.g)
			buf = binary.AppendUvarint(buf, uint64(p.i))
		}
		lines[j] = string(buf)
	}
	return hashLines(lines, 0xff)
}

// tid identifies a transition across executions.
type tid struct {
	g       uint64
	alt     int
	partner uint64
	palt    int
}

func tidOf(t transition) tid {
	id := tid{g: t.g.key, alt: t.alt, palt: t.palt}
	if t.partner != nil {
		id.partner = t.partner.key
	}
	return id
}

// dporNode is one state of the exploration tree. With several workers a
// node is shared by every worker whose current path goes through it (it
// identifies a unique prefix of choices from the initial state).
// enabled, sleep and (with several workers) events are fixed when the
// node is created; backtrack and done grow and are guarded by mu.
type dporNode struct {
	enabled []tid
	// events holds the event at this state of the enabled transitions
	// that eventOf may be asked about: with one worker (lazy), those of
	// the transitions taken here (recorded when first taken, before any
	// descendant is created) and of the sleeping ones the node was created
	// with; with several, every enabled transition's, from the start (a
	// sibling may look at a transition another worker claimed but has not
	// run yet). Computing only what is looked at keeps a state's cost
	// independent of the number of enabled goroutines but for enabled.
	// Both maps hold pointers: an event is never modified once stored,
	// so a child's sleep set shares its parent's events, and a map's
	// slots stay small (a group of 8 events inline is over 1 KiB, most
	// of it unused at a state of 1–3 entries).
	events map[tid]*event
	sleep  map[tid]*event

	mu        sync.Mutex
	backtrack smallSet[tid]
	// backG holds the goroutines of backtrack's transitions (backtrack
	// only grows: addBack adds to both), for the races' "already
	// covered?" test; at a fixed state, those of every alternative not
	// left open, which the shards together explore.
	backG smallSet[uint64]
	// done holds the transitions explored from this state, or claimed by
	// a worker that will explore them (a transition is claimed once),
	// with the order of their claims (1, 2, …).
	done claimOrder
	// fixed marks a state at or above a shard split point (shard.go):
	// its backtrack set is fixed when it is created (every enabled
	// transition not asleep whose pieces include one of this shard's), races do
	// not add to it, and its children's sleep sets order the transitions
	// as enabled does, whoever explores them.
	fixed bool
	// free marks a state at a free node of the shard plan (planNode.free):
	// an ordinary state (not fixed) whose alternatives taken move the
	// shard path (its first one not asleep along the plan, another one
	// out of it).
	free bool
	// open holds the alternatives of a fixed state that the plan left to
	// the races (planNode.open): a race of this shard's may add them to
	// the backtrack set, and this shard then explores them as its own.
	open map[tid]bool
}

// addBack adds t to the backtrack set (s.mu held, or s not shared yet).
func (s *dporNode) addBack(t tid) {
	if s.fixed && !s.open[t] {
		return
	}
	s.backtrack.add(t)
	s.backG.add(t.g)
}

// smallSet is a set: a slice while it is small (a map per DPOR state
// cost more than the scans: most states have a few goroutines and
// transitions), a map once it holds smallSetFew keys, so that a state of
// many goroutines keeps constant-time tests. The zero value is empty.
type smallSet[K comparable] struct {
	few  []K // the keys while many is nil
	many map[K]bool
}

const smallSetFew = 16

// add adds k to the set.
func (ss *smallSet[K]) add(k K) {
	if ss.many != nil {
		ss.many[k] = true
		return
	}
	if ss.has(k) {
		return
	}
	if len(ss.few) < smallSetFew {
		ss.few = append(ss.few, k)
		return
	}
	ss.many = make(map[K]bool, 2*smallSetFew)
	for _, h := range ss.few {
		ss.many[h] = true
	}
	ss.many[k] = true
	ss.few = nil
}

// has reports whether k is in the set.
func (ss *smallSet[K]) has(k K) bool {
	if ss.many != nil {
		return ss.many[k]
	}
	for _, h := range ss.few {
		if h == k {
			return true
		}
	}
	return false
}

// all yields the keys, in no particular order.
func (ss *smallSet[K]) all() iter.Seq[K] {
	return func(yield func(K) bool) {
		if ss.many != nil {
			for k := range ss.many {
				if !yield(k) {
					return
				}
			}
			return
		}
		for _, k := range ss.few {
			if !yield(k) {
				return
			}
		}
	}
}

// count returns the number of keys for which keep reports true.
func (ss *smallSet[K]) count(keep func(K) bool) int {
	n := 0
	for k := range ss.all() {
		if keep(k) {
			n++
		}
	}
	return n
}

// claimOrder is the transitions claimed at a state, in the order of their
// claims (1, 2, …): a slice, with an index once it holds smallSetFew of
// them (a state of many goroutines keeps constant-time lookups).
type claimOrder struct {
	list  []tid
	index map[tid]int // list's positions + 1, once it is long
}

// claim appends t; a transition claimed before keeps its number (the
// callers claim a transition once).
func (c *claimOrder) claim(t tid) {
	if _, ok := c.order(t); ok {
		return
	}
	c.list = append(c.list, t)
	if c.index != nil {
		c.index[t] = len(c.list)
	} else if len(c.list) > smallSetFew {
		c.index = make(map[tid]int, 2*len(c.list))
		for i, u := range c.list {
			c.index[u] = i + 1
		}
	}
}

// order returns t's claim number (from 1), false if t is not claimed.
func (c *claimOrder) order(t tid) (int, bool) {
	if c.index != nil {
		n, ok := c.index[t]
		return n, ok
	}
	for i, u := range c.list {
		if u == t {
			return i + 1, true
		}
	}
	return 0, false
}

// claimed records that t is taken at s (s.mu held).
func (s *dporNode) claimed(t tid) {
	s.done.claim(t)
}

// eventOf returns the event of transition t at s; false if t is not
// enabled at s or (with one worker) was neither taken nor asleep at s.
func (s *dporNode) eventOf(t tid) (event, bool) {
	if e := s.events[t]; e != nil {
		return *e, true
	}
	return event{}, false
}

// claim marks and returns a transition of the backtrack set that is
// neither done nor asleep, in the order of enabled (deterministic).
func (s *dporNode) claim() (tid, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, t := range s.enabled {
		if _, done := s.done.order(t); done || !s.backtrack.has(t) {
			continue
		}
		if _, asleep := s.sleep[t]; asleep {
			continue
		}
		s.claimed(t)
		return t, true
	}
	return tid{}, false
}

// dporStep is one state along one worker's current execution: a node and
// the transition this worker takes there.
type dporStep struct {
	node   *dporNode
	chosen tid
	ev     int // index in execution events of the chosen transition's event
}

// dporChooser drives one worker's executions through its path of states.
type dporChooser struct {
	stack []dporStep
	pos   int // state index in the current execution
	// blocked intervals of the current execution (see blockedSpan);
	// open maps a goroutine key to its open interval in spans.
	spans []blockedSpan
	open  map[uint64]int
	// blocked counts sleep-set-blocked (redundant) executions.
	blocked    int
	realEvents int
	// clockOn records that the clock's advance was enabled at the
	// previous state (noteBlocked).
	clockOn bool
	// enabledIDs is noteBlocked's scratch set of goroutine ids.
	enabledIDs []bool
	// spanEvs holds the events of spans, in chunks (spanEvent).
	spanEvs [][]event
	// spent is the time of the executions of this chooser and runs
	// their number, from the entry's call to the end of their analysis
	// (measured only in Auto's first phase: tooLarge).
	spent time.Duration
	runs  int
	// eager makes new nodes hold every enabled transition's event
	// (several workers share the nodes; see dporNode.events).
	eager bool
	// part follows the path through the shard partition; skipped
	// records that the path reached a split point without an
	// alternative of this shard.
	part    shardPath
	skipped bool
}

// sleepBlocked is returned by choose when every enabled transition is in
// the sleep set: the execution is redundant and is cut.
const sleepBlocked = -2

// blockedSpan is a maximal run of states [from, to) of one execution at
// which goroutine g has a pending operation (ev, peeked) but no enabled
// transition: blocked on a full or empty channel, a held lock, a Wait…
// to is -1 while the run lasts (until the end of the execution). A
// goroutine's operation cannot change while it is blocked.
type blockedSpan struct {
	g        uint64
	from, to int
	ev       *event // in spanEvs
}

// resetSpans empties spans and spanEvs, keeping their storage.
func (d *dporChooser) resetSpans() {
	d.spans = d.spans[:0]
	for i := range d.spanEvs {
		d.spanEvs[i] = d.spanEvs[i][:0]
	}
	d.spanEvs = d.spanEvs[:0]
}

// spanEvent stores e in the chooser's slab of span events (valid until
// the end of the execution's analysis) and returns it: a span stays small
// however many times goroutines block (a lock handed over among n
// waiters opens n spans per handover).
func (d *dporChooser) spanEvent(e event) *event {
	const chunk = 1024
	n := len(d.spanEvs)
	if n == 0 || len(d.spanEvs[n-1]) == cap(d.spanEvs[n-1]) {
		if n < cap(d.spanEvs) && d.spanEvs[:n+1][n] != nil {
			d.spanEvs = d.spanEvs[:n+1] // reuse a chunk of a previous execution
		} else {
			d.spanEvs = append(d.spanEvs, make([]event, 0, chunk))
		}
		n++
	}
	c := &d.spanEvs[n-1]
	*c = append(*c, e)
	return &(*c)[len(*c)-1]
}

// noteBlocked opens and closes the blocked spans at state k, whose
// enabled transitions are ts. Branch choices (one goroutine's two sides)
// are not scheduling states and are skipped.
func (d *dporChooser) noteBlocked(x *execution, ts []transition, k int) {
	if x.branching {
		return
	}
	if k == 0 || d.open == nil {
		d.resetSpans()
		d.open = map[uint64]int{}
		d.clockOn = false
	}
	// on[g.id]: g has an enabled transition (as goroutine or partner)
	on := d.enabledIDs
	if cap(on) < len(x.gs)+1 {
		on = make([]bool, len(x.gs)+1, 2*len(x.gs)+1)
	}
	on = on[:len(x.gs)+1]
	clear(on)
	mark := func(g *goroutine) {
		if g != nil && g.id >= 1 && g.id <= len(x.gs) && x.gs[g.id-1] == g {
			on[g.id] = true
		}
	}
	for _, t := range ts {
		mark(t.g)
		mark(t.partner)
	}
	d.enabledIDs = on
	for _, g := range x.gs {
		if g.done || g.pend.kind == opNone || g.pend.kind == opSleep {
			continue
		}
		d.span(x, g, on[g.id], true, k)
	}
	d.noteClock(x, ts, k)
}

// span opens or closes g's blocked span at state k: it is open while g's
// operation is pending but not enabled.
func (d *dporChooser) span(x *execution, g *goroutine, enabled, pending bool, k int) {
	si, open := d.open[g.key]
	switch {
	case open && (enabled || !pending):
		d.spans[si].to = k
		delete(d.open, g.key)
	case !open && !enabled && pending:
		d.open[g.key] = len(d.spans)
		d.spans = append(d.spans, blockedSpan{g: g.key, from: k, to: -1, ev: d.spanEvent(x.newEventPeek(transition{g: g}))})
	}
}

// noteClock treats the clock's advance as a goroutine's operation for the
// blocked spans: while a timer is set or a goroutine sleeps, the advance
// is pending, enabled or not (a ticker's channel is full). When it stops
// being pending at once (the last timer stopped while the advance was
// enabled), a span of one state makes the transition that disabled it
// race with it.
func (d *dporChooser) noteClock(x *execution, ts []transition, k int) {
	enabled := x.clk != nil && len(ts) > 0 && ts[len(ts)-1].g == x.clk
	// an advance enabled at the previous state stays pending for one
	// state after it was disabled for good
	pending := enabled || d.clockOn || x.clockPending()
	if _, open := d.open[clockKey]; !pending && !open {
		return
	}
	d.span(x, x.clockG(), enabled, pending, k)
	d.clockOn = enabled
}

func (d *dporChooser) choose(x *execution, ts []transition) int {
	k := d.pos
	d.pos++
	if k == 0 {
		d.part.reset()
		d.skipped = false
	}
	d.noteBlocked(x, ts, k)
	if k < len(d.stack) {
		st := &d.stack[k]
		st.ev = len(x.events)
		for i, t := range ts {
			if tidOf(t) == st.chosen {
				if _, ok := st.node.events[st.chosen]; !ok {
					// first taken here (one worker: nobody else
					// reads the node)
					st.node.events[st.chosen] = x.newEventRef(t)
				}
				if st.node.fixed || st.node.free {
					d.takePlanned(st.node, st.chosen)
				}
				return i
			}
		}
		x.internal("DPOR: nondeterministic execution: a replayed transition is not enabled")
		return 0
	}
	s := &dporNode{enabled: make([]tid, len(ts)), events: map[tid]*event{}, sleep: map[tid]*event{}}
	plan := d.part.active()
	for i, t := range ts {
		s.enabled[i] = tidOf(t)
		if d.eager || plan {
			s.events[s.enabled[i]] = x.newEventRef(t)
		}
	}
	// at computes the event of t at s if t is enabled (lazy; a linear
	// scan: enabled is short, and a map per state cost more).
	at := func(t tid) {
		if d.eager {
			return
		}
		for i, u := range s.enabled {
			if u == t {
				if _, ok := s.events[t]; !ok {
					s.events[t] = x.newEventRef(ts[i])
				}
				return
			}
		}
	}
	if k > 0 {
		ps := d.stack[k-1]
		p := ps.node
		pe := p.events[ps.chosen]
		if pe == nil {
			pe = &event{} // (as eventOf's zero event)
		}
		add := func(t tid, e *event) {
			at(t)
			e = s.relabel(t, e)
			if t != ps.chosen && !dependent(e, pe) {
				s.sleep[t] = e
			}
		}
		for t, e := range p.sleep {
			add(t, e)
		}
		// The transitions taken at p before this one: with several
		// workers, only those claimed before it, so that two siblings
		// never count on each other (the claims are a linear order, as
		// the exploration order is for one worker).
		if p.fixed {
			p.fixedBefore(ps.chosen, add)
		} else {
			p.mu.Lock()
			before, _ := p.done.order(ps.chosen)
			for _, t := range p.done.list[:max(before-1, 0)] {
				if e := p.events[t]; e != nil {
					add(t, e)
				}
			}
			p.mu.Unlock()
		}
	}
	d.stack = append(d.stack, dporStep{node: s, ev: len(x.events)})
	if plan {
		if _, awake := s.awakeRank(tid{}); !d.part.atFree() || awake < 2 {
			return d.chooseFixed(s, ts, k)
		}
		s.free = true
	}
	for i, t := range s.enabled {
		if _, asleep := s.sleep[t]; !asleep {
			if _, ok := s.events[t]; !ok {
				// (lazy: at computed it if t was asleep at the
				// parent or taken there)
				s.events[t] = x.newEventRef(ts[i])
			}
			d.stack[k].chosen = t
			s.addBack(t)
			s.claimed(t)
			if s.free {
				d.takePlanned(s, t)
			}
			// the goroutine's other alternatives here are local choices
			for _, u := range s.enabled {
				if u.g == t.g {
					s.addBack(u)
				}
			}
			return i
		}
	}
	d.blocked++
	return sleepBlocked
}

// newEventRef is newEventPeek's event on the heap, for a node's maps.
func (x *execution) newEventRef(t transition) *event {
	e := x.newEventPeek(t)
	return &e
}

// newEventPeek describes the event transition t would produce, without
// marking the goroutine started.
func (x *execution) newEventPeek(t transition) event {
	started := t.g.evStarted
	e := x.newEvent(t)
	t.g.evStarted = started
	return e
}

// analyze adds backtrack points for the races of the finished execution.
// The operations goroutines are still waiting at when the execution ends
// (blocked, or asleep) take part as virtual final events: a deadlock is
// avoided by reordering one of them before an earlier conflicting event.
// It reports false if the exploration's context ended it first (some races
// may then have no backtrack point: the exploration is incomplete).
func (d *dporChooser) analyze(x *execution) bool {
	evs := x.events
	real := len(evs)
	for _, g := range x.gs {
		if g.done || g.pend.kind == opNone {
			continue
		}
		p := &g.pend
		alts := []int{0}
		if p.kind == opSelect {
			alts = alts[:0]
			for i := range p.cases {
				alts = append(alts, i)
			}
		}
		for _, alt := range alts {
			t := transition{g: g, alt: alt}
			e := x.newEventPeek(t)
			evs = append(evs, e)
		}
	}
	if len(evs) < 2 {
		return true
	}
	// map event index → state
	stateOf := make([]int, len(evs))
	for i := range stateOf {
		stateOf[i] = -1
	}
	for k := 0; k < d.pos && k < len(d.stack); k++ {
		if ev := d.stack[k].ev; ev < len(evs) {
			stateOf[ev] = k
		}
	}
	h := newHB(evs)
	d.realEvents = real
	// i races with j if they conflict and i does not reach j through
	// another direct predecessor of j (races, depindex.go)
	complete := races(h, real, func(i, j int) {
		if si := stateOf[i]; si >= 0 {
			d.addBacktrack(d.stack[si].node, h, i, j)
		}
	}, x.opts.done)
	if complete {
		d.blockedRaces(evs, real, stateOf, h)
		d.partnerRaces(evs, real, stateOf, h)
	}
	d.resetSpans()
	d.open = nil
	return complete
}

// goRace is a race between an event and the operation v of goroutine q
// (not an executed event of q alone: an operation q is blocked at, or q's
// side of a rendezvous). prev is q's last event before the operation (or
// the event that spawned q), -1 if none: the events that happen before it
// happen before v.
type goRace struct {
	evs     []event
	h       *hb
	stateOf []int
	q       uint64
	v       *event
	prev    int
}

// beforeQ reports whether event k happens before q's operation through
// q's previous event.
func (r *goRace) beforeQ(k int) bool {
	return r.prev >= 0 && (k == r.prev || k < r.prev && r.h.before(k, r.prev))
}

// candidate reports whether event j may race with q's operation:
// dependent, of another goroutine, and not happening before q.
func (r *goRace) candidate(j int) bool {
	e := &r.evs[j]
	return !e.barrier && !e.pseudo && e.g != r.q && e.partner != r.q && dependent(e, r.v) && !r.beforeQ(j)
}

// reverse makes the state before event j explore an initial of
// notdep(j).v, where notdep(j) is taken among the events before upto.
func (r *goRace) reverse(d *dporChooser, j, upto int) {
	si := r.stateOf[j]
	if si < 0 {
		return
	}
	evs, h := r.evs, r.h
	var w []int
	for k := j + 1; k < upto; k++ {
		if !h.before(j, k) {
			w = append(w, k)
		}
	}
	var initials []uint64
	qInitial := true
	for a, k := range w {
		initial := true
		for _, k2 := range w[:a] {
			if h.before(k2, k) {
				initial = false
				break
			}
		}
		if initial {
			initials = append(initials, evs[k].g)
		}
		if r.beforeQ(k) || dependent(&evs[k], r.v) || evs[k].g == r.q || evs[k].partner == r.q {
			qInitial = false
		}
	}
	if qInitial {
		initials = append(initials, r.q)
	}
	d.addBacktrackTo(d.stack[si].node, r.q, initials)
}

// prevOf returns q's last event before event index end, or spawner;
// comp is componentEvents(h, real) with end <= real.
func prevOf(h *hb, comp [][]int, q uint64, end, spawner int) int {
	if c, ok := h.gidx[q]; ok {
		if n := sort.SearchInts(comp[c], end); n > 0 {
			return comp[c][n-1]
		}
	}
	if spawner >= 0 && spawner < end {
		return spawner
	}
	return -1
}

// blockedRaces adds the backtrack points of the races of operations
// goroutines were blocked at (Flanagan and Godefroid, POPL 2005: at every
// state, for every goroutine p, enabled or not, the last transition j
// dependent with p's next operation and not happening before p races
// with it). A blocked operation produces no event while it is blocked, so
// the races between it and the transitions that disabled it, or ran
// while it was disabled, are not races between executed events: with a
// buffered channel of capacity 1 used as a lock, the second acquisition
// is ordered after the first one through the release and would never be
// tried first. For each blocked span of p it suffices to look at the last
// dependent transition before the span and at every dependent transition
// during it (the last dependent transition changes only there). The
// reversed race's sequence is notdep(j).op_p up to the span's first state
// at or after j: p is one of its initials unless an event of it happens
// before p's previous event; if no initial is enabled before j, every
// enabled transition there is added (addBacktrackTo's fallback).
func (d *dporChooser) blockedRaces(evs []event, real int, stateOf []int, h *hb) {
	states := min(d.pos, len(d.stack))
	evAt := func(k int) int {
		if k < 0 || k >= states {
			return real
		}
		return min(d.stack[k].ev, real)
	}
	lists := newDepLists(h, real) // (depindex.go)
	for i := range d.spans {
		sp := &d.spans[i]
		if sp.from >= states {
			continue
		}
		start, end := evAt(sp.from), evAt(sp.to)
		r := goRace{evs: evs, h: h, stateOf: stateOf, q: sp.g, v: sp.ev, prev: prevOf(h, lists.comp, sp.g, start, sp.ev.spawner)}
		// (1) the last dependent transition before the span
		if j := r.lastCandidate(lists, start); j >= 0 {
			r.reverse(d, j, start)
		}
		// (2) the dependent transitions during the span
		r.candidatesIn(lists, start, end, func(j int) { r.reverse(d, j, j+1) })
	}
}

// partnerRaces adds the backtrack points of the races of one side of a
// rendezvous: events i and j that share a goroutine (main receiving from
// G1, then from G2) are ordered by it, but the other side of j (G2's
// send) may race with i: if G2 reaches its send before i, the receiver
// has both partners to choose from. For each rendezvous j and each of its
// two goroutines q, the last event before j that is dependent with j,
// shares j's other goroutine, and does not happen before q's previous
// event races with q's side of j (the rule of Flanagan and Godefroid for
// q at the state before j).
func (d *dporChooser) partnerRaces(evs []event, real int, stateOf []int, h *hb) {
	touching := componentEvents(h, real)
	for j := 0; j < real; j++ {
		ej := &evs[j]
		if ej.partner == 0 || ej.pseudo || ej.barrier {
			continue
		}
		for _, q := range [2]uint64{ej.g, ej.partner} {
			other := ej.g ^ ej.partner ^ q
			spawner := -1
			if q == ej.g {
				spawner = ej.spawner
			}
			r := goRace{evs: evs, h: h, stateOf: stateOf, q: q, v: ej, prev: prevOf(h, touching, q, j, spawner)}
			// other's events before j, latest first, down to the first
			// that happens before q's operation: the earlier ones do too
			// (componentEvents)
			os := touching[h.gidx[other]]
			for _, i := range slices.Backward(os[:sort.SearchInts(os, j)]) {
				if r.candidate(i) {
					r.reverse(d, i, j)
					break
				}
				if r.beforeQ(i) {
					break
				}
			}
		}
	}
}

// addBacktrack ensures state s (before event i) will explore an initial
// of notdep(i).j.
func (d *dporChooser) addBacktrack(s *dporNode, h *hb, i, j int) {
	evs := h.evs
	var v []int
	for k := i + 1; k < j && k < d.realEvents; k++ {
		if !h.before(i, k) {
			v = append(v, k)
		}
	}
	v = append(v, j)
	var initials []uint64
	for a, k := range v {
		initial := true
		for _, k2 := range v[:a] {
			if h.before(k2, k) {
				initial = false
				break
			}
		}
		if initial {
			initials = append(initials, evs[k].g)
		}
	}
	d.addBacktrackTo(s, evs[j].g, initials)
}

// addBacktrackTo ensures state s will explore one of the initials,
// preferably goroutine pref (if it is one); if none is enabled at s,
// every enabled transition is added.
func (d *dporChooser) addBacktrackTo(s *dporNode, pref uint64, initials []uint64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	// Already covered?
	for _, g := range initials {
		if s.backG.has(g) {
			return
		}
	}
	// Prefer j's goroutine if it is an initial, then any initial enabled
	// at s. Only an initial will do: j's goroutine may be enabled at s
	// with an earlier transition that depends on an event of the
	// reversed sequence (it takes a fork that another goroutine of the
	// sequence takes and releases first), so the sequence does not start
	// with it. Exploring it from s reverses the race only through further
	// races found below it, and if it is asleep at s (explored from an
	// ancestor with only independent transitions in between, such as
	// shared reads) it is not explored at all, while the sleep set does
	// not cover the reversal either. Preferring j's goroutine whenever it
	// was enabled at s lost classes with Options.Shared.
	order := initials
	if slices.Contains(initials, pref) {
		order = append([]uint64{pref}, initials...)
	}
	for _, g := range order {
		added := false
		for _, t := range s.enabled {
			if t.g == g {
				s.addBack(t)
				added = true
			}
		}
		if added {
			return
		}
	}
	for _, t := range s.enabled {
		s.addBack(t)
	}
}

// next prepares the next execution: it claims a pending backtrack
// transition at the deepest state of the path that has one; false when
// there is none (this worker's part of the exploration is complete).
func (d *dporChooser) next() bool {
	d.pos = 0
	d.part.reset()
	d.skipped = false
	for k := len(d.stack) - 1; k >= 0; k-- {
		if t, ok := d.stack[k].node.claim(); ok {
			d.stack[k].chosen = t
			d.stack = d.stack[:k+1]
			return true
		}
	}
	d.stack = d.stack[:0]
	return false
}

// pending counts the transitions the states of the path still have to
// explore: in a backtrack set, neither done nor asleep.
func (d *dporChooser) pending() int {
	n := 0
	for _, st := range d.stack {
		s := st.node
		s.mu.Lock()
		n += s.backtrack.count(func(t tid) bool {
			_, done := s.done.order(t)
			_, asleep := s.sleep[t]
			return !done && !asleep
		})
		s.mu.Unlock()
	}
	return n
}

// split hands the pending backtrack transitions of the shallowest state
// of the path that has any to other workers: each is claimed and becomes
// a job, the path down to that state with the transition to take there.
// The states of the prefix stay shared: whoever has a state on its path
// may claim the backtrack transitions races add there later.
func (d *dporChooser) split() [][]dporStep {
	for k := range d.stack {
		var jobs [][]dporStep
		for {
			t, ok := d.stack[k].node.claim()
			if !ok {
				break
			}
			job := make([]dporStep, k+1)
			copy(job, d.stack[:k+1])
			job[k].chosen = t
			jobs = append(jobs, job)
		}
		if len(jobs) > 0 {
			return jobs
		}
	}
	return nil
}
