package explore

import (
	"fmt"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// The runtime package's functions that interpreted code calls: the
// scheduler's (runtime.Gosched is a scheduling point; Goexit ends the
// goroutine), constants of the simulated machine (GOMAXPROCS and NumCPU
// are 2), no-ops (GC, KeepAlive, SetFinalizer, LockOSThread), and the
// stack introspection testing and logging use (Caller, Callers,
// CallersFrames, FuncForPC, runtime/debug.Stack): a program counter is a
// source position of the interpreted program.

func runtimeModel() model {
	// the runtime's 32-bit random numbers (cheaprand, cheaprandn and
	// their old names fastrand…)
	rand32 := simple(func(c *icall) ctrl { return c.ret(uintV(uint64(uint32(c.x().rand64())))) })
	randn := simple(func(c *icall) ctrl { return c.ret(uintV(randn32(c.x(), c.args[0].a))) })
	return model{funcs: map[string]intrinsicFactory{
		"runtime.Gosched": simple(func(c *icall) ctrl {
			if c.yield(pendingOp{kind: opSync, label: "runtime.Gosched"}) {
				return ctrlYield
			}
			return c.ret(Value{})
		}),
		"runtime.Goexit": simple(func(c *icall) ctrl { return c.g.goexit() }),
		"runtime.NumGoroutine": simple(func(c *icall) ctrl {
			n := 0
			for _, g := range c.x().gs {
				if !g.done {
					n++
				}
			}
			return c.ret(intV(int64(n)))
		}),
		"runtime.GOMAXPROCS":     simple(func(c *icall) ctrl { return c.ret(intV(2)) }),
		"runtime.NumCPU":         simple(func(c *icall) ctrl { return c.ret(intV(2)) }),
		"runtime.GC":             simple(func(c *icall) ctrl { return c.ret(Value{}) }),
		"runtime.KeepAlive":      simple(func(c *icall) ctrl { return c.ret(Value{}) }),
		"runtime.SetFinalizer":   simple(func(c *icall) ctrl { return c.ret(Value{}) }),
		"runtime.LockOSThread":   simple(func(c *icall) ctrl { return c.ret(Value{}) }),
		"runtime.UnlockOSThread": simple(func(c *icall) ctrl { return c.ret(Value{}) }),
		"runtime.Version":        simple(func(c *icall) ctrl { return c.ret(strV("go1.26-explore")) }),
		// the runtime's random numbers, which packages pull in with
		// //go:linkname: drawn from math/rand's generator of the
		// execution (deterministic, like math/rand)
		"runtime.cheaprand":   rand32,
		"runtime.fastrand":    rand32,
		"runtime.cheaprand64": simple(func(c *icall) ctrl { return c.ret(intV(int64(c.x().rand64() >> 1))) }),
		"runtime.fastrand64":  simple(func(c *icall) ctrl { return c.ret(uintV(c.x().rand64())) }),
		"runtime.cheaprandn":  randn,
		"runtime.fastrandn":   randn,
		// runtime.nanotime, pulled in by //go:linkname: the virtual clock
		"runtime.nanotime": simple(func(c *icall) ctrl { return c.ret(intV(c.x().now() - epoch + 1)) }),
		// runtime.ReadMemStats reports zeros: the interpreter does not
		// measure Go's heap (tests log these figures; one that asserts a
		// bound on them passes vacuously, Limits says so)
		"runtime.ReadMemStats": func(m *machine, fn *ssa.Function) intrinsic {
			rt := m.rtypeOf(fn.Signature.Params().At(0).Type().(*types.Pointer).Elem())
			return func(c *icall) ctrl {
				p := c.args[0]
				if p.p == nil {
					return c.nilPanic()
				}
				clear(p.obj().cells[p.off() : p.off()+rt.size])
				return c.ret(Value{})
			}
		},
		"runtime.FuncForPC": func(m *machine, fn *ssa.Function) intrinsic {
			ft := fn.Signature.Results().At(0).Type().(*types.Pointer).Elem()
			return func(c *icall) ctrl {
				if c.args[0].a == 0 {
					return c.ret(Value{})
				}
				o := newObject(max(1, m.rtypeOf(ft).size))
				o.cells[0] = c.args[0]
				return c.ret(ptrV(o, 0))
			}
		},
		"(*runtime.Func).Name": simple(func(c *icall) ctrl {
			if c.args[0].p == nil {
				return c.ret(Value{})
			}
			fn := c.m().funcAt(token.Pos(c.args[0].obj().cells[0].a))
			if fn == nil {
				return c.ret(Value{})
			}
			return c.ret(strV(funcName(fn)))
		}),
		"(*runtime.Func).Entry": simple(func(c *icall) ctrl {
			if c.args[0].p == nil {
				return c.ret(Value{})
			}
			return c.ret(c.args[0].obj().cells[0])
		}),
		"(*runtime.Func).FileLine": simple(func(c *icall) ctrl {
			p := c.m().prog.Fset.Position(token.Pos(c.args[1].a))
			return c.retN(strV(p.Filename), intV(int64(p.Line)))
		}),
		"runtime.Callers": simple(func(c *icall) ctrl {
			// "pcs" are source positions of the frames, innermost first;
			// skip 0 is runtime.Callers itself, 1 its caller.
			skip := int(c.args[0].Int())
			pcs := c.g.callerPositions()
			pcs = append([]token.Pos{c.pos}, pcs...) // the Callers call itself
			dst := c.args[1]
			n := 0
			for i := skip; i < len(pcs) && n < dst.sliceLen(); i++ {
				dst.obj().cells[dst.off()+n] = uintV(uint64(pcs[i]))
				n++
			}
			return c.ret(intV(int64(n)))
		}),
		"runtime.CallersFrames": func(m *machine, fn *ssa.Function) intrinsic {
			ft := fn.Signature.Results().At(0).Type().(*types.Pointer).Elem()
			return func(c *icall) ctrl {
				o := newObject(max(1, m.rtypeOf(ft).size))
				var pcs []uint64
				for _, v := range sliceElems(c.args[0]) {
					pcs = append(pcs, v.a)
				}
				c.x().sideState(o, 0, func() any { return &framesState{pcs: pcs} })
				return c.ret(ptrV(o, 0))
			}
		},
		"(*runtime.Frames).Next": func(m *machine, fn *ssa.Function) intrinsic {
			frameT := fn.Signature.Results().At(0).Type()
			ft := m.rtypeOf(frameT)
			off := func(name string) int {
				o, ok := m.cellOffset(frameT, name)
				if !ok {
					return -1
				}
				return o
			}
			pcOff, fnOff, fileOff, lineOff := off("PC"), off("Function"), off("File"), off("Line")
			return func(c *icall) ctrl {
				o, offs, ok := c.ptrArg(0)
				if !ok {
					return c.nilPanic()
				}
				fs, _ := c.x().side[objKeyOf(o, offs)].(*framesState)
				frame := newObject(ft.size)
				if fs == nil || len(fs.pcs) == 0 {
					return c.retN(ptrV(frame, 0), boolV(false))
				}
				pc := fs.pcs[0]
				fs.pcs = fs.pcs[1:]
				p := c.m().prog.Fset.Position(token.Pos(pc))
				set := func(off int, v Value) {
					if off >= 0 {
						frame.cells[off] = v
					}
				}
				set(pcOff, uintV(pc))
				if f := c.m().funcAt(token.Pos(pc)); f != nil {
					set(fnOff, strV(funcName(f)))
				}
				set(fileOff, strV(p.Filename))
				set(lineOff, intV(int64(p.Line)))
				return c.retN(ptrV(frame, 0), boolV(len(fs.pcs) > 0))
			}
		},
		"runtime/debug.Stack": simple(func(c *icall) ctrl {
			var b strings.Builder
			fmt.Fprintf(&b, "goroutine %d [running]:\n", c.g.id)
			for _, f := range c.g.traceback() {
				if !f.Pos.IsValid() {
					fmt.Fprintf(&b, "%s(...)\n", f.Func)
					continue
				}
				fmt.Fprintf(&b, "%s(...)\n\t%s:%d\n", f.Func, f.Pos.Filename, f.Pos.Line)
			}
			return c.ret(bytesToSlice([]byte(b.String())))
		}),
		"runtime.Caller": simple(func(c *icall) ctrl {
			// skip 0 is the caller of runtime.Caller, at the call.
			skip := int(c.args[0].Int())
			pcs := c.g.callerPositions()
			if skip < 0 || skip >= len(pcs) {
				return c.retN(Value{}, Value{}, Value{}, boolV(false))
			}
			pos := pcs[skip]
			if skip == 0 {
				pos = c.pos
			}
			p := c.m().prog.Fset.Position(pos)
			return c.retN(uintV(uint64(pos)), strV(p.Filename), intV(int64(p.Line)), boolV(true))
		}),
	}}
}

// traceback returns g's stack as Go's tracebacks show it, innermost first:
// while a deferred call runs for a panic, the frames the panic unwound are
// still on Go's stack, below the deferred call and a "panic" frame (which
// has no position), so they are shown from the stack the panic recorded.
func (g *goroutine) traceback() []StackFrame {
	depth := g.stackDepth()
	for i := depth - 1; i >= 0; i-- {
		fr := g.frames[i]
		if p := fr.deferPanic; fr.isDefer && p != nil && !p.goexit && p.stack != nil && fr.fn.fn != nil && !isWrapper(fr.fn.fn) {
			var raw []rawFrame
			for _, f := range g.rawStack() {
				raw = append(raw, f)
				if f.fn == fr.fn.fn {
					break
				}
			}
			out := append(g.x.frames(raw), StackFrame{Func: "panic"})
			return append(out, p.stack...)
		}
	}
	return g.stack()
}

// framesState is the model state of a *runtime.Frames.
type framesState struct{ pcs []uint64 }

// callerPositions returns the positions of g's frames that belong to real
// functions, innermost first: not trampolines, not wrappers (Go's
// runtime.Callers and tracebacks elide them too).
func (g *goroutine) callerPositions() []token.Pos {
	var out []token.Pos
	for i := g.depth - 1; i >= 0; i-- {
		fr := g.frames[i]
		if fr.fn.fn == nil || isWrapper(fr.fn.fn) {
			continue
		}
		pos := fr.pos()
		if i == g.depth-1 {
			pos = fr.curPos()
		}
		out = append(out, pos)
	}
	return out
}

// funcAt returns the innermost compiled function whose syntax contains
// pos (for runtime.FuncForPC, whose "pc" is a position here).
func (m *machine) funcAt(pos token.Pos) *ssa.Function {
	var best *ssa.Function
	for fn := range m.fns {
		syn := fn.Syntax()
		if syn == nil || pos < syn.Pos() || pos >= syn.End() {
			continue
		}
		if best == nil || syn.Pos() >= best.Syntax().Pos() && syn.End() <= best.Syntax().End() {
			best = fn
		}
	}
	return best
}

// isWrapper reports whether fn is a wrapper the compiler generates (a
// method value's, a method expression's, a promoted or pointer method's),
// which Go's stacks do not show.
func isWrapper(fn *ssa.Function) bool {
	name := fn.Name()
	return strings.HasSuffix(name, "$bound") || strings.HasSuffix(name, "$thunk") || strings.HasPrefix(fn.Synthetic, "wrapper for ") || strings.HasPrefix(fn.Synthetic, "thunk for ")
}

// randn32 draws a uniform number in [0, n) for the runtime's cheaprandn
// (n a uint32; 0 for n == 0).
func randn32(x *execution, n uint64) uint64 {
	return uint64(uint32(x.rand64())) * uint64(uint32(n)) >> 32
}
