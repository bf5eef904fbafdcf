package explore

import (
	"go/token"
	"unicode/utf8"

	"golang.org/x/tools/go/ssa"
)

// norm returns the function that wraps a 64-bit result to the width and
// signedness of kind k, or nil if no wrapping is needed.
func norm(k kind) func(uint64) uint64 {
	switch k {
	case kInt8:
		return func(x uint64) uint64 { return uint64(int64(int8(x))) }
	case kInt16:
		return func(x uint64) uint64 { return uint64(int64(int16(x))) }
	case kInt32:
		return func(x uint64) uint64 { return uint64(int64(int32(x))) }
	case kUint8:
		return func(x uint64) uint64 { return uint64(uint8(x)) }
	case kUint16:
		return func(x uint64) uint64 { return uint64(uint16(x)) }
	case kUint32:
		return func(x uint64) uint64 { return uint64(uint32(x)) }
	}
	return nil
}

// normValue wraps x to kind k.
func normValue(k kind, x uint64) uint64 {
	if f := norm(k); f != nil {
		return f(x)
	}
	return x
}

func (c *compiler) binop(e *ssa.BinOp) instrFn {
	d, x, y := c.def(e), c.use(e.X), c.use(e.Y)
	t := c.m.rtypeOf(e.X.Type())
	k := t.kind
	switch e.Op {
	case token.EQL, token.NEQ:
		return c.equality(e, d, x, y, t)
	case token.LSS, token.LEQ, token.GTR, token.GEQ:
		return c.ordered(e.Op, d, x, y, k)
	case token.SHL, token.SHR:
		return c.shift(e, d, x, y, k)
	}
	switch {
	case k == kString:
		if e.Op != token.ADD {
			break
		}
		return func(fr *frame) ctrl {
			r := fr.regs
			r[d] = strV(r[x].Str() + r[y].Str())
			return ctrlNext
		}
	case k.isInteger():
		return c.intBinop(e.Op, d, x, y, k)
	case k.isFloat():
		return floatBinop(e.Op, d, x, y, k == kFloat32)
	case k.isComplex():
		return complexBinop(e.Op, d, x, y, k == kComplex64)
	}
	unsupportedf("binary operation %s on %s", e.Op, t)
	return nil
}

func (c *compiler) intBinop(op token.Token, d, x, y int, k kind) instrFn {
	n := norm(k)
	signed := k.isSigned()
	var f func(a, b uint64) uint64
	switch op {
	case token.ADD:
		if n == nil {
			return func(fr *frame) ctrl {
				r := fr.regs
				r[d] = Value{a: r[x].a + r[y].a}
				return ctrlNext
			}
		}
		f = func(a, b uint64) uint64 { return a + b }
	case token.SUB:
		if n == nil {
			return func(fr *frame) ctrl {
				r := fr.regs
				r[d] = Value{a: r[x].a - r[y].a}
				return ctrlNext
			}
		}
		f = func(a, b uint64) uint64 { return a - b }
	case token.MUL:
		if n == nil {
			return func(fr *frame) ctrl {
				r := fr.regs
				r[d] = Value{a: r[x].a * r[y].a}
				return ctrlNext
			}
		}
		f = func(a, b uint64) uint64 { return a * b }
	case token.AND:
		return func(fr *frame) ctrl {
			r := fr.regs
			r[d] = Value{a: r[x].a & r[y].a}
			return ctrlNext
		}
	case token.OR:
		return func(fr *frame) ctrl {
			r := fr.regs
			r[d] = Value{a: r[x].a | r[y].a}
			return ctrlNext
		}
	case token.XOR:
		return func(fr *frame) ctrl {
			r := fr.regs
			r[d] = Value{a: r[x].a ^ r[y].a}
			return ctrlNext
		}
	case token.AND_NOT:
		return func(fr *frame) ctrl {
			r := fr.regs
			r[d] = Value{a: r[x].a &^ r[y].a}
			return ctrlNext
		}
	case token.QUO, token.REM:
		quo := op == token.QUO
		return func(fr *frame) ctrl {
			r := fr.regs
			a, b := r[x].a, r[y].a
			if b == 0 {
				return fr.g.throwRuntime("integer divide by zero")
			}
			var v uint64
			switch {
			case signed && quo:
				v = uint64(int64(a) / int64(b))
			case signed:
				v = uint64(int64(a) % int64(b))
			case quo:
				v = a / b
			default:
				v = a % b
			}
			if n != nil {
				v = n(v)
			}
			r[d] = Value{a: v}
			return ctrlNext
		}
	default:
		unsupportedf("integer operation %s", op)
	}
	return func(fr *frame) ctrl {
		r := fr.regs
		r[d] = Value{a: n(f(r[x].a, r[y].a))}
		return ctrlNext
	}
}

