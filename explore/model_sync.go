package explore

import (
	"fmt"
	"go/token"
	"go/types"
	"strings"
	"unsafe"

	"golang.org/x/tools/go/ssa"
)

// The sync package. Mutex, RWMutex, WaitGroup, Once and Cond keep their
// state in the cells of the sync values themselves (so copies behave as
// in Go; see syncLayout and the layout constants at the end of the file);
// sync.Map and sync.Pool keep theirs in the side table. Every operation
// is a scheduling point.

func syncModel() model {
	return model{funcs: map[string]intrinsicFactory{
		"(*sync.Mutex).Lock":       simple(mutexLock("sync.(*Mutex).Lock")),
		"(*sync.Mutex).Unlock":     simple(mutexUnlock("sync.(*Mutex).Unlock")),
		"(*sync.Mutex).TryLock":    simple(mutexTryLock),
		"(*sync.RWMutex).RLock":    simple(rwRLock("sync.(*RWMutex).RLock")),
		"(*sync.RWMutex).RUnlock":  simple(rwRUnlock("sync.(*RWMutex).RUnlock")),
		"(*sync.RWMutex).Lock":     simple(rwLock),
		"(*sync.RWMutex).Unlock":   simple(rwUnlock),
		"(*sync.RWMutex).TryLock":  simple(rwTryLock),
		"(*sync.RWMutex).TryRLock": simple(rwTryRLock),
		"(*sync.RWMutex).RLocker": func(m *machine, fn *ssa.Function) intrinsic {
			rt := m.rtypeOf(types.NewPointer(m.named("sync", "rlocker")))
			return func(c *icall) ctrl { return c.ret(ifaceV(rt, c.args[0])) }
		},
		"(*sync.rlocker).Lock":   simple(rwRLock("sync.(*RWMutex).RLock (RLocker)")),
		"(*sync.rlocker).Unlock": simple(rwRUnlock("sync.(*RWMutex).RUnlock (RLocker)")),
		"(*sync.WaitGroup).Add": simple(func(c *icall) ctrl {
			return wgAdd(c, c.args[1].Int(), "sync.(*WaitGroup).Add")
		}),
		"(*sync.WaitGroup).Done": simple(func(c *icall) ctrl { return wgAdd(c, -1, "sync.(*WaitGroup).Done") }),
		"(*sync.WaitGroup).Wait": simple(wgWait),
		"(*sync.WaitGroup).Go":   simple(wgGo),
		"(*sync.Once).Do":        simple(onceDo),
		"sync.NewCond": func(m *machine, fn *ssa.Function) intrinsic {
			ct := m.rtypeOf(m.named("sync", "Cond"))
			return func(c *icall) ctrl {
				o := &object{cells: make([]Value, ct.size), shared: true, id: c.g.newID()}
				o.cells[condL] = c.args[0]
				return c.ret(ptrV(o, 0))
			}
		},
		"(*sync.Cond).Wait": func(m *machine, fn *ssa.Function) intrinsic {
			locker := m.named("sync", "Locker")
			var lock, unlock *types.Func
			if locker != nil {
				it := locker.Underlying().(*types.Interface)
				for i := range it.NumMethods() {
					switch f := it.Method(i); f.Name() {
					case "Lock":
						lock = f
					case "Unlock":
						unlock = f
					}
				}
			}
			tr := m.condWaitTrampoline(lock, unlock)
			return func(c *icall) ctrl { return condWait(c, tr) }
		},
		"(*sync.Cond).Signal":          simple(func(c *icall) ctrl { return condNotifyOp(c, false) }),
		"(*sync.Cond).Broadcast":       simple(func(c *icall) ctrl { return condNotifyOp(c, true) }),
		"(*sync.Map).Load":             simple(syncMapOp("Load")),
		"(*sync.Map).Store":            simple(syncMapOp("Store")),
		"(*sync.Map).LoadOrStore":      simple(syncMapOp("LoadOrStore")),
		"(*sync.Map).LoadAndDelete":    simple(syncMapOp("LoadAndDelete")),
		"(*sync.Map).Delete":           simple(syncMapOp("Delete")),
		"(*sync.Map).Swap":             simple(syncMapOp("Swap")),
		"(*sync.Map).CompareAndSwap":   simple(syncMapOp("CompareAndSwap")),
		"(*sync.Map).CompareAndDelete": simple(syncMapOp("CompareAndDelete")),
		"(*sync.Map).Clear":            simple(syncMapOp("Clear")),
		"(*sync.Map).Range":            func(m *machine, fn *ssa.Function) intrinsic { return m.syncMapRange() },
		"(*sync.Pool).Get":             func(m *machine, fn *ssa.Function) intrinsic { return m.poolGet() },
		"(*sync.Pool).Put":             simple(poolPut),
		"sync.OnceFunc":                func(m *machine, fn *ssa.Function) intrinsic { return m.onceValues(0) },
		"sync.OnceValue":               func(m *machine, fn *ssa.Function) intrinsic { return m.onceValues(1) },
		"sync.OnceValues":              func(m *machine, fn *ssa.Function) intrinsic { return m.onceValues(2) },
	}}
}

