package explore

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"regexp"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// machine is one worker's interpreter: compiled code, runtime types and
// the memory of package variables. It runs one execution at a time and is
// not safe for concurrent use; parallel exploration uses one machine per
// worker. Compiled code refers to the machine's global objects directly, so
// executions reset (not reallocate) globals.
type machine struct {
	prog  *Program
	opts  *Options
	types typeTable
	fns   map[*ssa.Function]*fnCode
	// globals holds one object per package-level variable.
	globals    map[*ssa.Global]*object
	globalList []*ssa.Global
	modelled   []modelledGlobal

	x *execution // the current execution

	// the race detector's access sites and execution generations (race.go)
	sites    []accessSite
	siteIdx  map[accessSite]int32
	mapSites map[mapSiteKey]int32
	raceGen  uint32
	// raceCapture is handed to the executions of a replay that completes
	// a race report (race.go).
	raceCapture *raceCapture

	// sym holds the symbolic Sessions (symbolic.go); nil until needed.
	sym *symSessions

	// special runtime types
	rtErrorType    *rtype // runtime.Error values (runtime panics)
	plainErrorType *rtype // runtime errors printed without "runtime error: "
	panicNilType   *rtype // *runtime.PanicNilError, or nil (panicNilValue)
	emptyIface     *rtype
	errorIface     *rtype
	stringType     *rtype
	intType        *rtype

	// syncLayout checks the cell layouts the sync model relies on
	// (model_sync.go), at machine creation.
	syncLayout syncLayout

	// ownProcs is the subprocess cache of a machine running outside an
	// exploration (Options.procs otherwise; model_exec.go)
	ownProcs *procCache

	models     *modelRegistry // the models of standard packages (intrinsics.go); nil until needed
	namedCache map[string]types.Type
	regexps    map[regexpKey]*regexp.Regexp // compiled regexps (model_regexp.go)
	// encoding/json's host mirrors of types, json's types and the
	// Encoder and Decoder layouts (model_json.go); nil until needed
	jsonMirrors map[jsonMirrorKey]*jsonMirror
	jsonT       *jsonTypes
	jsonL       *jsonLayout

	tramps  map[string]*fnCode
	drivers map[*ssa.Function]*fnCode

	// packages whose initialization reached something unsupported, with
	// the reason (see breakPackage)
	broken map[*ssa.Package]string

	// snapshots of package initialization, per entry package; snapWhy
	// says what prevented one (snapshotBlocker, takeSnapshotWhy)
	snaps     map[*ssa.Package]*snapshot
	snapTried map[*ssa.Package]bool
	snapWhy   map[*ssa.Package]string

	// poolKey is the key the machine is pooled under if pooled
	// (machinepool.go); spoiled marks a machine whose execution had an
	// unsupported or internal finding, which is never reused.
	poolKey machineKey
	pooled  bool
	spoiled bool

	// buffers reused across executions (see execution.release)
	traceBuf []traceEntry
	eventBuf []event
	gpool    []*goroutine
	// stmtEvIDs numbers compiled statement events (events.go).
	stmtEvIDs int
	reflectT  *rtype  // synthesized reflect type descriptor type
	launch    *fnCode // goroutine launcher trampoline
	cleanups  *fnCode // test cleanup runner trampoline
}

func newMachine(p *Program, opts *Options) *machine {
	m := &machine{
		prog:    p,
		opts:    opts,
		fns:     map[*ssa.Function]*fnCode{},
		globals: map[*ssa.Global]*object{},
	}
	m.emptyIface = m.rtypeOf(types.NewInterfaceType(nil, nil))
	m.errorIface = m.rtypeOf(types.Universe.Lookup("error").Type())
	m.stringType = m.rtypeOf(types.Typ[types.String])
	m.intType = m.rtypeOf(types.Typ[types.Int])
	m.rtErrorType = m.newRuntimeErrorType()
	m.plainErrorType = m.runtimeStringError("plainError", "")
	m.panicNilType = m.newPanicNilType()
	m.syncLayout.init(m)
	return m
}

func (m *machine) rtypeOf(t types.Type) *rtype { return m.types.lookup(t) }

