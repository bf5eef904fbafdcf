package explore

import (
	"go/token"
	"go/types"
	"unsafe"

	"golang.org/x/tools/go/ssa"
)

// intrinsic is a function the interpreter implements natively: a modelled
// standard-library function, a builtin used as a value, or a native method
// of a synthesized type.
//
// Scheduling points: an intrinsic that is a visible operation sets c.g.pend
// and returns ctrlYield on its first run without side effects; when the
// scheduler grants the operation it is called again with c.g.granted set.
type intrinsic func(c *icall) ctrl

// icall is one call of an intrinsic.
type icall struct {
	g    *goroutine
	fr   *frame // the caller's frame (results go to fr.regs[dst])
	fn   *fnCode
	args []Value
	env  []Value
	dst  int
	pos  token.Pos
}

// ret delivers a single result.
func (c *icall) ret(v Value) ctrl {
	if c.dst >= 0 {
		c.fr.regs[c.dst] = v
	}
	return ctrlNext
}

// retN delivers several results as a tuple.
func (c *icall) retN(vs ...Value) ctrl {
	if c.dst >= 0 {
		c.fr.regs[c.dst] = tupleV(vs...)
	}
	return ctrlNext
}

func (c *icall) x() *execution { return c.g.x }
func (c *icall) m() *machine   { return c.g.x.m }

// sig returns the signature of the called function, if known.
func (c *icall) sig() *types.Signature {
	if c.fn != nil && c.fn.fn != nil {
		return c.fn.fn.Signature
	}
	return nil
}

func (c *compiler) argSlots(cc *ssa.CallCommon) []int {
	s := make([]int, len(cc.Args))
	for i, a := range cc.Args {
		s[i] = c.use(a)
	}
	return s
}

func (c *compiler) call(e *ssa.Call) instrFn {
	cc := e.Common()
	d := c.def(e)
	pos := e.Pos()
	if b, ok := cc.Value.(*ssa.Builtin); ok {
		return c.builtinCall(e, b, d)
	}
	args := c.argSlots(cc)
	if cc.Method != nil {
		recv := c.use(cc.Value)
		meth := cc.Method
		return func(fr *frame) ctrl {
			r := fr.regs
			rv := r[recv]
			if rv.p == nil {
				return fr.g.throwRuntime("invalid memory address or nil pointer dereference")
			}
			it := rv.iface()
			fc := fr.g.x.m.method(it.t, meth)
			if fc == nil {
				return fr.g.unsupported(pos, "method %s of %s not found", meth.Name(), it.t)
			}
			if fc.intr != nil {
				a := make([]Value, len(args)+1)
				a[0] = it.v
				for i, s := range args {
					a[i+1] = r[s]
				}
				return fc.intr(&icall{g: fr.g, fr: fr, fn: fc, args: a, dst: d, pos: pos})
			}
			if fc.event {
				if cc := fr.g.callEvent(fc, pos); cc != ctrlNext {
					return cc
				}
			}
			nf := fr.g.push(fc, d)
			nf.regs[0] = it.v
			for i, s := range args {
				nf.regs[i+1] = r[s]
			}
			return ctrlCall
		}
	}
	if fn, ok := cc.Value.(*ssa.Function); ok && len(fn.FreeVars) == 0 {
		callee := c.m.code(fn)
		if callee.intr != nil {
			intr := callee.intr
			return func(fr *frame) ctrl {
				r := fr.regs
				a := make([]Value, len(args))
				for i, s := range args {
					a[i] = r[s]
				}
				return intr(&icall{g: fr.g, fr: fr, fn: callee, args: a, dst: d, pos: pos})
			}
		}
		if callee.event {
			return func(fr *frame) ctrl {
				if cc := fr.g.callEvent(callee, pos); cc != ctrlNext {
					return cc
				}
				nf := fr.g.push(callee, d)
				r := fr.regs
				for i, s := range args {
					nf.regs[i] = r[s]
				}
				return ctrlCall
			}
		}
		switch len(args) {
		case 0:
			return func(fr *frame) ctrl {
				fr.g.push(callee, d)
				return ctrlCall
			}
		case 1:
			a0 := args[0]
			return func(fr *frame) ctrl {
				nf := fr.g.push(callee, d)
				nf.regs[0] = fr.regs[a0]
				return ctrlCall
			}
		case 2:
			a0, a1 := args[0], args[1]
			return func(fr *frame) ctrl {
				nf := fr.g.push(callee, d)
				nf.regs[0] = fr.regs[a0]
				nf.regs[1] = fr.regs[a1]
				return ctrlCall
			}
		}
		return func(fr *frame) ctrl {
			nf := fr.g.push(callee, d)
			r := fr.regs
			for i, s := range args {
				nf.regs[i] = r[s]
			}
			return ctrlCall
		}
	}
	fv := c.use(cc.Value)
	return func(fr *frame) ctrl {
		r := fr.regs
		cl := r[fv].closure()
		if cl == nil {
			return fr.g.throwRuntime("invalid memory address or nil pointer dereference")
		}
		fc := cl.fn
		if fc.intr != nil {
			a := make([]Value, len(args))
			for i, s := range args {
				a[i] = r[s]
			}
			return fc.intr(&icall{g: fr.g, fr: fr, fn: fc, args: a, dst: d, pos: pos, env: cl.env})
		}
		if fc.event {
			if cc := fr.g.callEvent(fc, pos); cc != ctrlNext {
				return cc
			}
		}
		nf := fr.g.push(fc, d)
		for i, s := range args {
			nf.regs[i] = r[s]
		}
		copy(nf.regs[len(args):], cl.env)
		return ctrlCall
	}
}

