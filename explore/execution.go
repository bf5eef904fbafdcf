package explore

import (
	"fmt"
	"go/token"
	"runtime/debug"
	"slices"
	"strings"
	"time"
	"unsafe"

	"go/types"

	"golang.org/x/tools/go/ssa"
)

// execution is one run of the entry under a given sequence of choices.
type execution struct {
	m     *machine
	opts  *Options
	entry *Entry
	num   int // 1-based execution number

	gs    []*goroutine
	queue []*goroutine // granted or new goroutines to run before the next choice
	tbuf  []transition

	clock int64      // virtual nanoseconds since the epoch
	clk   *goroutine // the clock's pseudo-goroutine (clock.go), created on first use
	// advances counts the clock's advances: time.Now reads clock +
	// advances nanoseconds (clock.go: now).
	advances int64
	// ahead is how far early advances moved the clock since the last
	// advance at which nothing else could move (clock.go).
	ahead int64
	// starved are the goroutines that could move at the clock's last
	// advance and have not moved since (clock.go).
	starved  []*goroutine
	timers   []*timer
	timerSeq int
	nchans   int
	initDone int // package initializers run so far
	// inInit is set while package initializers run: their steps are not
	// recorded (see snapshot.go).
	inInit bool
	// entered is when package initialization ended and the entry was
	// called (zero before).
	entered     time.Time
	initPkg     *ssa.Package // the package whose initializer runs
	initStarted bool
	sideBefore  int

	chooser chooser
	path    []choice // choice points taken (only those with ≥ 2 alternatives)
	trace   []traceEntry
	steps   int
	budget  int64 // remaining loop iterations before the step bound hits

	stopped   bool
	replayErr string
	findings  []*Finding
	bound     string
	entryDone bool
	// postAdvances counts clock advances after the entry returned.
	postAdvances int
	lastG        *goroutine
	// changes counts the steps that may have changed what a goroutine
	// reads: every step but reads and failed polls, and every clock
	// advance (fair.go: stalled).
	changes uint64

	out     strings.Builder // the program's output (os.Stdout, os.Stderr, log, t.Log)
	monitor pathMonitor
	symst   *symState // symbolic inputs and path condition (symbolic.go); nil if none
	seed    int64
	// side attaches model state to the interpreter objects of modelled
	// values (a sync.Map's entries, a timer, an open file…), by object
	// and offset (intrinsics.go: sideState).
	side map[objKey]any
	// models holds the per-execution state of the models of standard
	// packages that keep one, by slot; nil until first use (intrinsics.go).
	models [numSlots]modelState
	// initEvents records that an observer event happened during package
	// initialization (the init snapshot would skip it next time).
	initEvents bool

	// events recorded for DPOR: one per scheduling step
	events []event
	// race is the data race detector (nil with Options.NoRaces).
	race *raceState
	// cos are the host coroutines of nested calls (nested.go).
	cos coPool
	// chooseAll calls the chooser at every scheduling point (DPOR).
	chooseAll    bool
	sleepBlocked bool
	// branching is set while the chooser is asked a branch choice (one
	// goroutine's two sides, not a scheduling state).
	branching bool
	// mapAdded holds the positions of the ranges over maps that visited
	// entries added during the range (maps.go; reported as warnings).
	mapAdded map[token.Pos]bool
	// warnings are the models' warnings for the report (warn).
	warnings map[string]bool
}

// choice is one choice point of a path.
type choice struct {
	n, c int
	kind choiceKind
	// g is the key of the goroutine of a local choice (branch, map order).
	g uint64
}

type choiceKind uint8

const (
	choiceSched choiceKind = iota
	choiceBranch
	choiceMapOrder // the iteration order of a range over a map (maps.go)
)

// traceEntry is one recorded row of the interleaving. Information rows
// (step 0) are formatted lazily from their kind and arguments.
type traceEntry struct {
	step    int // 0 for information rows
	g       int
	partner int
	op      pendingOp
	alt     int
	palt    int
	pos     token.Pos
	clock   int64
	// information rows
	note  noteKind
	text  string  // noteText
	fc    *fnCode // noteGo
	n     int     // noteGo: goroutine id
	d     int64   // noteTimer: duration
	label string  // noteTimer: function name
}

type noteKind uint8

