package explore

import (
	"go/token"

	"github.com/henceforth-go/henceforth/symbolic"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// callEvent makes the call of an observed function a scheduling point and
// reports it to the path monitor. It returns ctrlNext when the call may
// proceed.
func (g *goroutine) callEvent(fc *fnCode, pos token.Pos) ctrl {
	if !g.granted {
		g.pend = pendingOp{kind: opEvent, pos: pos, label: "call " + shortFuncName(fc.fn)}
		return ctrlYield
	}
	g.granted = false
	return g.x.emit(&obsEvent{Kind: obsCall, Goroutine: g.id, Func: fc.fn, Pos: pos, Step: g.x.steps})
}

// returnEvent is the same for the return of an observed function.
func (g *goroutine) returnEvent(fn *ssa.Function, pos token.Pos) ctrl {
	if !g.granted {
		g.pend = pendingOp{kind: opEvent, pos: pos, label: "return from " + shortFuncName(fn)}
		return ctrlYield
	}
	g.granted = false
	return g.x.emit(&obsEvent{Kind: obsReturn, Goroutine: g.id, Func: fn, Pos: pos, Step: g.x.steps})
}

// emit sends an event to the path monitor; a violation stops the execution.
func (x *execution) emit(ev *obsEvent) ctrl {
	if x.monitor == nil {
		return ctrlNext
	}
	if x.inInit && ev.Kind != obsStep {
		x.initEvents = true
	}
	if v := x.monitor.Event(ev, x.state()); v != nil {
		pos := ev.Pos
		if v.Pos.IsValid() {
			pos = v.Pos
		}
		x.addViolation(v, pos)
		x.stopped = true
		return ctrlStop
	}
	if x.stopped {
		// the monitor stopped the execution (a symbolic predicate the
		// solver could not decide)
		return ctrlStop
	}
	return ctrlNext
}

// branch decides an If on a symbolic condition: the solver reports the
// feasible outcomes; if both are, the path forks at a choice point.
func (x *execution) branch(fr *frame, ins *ssa.If, cond Value) (bool, ctrl) {
	c, ok := symOf(cond, symbolic.Bool)
	if !ok {
		return false, fr.g.unsupported(ins.Pos(), "branch on a symbolic value of another engine")
	}
	pos := ins.Cond.Pos()
	if !pos.IsValid() {
		pos = fr.g.sourcePos()
	}
	return x.symFork(fr, pos, c, "if")
}

// stmtObserver is implemented by observers that mark statements as events
// (//ltl:event): stmtEvents returns, for fn, the instruction at which each
// marked statement starts and the event names it fires. It must be safe
// for concurrent use.
type stmtObserver interface {
	stmtEvents(fn *ssa.Function) map[ssa.Instruction][]string
}

// withStmtEvent makes the instruction a statement event when the observer
// marks it: the goroutine stops before it (a scheduling point), reports
// the event when granted, then runs the instruction. If the instruction
// itself yields (a channel operation at the statement), the event is not
// reported again when it resumes.
//
// It also applies the state-predicate wrappers (predwatch.go): a watched
// write inside the statement event, the entry's initial state outside.
// The observer of a quiet replay (race.go) schedules the same events.
func (c *compiler) withStmtEvent(ins ssa.Instruction, f instrFn) instrFn {
	if c.m.opts == nil || c.m.opts.observer == nil {
		return f
	}
	obs := unwrapObserver(c.m.opts.observer)
	f = c.withWatchedWrite(obs, ins, f)
	return c.withEntryStart(obs, ins, c.stmtEvent(obs, ins, f))
}

func (c *compiler) stmtEvent(obs observer, ins ssa.Instruction, f instrFn) instrFn {
	so, ok := obs.(stmtObserver)
	if !ok {
		return f
	}
	labels := so.stmtEvents(c.fn)[ins]
	if len(labels) == 0 {
		return f
	}
	c.m.stmtEvIDs++
	id, fn, pos := c.m.stmtEvIDs, c.fn, ins.Pos()
	if !pos.IsValid() {
		pos = fn.Pos()
	}
	label := "event " + strings.Join(labels, ",")
	return func(fr *frame) ctrl {
		g := fr.g
		if g.stmtEvFr != fr || g.stmtEvID != id {
			if !g.granted {
				g.pend = pendingOp{kind: opEvent, pos: pos, label: label}
				return ctrlYield
			}
			g.granted = false
			if cc := g.x.emit(&obsEvent{Kind: obsStatement, Goroutine: g.id, Func: fn, Pos: pos, Step: g.x.steps, Labels: labels}); cc != ctrlNext {
				return cc
			}
			g.stmtEvFr, g.stmtEvID = fr, id
		}
		cc := f(fr)
		if cc != ctrlYield {
			g.stmtEvFr, g.stmtEvID = nil, 0
		}
		return cc
	}
}

// chooseBranch makes a two-way choice point of kind branch (0: the false
// side, 1: the true side).
func (x *execution) chooseBranch(g *goroutine) (int, ctrl) {
	return x.chooseLocal(g, 2, choiceBranch)
}