// onceValues implements sync.OnceFunc (n = 0), OnceValue (1) and
// OnceValues (2): the returned function runs f through a Once and returns
// the saved results. As in Go, when f panics (or calls runtime.Goexit),
// the first call panics (or exits) with it, and every later call panics
// with the same value (a *runtime.PanicNilError after a Goexit).
//
// The results object holds f's results in cells [0, k), k = max(n, 1),
// then valid (a = 1 once f returned normally) and the panic value.
func (m *machine) onceValues(n int) intrinsic {
	onceT := m.named("sync", "Once")
	k := max(n, 1)
	// store: env = (f, results object); calls f and saves its results,
	// or, through a deferred native call, the value f panics with.
	store := m.trampoline(fmt.Sprintf("sync.OnceValues.store%d", n), 3, []instrFn{
		func(fr *frame) ctrl {
			res := fr.regs[1].obj()
			fr.defers = append(fr.defers, deferred{native: func(g *goroutine) {
				if res.cells[k].a != 0 {
					return
				}
				// f panicked: g.panic is its panic (f returned normally
				// otherwise, even while an outer panic is in flight).
				if p := g.panic; p != nil && !p.goexit {
					res.cells[k+1] = p.val
				} else {
					res.cells[k+1] = g.x.m.panicNilValue()
				}
			}})
			return ctrlNext
		},
		func(fr *frame) ctrl { return fr.g.callValue(fr, fr.regs[0], nil, 2, token.NoPos) },
		func(fr *frame) ctrl {
			res := fr.regs[1].obj()
			switch n {
			case 1:
				res.cells[0] = fr.regs[2]
			case 2:
				copy(res.cells, fr.regs[2].obj().cells)
			}
			res.cells[k].a = 1
			return ctrlNext
		},
		runDefersInstr,
		func(fr *frame) ctrl { return fr.g.ret(Value{}) },
	})
	store.nparams = 0
	// call: env = (once, store closure, results object).
	call := m.trampoline(fmt.Sprintf("sync.OnceValues.call%d", n), 3, []instrFn{
		func(fr *frame) ctrl {
			c := &icall{g: fr.g, fr: fr, args: []Value{fr.regs[0], fr.regs[1]}, dst: -1, pos: fr.g.callerPos()}
			return onceDo(c)
		},
		func(fr *frame) ctrl {
			res := fr.regs[2].obj()
			if res.cells[k].a == 0 {
				return fr.g.throw(res.cells[k+1])
			}
			switch n {
			case 1:
				return fr.g.ret(res.cells[0])
			case 2:
				return fr.g.ret(tupleV(res.cells[0], res.cells[1]))
			}
			return fr.g.ret(Value{})
		},
	})
	call.nparams = 0
	return func(c *icall) ctrl {
		if onceT == nil {
			return c.g.unsupported(c.pos, "sync.OnceFunc: sync.Once is not loaded")
		}
		once := &object{cells: make([]Value, m.rtypeOf(onceT).size), id: c.g.newID(), owner: c.g.key}
		res := &object{cells: make([]Value, k+2)}
		st := &closure{fn: store, env: []Value{c.args[0], ptrV(res, 0)}}
		return c.ret(funcV(&closure{fn: call, env: []Value{ptrV(once, 0), funcV(st), ptrV(res, 0)}}))
	}
}

func (m *machine) syncLayoutOK(c *icall) (ctrl, bool) {
	if e := m.syncLayout.layoutErr; e != "" {
		return c.g.unsupported(c.pos, "this Go version's sync types have an unexpected layout (%s)", e), false
	}
	return ctrlNext, true
}

func mutexLock(label string) intrinsic {
	return func(c *icall) ctrl {
		o, off, ok := c.ptrArg(0)
		if !ok {
			return c.nilPanic()
		}
		if c.yield(pendingOp{kind: opLock, obj: o, off: off, label: label}) {
			return ctrlYield
		}
		c.g.acquireAt(o, off)
		o.cells[off].a = 1
		return c.ret(Value{})
	}
}