func (c *compiler) shift(e *ssa.BinOp, d, x, y int, k kind) instrFn {
	n := norm(k)
	signed := k.isSigned()
	ySigned := c.m.rtypeOf(e.Y.Type()).kind.isSigned()
	left := e.Op == token.SHL
	return func(fr *frame) ctrl {
		r := fr.regs
		a, s := r[x].a, r[y].a
		if ySigned && int64(s) < 0 {
			return fr.g.throwRuntime("negative shift amount")
		}
		var v uint64
		switch {
		case left:
			if s >= 64 {
				v = 0
			} else {
				v = a << s
			}
		case signed:
			if s >= 64 {
				s = 63
			}
			v = uint64(int64(a) >> s)
		default:
			if s >= 64 {
				v = 0
			} else {
				v = a >> s
			}
		}
		if n != nil {
			v = n(v)
		}
		r[d] = Value{a: v}
		return ctrlNext
	}
}

func floatBinop(op token.Token, d, x, y int, f32 bool) instrFn {
	f := arith[float64](op, "float")
	if op == token.ADD && !f32 {
		return func(fr *frame) ctrl {
			r := fr.regs
			r[d] = floatV(r[x].Float() + r[y].Float())
			return ctrlNext
		}
	}
	if f32 {
		return func(fr *frame) ctrl {
			r := fr.regs
			r[d] = floatV(float64(float32(f(r[x].Float(), r[y].Float()))))
			return ctrlNext
		}
	}
	return func(fr *frame) ctrl {
		r := fr.regs
		r[d] = floatV(f(r[x].Float(), r[y].Float()))
		return ctrlNext
	}
}

func complexBinop(op token.Token, d, x, y int, c64 bool) instrFn {
	f := arith[complex128](op, "complex")
	return func(fr *frame) ctrl {
		r := fr.regs
		v := f(r[x].Complex(), r[y].Complex())
		if c64 {
			v = complex128(complex64(v))
		}
		r[d] = complexV(v)
		return ctrlNext
	}
}

// arith returns the function of an arithmetic operator on floats or
// complex numbers.
func arith[T float64 | complex128](op token.Token, what string) func(a, b T) T {
	switch op {
	case token.ADD:
		return func(a, b T) T { return a + b }
	case token.SUB:
		return func(a, b T) T { return a - b }
	case token.MUL:
		return func(a, b T) T { return a * b }
	case token.QUO:
		return func(a, b T) T { return a / b }
	}
	unsupportedf("%s operation %s", what, op)
	return nil
}

func (c *compiler) ordered(op token.Token, d, x, y int, k kind) instrFn {
	var cmp func(a, b Value) bool
	switch {
	case k.isSigned():
		switch op {
		case token.LSS:
			return func(fr *frame) ctrl {
				r := fr.regs
				r[d] = boolV(int64(r[x].a) < int64(r[y].a))
				return ctrlNext
			}
		case token.LEQ:
			cmp = func(a, b Value) bool { return int64(a.a) <= int64(b.a) }
		case token.GTR:
			cmp = func(a, b Value) bool { return int64(a.a) > int64(b.a) }
		default:
			cmp = func(a, b Value) bool { return int64(a.a) >= int64(b.a) }
		}
	case k.isInteger():
		switch op {
		case token.LSS:
			cmp = func(a, b Value) bool { return a.a < b.a }
		case token.LEQ:
			cmp = func(a, b Value) bool { return a.a <= b.a }
		case token.GTR:
			cmp = func(a, b Value) bool { return a.a > b.a }
		default:
			cmp = func(a, b Value) bool { return a.a >= b.a }
		}
	case k.isFloat():
		switch op {
		case token.LSS:
			cmp = func(a, b Value) bool { return a.Float() < b.Float() }
		case token.LEQ:
			cmp = func(a, b Value) bool { return a.Float() <= b.Float() }
		case token.GTR:
			cmp = func(a, b Value) bool { return a.Float() > b.Float() }
		default:
			cmp = func(a, b Value) bool { return a.Float() >= b.Float() }
		}
	case k == kString:
		switch op {
		case token.LSS:
			cmp = func(a, b Value) bool { return a.Str() < b.Str() }
		case token.LEQ:
			cmp = func(a, b Value) bool { return a.Str() <= b.Str() }
		case token.GTR:
			cmp = func(a, b Value) bool { return a.Str() > b.Str() }
		default:
			cmp = func(a, b Value) bool { return a.Str() >= b.Str() }
		}
	default:
		unsupportedf("ordered comparison on kind %d", k)
	}
	return func(fr *frame) ctrl {
		r := fr.regs
		r[d] = boolV(cmp(r[x], r[y]))
		return ctrlNext
	}
}

