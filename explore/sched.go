package explore

import (
	"go/token"
	"unsafe"
)

// opKind is the kind of scheduling point a goroutine waits at.
type opKind uint8

const (
	opNone      opKind = iota
	opSend             // ch <- val
	opRecv             // <-ch
	opSelect           // select statement
	opClose            // close(ch)
	opLock             // Mutex.Lock: cell 0 is 1 while held
	opUnlock           // Mutex.Unlock
	opRLock            // RWMutex.RLock
	opRUnlock          // RWMutex.RUnlock
	opWAnnounce        // RWMutex.Lock, phase 1: announce the writer (blocks new readers)
	opWAcquire         // RWMutex.Lock, phase 2: wait for readers to leave
	opWUnlock          // RWMutex.Unlock
	opTryLock          // Mutex.TryLock, RWMutex.TryLock/TryRLock
	opWGAdd            // WaitGroup.Add/Done
	opWGWait           // WaitGroup.Wait
	opOnce             // Once.Do: blocked while another goroutine runs f
	opCondWait         // Cond.Wait, blocked until signalled
	opSleep            // time.Sleep: blocked until the clock reaches wake
	opJoin             // waits for goroutine g2 to finish (t.Run)
	opSync             // any other synchronizing operation (always enabled)
	opEvent            // an observer event (always enabled)
	opShared           // an access to shared memory with Options.Shared
	opAtomic           // a sync/atomic operation
	opTime             // a goroutine reads the clock or changes the timers (time.Now, NewTimer, Stop, Reset, the start of a Sleep)
	opClock            // the clock advances to the next deadline and fires the timers due (the clock's own transition)
	opNet              // a net operation (model_net.go): blocked until net is ready or its deadline passed; always enabled if net is nil
)

// selCase is one case of a pending select.
type selCase struct {
	send bool
	ch   *chanObject
	val  Value
	what string // source name of the channel
}

// pendingOp describes the scheduling point a goroutine waits at.
type pendingOp struct {
	kind     opKind
	ch       *chanObject
	val      Value
	cases    []selCase
	blocking bool // select without default
	obj      *object
	off      int
	n        int64 // operation argument (wait ticket, counter delta…)
	wake     int64 // opSleep: virtual time to wake at; opClock: time to advance to
	g2       *goroutine
	pos      token.Pos
	label    string   // operation name for intrinsic ops ("sync.(*Mutex).Lock")
	write    bool     // opShared, opAtomic: a store; opTime: changes the timers
	key      evKey    // opShared on a map: the map's identity
	what     string   // source name of the channel (send, receive, close)
	net      *netWait // opNet: what the operation waits for (nil: nothing); write: it conflicts with the clock
}

// grantInfo is what the scheduler tells a goroutine whose operation it
// chose.
type grantInfo struct {
	alt   int   // select case, -1 for default
	val   Value // received value
	ok    bool  // receive ok (false: channel closed)
	panic bool  // send on a closed channel
}

// transition is one enabled move: goroutine g performs alternative alt of
// its pending operation, possibly together with a partner (a rendezvous on
// an unbuffered channel: the partner's case palt).
type transition struct {
	g       *goroutine
	alt     int
	partner *goroutine
	palt    int
}

// blockingOp reports whether g's pending operation would park it (so a
// rendezvous partner can meet it there).
func blockingOp(p *pendingOp) bool {
	switch p.kind {
	case opSend, opRecv:
		return true
	case opSelect:
		return p.blocking
	}
	return false
}

// enabled appends the enabled transitions of all goroutines to ts, in
// goroutine order, then the clock's if it can advance (clock.go), and
// applies the fairness rule (fair.go).
func (x *execution) enabled(ts []transition) []transition {
	for _, g := range x.gs {
		if !g.done && g.pend.kind != opNone {
			ts = x.alternatives(g, ts)
		}
	}
	if next, ok := x.nextDeadline(ts); ok {
		c := x.clockG()
		c.pend.wake = next
		ts = append(ts, transition{g: c})
	}
	return x.fair(ts)
}

// alternatives appends g's enabled transitions.
func (x *execution) alternatives(g *goroutine, ts []transition) []transition {
	p := &g.pend
	switch p.kind {
	case opSend:
		if ch := p.ch; ch != nil && (ch.closed || ch.cap > 0 && ch.count < ch.cap) {
			ts = append(ts, transition{g: g})
		}
		return ts
	case opRecv:
		ch := p.ch
		if ch == nil {
			return ts
		}
		if ch.count > 0 || ch.closed {
			return append(ts, transition{g: g})
		}
		if ch.cap == 0 {
			ts = x.partners(g, 0, ch, false, ts)
		}
		return ts
	case opSelect:
		n0 := len(ts)
		for i, cs := range p.cases {
			ch := cs.ch
			if ch == nil {
				continue
			}
			if cs.send {
				if ch.closed || ch.cap > 0 && ch.count < ch.cap {
					ts = append(ts, transition{g: g, alt: i})
				} else if ch.cap == 0 && !p.blocking {
					// A non-blocking select meets parked receivers itself.
					ts = x.partners(g, i, ch, true, ts)
				}
				continue
			}
			if ch.count > 0 || ch.closed {
				ts = append(ts, transition{g: g, alt: i})
			} else if ch.cap == 0 {
				ts = x.partners(g, i, ch, false, ts)
			}
		}
		if len(ts) == n0 && !p.blocking {
			ts = append(ts, transition{g: g, alt: -1})
		}
		return ts
	}
	if enabledOp(x, p) {
		ts = append(ts, transition{g: g})
	}
	return ts
}