const (
	noteNone noteKind = iota
	noteText
	noteGo
	noteExit
	noteTimer
)

func (e *traceEntry) noteString() string {
	switch e.note {
	case noteGo:
		return fmt.Sprintf("go %s (goroutine %d)", funcNameOf(e.fc), e.n)
	case noteExit:
		return "goroutine exits"
	case noteTimer:
		return fmt.Sprintf("%s(%s) fires at %s", e.label, fmtDuration(e.d), fmtClock(e.clock+e.d))
	}
	return e.text
}

// epoch is the virtual wall clock's origin, as testing/synctest uses.
var epoch = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC).UnixNano()

func newExecution(m *machine, entry *Entry, opts *Options, ch chooser, num int, seed int64) *execution {
	x := &execution{
		m: m, opts: opts, entry: entry, chooser: ch, num: num, seed: seed,
		budget: int64(opts.maxLoop()),
		clock:  epoch,
		trace:  m.traceBuf[:0],
		events: m.eventBuf[:0],
		inInit: true,
	}
	m.traceBuf, m.eventBuf = nil, nil
	m.x = x
	x.race = newRaceState(m)
	if opts.observer != nil {
		x.monitor = opts.observer.NewPath()
	}
	return x
}

// run performs the execution to its end.
func (x *execution) run() {
	defer x.stopCoroutines()
	defer func() {
		if r := recover(); r != nil {
			if so, ok := r.(stackOverflow); ok {
				x.addFinding(KindPanic, fmt.Sprintf("fatal error: stack overflow (more than %d frames) [goroutine %d]", maxDepth, so.g.id), so.g.sourcePos(), "")
				x.stopped = true
				return
			}
			x.internal(fmt.Sprintf("interpreter panic: %v\n%s", r, debug.Stack()))
		}
	}()
	x.m.resetGlobals()
	x.start()
	for iter := 1; !x.stopped; iter++ {
		if iter&255 == 0 && x.interrupted() {
			break
		}
		x.drain()
		if x.stopped {
			break
		}
		ts := x.enabled(x.tbuf[:0])
		x.tbuf = ts
		if len(ts) == 0 {
			x.finish()
			break
		}
		i := 0
		if len(ts) > 1 || x.chooseAll && !x.inInit {
			i = x.chooser.choose(x, ts)
			if i == sleepBlocked {
				x.sleepBlocked = true
				x.stopped = true
				break
			}
			if i < 0 || i >= len(ts) {
				x.stopWith("replay", "diverged at choice %d", len(x.path))
				break
			}
			if len(ts) > 1 {
				x.path = append(x.path, choice{n: len(ts), c: i})
			}
		}
		if x.steps >= x.opts.maxSteps() {
			x.bound = "steps"
			x.stopped = true
			break
		}
		t := ts[i]
		if t.g == x.clk {
			// the clock runs no code; lastG stays the goroutine that
			// ran the previous step (preemption counting, spec positions)
			x.record(t)
			x.noteAdvance(ts)
			x.advance(t.g.pend.wake)
			continue
		}
		x.queue = append(x.queue[:0], t.g)
		x.apply(t)
		x.lastG = t.g
		if x.monitor != nil {
			x.drain()
			if !x.stopped {
				x.emit(&obsEvent{Kind: obsStep, Goroutine: t.g.id, Step: x.steps})
			}
		}
	}
	x.end()
}

// release returns the execution's buffers and goroutines to the machine
// for reuse. The execution must not be used afterwards (its findings are
// independent copies).
func (x *execution) release() {
	m := x.m
	if m.x == x {
		m.x = nil
	}
	x.releaseModels()
	if x.hasFatalFinding() {
		m.spoiled = true
	}
	m.traceBuf = x.trace[:0]
	m.eventBuf = x.events[:0]
	for _, g := range x.gs {
		g.x, g.top, g.test, g.sub, g.panic = nil, nil, nil, nil, nil
		g.pend = pendingOp{}
		m.gpool = append(m.gpool, g)
	}
	x.gs, x.trace, x.events = nil, nil, nil
}

// stopWith ends the execution with an error that is not a program finding
// (a replay mismatch).
func (x *execution) stopWith(bound, format string, args ...any) {
	x.bound = bound
	x.stopped = true
	x.replayErr = fmt.Sprintf(format, args...)
}