func (c *compiler) equality(e *ssa.BinOp, d, x, y int, t *rtype) instrFn {
	neq := e.Op == token.NEQ
	k := t.kind
	switch {
	case k.isInteger() || k == kBool:
		if neq {
			return func(fr *frame) ctrl {
				r := fr.regs
				r[d] = boolV(r[x].a != r[y].a)
				return ctrlNext
			}
		}
		return func(fr *frame) ctrl {
			r := fr.regs
			r[d] = boolV(r[x].a == r[y].a)
			return ctrlNext
		}
	case k == kString:
		return func(fr *frame) ctrl {
			r := fr.regs
			r[d] = boolV((r[x].Str() == r[y].Str()) != neq)
			return ctrlNext
		}
	case k == kPtr || k == kUnsafePointer || k == kChan || k == kMap || k == kFunc || k == kSlice:
		return func(fr *frame) ctrl {
			r := fr.regs
			r[d] = boolV((r[x].p == r[y].p && r[x].a == r[y].a) != neq)
			return ctrlNext
		}
	}
	// Interfaces with a nil constant compare the pointer only.
	if k == kIface {
		if isNilConst(e.X) || isNilConst(e.Y) {
			return func(fr *frame) ctrl {
				r := fr.regs
				r[d] = boolV((r[x].p == r[y].p) != neq)
				return ctrlNext
			}
		}
	}
	return func(fr *frame) ctrl {
		r := fr.regs
		eq, bad := equal(t, r[x], r[y])
		if bad != nil {
			return fr.g.throwRuntime("comparing uncomparable type %s", bad)
		}
		r[d] = boolV(eq != neq)
		return ctrlNext
	}
}

func isNilConst(v ssa.Value) bool {
	k, ok := v.(*ssa.Const)
	return ok && k.Value == nil
}

func (c *compiler) unop(e *ssa.UnOp) instrFn {
	switch e.Op {
	case token.MUL:
		return c.load(e)
	case token.ARROW:
		return c.recv(e)
	}
	d, x := c.def(e), c.use(e.X)
	t := c.m.rtypeOf(e.X.Type())
	k := t.kind
	switch e.Op {
	case token.NOT:
		return func(fr *frame) ctrl {
			r := fr.regs
			r[d] = Value{a: r[x].a ^ 1}
			return ctrlNext
		}
	case token.SUB:
		switch {
		case k.isInteger():
			n := norm(k)
			return func(fr *frame) ctrl {
				r := fr.regs
				v := -r[x].a
				if n != nil {
					v = n(v)
				}
				r[d] = Value{a: v}
				return ctrlNext
			}
		case k.isFloat():
			return func(fr *frame) ctrl {
				r := fr.regs
				r[d] = floatV(-r[x].Float())
				return ctrlNext
			}
		case k.isComplex():
			return func(fr *frame) ctrl {
				r := fr.regs
				r[d] = complexV(-r[x].Complex())
				return ctrlNext
			}
		}
	case token.XOR:
		n := norm(k)
		return func(fr *frame) ctrl {
			r := fr.regs
			v := ^r[x].a
			if n != nil {
				v = n(v)
			}
			r[d] = Value{a: v}
			return ctrlNext
		}
	}
	unsupportedf("unary operation %s on %s", e.Op, t)
	return nil
}