// global returns the memory of a package-level variable.
func (m *machine) global(g *ssa.Global) *object {
	if o, ok := m.globals[g]; ok {
		return o
	}
	o := newObject(m.rtypeOf(g.Type().(*types.Pointer).Elem()).size)
	// package variables are shared, except the synthetic init guards
	o.shared = !strings.Contains(g.Name(), "$")
	o.id = stringHash(g.String())
	m.globals[g] = o
	m.globalList = append(m.globalList, g)
	if g.Pkg != nil && !m.prog.isInterpreted(g.Pkg.Pkg) {
		if gm := m.globalModel(g); gm != nil {
			m.modelled = append(m.modelled, modelledGlobal{o, gm})
			if m.x != nil {
				gm(m.x, o)
			}
		}
	}
	return o
}

type modelledGlobal struct {
	o    *object
	init globalInit
}

// resetGlobals zeroes all package variables before an execution and
// initializes the modelled ones.
func (m *machine) resetGlobals() {
	for _, o := range m.globals {
		clear(o.cells)
	}
	for _, mg := range m.modelled {
		mg.init(m.x, mg.o)
	}
}

// ctrl tells the run loop what an instruction did.
type ctrl uint8

const (
	ctrlNext   ctrl = iota // continue with fr.pc
	ctrlCall               // a frame was pushed
	ctrlReturn             // the top frame was popped
	ctrlYield              // reached a scheduling point; g.pend is set, the instruction re-executes when granted
	ctrlPanic              // g.panic is set; unwind
	ctrlExit               // the goroutine finished
	ctrlNested             // a nested call's boundary frame returned
	ctrlStop               // the execution must stop (finding or bound)
	ctrlNeedCo             // a probed intrinsic calls interpreted code: run it on a coroutine (nested.go)
)

// instrFn is one compiled instruction. It runs with fr.pc already advanced
// past itself.
type instrFn func(fr *frame) ctrl

// frame is an activation record. Frames are reused per goroutine depth.
type frame struct {
	g      *goroutine
	fn     *fnCode
	regs   []Value
	pc     int
	defers []deferred
	retDst int // caller slot that receives the result, -1 for none

	// isDefer marks a deferred call; deferPanic is the panic that was
	// current when it started (recover works only against that panic).
	isDefer    bool
	deferPanic *panicRec
	// unwinding marks a frame whose defers run because of a panic/Goexit.
	unwinding bool
	// nested marks the boundary of a synchronous call made by an intrinsic.
	nested bool
}

// deferred is a pending deferred call.
type deferred struct {
	fn   Value   // closure to call; zero if native
	args []Value // evaluated arguments (receiver first for invoke mode)
	// native deferred calls are run by the interpreter itself.
	native func(g *goroutine)
	pos    token.Pos
}

// panicRec is a panic (or runtime.Goexit) in progress.
type panicRec struct {
	val       Value // interface value (type any)
	goexit    bool
	recovered bool
	prev      *panicRec // an earlier panic this one replaced
	pos       token.Pos
	fatal     bool // unrecoverable runtime fatal error (sync misuse)
	abortInit bool // an unsupported construct in a package initializer
	stack     []StackFrame
}

// goroutine is an interpreter thread with an explicit frame stack.
type goroutine struct {
	x  *execution
	vc vclock // the race detector's vector clock (race.go)
	ep vepoch // its current epoch
	id int    // Go-like number in creation order, 1 = the entry
	// fromInit: started while package initializers ran. Such a goroutine
	// (a pool's purge loop, a package's background worker) is not the
	// test's: it is never a leak of the test, as goleak's IgnoreCurrent.
	fromInit bool
	key      uint64 // identity stable across executions: hash of (parent key, child index)
	frames   []*frame
	depth    int
	top      *frame

	pend    pendingOp // the scheduling point the goroutine waits at (pend.kind != opNone)
	granted bool      // pend was chosen by the scheduler; re-execution performs it
	grant   grantInfo
	phase   int // progress of multi-phase intrinsics

	panic        *panicRec
	resumeUnwind bool // resume in unwind() rather than at fr.pc
	// parked: the top frame's instruction yielded and fr.pc is at it
	// (it runs again when granted); otherwise every frame's pc is past
	// the instruction it executes (see frame.pos).
	parked bool
	// deferPos is the position of the deferred intrinsic call running
	// on the frame deferFr (callDeferred): the frame's pc is elsewhere.
	deferPos     token.Pos
	deferFr      *frame
	done         bool
	spin         int    // consecutive failed polls, at most spinLimit (fair.go)
	polls        int    // consecutive failed polls, at most maxFreshPolls (fair.go: stalled)
	seen         uint64 // 1 + the execution's changes at g's last read, 0 before it (fair.go: stalled)
	polled       uint64 // 1 + the execution's changes at g's last failed poll, 0 before it
	children     int
	allocs       uint64
	spawnEv      int       // DPOR: event during which the goroutine was started
	evStarted    bool      // DPOR: its first event was recorded
	goPos        token.Pos // where it was started
	nestedResult Value
	nest         nestState // nested calls on a coroutine (nested.go)
	// test is the test running on this goroutine (testing model); sub is
	// the subtest goroutine t.Run waits for.
	test *testState
	sub  *goroutine
	// stmtEv is the frame and instruction of a statement event already
	// reported, whose instruction has not completed yet (events.go).
	stmtEvFr *frame
	stmtEvID int

	// clockWakes counts the clock's advances after the entry returned
	// that ended its wait for a timer (clock.go: background).
	clockWakes int
}