// drain runs the queued goroutines until each reaches a scheduling point.
func (x *execution) drain() {
	for len(x.queue) > 0 && !x.stopped {
		g := x.queue[0]
		x.queue = x.queue[1:]
		if g.done {
			continue
		}
		switch c := g.exec(); c {
		case ctrlYield:
			if g.pend.kind == opEvent {
				// Events are reported when the scheduler grants them.
			}
		case ctrlExit:
			g.done = true
			g.top = nil
			x.noteEntry(g, token.NoPos, traceEntry{note: noteExit})
		case ctrlStop:
			x.stopped = true
		default:
			x.internal(fmt.Sprintf("goroutine %d stopped with control %d", g.id, c))
		}
	}
}

// backEdge is called on every loop back-edge: it enforces the bound on
// local computation between scheduling points.
func (x *execution) backEdge(fr *frame) ctrl {
	x.budget--
	if x.budget < 0 {
		x.bound = "steps"
		x.stopped = true
		return ctrlStop
	}
	if x.budget&0xffff == 0 && x.interrupted() {
		return ctrlStop
	}
	return ctrlNext
}

// interrupted reports whether the exploration's context is done, or its
// heap over Options.MaxMemory (memory.go); then it stops the execution
// with the "time" or "memory" bound (a result that proves nothing).
func (x *execution) interrupted() bool {
	select {
	case <-x.opts.done:
		x.bound = "time"
	default:
		if !x.opts.memory.exceeded() {
			return false
		}
		x.bound = "memory"
	}
	x.stopped = true
	return true
}

// record appends a scheduling step to the trace.
func (x *execution) record(t transition) {
	if x.inInit {
		return
	}
	x.steps++
	e := traceEntry{step: x.steps, g: t.g.id, op: t.g.pend, alt: t.alt, palt: t.palt, pos: t.g.pend.pos, clock: x.clock}
	if t.partner != nil {
		e.partner = t.partner.id
	}
	x.trace = append(x.trace, e)
	if x.opts.recordEvents {
		ev := x.newEvent(t)
		x.events = append(x.events, ev)
	}
}

// note appends an information row to the trace.
func (x *execution) note(g *goroutine, pos token.Pos, format string, args ...any) {
	x.noteEntry(g, pos, traceEntry{note: noteText, text: fmt.Sprintf(format, args...)})
}

// noteEntry appends an information row built by the caller.
func (x *execution) noteEntry(g *goroutine, pos token.Pos, e traceEntry) {
	if g != nil {
		e.g = g.id
	}
	e.pos = pos
	e.clock = x.clock
	x.trace = append(x.trace, e)
}

// start creates the entry goroutine: it runs the package initializers,
// then the entry, then test cleanups.
func (x *execution) start() {
	g := x.newGoroutine(nil, token.NoPos)
	fn := x.entry.Fn
	var args []Value
	if x.entry.TakesT {
		t := x.newTest(x.entry.Fn.Name(), nil, g)
		x.testing().root = t
		args = []Value{t.val}
	}
	drv := x.m.driver(fn, len(args) > 0)
	fr := g.push(drv, -1)
	copy(fr.regs, args)
	x.queue = append(x.queue, g)
}

func (x *execution) newGoroutine(parent *goroutine, pos token.Pos) *goroutine {
	var g *goroutine
	if n := len(x.m.gpool); n > 0 {
		g = x.m.gpool[n-1]
		x.m.gpool = x.m.gpool[:n-1]
		frames := g.frames
		*g = goroutine{frames: frames}
	} else {
		g = &goroutine{}
	}
	g.x, g.id, g.goPos, g.spawnEv = x, len(x.gs)+1, pos, -1
	g.fromInit = parent != nil && x.inInit
	if x.race != nil {
		x.race.fork(parent, g)
	}
	if parent != nil {
		parent.children++
		g.key = mix(parent.key, uint64(parent.children))
	} else {
		g.key = 1
	}
	x.gs = append(x.gs, g)
	return g
}

// stringHash is FNV-1a of s.
func stringHash(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}

func mix(a, b uint64) uint64 {
	h := a*0x100000001B3 ^ b
	h ^= h >> 29
	h *= 0xBF58476D1CE4E5B9
	h ^= h >> 32
	return h
}