func mutexUnlock(label string) intrinsic {
	return func(c *icall) ctrl {
		o, off, ok := c.ptrArg(0)
		if !ok {
			return c.nilPanic()
		}
		if c.yield(pendingOp{kind: opUnlock, obj: o, off: off, label: label}) {
			return ctrlYield
		}
		if o.cells[off].a == 0 {
			return c.g.fatal("sync: unlock of unlocked mutex")
		}
		c.g.releaseAt(o, off)
		o.cells[off].a = 0
		return c.ret(Value{})
	}
}

func mutexTryLock(c *icall) ctrl {
	o, off, ok := c.ptrArg(0)
	if !ok {
		return c.nilPanic()
	}
	if c.yield(pendingOp{kind: opTryLock, obj: o, off: off, label: "sync.(*Mutex).TryLock"}) {
		return ctrlYield
	}
	if o.cells[off].a != 0 {
		return c.ret(boolV(false))
	}
	c.g.acquireAt(o, off)
	o.cells[off].a = 1
	return c.ret(boolV(true))
}

func rwRLock(label string) intrinsic {
	return func(c *icall) ctrl {
		o, off, ok := c.ptrArg(0)
		if !ok {
			return c.nilPanic()
		}
		if cc, ok := c.m().syncLayoutOK(c); !ok {
			return cc
		}
		if c.yield(pendingOp{kind: opRLock, obj: o, off: off, label: label}) {
			return ctrlYield
		}
		c.g.acquireAt(o, off+rwWriter)
		o.cells[off+rwReaders].a++
		return c.ret(Value{})
	}
}

func rwRUnlock(label string) intrinsic {
	return func(c *icall) ctrl {
		o, off, ok := c.ptrArg(0)
		if !ok {
			return c.nilPanic()
		}
		if c.yield(pendingOp{kind: opRUnlock, obj: o, off: off, label: label}) {
			return ctrlYield
		}
		if o.cells[off+rwReaders].a == 0 {
			return c.g.fatal("sync: RUnlock of unlocked RWMutex")
		}
		c.g.releaseAt(o, off+rwReaders)
		o.cells[off+rwReaders].a--
		return c.ret(Value{})
	}
}

// rwLock is RWMutex.Lock in two steps: announcing the writer (new readers
// block from then on) and acquiring once the readers left.
func rwLock(c *icall) ctrl {
	o, off, ok := c.ptrArg(0)
	if !ok {
		return c.nilPanic()
	}
	if cc, ok := c.m().syncLayoutOK(c); !ok {
		return cc
	}
	g := c.g
	if g.phase == 0 {
		if c.yield(pendingOp{kind: opWAnnounce, obj: o, off: off, label: "sync.(*RWMutex).Lock (writer waits)"}) {
			return ctrlYield
		}
		o.cells[off+rwWriter].a = 1
		g.phase = 1
	}
	if c.yield(pendingOp{kind: opWAcquire, obj: o, off: off, label: "sync.(*RWMutex).Lock (acquired)"}) {
		return ctrlYield
	}
	g.phase = 0
	g.acquireAt(o, off+rwWriter)
	g.acquireAt(o, off+rwReaders)
	o.cells[off+rwWriter].a = 2
	return c.ret(Value{})
}

func rwUnlock(c *icall) ctrl {
	o, off, ok := c.ptrArg(0)
	if !ok {
		return c.nilPanic()
	}
	if c.yield(pendingOp{kind: opWUnlock, obj: o, off: off, label: "sync.(*RWMutex).Unlock"}) {
		return ctrlYield
	}
	if o.cells[off+rwWriter].a != 2 {
		return c.g.fatal("sync: Unlock of unlocked RWMutex")
	}
	c.g.releaseAt(o, off+rwWriter)
	o.cells[off+rwWriter].a = 0
	return c.ret(Value{})
}

func rwTryLock(c *icall) ctrl {
	o, off, ok := c.ptrArg(0)
	if !ok {
		return c.nilPanic()
	}
	if c.yield(pendingOp{kind: opTryLock, obj: o, off: off, label: "sync.(*RWMutex).TryLock"}) {
		return ctrlYield
	}
	if o.cells[off+rwWriter].a != 0 || o.cells[off+rwReaders].a != 0 {
		return c.ret(boolV(false))
	}
	c.g.acquireAt(o, off+rwWriter)
	c.g.acquireAt(o, off+rwReaders)
	o.cells[off+rwWriter].a = 2
	return c.ret(boolV(true))
}

