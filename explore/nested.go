package explore

import "go/token"

// callNested calls fv(args...) synchronously on g from inside an
// intrinsic (fmt calling String methods, errors.Is calling Is methods,
// sort.Slice calling less). Scheduling points inside are performed at once
// if enabled (no choice is offered); a blocking operation inside is
// unsupported. It returns the result and ctrlNext, ctrlPanic (g.panic is
// set and the caller must propagate it) or ctrlStop.
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
// taking the first alternative. It is a step of the trace but not a choice.
func (x *execution) grantInline(g *goroutine) bool {
	ts := x.alternatives(g, nil)
	if len(ts) == 0 {
		return false
	}
	x.apply(ts[0])
	return true
}
