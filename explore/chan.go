package explore

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// chanObject is a Go channel. Blocked senders and receivers are not queued
// here: they are goroutines whose pending operation names the channel, and
// the scheduler pairs them (see sched.go).
type chanObject struct {
	elem   *rtype
	cap    int
	buf    []Value // ring buffer of cap elements
	head   int
	count  int
	closed bool
	id     int    // creation number in the execution, for reports
	key    uint64 // identity across executions (see object.id)
	timer  bool   // the channel of a timer or ticker: the clock sends on it
	// the race detector's release clocks: one per buffer slot, and the
	// close's (race.go)
	slots   []vclock
	closeVC vclock
}

// slotSync is the race detector's view of a buffered send or receive
// through buffer slot i, as Go's runtime models it: acquire the slot's
// clock (the send whose value is received; the receive that freed the
// slot for this send), then leave g's clock in it.
func (g *goroutine) slotSync(ch *chanObject, i int) {
	g.acquire(*ch.slot(i))
	g.releaseStore(ch.slot(i))
}

// slot returns the release clock of buffer slot i.
func (ch *chanObject) slot(i int) *vclock {
	if ch.slots == nil {
		ch.slots = make([]vclock, ch.cap)
	}
	return &ch.slots[i]
}

func (ch *chanObject) capacity() int { return ch.cap }
func (ch *chanObject) length() int   { return ch.count }

func (ch *chanObject) push(v Value) {
	ch.buf[(ch.head+ch.count)%ch.cap] = v
	ch.count++
}

func (ch *chanObject) pop() Value {
	v := ch.buf[ch.head]
	ch.buf[ch.head] = Value{}
	ch.head = (ch.head + 1) % ch.cap
	ch.count--
	return v
}

func (x *execution) newChan(elem *rtype, n int, key uint64) *chanObject {
	x.nchans++
	ch := &chanObject{elem: elem, cap: n, id: x.nchans, key: key}
	if n > 0 {
		ch.buf = make([]Value, n)
	}
	return ch
}

func (c *compiler) makeChan(e *ssa.MakeChan) instrFn {
	d, sz := c.def(e), c.use(e.Size)
	elem := c.m.rtypeOf(e.Type().Underlying().(*types.Chan).Elem())
	signed := c.m.rtypeOf(e.Size.Type()).kind.isSigned()
	return func(fr *frame) ctrl {
		n := fr.regs[sz].a
		if signed && int64(n) < 0 || n > 1<<30 {
			return fr.g.throwRuntime("makechan: size out of range")
		}
		fr.regs[d] = chanV(fr.g.x.newChan(elem, int(n), fr.g.newID()))
		return ctrlNext
	}
}

func (c *compiler) send(e *ssa.Send) instrFn {
	ch, v := c.use(e.Chan), c.use(e.X)
	pos, what := e.Pos(), sourceName(e.Chan)
	var elem *rtype
	if c.m.sharedMemory() {
		if et := c.m.rtypeOf(e.X.Type()); mayPublish(et) {
			elem = et
		}
	}
	return func(fr *frame) ctrl {
		g := fr.g
		if !g.granted {
			if elem != nil {
				g.x.m.publish(elem, fr.regs[v])
			}
			g.pend = pendingOp{kind: opSend, ch: fr.regs[ch].chanObj(), val: fr.regs[v], pos: pos, what: what}
			return ctrlYield
		}
		g.granted = false
		if g.grant.panic {
			return g.throwPlain("send on closed channel")
		}
		return ctrlNext
	}
}

func (c *compiler) recv(e *ssa.UnOp) instrFn {
	d, ch := c.def(e), c.use(e.X)
	pos, what := e.Pos(), sourceName(e.X)
	commaOk := e.CommaOk
	return func(fr *frame) ctrl {
		g := fr.g
		if !g.granted {
			g.pend = pendingOp{kind: opRecv, ch: fr.regs[ch].chanObj(), pos: pos, what: what}
			return ctrlYield
		}
		g.granted = false
		if commaOk {
			fr.regs[d] = tupleV(g.grant.val, boolV(g.grant.ok))
		} else {
			fr.regs[d] = g.grant.val
		}
		return ctrlNext
	}
}

func (c *compiler) selectInstr(e *ssa.Select) instrFn {
	d := c.def(e)
	type state struct {
		send bool
		ch   int
		val  int
		elem *rtype
		what string
	}
	states := make([]state, len(e.States))
	nrecv := 0
	for i, s := range e.States {
		states[i] = state{send: s.Dir == types.SendOnly, ch: c.use(s.Chan), val: -1,
			elem: c.m.rtypeOf(s.Chan.Type().Underlying().(*types.Chan).Elem()), what: sourceName(s.Chan)}
		if s.Send != nil {
			states[i].val = c.use(s.Send)
		}
		if !states[i].send {
			nrecv++
		}
	}
	blocking := e.Blocking
	pos := e.Pos()
	return func(fr *frame) ctrl {
		g := fr.g
		r := fr.regs
		if !g.granted {
			cases := make([]selCase, len(states))
			for i, s := range states {
				cases[i] = selCase{send: s.send, ch: r[s.ch].chanObj(), what: s.what}
				if s.val >= 0 {
					cases[i].val = r[s.val]
					if g.x.m.sharedMemory() && mayPublish(s.elem) {
						g.x.m.publish(s.elem, r[s.val])
					}
				}
			}
			g.pend = pendingOp{kind: opSelect, cases: cases, blocking: blocking, pos: pos}
			return ctrlYield
		}
		g.granted = false
		chosen := g.grant.alt
		if chosen >= 0 && states[chosen].send && g.grant.panic {
			return g.throwPlain("send on closed channel")
		}
		vs := make([]Value, 2+nrecv)
		vs[0] = intV(int64(chosen))
		j := 2
		for i, s := range states {
			if s.send {
				continue
			}
			if i == chosen {
				vs[1] = boolV(g.grant.ok)
				vs[j] = g.grant.val
			} else {
				vs[j] = s.elem.zero
			}
			j++
		}
		r[d] = tupleV(vs...)
		return ctrlNext
	}
}

// closeChan implements close(ch) as a scheduling point.
func (g *goroutine) closeChan(ch *chanObject, pos token.Pos, what string) ctrl {
	if !g.granted {
		g.pend = pendingOp{kind: opClose, ch: ch, pos: pos, what: what}
		return ctrlYield
	}
	g.granted = false
	switch {
	case ch == nil:
		return g.throwPlain("close of nil channel")
	case ch.closed:
		return g.throwPlain("close of closed channel")
	}
	ch.closed = true
	if g.x.race != nil {
		g.release(&ch.closeVC)
	}
	return ctrlNext
}