func rwTryRLock(c *icall) ctrl {
	o, off, ok := c.ptrArg(0)
	if !ok {
		return c.nilPanic()
	}
	if c.yield(pendingOp{kind: opTryLock, obj: o, off: off, label: "sync.(*RWMutex).TryRLock"}) {
		return ctrlYield
	}
	if o.cells[off+rwWriter].a != 0 {
		return c.ret(boolV(false))
	}
	c.g.acquireAt(o, off+rwWriter)
	o.cells[off+rwReaders].a++
	return c.ret(boolV(true))
}

// The WaitGroup model follows sync/waitgroup.go. Go keeps the counter and
// the number of registered waiters in one state word: Wait registers when
// it finds the counter positive and sleeps on a semaphore; the Add that
// brings the counter to zero with waiters registered checks the state
// again, resets it and wakes them. Here cell 0 (state.v) holds the counter
// and cell wgWaiters (sema) the number of registered waiters. Wait is one
// step, enabled while the counter is zero; the goroutines waiting in it
// when an Add brings the counter to zero are its registered waiters: that
// Add moves their wait onto a ticket of their own (still an operation on
// the WaitGroup), then wakes them in a second step, as Go does after its
// atomic add. So the three panics of waitgroup.go happen under Go's
// conditions, each a panic with a string:
//   - "sync: negative WaitGroup counter": Add makes the counter negative
//     (it stays so, as in Go);
//   - "sync: WaitGroup misuse: Add called concurrently with Wait": an Add
//     takes the counter from zero while waiters are registered (after an
//     Add brought the counter to zero and before it woke them), or the
//     waking Add finds the state changed since it brought the counter to
//     zero;
//   - "sync: WaitGroup is reused before previous Wait has returned": a
//     woken waiter finds the state non-zero (an Add after the wake-up,
//     before the waiter ran).
//
// A goroutine waiting when the counter reaches zero has registered (in Go
// it may also not have loaded the state yet: that schedule, where a later
// Add from zero makes it wait again instead of panicking, is not
// explored), and one that reaches Wait after it has not: with DPOR, a
// schedule in which a waiter that reaches Wait after the counter went to
// zero could have reached it before (nothing orders the two) is explored
// only if another race leads to it.

const (
	wgNegative = "sync: negative WaitGroup counter"
	wgMisuse   = "sync: WaitGroup misuse: Add called concurrently with Wait"
	wgReused   = "sync: WaitGroup is reused before previous Wait has returned"
)

func wgAdd(c *icall, delta int64, label string) ctrl {
	o, off, ok := c.ptrArg(0)
	if !ok {
		return c.nilPanic()
	}
	if cc, done := wgAddOp(c, o, off, delta, label); !done {
		return cc
	}
	return c.ret(Value{})
}

// wgAddOp performs WaitGroup.Add(delta) on the WaitGroup at o's cell off:
// done is true when it completed, else cc is what the intrinsic returns
// (a yield, a panic).
func wgAddOp(c *icall, o *object, off int, delta int64, label string) (cc ctrl, done bool) {
	if cc, ok := c.m().syncLayoutOK(c); !ok {
		return cc, false
	}
	g := c.g
	var w uint64
	if g.phase == 0 {
		if c.yield(pendingOp{kind: opWGAdd, obj: o, off: off, n: delta, label: label}) {
			return ctrlYield, false
		}
		v0 := int64(o.cells[off].a)
		v := v0 + delta
		c.g.wgAddRace(o, off, v0, delta, c.pos)
		o.cells[off].a = uint64(v)
		w = o.cells[off+wgWaiters].a
		if v < 0 {
			return wgPanic(c, wgNegative), false
		}
		if w != 0 && delta > 0 && v == delta {
			return wgPanic(c, wgMisuse), false
		}
		if v > 0 {
			return ctrlNext, true
		}
		if w == 0 && v0 != 0 {
			w = c.x().wgRegister(o, off)
			o.cells[off+wgWaiters].a = w
		}
		if w == 0 {
			return ctrlNext, true
		}
		// The counter is zero and w goroutines wait: wake them.
		g.phase = 1
	}
	if c.yield(pendingOp{kind: opWGAdd, obj: o, off: off, n: int64(w), label: label + " (wakes waiters)"}) {
		return ctrlYield, false
	}
	g.phase = 0
	if o.cells[off].a != 0 || o.cells[off+wgWaiters].a != uint64(g.pend.n) {
		return wgPanic(c, wgMisuse), false
	}
	o.cells[off+wgWaiters].a = 0
	key := wgKey(o, off)
	for _, h := range c.x().gs {
		if p := &h.pend; !h.done && p.kind == opWGWait && p.key == key && p.obj.cells[0].a != 0 {
			p.obj.cells[0].a = 0
		}
	}
	return ctrlNext, true
}

