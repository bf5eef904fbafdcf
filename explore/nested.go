package explore

import (
	"fmt"
	"go/token"
	"iter"
	"runtime/debug"

	"golang.org/x/tools/go/ssa"
)

// Nested calls.
//
// Some modelled library functions call interpreted code synchronously:
// fmt calls String, Error, GoString methods, errors.Is and errors.As call
// Is, As and Unwrap, sort.Slice calls less, rand.Shuffle calls swap. They
// do so with callNested: the interpreted code runs on the same goroutine,
// above the intrinsic's native Go frames. When it reaches a scheduling
// point, the goroutine stops there as anywhere else, so the native stack
// of the intrinsic must be kept: such intrinsics (marked with nests) run
// on a host coroutine (nestCo, built on iter.Pull). A yield of the nested
// code suspends the coroutine and hands control back to the run loop, the
// goroutine parked at the nested operation; when the scheduler grants it,
// the caller's instruction (the intrinsic's call) re-executes, as for every
// scheduling point, finds the coroutine suspended and resumes it.
//
// Invariants:
//
//   - One host goroutine runs at a time: the run loop's, or the coroutine
//     it resumed (iter.Pull's next blocks its caller until the coroutine
//     yields or returns), so executions stay deterministic.
//   - g.nest.co is set while g has a marked intrinsic call in progress on
//     a coroutine, running or suspended. Marked intrinsics called by the
//     nested code run inline on that coroutine.
//   - While the coroutine is suspended, g's frames above the intrinsic's
//     caller are hidden: g.depth and g.top are the caller's, and so is g's
//     per-activation state (nestCtx); the nested values are saved in the
//     coroutine and restored when it resumes. g.stackDepth counts the
//     hidden frames (stacks show them).
//   - Coroutines belong to one execution: stopCoroutines, when the
//     execution's run ends, ends them (a suspended nested call returns
//     ctrlStop through the intrinsic, running no interpreted code), so no
//     host goroutine outlives its execution.

// nestState is a goroutine's nested-call state.
type nestState struct {
	// co runs g's marked intrinsic call in progress (nil if none).
	co *nestCo
	// probing is set while a marked intrinsic runs on the run loop's
	// stack to see whether it calls interpreted code (see nests).
	probing bool
}

// nestCtx is the per-activation state of a goroutine that differs
// between the intrinsic's caller and the nested code: it is swapped when a
// nested call is suspended and resumed.
type nestCtx struct {
	depth        int
	parked       bool
	resumeUnwind bool
	stmtEvFr     *frame
	stmtEvID     int
	phase        int
	panic        *panicRec
}

func (g *goroutine) saveCtx() nestCtx {
	return nestCtx{g.depth, g.parked, g.resumeUnwind, g.stmtEvFr, g.stmtEvID, g.phase, g.panic}
}

func (g *goroutine) restoreCtx(c nestCtx) {
	g.depth, g.parked, g.resumeUnwind, g.stmtEvFr, g.stmtEvID, g.phase, g.panic =
		c.depth, c.parked, c.resumeUnwind, c.stmtEvFr, c.stmtEvID, c.phase, c.panic
	g.top = nil
	if g.depth > 0 {
		g.top = g.frames[g.depth-1]
	}
}

// nestCo is a host coroutine that runs one marked intrinsic call at a
// time (a job) for a goroutine.
type nestCo struct {
	next  func() (struct{}, bool)
	stop  func()
	yield func(struct{}) bool

	// the job
	f   intrinsic
	c   *icall
	res ctrl

	// suspended: the job's nested code waits at a scheduling point; outer
	// is the caller's state then, inner the nested code's.
	suspended    bool
	outer, inner nestCtx
	// aborted: the execution ended while the job was suspended.
	aborted bool
	// ended: the coroutine's host goroutine has returned.
	ended bool
}

// coPool holds an execution's coroutines.
type coPool struct {
	all  []*nestCo
	free []*nestCo
}

// newNestCo starts a coroutine (it runs nothing before its first job).
func newNestCo() *nestCo {
	co := &nestCo{}
	co.next, co.stop = iter.Pull(func(yield func(struct{}) bool) {
		defer func() { co.ended = true }()
		co.yield = yield
		for {
			co.res = co.runJob()
			if !yield(struct{}{}) {
				return
			}
		}
	})
	return co
}

// coPanic is an interpreter panic raised on a coroutine, carried to the
// run loop with the coroutine's stack (iter.Pull re-raises the value
// there).
type coPanic struct {
	val   any
	stack []byte
}

func (p coPanic) String() string {
	return fmt.Sprintf("%v (on a nested-call coroutine)\n%s", p.val, p.stack)
}

func (co *nestCo) runJob() ctrl {
	defer func() {
		if r := recover(); r != nil {
			switch r.(type) {
			case stackOverflow, coPanic:
				panic(r)
			}
			panic(coPanic{r, debug.Stack()})
		}
	}()
	return co.f(co.c)
}

