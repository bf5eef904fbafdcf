package explore

import (
	"fmt"
	"go/token"
)

// Data race detection (with Options.Shared). After each execution, the
// plain memory accesses of the trace are checked against the
// happens-before relation of the synchronization alone (channels, locks,
// atomics, WaitGroups, goroutine starts: every dependency except between
// two plain accesses): two accesses to the same memory cell by different
// goroutines, at least one a write, that are not ordered by it are a data
// race — whatever the order they happened to run in.

// syncDependent is the synchronization order: every conflict between
// operations on sync variables (an unlock orders the next lock), but no
// edges between two plain memory accesses.
func syncDependent(a, b *event) bool {
	if a.kind == opShared && b.kind == opShared {
		return sameThread(a, b)
	}
	return depends(a, b, false)
}

// syncEvent records a synchronization that is not a scheduling point (the
// completion of a Once's function) in the event trace.
func (x *execution) syncEvent(g *goroutine, kind opKind, o *object, off int) {
	if !x.opts.Shared {
		return
	}
	p := pendingOp{kind: kind, obj: o, off: off}
	e := event{g: g.key, obj: p.object(0), kind: kind, write: true, spawner: -1, gid: g.id, pos: g.sourcePos(), pseudo: true}
	if !g.evStarted {
		g.evStarted = true
		e.spawner = g.spawnEv
	}
	x.events = append(x.events, e)
}

// detectRaces reports the data races of the execution's trace, one per
// pair of positions.
func (x *execution) detectRaces() {
	evs := x.events
	h := newHBWith(evs, syncDependent)
	seen := map[[2]token.Pos]bool{}
	for j := range evs {
		ej := &evs[j]
		if ej.kind != opShared {
			continue
		}
		for i := 0; i < j; i++ {
			ei := &evs[i]
			if ei.kind != opShared || ei.obj != ej.obj || !(ei.write || ej.write) || sameThread(ei, ej) {
				continue
			}
			if h.before(i, j) {
				continue
			}
			key := [2]token.Pos{ei.pos, ej.pos}
			if seen[key] {
				continue
			}
			seen[key] = true
			fset := x.m.prog.Fset
			msg := fmt.Sprintf("data race: %s at %s by goroutine %d and %s at %s by goroutine %d, not ordered by synchronization",
				ei.label, shortPos(fset.Position(ei.pos)), ei.gid, ej.label, shortPos(fset.Position(ej.pos)), ej.gid)
			f := x.addFinding(KindRace, msg, ej.pos, "")
			// Both accesses' stacks, as Go's race detector prints them
			// (the goroutines still live at the end say little here).
			f.Goroutines = []GoroutineStack{
				{ID: ej.gid, State: ej.label, Frames: x.frames(x.accessStacks[j])},
				{ID: ei.gid, State: "previous " + ei.label, Frames: x.frames(x.accessStacks[i])},
			}
		}
	}
}