// wgRegister registers the goroutines waiting in Wait on the WaitGroup at
// o's cell off as its waiters: each now waits on a ticket of its own (a
// cell that is 1 until an Add wakes it; the operation is still on the
// WaitGroup for DPOR and the race detector). It returns their number.
func (x *execution) wgRegister(o *object, off int) uint64 {
	key := wgKey(o, off)
	var n uint64
	for _, h := range x.gs {
		if p := &h.pend; !h.done && p.kind == opWGWait && p.obj == o && p.off == off && p.key.id == 0 {
			p.obj, p.off, p.key = &object{cells: []Value{uintV(1)}}, 0, key
			n++
		}
	}
	return n
}

// wgPanic panics with one of waitgroup.go's strings.
func wgPanic(c *icall, msg string) ctrl { return c.throwString(msg) }

// wgKey is the identity of the WaitGroup at o's cell off for DPOR.
func wgKey(o *object, off int) evKey {
	p := pendingOp{obj: o, off: off}
	return p.object(0)
}

// wgWait is WaitGroup.Wait: it returns when the counter is zero, or when
// woken as a registered waiter; then, if the state is not zero (the
// WaitGroup was reused), it panics.
func wgWait(c *icall) ctrl {
	o, off, ok := c.ptrArg(0)
	if !ok {
		return c.nilPanic()
	}
	if cc, ok := c.m().syncLayoutOK(c); !ok {
		return cc
	}
	if c.yield(pendingOp{kind: opWGWait, obj: o, off: off, n: c.x().wgWaitMark(o, off), label: "sync.(*WaitGroup).Wait"}) {
		return ctrlYield
	}
	woken := c.g.pend.obj != o // registered, then woken by an Add
	reused := woken && (o.cells[off].a != 0 || o.cells[off+wgWaiters].a != 0)
	c.g.wgWaitRace(o, off, c.g.pend.n, c.pos)
	if reused {
		return wgPanic(c, wgReused)
	}
	return c.ret(Value{})
}

// wgGo is WaitGroup.Go(f): Add(1), then a goroutine running f and Done.
func wgGo(c *icall) ctrl {
	o, off, ok := c.ptrArg(0)
	if !ok {
		return c.nilPanic()
	}
	if cc, done := wgAddOp(c, o, off, 1, "sync.(*WaitGroup).Go"); !done {
		return cc
	}
	tr := c.m().wgGoTrampoline()
	c.x().publishFunc(c.args[1])
	c.x().spawn(c.g, tr.self, []Value{c.args[1], c.args[0]}, c.pos)
	return c.ret(Value{})
}

// wgGoTrampoline: reg0 = f, reg1 = *WaitGroup. As in WaitGroup.Go, Done
// is deferred: it runs when f returns or calls runtime.Goexit (t.FailNow),
// not when f panics (the panic goes on).
func (m *machine) wgGoTrampoline() *fnCode {
	done := m.trampoline("sync.(*WaitGroup).Go.func1.1", 1, []instrFn{
		func(fr *frame) ctrl {
			if p := fr.g.panic; p != nil && !p.goexit {
				return ctrlNext
			}
			c := &icall{g: fr.g, fr: fr, args: []Value{fr.regs[0]}, dst: -1}
			return wgAdd(c, -1, "sync.(*WaitGroup).Done")
		},
		func(fr *frame) ctrl { return fr.g.ret(Value{}) },
	})
	return m.trampoline("sync.(*WaitGroup).Go.func1", 2, []instrFn{
		func(fr *frame) ctrl {
			fr.defers = append(fr.defers, deferred{fn: funcV(done.self), args: []Value{fr.regs[1]}})
			return ctrlNext
		},
		func(fr *frame) ctrl { return fr.g.callValue(fr, fr.regs[0], nil, -1, token.NoPos) },
		runDefersInstr,
		func(fr *frame) ctrl { return fr.g.ret(Value{}) },
	})
}