// spawn starts a goroutine running cl(args...). It runs (up to its first
// scheduling point) after the current step.
func (x *execution) spawn(parent *goroutine, cl *closure, args []Value, pos token.Pos) *goroutine {
	if x.m.sharedMemory() {
		// What the new goroutine starts with is reachable by two
		// goroutines from now on.
		x.publishFunc(funcV(cl))
		if fn := cl.fn.fn; fn != nil {
			for i, a := range args {
				if i < len(fn.Params) {
					x.m.publish(x.m.rtypeOf(fn.Params[i].Type()), a)
				}
			}
		}
	}
	g := x.newGoroutine(parent, pos)
	fc := cl.fn
	if fc.intr != nil || len(cl.env) > 0 && fc.fn == nil {
		// Start through a trampoline that calls the function value.
		l := x.m.launcher()
		fr := g.push(l, -1)
		fr.regs[0] = funcV(cl)
		fr.regs[1] = Value{p: unsafe.Pointer(&argsBox{args})}
	} else {
		fr := g.push(fc, -1)
		copy(fr.regs, args)
		copy(fr.regs[len(args):], cl.env)
	}
	x.queue = append(x.queue, g)
	x.noteEntry(parent, pos, traceEntry{note: noteGo, fc: fc, n: g.id})
	g.spawnEv = len(x.events) - 1
	return g
}

func funcNameOf(fc *fnCode) string {
	if fc.fn != nil {
		return shortFuncName(fc.fn)
	}
	return fc.name
}

// finish classifies the end of an execution in which no goroutine can
// move and no timer can fire.
func (x *execution) finish() {
	if !x.entryDone {
		g := x.gs[0]
		for _, h := range x.gs {
			if !h.done {
				g = h
				break
			}
		}
		msg := "all goroutines are asleep - deadlock!"
		if x.activeTimers() {
			// Go's runtime does not call it a deadlock while timers are
			// set: the test hangs until its -timeout.
			msg = "all goroutines are blocked forever: the timers still set wake none of them (go test hangs until its -timeout)"
		}
		x.addFinding(KindDeadlock, msg, g.blockPos(), "")
		return
	}
	// Goroutines a timer can still wake are background loops (clock.go:
	// background): leaks only if Options.ReportTimerLeaks asks.
	var leaked, ticking []*goroutine
	for _, g := range x.gs {
		switch {
		case g.done || g.fromInit || x.ignoredLeak(g):
		case x.timerBlocked(g):
			ticking = append(ticking, g)
		default:
			leaked = append(leaked, g)
		}
	}
	x.reportLeak(leaked, "blocked forever")
	if x.opts.ReportTimerLeaks {
		x.reportLeak(ticking, "still waiting for timers (ReportTimerLeaks)")
	}
}

