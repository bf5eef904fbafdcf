package explore

import "sync/atomic"

// Independence that Go guarantees.
//
// depends treats two operations on one object as conflicting when one of
// them writes, and every channel operation and every WaitGroup.Add writes.
// commute refines that for partial-order reduction with pairs that Go's
// semantics make commute. Each event carries what the refinement needs
// (indep), decided by newEvent in the state before the event, and the
// relation is decided from the two events alone.
//
// Dynamic partial-order reduction needs independent transitions to
// commute in every state where both are enabled, and neither to enable or
// disable the other. Since an event's description depends on the state
// here, one more condition: swapping two adjacent independent events of
// an execution must leave both descriptions unchanged (then the
// executions of one class have the same events, and happens-before,
// computed from the recorded events, is the same for all of them). The
// labels below are chosen so. Sleep sets compare two transitions enabled
// at one state, which are not adjacent events of one execution: choose
// (relabel) compares the event taken at a state with the event the other
// transition produces after it, which are.
//
// Buffered channels. A send is labelled with the buffer slot it fills
// ((head+count) mod cap: its rank among the channel's sends, mod cap), a
// receive with the slot it empties (head: its rank among the receives,
// mod cap), while the channel is open. A send and a receive on different
// slots commute: taken one after the other from a state with count
// values, the slots differ exactly when 1 ≤ count < cap (send first), or
// 1 ≤ count < cap (receive first: count = cap puts the send on the slot
// the receive frees), that is, when both are enabled in that state and
// stay so; the receive takes the head value, which the send (at the tail)
// does not touch, and each leaves the other's slot alone (the race
// detector's slot clocks included). Sends are ordered among themselves,
// and so are receives (they write the channel), so an event's rank, and
// its slot, is the same in every execution of its class. A blocked send
// (full channel) is on the slot the next receive frees, a blocked receive
// (empty) on the slot the next send fills: each depends on the operation
// that would enable it. Not refined: unbuffered channels (rendezvous),
// selects (they read every channel they looked at), close, operations on
// a closed channel. (Only the clock fills a timer's channel, and the
// clock's events are ordered with the receives by their own rules.)
//
// WaitGroup. An Add(delta) (Done is Add(-1)) is labelled by the counter
// c before it: wgDec when delta < 0 and c+delta > 0, wgZero when delta <
// 0, c > 0 and c+delta == 0, wgInc when delta > 0 and c > 0; the other
// Adds (from zero, to a negative counter) and the second step of the Add
// that reached zero (it wakes the registered waiters) are not refined.
// Two wgDec commute: the counter stays positive in both orders, and the
// race detector's releases are merged into one clock; swapping them
// leaves both wgDec (both end above zero). Two wgInc commute likewise (no
// Wait can be enabled in between, no misuse panic). wgZero depends on
// every other Add: which decrement reaches zero decides which goroutine
// wakes the waiters (its second step), whether a goroutine that
// decremented and then called Wait registered as a waiter (it did if it
// reached Wait before the counter reached zero), and so whether a later
// Add from zero panics "Add called concurrently with Wait"; and swapping
// the last two decrements exchanges wgDec and wgZero. So six goroutines
// that call Done after Add(6) take six executions (which Done reaches
// zero), not one. An increment and a decrement do not commute: from 1,
// Add(1) then Done never lets a Wait return, Done then Add(1) does.
//
// A Wait that has not registered as a waiter (indWGWait) depends only on
// the Adds that reach zero (they enable it, or register it), start from
// zero or are not refined: it is enabled only while the counter is zero,
// when no wgDec or wgInc is enabled, and those keep the counter positive
// (it stays disabled, they do not enable it). A registered Wait returns
// when the second step of the Add that reached zero woke it; if it is
// enabled together with a wgInc or wgDec, the WaitGroup was reused (the
// counter is positive) and it panics "reused", which ends the program:
// it disables them, so it depends on every Add.
//
// Already independent elsewhere: read locks with each other (syncConflict),
// atomic loads with each other (reads), operations on different objects.
// Race detection's happens-before is not derived from this relation: it
// follows Go's memory model with vector clocks (race.go).
//
// Tried and dropped: wgZero independent of wgDec (one execution for the
// six Done calls). The executions that differ only in which decrement
// reached zero are not equivalent: on indep.Increments DPOR then missed
// classes DFS reaches, where the goroutine whose Done would have reached
// zero had instead registered in Wait, and an Add from zero panicked.