// onceDo runs f in a continuation frame that marks the Once done even if
// f panics. Other callers block while f runs.
func onceDo(c *icall) ctrl {
	o, off, ok := c.ptrArg(0)
	if !ok {
		return c.nilPanic()
	}
	if cc, ok := c.m().syncLayoutOK(c); !ok {
		return cc
	}
	if c.yield(pendingOp{kind: opOnce, obj: o, off: off, label: "sync.(*Once).Do"}) {
		return ctrlYield
	}
	if o.cells[off+onceDone].a != 0 {
		c.g.acquireAt(o, off+onceDone)
		return c.ret(Value{})
	}
	o.cells[off+onceRunning].a = 1
	tr := c.m().trampoline("sync.(*Once).doSlow", 2, []instrFn{
		func(fr *frame) ctrl {
			p := fr.regs[1]
			fr.defers = append(fr.defers, deferred{native: func(g *goroutine) {
				p.obj().cells[p.off()+onceDone].a = 1
				p.obj().cells[p.off()+onceRunning].a = 0
				g.releaseAt(p.obj(), p.off()+onceDone)
				// The completion of f happens before every Do that
				// returns afterwards: a synchronization event, not a
				// scheduling point.
				g.x.syncEvent(g, opOnce, p.obj(), p.off())
			}})
			return ctrlNext
		},
		func(fr *frame) ctrl { return fr.g.callValue(fr, fr.regs[0], nil, -1, token.NoPos) },
		runDefersInstr,
		func(fr *frame) ctrl { return fr.g.ret(Value{}) },
	})
	nf := c.g.push(tr, -1)
	nf.regs[0] = c.args[1]
	nf.regs[1] = c.args[0]
	return ctrlCall
}

// condWaitTrampoline: reg0 = *Cond, reg1 = L, reg2 = ticket.
func (m *machine) condWaitTrampoline(lock, unlock *types.Func) *fnCode {
	callL := func(fr *frame, meth *types.Func) ctrl {
		l := fr.regs[1]
		if l.p == nil || meth == nil {
			return fr.g.throwRuntime("invalid memory address or nil pointer dereference")
		}
		it := l.iface()
		fc := fr.g.x.m.method(it.t, meth)
		if fc == nil {
			return fr.g.unsupported(token.NoPos, "sync.Cond: locker %s has no method %s", it.t, meth.Name())
		}
		return fr.g.callValue(fr, funcV(fc.self), []Value{it.v}, -1, token.NoPos)
	}
	return m.trampoline("sync.(*Cond).Wait", 3, []instrFn{
		func(fr *frame) ctrl { return callL(fr, unlock) },
		func(fr *frame) ctrl {
			g := fr.g
			p := fr.regs[0]
			if !g.granted {
				g.pend = pendingOp{kind: opCondWait, obj: p.obj(), off: p.off(), n: fr.regs[2].Int(), label: "sync.(*Cond).Wait", pos: g.callerPos()}
				return ctrlYield
			}
			g.granted = false
			return ctrlNext
		},
		func(fr *frame) ctrl { return callL(fr, lock) },
		func(fr *frame) ctrl { return fr.g.ret(Value{}) },
	})
}

// condWait registers a wait ticket (a scheduling point), then unlocks L,
// waits for a notification and locks L again.
func condWait(c *icall, tr *fnCode) ctrl {
	o, off, ok := c.ptrArg(0)
	if !ok {
		return c.nilPanic()
	}
	if cc, ok := c.m().syncLayoutOK(c); !ok {
		return cc
	}
	if c.yield(pendingOp{kind: opSync, obj: o, off: off, label: "sync.(*Cond).Wait"}) {
		return ctrlYield
	}
	if cc := condCheck(c, o, off); cc != ctrlNext {
		return cc
	}
	ticket := uint32(o.cells[off+condWaitCell].a)
	o.cells[off+condWaitCell].a = uint64(ticket + 1)
	nf := c.g.push(tr, -1)
	nf.regs[0] = c.args[0]
	nf.regs[1] = o.cells[off+condL]
	nf.regs[2] = intV(int64(ticket))
	return ctrlCall
}

func condNotifyOp(c *icall, all bool) ctrl {
	o, off, ok := c.ptrArg(0)
	if !ok {
		return c.nilPanic()
	}
	label := "sync.(*Cond).Signal"
	if all {
		label = "sync.(*Cond).Broadcast"
	}
	if c.yield(pendingOp{kind: opSync, obj: o, off: off, label: label}) {
		return ctrlYield
	}
	if cc := condCheck(c, o, off); cc != ctrlNext {
		return cc
	}
	wait, notify := uint32(o.cells[off+condWaitCell].a), uint32(o.cells[off+condNotify].a)
	if wait != notify {
		if all {
			notify = wait
		} else {
			notify++
		}
		o.cells[off+condNotify].a = uint64(notify)
	}
	return c.ret(Value{})
}

func (c *icall) syncMapState(o *object, off int) *mapObject {
	m := c.m()
	return c.x().sideState(o, off, func() any { return newMap(m.emptyIface, m.emptyIface) }).(*mapObject)
}

