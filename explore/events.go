package explore

import (
	"go/token"

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
	return g.x.emit(&Event{Kind: EventCall, Goroutine: g.id, Func: fc.fn, Pos: pos, Step: g.x.steps})
}

// returnEvent is the same for the return of an observed function.
func (g *goroutine) returnEvent(fn *ssa.Function, pos token.Pos) ctrl {
	if !g.granted {
		g.pend = pendingOp{kind: opEvent, pos: pos, label: "return from " + shortFuncName(fn)}
		return ctrlYield
	}
	g.granted = false
	return g.x.emit(&Event{Kind: EventReturn, Goroutine: g.id, Func: fn, Pos: pos, Step: g.x.steps})
}

// emit sends an event to the path monitor; a violation stops the execution.
func (x *execution) emit(ev *Event) ctrl {
	if x.monitor == nil {
		return ctrlNext
	}
	if v := x.monitor.Event(ev, x.state()); v != nil {
		x.addViolation(v, ev.Pos)
		x.stopped = true
		return ctrlStop
	}
	return ctrlNext
}

// branch decides an If on a symbolic condition: the brancher reports the
// feasible outcomes; if both are, the path forks at a choice point.
func (x *execution) branch(fr *frame, ins *ssa.If, cond Value) (bool, ctrl) {
	b := x.opts.Brancher
	if b == nil {
		return false, fr.g.unsupported(ins.Pos(), "branch on a symbolic value without a symbolic engine")
	}
	term := symbolicTerm(cond)
	canF, canT := b.Branch(term)
	var taken bool
	switch {
	case canF && canT:
		ts := []transition{{g: fr.g, alt: 0}, {g: fr.g, alt: 1}}
		i := x.chooser.choose(x, ts)
		if i < 0 || i > 1 {
			x.stopWith("replay", "the replay token does not match this program (diverged at branch %d)", len(x.path))
			return false, ctrlStop
		}
		x.path = append(x.path, choice{n: 2, c: i, kind: choiceBranch})
		taken = i == 1
	case canT:
		taken = true
	case canF:
		taken = false
	default:
		return false, fr.g.unsupported(ins.Pos(), "infeasible path condition at a branch")
	}
	b.Assume(term, taken)
	return taken, ctrlNext
}