// indepKind says what the refined relation knows of an event.
type indepKind uint8

const (
	indNone   indepKind = iota // not refined: conflicts as depends says
	indChan                    // send or receive on an open buffered channel, at slot
	indWGDec                   // WaitGroup decrement from c > 0 to > 0
	indWGZero                  // WaitGroup decrement from c > 0 to 0
	indWGInc                   // WaitGroup increment from c > 0
	indWGWait                  // WaitGroup.Wait not registered as a waiter
	indWGWake                  // the Add's second step, which wakes the registered waiters
)

// indep is the part of an event the refined relation reads (see the
// comment above): computed by newEvent in the state before the event.
type indep struct {
	kind indepKind
	slot int32 // indChan: the buffer slot filled or emptied
}

// conservativeDependence switches the refinement off (the dependency
// relation before it): for benchmarks and tests that compare the two in
// one run. Set it only while no exploration runs.
var conservativeDependence atomic.Bool

// indepOf labels the event of transition t (see indep), in the current
// state.
func (x *execution) indepOf(t transition) indep {
	g := t.g
	p := &g.pend
	switch p.kind {
	case opSend, opRecv:
		ch := p.ch
		if ch == nil || ch.cap == 0 || ch.closed || t.partner != nil {
			return indep{}
		}
		if p.kind == opSend {
			return indep{kind: indChan, slot: int32((ch.head + ch.count) % ch.cap)}
		}
		return indep{kind: indChan, slot: int32(ch.head)}
	case opWGAdd:
		if g.phase != 0 {
			return indep{kind: indWGWake}
		}
		if p.obj == nil || p.off >= len(p.obj.cells) {
			return indep{}
		}
		c, d := int64(p.obj.cells[p.off].a), p.n
		switch {
		case c <= 0:
		case d < 0 && c+d > 0:
			return indep{kind: indWGDec}
		case d < 0 && c+d == 0:
			return indep{kind: indWGZero}
		case d > 0 && c+d > 0:
			return indep{kind: indWGInc}
		}
	case opWGWait:
		if p.key.id == 0 {
			return indep{kind: indWGWait}
		}
	}
	return indep{}
}

// commute reports whether two events on the same object, which depends
// would take as conflicting, commute by Go's semantics (see the comment
// above). It reads only the events.
func commute(a, b *event) bool {
	if conservativeDependence.Load() {
		return false
	}
	if a.kind > b.kind {
		a, b = b, a
	}
	switch {
	case a.ind.kind == indChan && b.ind.kind == indChan:
		return a.kind != b.kind && a.ind.slot != b.ind.slot
	case a.kind == opWGAdd && b.kind == opWGAdd:
		return a.ind.kind == b.ind.kind && (a.ind.kind == indWGDec || a.ind.kind == indWGInc)
	case a.kind == opWGAdd && b.kind == opWGWait:
		return b.ind.kind == indWGWait && (a.ind.kind == indWGDec || a.ind.kind == indWGInc)
	}
	return false
}

// relabel returns the event transition t, asleep at s's parent or taken
// there before the transition that led to s, produces at s (e if t is not
// enabled at s). t stays asleep at s if that event is independent of the
// event taken at the parent: then the two, in that order, are adjacent
// events of an execution, independent, and swapping them keeps both
// events' descriptions (indep), so the executions from s that start with
// t are equivalent to executions from the parent that start with t. The
// event t had at the parent would not do: two decrements from 2 are both
// wgDec there, but the second one taken reaches zero.
func (s *dporNode) relabel(t tid, e *event) *event {
	if now := s.events[t]; now != nil {
		return now
	}
	return e
}