func syncMapOp(op string) intrinsic {
	label := "sync.(*Map)." + op
	return func(c *icall) ctrl {
		o, off, ok := c.ptrArg(0)
		if !ok {
			return c.nilPanic()
		}
		if c.yield(pendingOp{kind: opSync, obj: o, off: off, label: label}) {
			return ctrlYield
		}
		c.g.acquireAt(o, off)
		c.g.releaseAt(o, off)
		for _, a := range c.args[1:] {
			c.x().publishAny(a) // keys and values become reachable
		}
		sm := c.syncMapState(o, off)
		unhashable := func(bad *rtype) ctrl { return c.g.throwRuntime("hash of unhashable type %s", bad) }
		switch op {
		case "Load":
			v, found, bad := sm.get(c.args[1])
			if bad != nil {
				return unhashable(bad)
			}
			if !found {
				v = Value{}
			}
			return c.retN(v, boolV(found))
		case "Store":
			if bad := sm.set(c.args[1], c.args[2]); bad != nil {
				return unhashable(bad)
			}
			return c.ret(Value{})
		case "LoadOrStore":
			v, found, bad := sm.get(c.args[1])
			if bad != nil {
				return unhashable(bad)
			}
			if found {
				return c.retN(v, boolV(true))
			}
			sm.set(c.args[1], c.args[2])
			return c.retN(c.args[2], boolV(false))
		case "LoadAndDelete":
			v, found, bad := sm.get(c.args[1])
			if bad != nil {
				return unhashable(bad)
			}
			if !found {
				v = Value{}
			}
			sm.delete(nil, c.args[1])
			return c.retN(v, boolV(found))
		case "Delete":
			if bad := sm.delete(nil, c.args[1]); bad != nil {
				return unhashable(bad)
			}
			return c.ret(Value{})
		case "Swap":
			v, found, bad := sm.get(c.args[1])
			if bad != nil {
				return unhashable(bad)
			}
			if !found {
				v = Value{}
			}
			sm.set(c.args[1], c.args[2])
			return c.retN(v, boolV(found))
		case "CompareAndSwap", "CompareAndDelete":
			v, found, bad := sm.get(c.args[1])
			if bad != nil {
				return unhashable(bad)
			}
			if !found {
				return c.ret(boolV(false))
			}
			eq, bad := equal(c.m().emptyIface, v, c.args[2])
			if bad != nil {
				return c.g.throwRuntime("comparing uncomparable type %s", bad)
			}
			if !eq {
				return c.ret(boolV(false))
			}
			if op == "CompareAndSwap" {
				sm.set(c.args[1], c.args[3])
			} else {
				sm.delete(nil, c.args[1])
			}
			return c.ret(boolV(true))
		case "Clear":
			sm.clear()
			return c.ret(Value{})
		}
		return c.g.unsupported(c.pos, "sync.Map.%s", op)
	}
}

// syncMapRange snapshots the entries, then calls f on each until it
// returns false. reg0 = f, reg1 = *argsBox (k0, v0, k1, v1, …), reg2 = i,
// reg3 = f's result.
func (m *machine) syncMapRange() intrinsic {
	tr := m.trampoline("sync.(*Map).Range", 4, []instrFn{
		func(fr *frame) ctrl {
			kv := (*argsBox)(fr.regs[1].p).args
			i := int(fr.regs[2].a)
			if 2*i >= len(kv) {
				return fr.g.ret(Value{})
			}
			return fr.g.callValue(fr, fr.regs[0], []Value{kv[2*i], kv[2*i+1]}, 3, token.NoPos)
		},
		func(fr *frame) ctrl {
			if fr.regs[3].a == 0 {
				return fr.g.ret(Value{})
			}
			fr.regs[2].a++
			fr.pc = 0
			return ctrlNext
		},
	})
	return func(c *icall) ctrl {
		o, off, ok := c.ptrArg(0)
		if !ok {
			return c.nilPanic()
		}
		if c.yield(pendingOp{kind: opSync, obj: o, off: off, label: "sync.(*Map).Range"}) {
			return ctrlYield
		}
		c.g.acquireAt(o, off)
		var kv []Value
		c.syncMapState(o, off).each(func(k, v Value) bool {
			kv = append(kv, k, v)
			return true
		})
		nf := c.g.push(tr, -1)
		nf.regs[0] = c.args[1]
		nf.regs[1] = Value{p: unsafe.Pointer(&argsBox{kv})}
		return ctrlCall
	}
}