// nests marks an intrinsic that may call interpreted code (callNested):
// it runs on a coroutine of its goroutine. With probe, it first runs on
// the caller's stack, and only if it reaches callNested (which then
// returns ctrlNeedCo at once) it runs again on a coroutine: a probed
// intrinsic must have no effect before its first nested call, and must
// return the ctrl callNested returns.
func nests(f intrinsicFactory, probe bool) intrinsicFactory {
	return func(m *machine, fn *ssa.Function) intrinsic {
		in := f(m, fn)
		if probe {
			return func(c *icall) ctrl { return c.g.nestedIntr(in, c, true) }
		}
		return func(c *icall) ctrl { return c.g.nestedIntr(in, c, false) }
	}
}

// nestedIntr calls the marked intrinsic f.
func (g *goroutine) nestedIntr(f intrinsic, c *icall, probe bool) ctrl {
	if co := g.nest.co; co != nil {
		if !co.suspended {
			return f(c) // called by nested code: on its coroutine
		}
		// The re-execution of the suspended call: resume it.
		if co.c.fn != c.fn {
			g.x.internal(fmt.Sprintf("goroutine %d resumed %s while suspended in %s", g.id, c.fn.name, co.c.fn.name))
			return ctrlStop
		}
		return g.resumeCo(co)
	}
	if probe {
		g.nest.probing = true
		cc := f(c)
		g.nest.probing = false
		if cc != ctrlNeedCo {
			return cc
		}
	}
	return g.startCo(f, c)
}

// startCo starts the marked intrinsic call f(c) on a coroutine.
func (g *goroutine) startCo(f intrinsic, c *icall) ctrl {
	x := g.x
	var co *nestCo
	if n := len(x.cos.free); n > 0 {
		co = x.cos.free[n-1]
		x.cos.free = x.cos.free[:n-1]
	} else {
		co = newNestCo()
		x.cos.all = append(x.cos.all, co)
	}
	co.f, co.c = f, c
	g.nest.co = co
	co.outer = g.saveCtx()
	return g.runCo(co)
}

// resumeCo resumes g's suspended coroutine (its nested operation was
// granted), restoring the nested code's state.
func (g *goroutine) resumeCo(co *nestCo) ctrl {
	co.suspended = false
	co.outer = g.saveCtx()
	g.restoreCtx(co.inner)
	return g.runCo(co)
}

// runCo runs g's coroutine until its job returns (its result) or the
// nested code suspends it: then the nested frames are hidden and runCo
// returns ctrlYield, so that the caller's instruction re-executes when
// the operation is granted.
//
// A panic of the coroutine (stack overflow, interpreter bug) propagates
// from next to the run loop; the coroutine has ended then and is not
// reused.
func (g *goroutine) runCo(co *nestCo) ctrl {
	co.next()
	if co.suspended {
		co.inner = g.saveCtx()
		g.restoreCtx(co.outer)
		return ctrlYield
	}
	res := co.res
	co.f, co.c = nil, nil
	g.nest.co = nil
	g.x.cos.free = append(g.x.cos.free, co)
	return res
}

// suspendNested parks the nested call at g's pending operation (on g's
// coroutine); it returns when the operation was granted (ctrlNext), or
// ctrlStop when the execution ended meanwhile.
func (g *goroutine) suspendNested() ctrl {
	co := g.nest.co
	co.suspended = true
	if !co.yield(struct{}{}) {
		co.aborted = true
		return ctrlStop
	}
	return ctrlNext
}

// stackDepth is the number of g's frames, with those of a suspended
// nested call.
func (g *goroutine) stackDepth() int {
	if co := g.nest.co; co != nil && co.suspended {
		return co.inner.depth
	}
	return g.depth
}

// stopCoroutines ends the execution's coroutines (at the end of run): a
// suspended job unwinds through its intrinsic with ctrlStop. A panic
// there is an interpreter bug, recorded as such. The ended coroutines stay
// listed in x.cos.all (stopping is idempotent).
func (x *execution) stopCoroutines() {
	for _, co := range x.cos.all {
		func() {
			defer func() {
				if r := recover(); r != nil {
					x.internal(fmt.Sprintf("interpreter panic ending a nested call: %v", r))
				}
			}()
			co.stop()
		}()
	}
	x.cos.free = nil
}