func (c *compiler) convert(e *ssa.Convert) instrFn {
	d, x := c.def(e), c.use(e.X)
	from, to := c.m.rtypeOf(e.X.Type()), c.m.rtypeOf(e.Type())
	fk, tk := from.kind, to.kind
	un := func(f func(v Value) Value) instrFn {
		return func(fr *frame) ctrl {
			r := fr.regs
			r[d] = f(r[x])
			return ctrlNext
		}
	}
	switch {
	case fk.isInteger() && tk.isInteger():
		n := norm(tk)
		if n == nil {
			return un(func(v Value) Value { return Value{a: v.a} })
		}
		return un(func(v Value) Value { return Value{a: n(v.a)} })
	case fk.isInteger() && tk.isFloat():
		f32 := tk == kFloat32
		signed := fk.isSigned()
		return un(func(v Value) Value {
			var f float64
			if signed {
				f = float64(int64(v.a))
			} else {
				f = float64(v.a)
			}
			if f32 {
				f = float64(float32(f))
			}
			return floatV(f)
		})
	case fk.isFloat() && tk.isInteger():
		n := norm(tk)
		signed := tk.isSigned()
		return un(func(v Value) Value {
			f := v.Float()
			var a uint64
			if signed {
				a = uint64(int64(f))
			} else {
				a = uint64(f)
			}
			if n != nil {
				a = n(a)
			}
			return Value{a: a}
		})
	case fk.isFloat() && tk.isFloat():
		if tk == kFloat32 {
			return un(func(v Value) Value { return floatV(float64(float32(v.Float()))) })
		}
		return c.move(e, e.X)
	case fk.isComplex() && tk.isComplex():
		if tk == kComplex64 {
			return un(func(v Value) Value { return complexV(complex128(complex64(v.Complex()))) })
		}
		return c.move(e, e.X)
	case fk.isInteger() && tk == kString:
		signed := fk.isSigned()
		return un(func(v Value) Value {
			x := v.a
			if signed && int64(x) < 0 || x > utf8.MaxRune {
				return strV("\uFFFD")
			}
			return strV(string(rune(x)))
		})
	case fk == kString && tk == kString:
		return c.move(e, e.X)
	case fk == kString && tk == kSlice:
		if to.elem.kind == kInt32 {
			return un(func(v Value) Value { return runesToSlice([]rune(v.Str())) })
		}
		return un(func(v Value) Value { return bytesToSlice([]byte(v.Str())) })
	case fk == kSlice && tk == kString:
		if from.elem.kind == kInt32 {
			return un(func(v Value) Value { return strV(string(sliceRunes(v))) })
		}
		return un(func(v Value) Value { return strV(sliceString(v)) })
	case (fk == kUnsafePointer || fk == kPtr) && (tk == kUnsafePointer || tk == kPtr):
		return c.move(e, e.X)
	case fk == kUnsafePointer && tk == kUintptr:
		return un(func(v Value) Value {
			if v.p == nil {
				return Value{}
			}
			o := v.obj()
			if len(o.cells) == 0 {
				return Value{a: uint64(uintptrOf(o))}
			}
			return Value{a: uint64(uintptrOf(&o.cells[min(v.off(), len(o.cells)-1)])) + uint64(max(0, v.off()-len(o.cells)+1))}
		})
	case fk == kSlice && tk == kArray:
		n, esz := to.len, to.elem.size
		return func(fr *frame) ctrl {
			r := fr.regs
			v := r[x]
			if v.sliceLen() < n {
				return fr.g.throwRuntime("cannot convert slice with length %d to array or pointer to array with length %d", v.sliceLen(), n)
			}
			o := newObject(n * esz)
			if n > 0 {
				copy(o.cells, v.obj().cells[v.off():v.off()+n*esz])
			}
			r[d] = ptrV(o, 0)
			return ctrlNext
		}
	}
	unsupportedf("conversion from %s to %s", from, to)
	return nil
}

func (c *compiler) sliceToArrayPointer(e *ssa.SliceToArrayPointer) instrFn {
	d, x := c.def(e), c.use(e.X)
	n := c.m.rtypeOf(e.Type()).elem.len
	return func(fr *frame) ctrl {
		r := fr.regs
		v := r[x]
		if v.sliceLen() < n {
			return fr.g.throwRuntime("cannot convert slice with length %d to array or pointer to array with length %d", v.sliceLen(), n)
		}
		if v.p == nil {
			r[d] = Value{}
			if n == 0 {
				return ctrlNext
			}
		}
		r[d] = ptrV(v.obj(), v.off())
		return ctrlNext
	}
}

// bytesToSlice makes a []byte value holding b.
func bytesToSlice(b []byte) Value {
	o := newObject(len(b))
	for i, c := range b {
		o.cells[i].a = uint64(c)
	}
	return sliceV(o, 0, len(b), len(b))
}

func runesToSlice(rs []rune) Value {
	o := newObject(len(rs))
	for i, c := range rs {
		o.cells[i].a = uint64(int64(c))
	}
	return sliceV(o, 0, len(rs), len(rs))
}

// sliceBytes returns the bytes of a []byte value.
func sliceBytes(v Value) []byte {
	n := v.sliceLen()
	if n == 0 {
		return nil
	}
	b := make([]byte, n)
	cells := v.obj().cells[v.off():]
	for i := range b {
		b[i] = byte(cells[i].a)
	}
	return b
}

func sliceString(v Value) string {
	n := v.sliceLen()
	if n == 0 {
		return ""
	}
	cells := v.obj().cells[v.off() : v.off()+n]
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(cells[i].a)
	}
	return string(b)
}

func sliceRunes(v Value) []rune {
	n := v.sliceLen()
	rs := make([]rune, n)
	if n == 0 {
		return rs
	}
	cells := v.obj().cells[v.off():]
	for i := range rs {
		rs[i] = rune(int32(cells[i].a))
	}
	return rs
}