// poolState holds a Pool's items and, for the race detector, the clock
// of each item's Put (Get of an item happens after its Put).
type poolState struct {
	items  []Value
	clocks []vclock
}

func (m *machine) poolGet() intrinsic {
	return func(c *icall) ctrl {
		o, off, ok := c.ptrArg(0)
		if !ok {
			return c.nilPanic()
		}
		ps := c.x().sideState(o, off, func() any { return &poolState{} }).(*poolState)
		if n := len(ps.items); n > 0 {
			v := ps.items[n-1]
			ps.items = ps.items[:n-1]
			c.g.acquire(ps.clocks[n-1])
			ps.clocks = ps.clocks[:n-1]
			return c.ret(v)
		}
		pt := m.named("sync", "Pool")
		newOff, _ := m.cellOffset(pt, "New")
		newFn := o.cells[off+newOff]
		if newFn.p == nil {
			return c.ret(Value{})
		}
		return c.g.callValue(c.fr, newFn, nil, c.dst, c.pos)
	}
}

func poolPut(c *icall) ctrl {
	o, off, ok := c.ptrArg(0)
	if !ok {
		return c.nilPanic()
	}
	if c.args[1].p == nil {
		return c.ret(Value{})
	}
	ps := c.x().sideState(o, off, func() any { return &poolState{} }).(*poolState)
	c.x().publishAny(c.args[1])
	ps.items = append(ps.items, c.args[1])
	var vc vclock
	if c.x().race != nil {
		c.g.release(&vc)
	}
	ps.clocks = append(ps.clocks, vc)
	return c.ret(Value{})
}

// syncLayout checks the cell layouts of the sync types the model relies
// on (the offsets below): the model reads and writes the fields of the
// real types, so a standard library with another layout disables it
// (syncLayoutOK reports the intrinsics as unsupported).
type syncLayout struct {
	layoutErr string // non-empty if sync types differ from the expected layout
	// condChecker is the cell of Cond.checker (-1: none), which condCheck
	// sets to the Cond's own identity.
	condChecker int
}

// Cell offsets within sync types (verified by syncLayout.init).
const (
	rwWriter     = 0 // RWMutex.w.mu.state: 0 free, 1 writer waiting, 2 writer holds
	rwReaders    = 4 // RWMutex.readerCount.v
	onceDone     = 0 // Once.done.v
	onceRunning  = 1 // Once.m.mu.state
	condL        = 0 // Cond.L
	condWaitCell = 1 // Cond.notify.wait
	condNotify   = 2 // Cond.notify.notify
	wgWaiters    = 1 // WaitGroup.sema: the number of waiters
)

func (mt *syncLayout) init(m *machine) {
	check := func(want int, typ string, path ...string) {
		t := m.named("sync", typ)
		if t == nil {
			return
		}
		if off, ok := m.cellOffset(t, path...); !ok || off != want {
			mt.layoutErr = "sync." + typ + "." + strings.Join(path, ".")
		}
	}
	check(0, "Mutex", "mu", "state")
	check(rwWriter, "RWMutex", "w", "mu", "state")
	check(rwReaders, "RWMutex", "readerCount", "v")
	check(0, "WaitGroup", "state", "v")
	check(wgWaiters, "WaitGroup", "sema")
	check(onceDone, "Once", "done", "v")
	check(onceRunning, "Once", "m", "mu", "state")
	check(condL, "Cond", "L")
	check(condWaitCell, "Cond", "notify", "wait")
	check(condNotify, "Cond", "notify", "notify")
	mt.condChecker = -1
	if t := m.named("sync", "Cond"); t != nil {
		if off, ok := m.cellOffset(t, "checker"); ok {
			mt.condChecker = off
		}
	}
}

// condCheck is Cond's copyChecker: the first Wait, Signal or Broadcast
// records the Cond's identity (object and cell) in its checker cell; a
// later one on a copy finds another and panics as Go's does.
func condCheck(c *icall, o *object, off int) ctrl {
	k := c.m().syncLayout.condChecker
	if k < 0 {
		return ctrlNext
	}
	cell := &o.cells[off+k]
	// the object's id survives a snapshot's copy; objects without one
	// (the models') are told apart by address
	self := Value{a: o.id, b: uint64(off + k + 1)}
	if o.id == 0 {
		self.p = unsafe.Pointer(o)
	}
	switch {
	case *cell == Value{}:
		*cell = self
	case *cell != self:
		return c.throwString("sync.Cond is copied") // panic("sync.Cond is copied"), a string, as in sync/cond.go
	}
	return ctrlNext
}