// newID returns a stable identity for an object g allocates.
func (g *goroutine) newID() uint64 {
	g.allocs++
	return mix(g.key^0x5bd1e995, g.allocs)
}

// push enters fc, reusing the frame object at the new depth. The caller
// fills the parameter registers.
func (g *goroutine) push(fc *fnCode, dst int) *frame {
	if !fc.compiled {
		g.x.m.compile(fc)
	}
	if g.depth >= maxDepth {
		panic(stackOverflow{g})
	}
	var fr *frame
	if g.depth < len(g.frames) {
		fr = g.frames[g.depth]
		fr.defers = fr.defers[:0]
		fr.isDefer, fr.deferPanic, fr.unwinding, fr.nested = false, nil, false, false
	} else {
		fr = &frame{g: g}
		g.frames = append(g.frames, fr)
	}
	g.depth++
	fr.fn = fc
	fr.pc = 0
	fr.retDst = dst
	if cap(fr.regs) >= fc.nregs {
		fr.regs = fr.regs[:fc.nregs]
	} else {
		fr.regs = make([]Value, fc.nregs, fc.nregs+fc.nregs/2)
	}
	copy(fr.regs, fc.tmpl)
	g.top = fr
	return fr
}

// maxDepth bounds interpreted recursion like Go's 1 GB stack limit does
// (an interpreted frame costs a few hundred bytes).
const maxDepth = 1_000_000

// stackOverflow aborts the execution from deep inside the run loop.
type stackOverflow struct{ g *goroutine }

// pop leaves the top frame.
func (g *goroutine) pop() {
	g.depth--
	fr := g.frames[g.depth]
	fr.defers = fr.defers[:0]
	if g.depth > 0 {
		g.top = g.frames[g.depth-1]
	} else {
		g.top = nil
	}
}

// ret returns from the top frame with the given result value (a tuple for
// several results).
func (g *goroutine) ret(v Value) ctrl {
	fr := g.top
	isDefer, nested, dst := fr.isDefer, fr.nested, fr.retDst
	g.pop()
	if nested {
		g.nestedResult = v
		return ctrlNested
	}
	caller := g.top
	if caller == nil {
		return ctrlExit
	}
	if isDefer {
		if caller.unwinding {
			return ctrlPanic
		}
		return ctrlReturn
	}
	if dst >= 0 {
		caller.regs[dst] = v
	}
	return ctrlReturn
}

// exec runs g until it reaches a scheduling point, finishes, or the
// execution must stop.
func (g *goroutine) exec() ctrl {
	var c ctrl
	g.parked = false
	if g.resumeUnwind {
		g.resumeUnwind = false
		c = g.unwind()
		for c == ctrlPanic {
			c = g.unwind()
		}
		if c != ctrlCall && c != ctrlReturn && c != ctrlNext {
			return c
		}
	}
	for {
		fr := g.top
		code := fr.fn.code
		for {
			pc := fr.pc
			fr.pc = pc + 1
			if c = code[pc](fr); c != ctrlNext {
				if c == ctrlYield {
					fr.pc = pc
					g.parked = true
				}
				break
			}
		}
		for c == ctrlPanic {
			c = g.unwind()
		}
		switch c {
		case ctrlCall, ctrlReturn, ctrlNext:
			continue
		}
		return c
	}
}