// method returns the code of the method meth of dynamic type t, or nil.
func (m *machine) method(t *rtype, meth *types.Func) *fnCode {
	id := meth.Id()
	if fc, ok := t.methods[id]; ok {
		return fc
	}
	if t.methods == nil {
		t.methods = map[string]*fnCode{}
	}
	var fc *fnCode
	if intr, ok := t.native[meth.Name()]; ok {
		fc = &fnCode{name: t.String() + "." + meth.Name(), intr: intr, compiled: true, recoverPC: -1}
		fc.self = &closure{fn: fc}
	} else if sel := m.prog.SSA.MethodSets.MethodSet(t.T).Lookup(meth.Pkg(), meth.Name()); sel != nil {
		if fn := m.prog.SSA.MethodValue(sel); fn != nil {
			fc = m.code(fn)
		}
	}
	t.methods[id] = fc
	return fc
}

// resolver returns a function that evaluates the callee and arguments of
// a go or defer statement: a closure value and the arguments (receiver
// first in invoke mode).
func (c *compiler) resolver(cc *ssa.CallCommon, pos token.Pos) func(fr *frame) (Value, []Value, ctrl) {
	args := c.argSlots(cc)
	collect := func(r []Value, extra int) []Value {
		a := make([]Value, extra+len(args))
		for i, s := range args {
			a[extra+i] = r[s]
		}
		return a
	}
	switch v := cc.Value.(type) {
	case *ssa.Builtin:
		fc := c.m.builtinCode(v, cc, pos)
		fval := funcV(fc.self)
		return func(fr *frame) (Value, []Value, ctrl) { return fval, collect(fr.regs, 0), ctrlNext }
	case *ssa.Function:
		if len(v.FreeVars) == 0 && cc.Method == nil {
			fval := funcV(c.m.code(v).self)
			return func(fr *frame) (Value, []Value, ctrl) { return fval, collect(fr.regs, 0), ctrlNext }
		}
	}
	fv := c.use(cc.Value)
	if cc.Method != nil {
		meth := cc.Method
		return func(fr *frame) (Value, []Value, ctrl) {
			rv := fr.regs[fv]
			if rv.p == nil {
				return Value{}, nil, fr.g.throwRuntime("invalid memory address or nil pointer dereference")
			}
			it := rv.iface()
			fc := fr.g.x.m.method(it.t, meth)
			if fc == nil {
				return Value{}, nil, fr.g.unsupported(pos, "method %s of %s not found", meth.Name(), it.t)
			}
			a := collect(fr.regs, 1)
			a[0] = it.v
			return funcV(fc.self), a, ctrlNext
		}
	}
	return func(fr *frame) (Value, []Value, ctrl) { return fr.regs[fv], collect(fr.regs, 0), ctrlNext }
}

func (c *compiler) goInstr(e *ssa.Go) instrFn {
	res := c.resolver(e.Common(), e.Pos())
	pos := e.Pos()
	// With Options.Shared, what the new goroutine receives is published.
	var argTypes []*rtype
	skip := 0 // invoke mode: the receiver's dynamic type is not known here
	shared := c.m.sharedMemory()
	if shared {
		cc := e.Common()
		if cc.Method != nil {
			skip = 1
		}
		for _, a := range cc.Args {
			argTypes = append(argTypes, c.m.rtypeOf(a.Type()))
		}
	}
	return func(fr *frame) ctrl {
		fv, args, cc := res(fr)
		if cc != ctrlNext {
			return cc
		}
		if fv.p == nil {
			return fr.g.fatal("go of nil func value")
		}
		if shared {
			m := fr.g.x.m
			m.publish(&rtype{kind: kFunc}, fv)
			for i, t := range argTypes {
				m.publish(t, args[skip+i])
			}
		}
		fr.g.x.spawn(fr.g, fv.closure(), args, pos)
		return ctrlNext
	}
}

func (c *compiler) deferInstr(e *ssa.Defer) instrFn {
	res := c.resolver(e.Common(), e.Pos())
	pos := e.Pos()
	stack := -1
	if e.DeferStack != nil {
		stack = c.use(e.DeferStack)
	}
	return func(fr *frame) ctrl {
		fv, args, cc := res(fr)
		if cc != ctrlNext {
			return cc
		}
		target := fr
		if stack >= 0 {
			target = (*frame)(fr.regs[stack].p)
		}
		target.defers = append(target.defers, deferred{fn: fv, args: args, pos: pos})
		return ctrlNext
	}
}

// deferStackV is the value of ssa:deferstack(): the frame itself.
func deferStackV(fr *frame) Value { return Value{p: unsafe.Pointer(fr)} }

// callValue calls the function value fv with args on goroutine g from
// an intrinsic, as a new frame whose result goes to fr.regs[dst]. It is the
// continuation-style call: the intrinsic returns the ctrl it gets.
func (g *goroutine) callValue(fr *frame, fv Value, args []Value, dst int, pos token.Pos) ctrl {
	cl := fv.closure()
	if cl == nil {
		return g.throwRuntime("invalid memory address or nil pointer dereference")
	}
	fc := cl.fn
	if fc.intr != nil {
		return fc.intr(&icall{g: g, fr: fr, fn: fc, args: args, dst: dst, pos: pos, env: cl.env})
	}
	nf := g.push(fc, dst)
	copy(nf.regs, args)
	copy(nf.regs[len(args):], cl.env)
	return ctrlCall
}