// callNested calls fv(args...) synchronously on g from inside a marked
// intrinsic (see nests). It returns the result and ctrlNext, ctrlPanic
// (g.panic is set and the caller must propagate it), ctrlStop, or
// ctrlNeedCo while the intrinsic is probed.
//
// The call runs without the panic g may be unwinding (a deferred fmt
// call): a panic of the call ends with it (g.panic's chain ends with the
// panic in progress before the call), and the caller restores that panic
// if it recovers the call's. No interpreted code runs once the execution
// stopped; a call that stops it leaves g's stack as it found it.
func (g *goroutine) callNested(fv Value, args []Value) (Value, ctrl) {
	if g.nest.probing {
		return Value{}, ctrlNeedCo
	}
	if co := g.nest.co; g.x.stopped || co != nil && co.aborted {
		return Value{}, ctrlStop
	}
	saved, depth := g.panic, g.depth
	g.panic = nil
	v, c := g.callNested1(fv, args)
	if c == ctrlStop {
		g.depth = depth
		g.top = nil
		if depth > 0 {
			g.top = g.frames[depth-1]
		}
	}
	if c == ctrlPanic && g.panic != nil {
		p := g.panic
		for p.prev != nil {
			p = p.prev
		}
		if p != saved {
			p.prev = saved
		}
	} else {
		g.panic = saved
	}
	return v, c
}

func (g *goroutine) callNested1(fv Value, args []Value) (Value, ctrl) {
	cl := fv.closure()
	if cl == nil {
		return Value{}, g.throwRuntime("invalid memory address or nil pointer dereference")
	}
	fc := cl.fn
	dying := g.depth == 0
	if fc.intr != nil {
		tmp := &frame{g: g, regs: make([]Value, 1)}
		c := &icall{g: g, fr: tmp, fn: fc, args: args, dst: 0, env: cl.env}
		for {
			cc := fc.intr(c)
			switch cc {
			case ctrlNext:
				return tmp.regs[0], ctrlNext
			case ctrlYield:
				if cc := g.waitNested(dying); cc != ctrlNext {
					return Value{}, cc
				}
				continue
			case ctrlCall:
				// the intrinsic pushed a continuation frame: run it nested
				g.top.nested = true
				return g.runNested(dying)
			}
			return Value{}, cc
		}
	}
	nf := g.push(fc, -1)
	copy(nf.regs, args)
	copy(nf.regs[len(args):], cl.env)
	nf.nested = true
	return g.runNested(dying)
}

// runNested runs g until the nested boundary frame returns.
func (g *goroutine) runNested(dying bool) (Value, ctrl) {
	for {
		switch c := g.exec(); c {
		case ctrlNested:
			if g.panic != nil {
				return Value{}, ctrlPanic
			}
			return g.nestedResult, ctrlNext
		case ctrlYield:
			if cc := g.waitNested(dying); cc != ctrlNext {
				return Value{}, cc
			}
		case ctrlStop:
			return Value{}, ctrlStop
		default:
			return Value{}, g.unsupported(token.NoPos, "goroutine ended inside a nested call")
		}
	}
}

// waitNested waits until the nested code's pending operation is granted:
// on g's coroutine, by suspending it. Without one, the call cannot be
// suspended: when g's stack has unwound (printing the value of the panic
// that ends it, the execution's last step) an enabled operation is
// performed at once; otherwise the execution stops as unsupported.
func (g *goroutine) waitNested(dying bool) ctrl {
	if g.nest.co != nil {
		return g.suspendNested()
	}
	x := g.x
	if dying {
		if ts := x.alternatives(g, nil); len(ts) > 0 {
			x.apply(ts[0])
			return ctrlNext
		}
		method := "a method"
		if b := g.nestedBoundary(); b >= 0 && g.frames[b].fn.fn != nil {
			method = "the " + g.frames[b].fn.fn.Name() + " method"
		}
		return g.unsupported(g.blockPos(), "%s inside %s of a panic value: goroutine %d blocks printing the panic that ends it (Go hangs there)", g.pend.describe(x, 0), method, g.id)
	}
	return g.unsupported(g.blockPos(), "%s inside %s, which cannot be suspended there", g.pend.describe(x, 0), g.nestedCallee())
}

// nestedCallee names the function an intrinsic called in g's innermost
// nested call, and the intrinsic ("a method called by fmt.Sprintf").
func (g *goroutine) nestedCallee() string {
	what, caller := "a method", "a modelled library function"
	if b := g.nestedBoundary(); b >= 0 {
		if fn := g.frames[b].fn.fn; fn != nil && fn.Signature.Recv() == nil {
			what = "a function"
		}
		if b > 0 {
			if name := calleeName(g.frames[b-1]); name != "" {
				caller = name
			}
		}
	}
	return what + " called by " + caller
}

// nestedBoundary returns the depth of g's innermost nested boundary frame
// (the function an intrinsic called), or -1.
func (g *goroutine) nestedBoundary() int {
	for i := g.depth - 1; i >= 0; i-- {
		if g.frames[i].nested {
			return i
		}
	}
	return -1
}

// calleeName names the function fr's current call instruction calls ("" if
// it is not a static call).
func calleeName(fr *frame) string {
	if fr.fn == nil || fr.pc <= 0 || fr.pc > len(fr.fn.instrs) {
		return ""
	}
	call, ok := fr.fn.instrs[fr.pc-1].(ssa.CallInstruction)
	if !ok {
		return ""
	}
	if f := call.Common().StaticCallee(); f != nil {
		return f.String()
	}
	return ""
}