// unwind performs one step of panic/Goexit unwinding of the top frame: it
// runs the next deferred call, recovers, or pops the frame. It returns
// ctrlCall when a deferred interpreted call was pushed (run it normally),
// ctrlNext when a recovered frame resumes at its Recover block, ctrlPanic to
// be called again, ctrlExit when the goroutine ended, ctrlStop when the panic
// is unrecovered (the execution ends), ctrlYield when a deferred intrinsic
// reached a scheduling point.
func (g *goroutine) unwind() ctrl {
	fr := g.top
	if fr == nil {
		return g.dieOfPanic()
	}
	fr.unwinding = true
	if len(fr.defers) > 0 {
		switch c := g.stepDefer(fr); c {
		case ctrlYield:
			g.resumeUnwind = true
			return c
		case ctrlCall, ctrlStop:
			return c
		}
		return ctrlPanic
	}
	p := g.panic
	if p != nil && p.recovered {
		g.panic = nil
		fr.unwinding = false
		if fr.fn.recoverPC >= 0 {
			fr.pc = fr.fn.recoverPC
			return ctrlNext
		}
		// No Recover block: return zero results.
		return g.ret(fr.fn.zeroResult)
	}
	if fr.nested {
		// The panic leaves a synchronous call made by an intrinsic.
		g.pop()
		return ctrlNested
	}
	g.pop()
	if g.top == nil {
		return g.dieOfPanic()
	}
	return ctrlPanic
}

// dieOfPanic handles a goroutine whose stack unwound completely.
func (g *goroutine) dieOfPanic() ctrl {
	p := g.panic
	if p == nil || p.goexit {
		g.panic = nil
		return ctrlExit
	}
	g.x.unrecoveredPanic(g, p)
	return ctrlStop
}

// stepDefer starts the last deferred call of fr and pops it, unless the
// call reached a scheduling point (it is retried when granted) or stopped
// the execution. A native deferred call runs at once (ctrlNext).
func (g *goroutine) stepDefer(fr *frame) ctrl {
	n := len(fr.defers)
	d := fr.defers[n-1]
	if d.native != nil {
		fr.defers = fr.defers[:n-1]
		d.native(g)
		return ctrlNext
	}
	c := g.callDeferred(fr, d)
	if c != ctrlYield && c != ctrlStop {
		fr.defers = fr.defers[:n-1]
	}
	return c
}

// callDeferred starts a deferred call d of frame fr.
func (g *goroutine) callDeferred(fr *frame, d deferred) ctrl {
	cl := d.fn.closure()
	if cl == nil {
		return g.throwRuntime("invalid memory address or nil pointer dereference")
	}
	fc := cl.fn
	if fc.intr != nil {
		// A panic the intrinsic raises is positioned at the deferred
		// call (frame.pos would give the frame's return or panic point).
		savedPos, savedFr := g.deferPos, g.deferFr
		g.deferPos, g.deferFr = d.pos, fr
		c := fc.intr(&icall{g: g, fr: fr, fn: fc, args: d.args, dst: -1, pos: d.pos, env: cl.env})
		g.deferPos, g.deferFr = savedPos, savedFr
		return c
	}
	nf := g.push(fc, -1)
	copy(nf.regs, d.args)
	copy(nf.regs[len(d.args):], cl.env)
	nf.isDefer = true
	nf.deferPanic = g.panic
	return ctrlCall
}

// throw starts a panic with the interface value v, positioned at the
// operation raising it (throwPos).
func (g *goroutine) throw(v Value) ctrl {
	g.panic = &panicRec{val: v, prev: g.panic, pos: g.throwPos(), stack: g.stack()}
	return ctrlPanic
}

// throwPos is the position of the operation g is executing: the top
// frame's instruction (a runtime panic of an instruction, or a call of
// an intrinsic: its Call instruction, or the deferred call when a
// deferred intrinsic runs), or the innermost real function's
// instruction when the top frame is a trampoline.
func (g *goroutine) throwPos() token.Pos {
	fr := g.top
	if fr == nil {
		return token.NoPos
	}
	if fr.fn.fn == nil {
		return g.sourcePos()
	}
	return fr.pos()
}

