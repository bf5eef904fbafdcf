package explore

import (
	"go/token"
	"go/types"
	"strings"

	"github.com/henceforth-go/henceforth/symbolic"
	"golang.org/x/tools/go/ssa"
)

// symbolicInstr wraps the compiled form f of an instruction for symbolic
// values: term construction for BinOp/UnOp/Convert on booleans and
// integers, index-bounds forks, and concretization where the interpreter
// needs a concrete value. Outside symbolic mode it returns f unchanged,
// so concrete interpretation pays nothing. Each wrapper tests the
// operands' p words and falls through to f when all are concrete.
func (c *compiler) symbolicInstr(ins ssa.Instruction, f instrFn) instrFn {
	if !c.m.symbolicMode() {
		return f
	}
	switch ins := ins.(type) {
	case *ssa.BinOp:
		if c.m.rtypeOf(ins.X.Type()).kind.isAggregate() {
			return c.symAggEqual(ins, f)
		}
		return c.symBinOp(ins, f)
	case *ssa.UnOp:
		switch ins.Op {
		case token.NOT, token.SUB, token.XOR:
			return c.symUnOp(ins, f)
		}
	case *ssa.Convert:
		return c.symConvert(ins, f)
	case *ssa.IndexAddr:
		return c.symIndex(ins, ins.X, ins.Index, f)
	case *ssa.Index:
		return c.symIndex(ins, ins.X, ins.Index, f)
	case *ssa.Lookup:
		if c.m.rtypeOf(ins.X.Type()).kind == kString {
			return c.symIndex(ins, ins.X, ins.Index, f)
		}
		return c.symMapLookup(ins, f)
	case *ssa.MapUpdate:
		return c.symMapUpdate(ins, f)
	case *ssa.MakeSlice:
		return c.symMakeSlice(ins, f)
	case *ssa.MakeChan:
		return c.symMakeChan(ins, f)
	case *ssa.Slice:
		return c.symSlice(ins, f)
	case *ssa.MakeInterface:
		return c.concretizingLeaves(ins, "conversion to "+types.TypeString(ins.Type(), shortQualifier), f, ins.X)
	case ssa.CallInstruction:
		if b, ok := ins.Common().Value.(*ssa.Builtin); ok {
			call, _ := ins.(*ssa.Call)
			switch b.Name() {
			case "len", "cap", "append", "copy", "ssa:deferstack", "ssa:wrapnilchk", "recover", "close", "clear", "panic":
				return f
			case "print", "println":
				return c.symPrint(ins.Common(), f)
			case "min", "max":
				if call != nil {
					return c.symMinMax(call, b.Name() == "max", f)
				}
			case "delete":
				if call != nil {
					return c.symDelete(call, f)
				}
			}
			return c.concretizingLeaves(ins, "argument of "+b.Name(), f, ins.Common().Args...)
		}
	}
	return f
}

// scalarSlots returns the register slots and symbolic types of the
// boolean and integer values among vs.
func (c *compiler) scalarSlots(vs []ssa.Value) (slots []int, ts []symbolic.Type) {
	for _, v := range vs {
		if t, ok := symbolic.TypeOf(v.Type()); ok {
			slots = append(slots, c.use(v))
			ts = append(ts, t)
		}
	}
	return slots, ts
}

// concretizing makes f see concrete values in the scalar operands vs.
func (c *compiler) concretizing(ins ssa.Instruction, why string, f instrFn, vs ...ssa.Value) instrFn {
	slots, ts := c.scalarSlots(vs)
	if len(slots) == 0 {
		return f
	}
	pos := ins.Pos()
	return func(fr *frame) ctrl {
		for i, s := range slots {
			if fr.regs[s].p != nil {
				if cc := fr.g.x.concretize(fr.g, pos, &fr.regs[s], ts[i], why); cc != ctrlNext {
					return cc
				}
			}
		}
		return f(fr)
	}
}

