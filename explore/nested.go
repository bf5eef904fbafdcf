package explore

import (
	"fmt"
	"go/token"
	"sort"

	"golang.org/x/tools/go/ssa"

	"github.com/henceforth-go/henceforth/internal/srcpos"
)

// callNested calls fv(args...) synchronously on g from inside an
// intrinsic (fmt calling String methods, errors.Is calling Is methods,
// sort.Slice calling less). Scheduling points inside are performed at once
// if enabled (no choice is offered; the report warns about it, see
// grantInline); a blocking operation inside is unsupported. It returns the
// result and ctrlNext, ctrlPanic (g.panic is set and the caller must
// propagate it) or ctrlStop.
func (g *goroutine) callNested(fv Value, args []Value) (Value, ctrl) {
	cl := fv.closure()
	if cl == nil {
		return Value{}, g.throwRuntime("invalid memory address or nil pointer dereference")
	}
	fc := cl.fn
	if fc.intr != nil {
		tmp := &frame{g: g, regs: make([]Value, 1)}
		c := &icall{g: g, fr: tmp, fn: fc, args: args, dst: 0, env: cl.env}
		for {
			cc := fc.intr(c)
			switch cc {
			case ctrlNext:
				return tmp.regs[0], ctrlNext
			case ctrlYield:
				if !g.x.grantInline(g) {
					return Value{}, g.unsupported(token.NoPos, "blocking operation (%s) inside a method called by a modelled library function", g.pend.describe(g.x, 0))
				}
				continue
			case ctrlCall:
				// the intrinsic pushed a continuation frame: run it nested
				g.top.nested = true
				return g.runNested()
			}
			return Value{}, cc
		}
	}
	nf := g.push(fc, -1)
	copy(nf.regs, args)
	copy(nf.regs[len(args):], cl.env)
	nf.nested = true
	return g.runNested()
}

// runNested runs g until the nested boundary frame returns.
func (g *goroutine) runNested() (Value, ctrl) {
	for {
		switch c := g.exec(); c {
		case ctrlNested:
			if g.panic != nil && !g.panic.goexit {
				return Value{}, ctrlPanic
			}
			if g.panic != nil {
				return Value{}, ctrlPanic
			}
			return g.nestedResult, ctrlNext
		case ctrlYield:
			if !g.x.grantInline(g) {
				return Value{}, g.unsupported(token.NoPos, "blocking operation (%s) inside a method called by a modelled library function", g.pend.describe(g.x, 0))
			}
		case ctrlStop:
			return Value{}, ctrlStop
		default:
			return Value{}, g.unsupported(token.NoPos, "goroutine ended inside a nested call")
		}
	}
}

// grantInline performs g's pending operation at once if it is enabled,
// taking the first alternative. It is a step of the trace but not a choice:
// the interleavings around it are not explored. The execution records it
// (noteInline) and the exploration reports it as a warning (see
// collector.inlineWarnings).
func (x *execution) grantInline(g *goroutine) bool {
	ts := x.alternatives(g, nil)
	if len(ts) == 0 {
		return false
	}
	x.noteInline(g)
	x.apply(ts[0])
	return true
}

// noteInline records that g's pending operation is performed inside a
// nested call without a choice: once per source position and execution.
func (x *execution) noteInline(g *goroutine) {
	pos := g.pend.pos
	if !pos.IsValid() {
		pos = g.sourcePos()
	}
	if _, ok := x.inline[pos]; ok {
		return
	}
	if x.inline == nil {
		x.inline = map[token.Pos]string{}
	}
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
	x.inline[pos] = fmt.Sprintf("%s inside %s called by %s", g.pend.describe(x, 0), what, caller)
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

// addInline merges the operations x performed inside nested calls without
// a choice (under c.mu). For a position reached with different
// descriptions (another caller, another channel number) the smallest one
// is kept, so that the warning does not depend on the order in which
// workers finish.
func (c *collector) addInline(x *execution) {
	if len(x.inline) == 0 {
		return
	}
	if c.inline == nil {
		c.inline = map[token.Pos]string{}
		c.fset = x.m.prog.Fset
	}
	for pos, msg := range x.inline {
		if old, ok := c.inline[pos]; !ok || msg < old {
			c.inline[pos] = msg
		}
	}
}

// inlineWarnings returns one warning per source position at which an
// operation ran inside a nested call without a scheduling choice, in
// position order.
//
// Such an exploration stays Complete: every choice point it met was
// explored, and what was not is reported here rather than as a bound
// (the verdict would otherwise be unknown for every program formatting a
// value whose String method locks, although the interleavings of
// everything outside the nested call were all explored). The warning
// says where schedules may have been missed.
func (c *collector) inlineWarnings() []string {
	type rec struct {
		p   token.Position
		msg string
	}
	recs := make([]rec, 0, len(c.inline))
	for pos, msg := range c.inline {
		recs = append(recs, rec{c.fset.Position(pos), msg})
	}
	sort.Slice(recs, func(i, j int) bool {
		if c := srcpos.CompareGo(recs[i].p, recs[j].p); c != 0 {
			return c < 0
		}
		return recs[i].msg < recs[j].msg
	})
	ws := make([]string, 0, len(recs))
	for _, r := range recs {
		ws = append(ws, fmt.Sprintf("%s: %s ran without a scheduling choice: interleavings around it were not explored", r.p, r.msg))
	}
	return ws
}