// throwRuntime panics with a runtime.Error whose message is
// "runtime error: " + msg.
func (g *goroutine) throwRuntime(format string, args ...any) ctrl {
	return g.throw(ifaceV(g.x.m.rtErrorType, strV(fmt.Sprintf(format, args...))))
}

// throwString panics with a plain string value, as the runtime does for
// "close of closed channel" and similar errors, which are runtime.Errors
// too but print without the "runtime error: " prefix.
func (g *goroutine) throwPlain(msg string) ctrl {
	return g.throw(ifaceV(g.x.m.plainErrorType, strV(msg)))
}

func (g *goroutine) throwPlainf(format string, args ...any) ctrl {
	return g.throwPlain(fmt.Sprintf(format, args...))
}

// fatal ends the execution with an unrecoverable runtime error, like
// "fatal error: sync: unlock of unlocked mutex".
func (g *goroutine) fatal(msg string) ctrl {
	pos := g.throwPos()
	g.x.unrecoveredPanic(g, &panicRec{val: ifaceV(g.x.m.plainErrorType, strV(msg)), fatal: true, pos: pos})
	return ctrlStop
}

// goexit starts runtime.Goexit on g.
func (g *goroutine) goexit() ctrl {
	g.panic = &panicRec{goexit: true, prev: g.panic}
	return ctrlPanic
}

// pos returns the source position of the instruction the frame executes:
// the one before fr.pc (the run loop advances fr.pc before running an
// instruction, so a running frame and a caller's frame, whose Call
// instruction is running, are past it), or the one at fr.pc when the
// goroutine is parked there (a yield resets fr.pc) or has not started.
// While a deferred intrinsic runs on the frame, the deferred call's.
// Without a position of its own, the nearest earlier instruction's.
func (fr *frame) pos() token.Pos {
	g := fr.g
	if g != nil && fr == g.deferFr && g.deferPos.IsValid() {
		return g.deferPos
	}
	pc := fr.pc
	if pc < len(fr.fn.instrs) && (g == nil || fr != g.top || g.parked) {
		// A frame whose deferred calls run on return stays at its
		// RunDefers instruction.
		if rd, ok := fr.fn.instrs[pc].(*ssa.RunDefers); ok {
			if pos := deferReturnPos(rd); pos.IsValid() {
				return pos
			}
		}
	}
	if pc > 0 && !(g != nil && g.parked && fr == g.top) {
		pc--
	}
	return fr.posFrom(pc)
}

// posFrom returns the position of instruction pc, or of the nearest
// earlier one that has a position, or the function's.
func (fr *frame) posFrom(pc int) token.Pos {
	if pc >= len(fr.fn.instrs) {
		pc = len(fr.fn.instrs) - 1
	}
	for i := pc; i >= 0; i-- {
		if ins := fr.fn.instrs[i]; ins != nil && ins.Pos().IsValid() {
			return ins.Pos()
		}
	}
	if fr.fn.fn != nil {
		return fr.fn.fn.Pos()
	}
	return token.NoPos
}

// deferReturnPos is where Go places a function that runs its deferred
// calls on return: its return statement, or the closing brace of its
// body when it returns by falling off the end.
func deferReturnPos(rd *ssa.RunDefers) token.Pos {
	b := rd.Block()
	for _, ins := range b.Instrs {
		if r, ok := ins.(*ssa.Return); ok && r.Pos().IsValid() {
			return r.Pos()
		}
	}
	switch syn := b.Parent().Syntax().(type) {
	case *ast.FuncDecl:
		if syn.Body != nil {
			return syn.Body.Rbrace
		}
	case *ast.FuncLit:
		return syn.Body.Rbrace
	}
	return token.NoPos
}

// sourcePos is the position of the innermost frame that belongs to a
// real function (trampolines have no positions).
func (g *goroutine) sourcePos() token.Pos {
	for i := g.depth - 1; i >= 0; i-- {
		if fr := g.frames[i]; fr.fn.fn != nil {
			if pos := fr.pos(); pos.IsValid() {
				return pos
			}
		}
	}
	return token.NoPos
}

// curPos returns the position of the instruction executing (closures run
// with fr.pc already advanced past themselves), even on a parked frame.
func (fr *frame) curPos() token.Pos {
	if fr.pc <= 0 {
		return fr.posFrom(0)
	}
	return fr.posFrom(fr.pc - 1)
}