// symbolicArgs wraps an intrinsic (a modelled or native function, code
// the interpreter does not run) so that it receives concrete booleans
// and integers.
func (m *machine) symbolicArgs(fn *ssa.Function, intr intrinsic) intrinsic {
	if !m.symbolicMode() || fn == nil {
		return intr
	}
	sig := fn.Signature
	var idx []int
	var ts []symbolic.Type
	var mem []int // arguments through which the function may read memory
	var mts []*rtype
	walk := readsMemory(fn)
	add := func(i int, t types.Type) {
		if st, ok := symbolic.TypeOf(t); ok {
			idx, ts = append(idx, i), append(ts, st)
		} else if rt := m.rtypeOf(t); walk && reachesScalars(rt) {
			mem, mts = append(mem, i), append(mts, rt)
		}
	}
	n := 0
	if r := sig.Recv(); r != nil {
		add(0, r.Type())
		n = 1
	}
	for i := range sig.Params().Len() {
		add(n+i, sig.Params().At(i).Type())
	}
	if len(idx) == 0 && len(mem) == 0 {
		return intr
	}
	why := "argument of " + fn.String()
	return func(c *icall) ctrl {
		for k, i := range idx {
			if i < len(c.args) && c.args[i].p != nil {
				if cc := c.g.x.concretize(c.g, c.pos, &c.args[i], ts[k], why); cc != ctrlNext {
					return cc
				}
			}
		}
		for k, i := range mem {
			if i < len(c.args) {
				if cc := c.g.x.concretizeReachable(c.g, c.pos, mts[k], c.args[i], why); cc != ctrlNext {
					return cc
				}
			}
		}
		return intr(c)
	}
}

// readsMemory reports whether the modelled function fn may read the
// interpreter's memory natively through its arguments: not the models of
// sync, sync/atomic, runtime, errors and sort, which keep values as they
// are (or run interpreted code on them).
func readsMemory(fn *ssa.Function) bool {
	if fn.Pkg == nil || fn.Pkg.Pkg == nil {
		return true
	}
	switch fn.Pkg.Pkg.Path() {
	case "sync", "sync/atomic", "runtime", "errors", "sort", "iter", ltltestPath:
		return false
	}
	return true
}

// reachesScalars reports whether values of type t may lead to booleans
// or integers in memory (aggregates holding them, pointers, slices,
// maps, interfaces).
func reachesScalars(t *rtype) bool {
	switch t.kind {
	case kPtr, kSlice, kMap, kIface:
		return true
	case kStruct, kArray:
		return true
	}
	return false
}

// symBinOp builds terms for binary operations on booleans and integers.
func (c *compiler) symBinOp(e *ssa.BinOp, f instrFn) instrFn {
	xt, okx := symbolic.TypeOf(e.X.Type())
	yt, oky := symbolic.TypeOf(e.Y.Type())
	if !okx || !oky {
		return f
	}
	d, x, y := c.def(e), c.use(e.X), c.use(e.Y)
	op, pos := e.Op, e.Pos()
	return func(fr *frame) ctrl {
		r := fr.regs
		if r[x].p == nil && r[y].p == nil {
			return f(fr)
		}
		a, ok1 := symOf(r[x], xt)
		b, ok2 := symOf(r[y], yt)
		if !ok1 || !ok2 {
			return fr.g.unsupported(pos, "operation on a symbolic value of another engine (%s)", e)
		}
		if cond, msg := symbolic.PanicCondition(op, a, b); msg != "" {
			panics, known := cond.Bool()
			if !known {
				var cc ctrl
				panics, cc = fr.g.x.symFork(fr, pos, cond, "the panic check of")
				if cc != ctrlNext {
					return cc
				}
			}
			if panics {
				return fr.g.throwRuntime("%s", strings.TrimPrefix(msg, "runtime error: "))
			}
		}
		v, err := symbolic.BinOp(op, a, b)
		if err != nil {
			return fr.g.unsupported(pos, "symbolic %s: %v", e, err)
		}
		r[d] = valueOfSym(v)
		return ctrlNext
	}
}

// symUnOp builds terms for !x, -x and ^x.
func (c *compiler) symUnOp(e *ssa.UnOp, f instrFn) instrFn {
	t, ok := symbolic.TypeOf(e.X.Type())
	if !ok {
		return f
	}
	d, x := c.def(e), c.use(e.X)
	op, pos := e.Op, e.Pos()
	return func(fr *frame) ctrl {
		r := fr.regs
		if r[x].p == nil {
			return f(fr)
		}
		a, ok := symOf(r[x], t)
		if !ok {
			return fr.g.unsupported(pos, "operation on a symbolic value of another engine (%s)", e)
		}
		v, err := symbolic.UnOp(op, a)
		if err != nil {
			return fr.g.unsupported(pos, "symbolic %s: %v", e, err)
		}
		r[d] = valueOfSym(v)
		return ctrlNext
	}
}