// reportLeak adds a leak finding naming the goroutines gs, which are in
// the state what describes ("blocked forever") after the entry returned;
// none: no finding.
func (x *execution) reportLeak(gs []*goroutine, what string) {
	if len(gs) == 0 {
		return
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d goroutine(s) %s after %s returned:", len(gs), what, x.entry.Fn.Name())
	for _, g := range gs {
		fmt.Fprintf(&b, " goroutine %d %s at %s;", g.id, g.pend.describe(x, 0), shortPos(x.m.prog.Fset.Position(g.blockPos())))
	}
	x.addFinding(KindLeak, strings.TrimSuffix(b.String(), ";"), gs[0].blockPos(), "")
}

// ignoredLeak reports whether the innermost function of g's stack is one
// of Options.IgnoreLeaks.
func (x *execution) ignoredLeak(g *goroutine) bool {
	if len(x.opts.IgnoreLeaks) == 0 {
		return false
	}
	raw := g.rawStack()
	return len(raw) > 0 && slices.Contains(x.opts.IgnoreLeaks, funcName(raw[0].fn))
}

// end runs the end-of-execution checks: data races, monitor verdicts,
// test failures.
func (x *execution) end() {
	x.checkSubtestRan()
	if x.monitor != nil && !x.hasFatalFinding() {
		if v := x.monitor.End(x.state()); v != nil {
			x.addViolation(v, v.Pos)
		}
	}
	if t := x.rootTest(); t != nil && t.failed && !x.hasKind(KindPanic) && !x.hasKind(KindUnsupported) && !x.hasKind(KindInternal) {
		msg := "test failed"
		if len(t.errors) > 0 {
			msg = strings.Join(t.errors, "; ")
		}
		if !x.failedOutsideSubtest(t, msg) {
			x.addFinding(KindTestFailure, msg, t.failPos, "")
		}
	}
}

func (x *execution) hasKind(k Kind) bool {
	for _, f := range x.findings {
		if f.Kind == k {
			return true
		}
	}
	return false
}

func (x *execution) hasFatalFinding() bool {
	return x.hasKind(KindUnsupported) || x.hasKind(KindInternal)
}

// addFinding records a finding with the current trace and stacks.
func (x *execution) addFinding(kind Kind, msg string, pos token.Pos, explanation string) *Finding {
	f := &Finding{
		Kind:        kind,
		Test:        x.entry.Name,
		Message:     msg,
		Pos:         x.m.prog.Fset.Position(pos),
		Steps:       x.steps,
		Explanation: explanation,
		Execution:   x.num,
		Output:      x.out.String(),
	}
	f.Trace = x.steps2()
	f.Goroutines = x.stacks()
	x.symbolicFinding(f)
	x.findings = append(x.findings, f)
	return f
}

func (x *execution) addViolation(v *violation, pos token.Pos) {
	kind := KindLTL
	if v.Kind != "" {
		kind = Kind(v.Kind)
	}
	x.addFinding(kind, v.Message, pos, v.Explanation)
}

// unsupported stops the execution with an "unsupported" finding.
func (g *goroutine) unsupported(pos token.Pos, format string, args ...any) ctrl {
	x := g.x
	if !pos.IsValid() && g.top != nil {
		pos = g.top.pos()
	}
	msg := fmt.Sprintf(format, args...)
	if x.inInit && x.initPkg != nil && g.id == 1 && !x.stopped {
		// A package initializer: break the package, continue with the
		// next one (the abort is recovered by its initRunner frame).
		x.m.breakPackage(x.initPkg, fmt.Sprintf("%s: %s", shortPos(x.m.prog.Fset.Position(pos)), msg))
		g.panic = &panicRec{goexit: true, abortInit: true, prev: g.panic}
		return ctrlPanic
	}
	x.addFinding(KindUnsupported, msg, pos, "")
	x.stopped = true
	return ctrlStop
}

// internal records an interpreter bug as a finding.
func (x *execution) internal(msg string) {
	x.findings = append(x.findings, &Finding{Kind: KindInternal, Test: x.entry.Name, Message: msg, Steps: x.steps, Execution: x.num, Trace: x.steps2()})
	x.stopped = true
}

// unrecoveredPanic records a panic that ended goroutine g.
func (x *execution) unrecoveredPanic(g *goroutine, p *panicRec) {
	// The goroutine is dead: its stack is free for the calls of Error
	// and String methods that print the panic value.
	g.panic = nil
	var msg string
	if p.fatal {
		msg = "fatal error: " + x.describePanic(g, p.val)
	} else {
		var parts []string
		for q := p; q != nil; q = q.prev {
			if q.goexit {
				continue
			}
			s := x.describePanic(g, q.val)
			if q.recovered {
				s += " [recovered]"
			}
			parts = append([]string{s}, parts...)
		}
		msg = "panic: " + strings.Join(parts, "\n\tpanic: ")
		if len(parts) > 1 {
			msg = "panic: " + parts[len(parts)-1] + " (after panic: " + strings.Join(parts[:len(parts)-1], ", ") + ")"
		}
	}
	msg += fmt.Sprintf(" [goroutine %d]", g.id)
	f := x.addFinding(KindPanic, msg, p.pos, "")
	if len(p.stack) > 0 {
		for i := range f.Goroutines {
			if f.Goroutines[i].ID == g.id {
				f.Goroutines[i].State = "panicking"
				f.Goroutines[i].Frames = p.stack
			}
		}
	}
	x.stopped = true
}

// describePanic prints a panic value as the runtime does: Error() for
// errors, String() for Stringers, the value otherwise.
func (x *execution) describePanic(g *goroutine, v Value) string {
	if v.p == nil {
		return "nil"
	}
	it := v.iface()
	if s, ok := x.callStringMethod(g, it, "Error"); ok {
		return s
	}
	if s, ok := x.callStringMethod(g, it, "String"); ok {
		return s
	}
	s := x.formatValue(g, it.t, it.v, 'v')
	switch k := it.t.kind; {
	case it.t.T.String() == "string" || it.t.T.String() == "int" || k == kBool || k.isFloat():
		return s
	case k == kString:
		return fmt.Sprintf("%s(%q)", it.t, it.v.Str())
	case k.isInteger() || k.isFloat() || k.isComplex():
		if _, named := it.t.T.(interface{ Obj() any }); named || it.t.T.String() != it.t.String() {
			return fmt.Sprintf("%s(%s)", it.t, s)
		}
		return s
	}
	return fmt.Sprintf("(%s) %s", it.t, s)
}

// stacks returns the stacks of all goroutines that have not finished.
func (x *execution) stacks() []GoroutineStack {
	var out []GoroutineStack
	for _, g := range x.gs {
		if g.done {
			continue
		}
		st := GoroutineStack{ID: g.id, State: "running"}
		if g.pend.kind != opNone {
			st.State = g.pend.describe(x, 0)
		}
		st.Frames = g.stack()
		out = append(out, st)
	}
	return out
}

// stack returns g's frames, innermost first.
func (g *goroutine) stack() []StackFrame {
	return g.x.frames(g.rawStack())
}

// rawFrame is a stack frame as recorded: printing it (frames) costs
// more than recording it, and most recorded stacks are never printed.
type rawFrame struct {
	fn  *ssa.Function
	pos token.Pos
}

// rawStack returns g's frames, innermost first.
func (g *goroutine) rawStack() []rawFrame {
	var out []rawFrame
	depth := g.stackDepth()
	for i := depth - 1; i >= 0; i-- {
		fr := g.frames[i]
		if fr.fn.fn == nil || isWrapper(fr.fn.fn) {
			continue // trampolines and wrappers, which Go's stacks elide
		}
		pos := fr.pos()
		if i == depth-1 && g.pend.kind != opNone && g.pend.pos.IsValid() {
			pos = g.pend.pos
		}
		out = append(out, rawFrame{fr.fn.fn, pos})
	}
	return out
}

// frames prints recorded frames.
func (x *execution) frames(raw []rawFrame) []StackFrame {
	fset := x.m.prog.Fset
	out := make([]StackFrame, len(raw))
	for i, r := range raw {
		out[i] = StackFrame{Func: funcName(r.fn), Pos: fset.Position(r.pos)}
	}
	return out
}

// blockPos is where g waits.
func (g *goroutine) blockPos() token.Pos {
	if g.pend.pos.IsValid() {
		return g.pend.pos
	}
	if g.top != nil {
		return g.top.pos()
	}
	return token.NoPos
}

// steps2 converts the recorded trace to report rows.
func (x *execution) steps2() []Step {
	fset := x.m.prog.Fset
	out := make([]Step, 0, len(x.trace))
	objs := map[objectRef]int{}
	for _, e := range x.trace {
		s := Step{N: e.step, Goroutine: e.g, Pos: fset.Position(e.pos)}
		if e.note != noteNone {
			s.Op = e.noteString()
		} else {
			s.Op = e.op.describeStep(x, e)
			s.Object = e.op.objectName(e, objs)
		}
		out = append(out, s)
	}
	return out
}

// objectRef is a synchronization object: a cell of an object.
type objectRef struct {
	obj *object
	off int
}

// objectName names the channel or synchronization object of a step (see
// Step.Object); objs numbers the synchronization objects of the
// execution in order of first appearance.
func (p *pendingOp) objectName(e traceEntry, objs map[objectRef]int) string {
	switch p.kind {
	case opSend, opRecv, opClose:
		if p.ch != nil {
			return fmt.Sprintf("chan#%d", p.ch.id)
		}
		return ""
	case opSelect:
		if e.alt >= 0 && e.alt < len(p.cases) && p.cases[e.alt].ch != nil {
			return fmt.Sprintf("chan#%d", p.cases[e.alt].ch.id)
		}
		return ""
	case opLock, opUnlock, opRLock, opRUnlock, opWAnnounce, opWAcquire, opWUnlock, opTryLock, opWGAdd, opWGWait, opOnce, opCondWait, opSync:
		if p.obj == nil {
			return ""
		}
		k := objectRef{p.obj, p.off}
		n, ok := objs[k]
		if !ok {
			n = len(objs) + 1
			objs[k] = n
		}
		return fmt.Sprintf("sync#%d", n)
	}
	return ""
}

// describe names a pending operation for stacks ("blocked on chan receive").
func (p *pendingOp) describe(x *execution, _ int) string {
	switch p.kind {
	case opSend:
		return fmt.Sprintf("chan send on %s", chanLabel(p.what, p.ch))
	case opRecv:
		return fmt.Sprintf("chan receive on %s", chanLabel(p.what, p.ch))
	case opSelect:
		if len(p.cases) == 0 {
			return "select (no cases)"
		}
		return "select"
	case opSleep:
		return fmt.Sprintf("sleep until %s", fmtClock(p.wake))
	case opJoin:
		return fmt.Sprintf("waiting for goroutine %d", p.g2.id)
	case opNone:
		return "running"
	}
	if p.label != "" {
		return p.label
	}
	return "sync"
}

// describeStep describes the operation a step performed.
func (p *pendingOp) describeStep(x *execution, e traceEntry) string {
	with := ""
	if e.partner != 0 {
		with = fmt.Sprintf(" (with goroutine %d)", e.partner)
	}
	switch p.kind {
	case opSend:
		return fmt.Sprintf("send on %s%s", chanLabel(p.what, p.ch), with)
	case opRecv:
		return fmt.Sprintf("receive from %s%s", chanLabel(p.what, p.ch), with)
	case opSelect:
		if e.alt < 0 {
			return "select: default"
		}
		c := p.cases[e.alt]
		dir := "receive from"
		if c.send {
			dir = "send on"
		}
		return fmt.Sprintf("select case %d: %s %s%s", e.alt, dir, chanLabel(c.what, c.ch), with)
	case opClose:
		return fmt.Sprintf("close %s", chanLabel(p.what, p.ch))
	case opSleep:
		return fmt.Sprintf("wake from time.Sleep at %s", fmtClock(e.clock))
	case opClock:
		if p.wake > e.clock {
			return "clock advances to " + fmtClock(p.wake)
		}
		return "timers due at " + fmtClock(e.clock) + " fire"
	case opJoin:
		return joinStep(p)
	case opCondWait:
		return "woken in " + p.label
	}
	if p.label != "" {
		return p.label
	}
	return "sync"
}

// chanLabel is "name (chan#N)" when the channel operand has a source
// name, else "chan#N".
func chanLabel(what string, ch *chanObject) string {
	if what == "" {
		return chanName(ch)
	}
	return what + " (" + chanName(ch) + ")"
}

func chanName(ch *chanObject) string {
	if ch == nil {
		return "nil channel"
	}
	if ch.cap > 0 {
		return fmt.Sprintf("chan#%d (cap %d)", ch.id, ch.cap)
	}
	return fmt.Sprintf("chan#%d", ch.id)
}

// fmtClock prints a virtual time as an offset from the start.
func fmtClock(t int64) string {
	return "+" + time.Duration(t-epoch).String()
}

// state gives monitors access to the program state.
func (x *execution) state() obsState { return stateView{x} }

type stateView struct{ x *execution }

func (s stateView) Global(g *ssa.Global) (any, bool) {
	o := s.x.m.global(g)
	rt := s.x.m.rtypeOf(g.Type().(*types.Pointer).Elem())
	if rt.kind.isAggregate() {
		return nil, false
	}
	return goValue(rt, o.cells[0])
}

// goValue converts a scalar interpreter value to a Go value.
func goValue(rt *rtype, v Value) (any, bool) {
	switch k := rt.kind; {
	case k == kBool:
		return v.Bool(), true
	case k.isSigned():
		return v.Int(), true
	case k.isInteger():
		return v.Uint(), true
	case k.isFloat():
		return v.Float(), true
	case k == kString:
		return v.Str(), true
	case k.isComplex():
		return v.Complex(), true
	}
	return nil, v.p == nil
}