// enabledOp reports whether a pending operation other than a channel
// operation can proceed.
func enabledOp(x *execution, p *pendingOp) bool {
	cell := func(i int) uint64 { return p.obj.cells[p.off+i].a }
	switch p.kind {
	case opLock, opWGWait:
		return cell(0) == 0
	case opRLock, opWAnnounce:
		return cell(rwWriter) == 0
	case opWAcquire:
		return cell(rwReaders) == 0
	case opOnce:
		return cell(onceRunning) == 0
	case opCondWait:
		return ticketBefore(uint32(p.n), uint32(cell(condNotify)))
	case opSleep:
		return x.clock >= p.wake
	case opJoin:
		return joinReady(p)
	case opNet:
		return p.net == nil || p.net.ready() || x.expired(p.net.deadline())
	}
	// unlock, add, close, sync, event, shared: always enabled
	return true
}

// ticketBefore reports whether wait ticket t has been notified (the
// runtime's notifyList: notify counts tickets already woken).
func ticketBefore(t, notify uint32) bool { return int32(t-notify) < 0 }

// partners appends rendezvous transitions of g's case alt on unbuffered
// channel ch with every parked goroutine offering the opposite direction.
func (x *execution) partners(g *goroutine, alt int, ch *chanObject, send bool, ts []transition) []transition {
	for _, h := range x.gs {
		if h == g || h.done || !blockingOp(&h.pend) {
			continue
		}
		hp := &h.pend
		switch hp.kind {
		case opSend:
			if !send && hp.ch == ch {
				ts = append(ts, transition{g: g, alt: alt, partner: h})
			}
		case opRecv:
			if send && hp.ch == ch {
				ts = append(ts, transition{g: g, alt: alt, partner: h})
			}
		case opSelect:
			for j, hc := range hp.cases {
				if hc.ch == ch && hc.send != send {
					ts = append(ts, transition{g: g, alt: alt, partner: h, palt: j})
				}
			}
		}
	}
	return ts
}

// commCase returns the channel case alternative alt of a pending
// communication.
func commCase(p *pendingOp, alt int) (send bool, ch *chanObject, val Value) {
	switch p.kind {
	case opSend:
		return true, p.ch, p.val
	case opRecv:
		return false, p.ch, Value{}
	}
	c := p.cases[alt]
	return c.send, c.ch, c.val
}

// apply performs transition t: channel data moves here; other operations
// are performed by the granted goroutine when it re-executes its
// instruction. Both parties of a rendezvous are granted.
func (x *execution) apply(t transition) {
	g := t.g
	p := &g.pend
	x.record(t)
	g.spin = nextSpin(g, t.alt)
	x.observe(g, t.alt)
	if len(x.starved) > 0 {
		x.moved(g)
		if t.partner != nil {
			x.moved(t.partner)
		}
	}
	g.grant = grantInfo{alt: t.alt}
	switch p.kind {
	case opSend, opRecv, opSelect:
		if t.alt < 0 {
			break
		}
		send, ch, val := commCase(p, t.alt)
		switch {
		case t.partner != nil:
			h := t.partner
			if x.race != nil {
				// A rendezvous orders each side before the other's
				// completion.
				g.vc.join(h.vc)
				h.vc.join(g.vc)
				g.tick()
				h.tick()
			}
			hsend, _, hval := commCase(&h.pend, t.palt)
			h.grant = grantInfo{alt: t.palt}
			if send {
				h.grant.val, h.grant.ok = val, true
			} else {
				g.grant.val, g.grant.ok = hval, true
				_ = hsend
			}
			h.pend.kind = opNone
			h.granted = true
			x.queue = append(x.queue, h)
		case send && ch.closed:
			g.grant.panic = true
		case send:
			if x.race != nil {
				g.slotSync(ch, (ch.head+ch.count)%ch.cap)
			}
			ch.push(val)
		case ch.count > 0:
			if x.race != nil {
				g.slotSync(ch, ch.head)
			}
			g.grant.val, g.grant.ok = ch.pop(), true
		default: // closed and empty
			if x.race != nil {
				g.acquire(ch.closeVC)
			}
			g.grant.val = ch.elem.zero
		}
	case opJoin:
		if x.race != nil {
			// t.Run returns after the subtest ended (or called
			// t.Parallel: joinClock).
			g.acquire(joinClock(p))
		}
	}
	p.kind = opNone
	g.granted = true
}

// objKey identifies a memory cell within one execution (side tables of
// the models).
type objKey struct {
	p   unsafe.Pointer
	off int
}

// evKey identifies the object a transition synchronizes on across
// executions, for dependency analysis (DPOR): a channel, or a cell of
// memory (sync variables, atomics, shared memory). The zero evKey is "no
// object".
type evKey struct {
	id  uint64
	off int
}

func chanKey(ch *chanObject) evKey {
	if ch == nil {
		return evKey{}
	}
	if ch.key == 0 {
		return evKey{id: uint64(uintptr(unsafe.Pointer(ch))), off: -1}
	}
	return evKey{id: ch.key, off: -1}
}

func (p *pendingOp) object(alt int) evKey {
	switch p.kind {
	case opSend, opRecv, opClose:
		return chanKey(p.ch)
	case opSelect:
		if alt >= 0 {
			return chanKey(p.cases[alt].ch)
		}
		return evKey{}
	}
	if p.key.id != 0 {
		return p.key
	}
	if o := p.obj; o != nil {
		if o.id == 0 {
			return evKey{id: uint64(uintptr(unsafe.Pointer(o))), off: p.off}
		}
		return evKey{id: o.id, off: p.off}
	}
	return evKey{}
}

func objKeyOf(o *object, off int) objKey { return objKey{p: unsafe.Pointer(o), off: off} }