// symConvert converts between integer types symbolically; conversions to
// other types (floats, strings) concretize the operand.
func (c *compiler) symConvert(e *ssa.Convert, f instrFn) instrFn {
	from, okf := symbolic.TypeOf(e.X.Type())
	if !okf {
		if xt := c.m.rtypeOf(e.X.Type()); xt.kind == kSlice {
			// string([]byte), string([]rune): the conversion reads the
			// elements natively
			x, pos := c.use(e.X), e.Pos()
			why := "conversion to " + types.TypeString(e.Type(), shortQualifier)
			return func(fr *frame) ctrl {
				if cc := fr.g.x.concretizeReachable(fr.g, pos, xt, fr.regs[x], why); cc != ctrlNext {
					return cc
				}
				return f(fr)
			}
		}
		return f
	}
	to, okt := symbolic.TypeOf(e.Type())
	if !okt {
		return c.concretizing(e, "conversion to "+types.TypeString(e.Type(), shortQualifier), f, e.X)
	}
	d, x := c.def(e), c.use(e.X)
	pos := e.Pos()
	return func(fr *frame) ctrl {
		r := fr.regs
		if r[x].p == nil {
			return f(fr)
		}
		a, ok := symOf(r[x], from)
		if !ok {
			return fr.g.unsupported(pos, "conversion of a symbolic value of another engine (%s)", e)
		}
		v, err := symbolic.Convert(a, to)
		if err != nil {
			return fr.g.unsupported(pos, "symbolic %s: %v", e, err)
		}
		r[d] = valueOfSym(v)
		return ctrlNext
	}
}

// symIndex forks the out-of-range panic of an index operation with a
// symbolic index: the panicking path gets a concrete index from the
// model (Go's message); the other path splits the index over its
// possible values (memory is addressed concretely) and runs f.
func (c *compiler) symIndex(ins ssa.Instruction, xv, iv ssa.Value, f instrFn) instrFn {
	it, ok := symbolic.TypeOf(iv.Type())
	if !ok {
		return f
	}
	x, i := c.use(xv), c.use(iv)
	xt := c.m.rtypeOf(xv.Type())
	var length func(v Value) (int, bool)
	switch xt.kind {
	case kSlice:
		length = func(v Value) (int, bool) { return v.sliceLen(), true }
	case kString:
		length = func(v Value) (int, bool) { return len(v.Str()), true }
	case kArray:
		n := xt.len
		length = func(Value) (int, bool) { return n, true }
	default: // pointer to array
		if xt.elem == nil || xt.elem.kind != kArray {
			return c.concretizing(ins, "index", f, iv)
		}
		n := xt.elem.len
		length = func(v Value) (int, bool) { return n, v.p != nil }
	}
	signed := it.Signed()
	pos := ins.Pos()
	return func(fr *frame) ctrl {
		r := fr.regs
		if r[i].p == nil {
			return f(fr)
		}
		n, ok := length(r[x])
		if !ok {
			return f(fr) // nil pointer: f panics before indexing
		}
		idx, ok := symOf(r[i], it)
		if !ok {
			return fr.g.unsupported(pos, "index with a symbolic value of another engine")
		}
		wide, err := symbolic.Convert(idx, symbolic.Uint64)
		if err != nil {
			return fr.g.unsupported(pos, "symbolic index: %v", err)
		}
		inBounds, err := symbolic.BinOp(token.LSS, wide, symbolic.MakeUint(symbolic.Uint64, uint64(n)))
		if err != nil {
			return fr.g.unsupported(pos, "symbolic index: %v", err)
		}
		x := fr.g.x
		ok, cc := x.symFork(fr, pos, inBounds, "the bounds check of")
		if cc != ctrlNext {
			return cc
		}
		if !ok {
			if cc := x.concretizeForPanic(fr.g, pos, &r[i], it, "index out of range"); cc != ctrlNext {
				return cc
			}
			return fr.g.throwIndex(r[i].a, signed, n)
		}
		if cc := x.concretize(fr.g, pos, &r[i], it, "index"); cc != ctrlNext {
			return cc
		}
		return f(fr)
	}
}
