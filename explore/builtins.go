package explore

import (
	"fmt"
	"go/token"
	"go/types"
	"math"
	"strings"

	"golang.org/x/tools/go/ssa"
)

func (c *compiler) builtinCall(e *ssa.Call, b *ssa.Builtin, d int) instrFn {
	cc := e.Common()
	args := c.argSlots(cc)
	switch b.Name() {
	case "len":
		return c.lenCap(cc, d, args[0], false)
	case "cap":
		return c.lenCap(cc, d, args[0], true)
	case "append":
		st := c.m.rtypeOf(cc.Args[0].Type())
		s, x := args[0], args[1]
		fromString := c.m.rtypeOf(cc.Args[1].Type()).kind == kString
		if c.m.sharedMemory() && mayPublish(st.elem) {
			// Elements appended to shared memory become reachable.
			sites := appendSites(c, e, cc)
			return func(fr *frame) ctrl {
				r := fr.regs
				if rs := fr.g.x.race; rs != nil {
					appendRace(rs, fr.g, st, r[s], r[x], fromString, sites)
				}
				res := appendValues(fr.g, st, r[s], r[x], fromString)
				if res.p != nil && res.obj().shared {
					fr.g.x.m.publish(st, r[x])
				}
				r[d] = res
				return ctrlNext
			}
		}
		if c.m.racesOn() {
			sites := appendSites(c, e, cc)
			return func(fr *frame) ctrl {
				r := fr.regs
				if rs := fr.g.x.race; rs != nil {
					appendRace(rs, fr.g, st, r[s], r[x], fromString, sites)
				}
				r[d] = appendValues(fr.g, st, r[s], r[x], fromString)
				return ctrlNext
			}
		}
		return func(fr *frame) ctrl {
			r := fr.regs
			r[d] = appendValues(fr.g, st, r[s], r[x], fromString)
			return ctrlNext
		}
	case "ssa:deferstack":
		return func(fr *frame) ctrl {
			fr.regs[d] = deferStackV(fr)
			return ctrlNext
		}
	}
	intr := c.m.builtinIntr(b, cc, e.Pos())
	pos := e.Pos()
	return func(fr *frame) ctrl {
		r := fr.regs
		a := make([]Value, len(args))
		for i, s := range args {
			a[i] = r[s]
		}
		return intr(&icall{g: fr.g, fr: fr, args: a, dst: d, pos: pos})
	}
}

func (c *compiler) lenCap(cc *ssa.CallCommon, d, x int, isCap bool) instrFn {
	t := c.m.rtypeOf(cc.Args[0].Type())
	var f func(v Value) int
	switch t.kind {
	case kString:
		f = func(v Value) int { return int(v.a) }
	case kSlice:
		if isCap {
			f = func(v Value) int { return v.sliceCap() }
		} else {
			return func(fr *frame) ctrl {
				r := fr.regs
				r[d] = Value{a: uint64(uint32(r[x].b))}
				return ctrlNext
			}
		}
	case kMap:
		f = func(v Value) int {
			if m := v.mapObj(); m != nil {
				return m.len()
			}
			return 0
		}
	case kChan:
		f = func(v Value) int {
			ch := v.chanObj()
			if ch == nil {
				return 0
			}
			if isCap {
				return ch.capacity()
			}
			return ch.length()
		}
	case kArray:
		n := t.len
		f = func(Value) int { return n }
	case kPtr:
		n := t.elem.len
		f = func(Value) int { return n }
	default:
		unsupportedf("len/cap of %s", t)
	}
	return func(fr *frame) ctrl {
		r := fr.regs
		r[d] = intV(int64(f(r[x])))
		return ctrlNext
	}
}

// appendValues implements append(s, x...) where x is a slice of the same
// type (or a string when s is []byte).
func appendValues(g *goroutine, st *rtype, s, x Value, fromString bool) Value {
	var n int
	if fromString {
		n = int(x.a)
	} else {
		n = x.sliceLen()
	}
	if n == 0 {
		return s
	}
	esz := st.elem.size
	l, cp := s.sliceLen(), s.sliceCap()
	nl := l + n
	var o *object
	var off int
	if nl <= cp {
		o, off = s.obj(), s.off()
	} else {
		nc := growCap(cp, nl)
		o = &object{cells: make([]Value, nc*esz), shared: s.p != nil && s.obj().shared}
		if g != nil {
			o.id = g.newID()
			o.owner = g.key
		}
		if l > 0 {
			copy(o.cells, s.obj().cells[s.off():s.off()+l*esz])
		}
		cp = nc
	}
	dst := o.cells[off+l*esz : off+nl*esz]
	if fromString {
		str := x.Str()
		for i := 0; i < n; i++ {
			dst[i] = Value{a: uint64(str[i])}
		}
	} else {
		copy(dst, x.obj().cells[x.off():x.off()+n*esz])
	}
	return sliceV(o, off, nl, cp)
}

// growCap mirrors the runtime's growslice capacity rule (without size
// class rounding).
func growCap(old, need int) int {
	nc := old
	if need > 2*old {
		return need
	}
	if old < 256 {
		return max(2*old, need)
	}
	for nc < need {
		nc += (nc + 3*256) >> 2
	}
	return nc
}

// builtinCode wraps a builtin as a function value (for go and defer).
func (m *machine) builtinCode(b *ssa.Builtin, cc *ssa.CallCommon, pos token.Pos) *fnCode {
	fc := &fnCode{name: b.Name(), intr: m.builtinIntr(b, cc, pos), compiled: true, recoverPC: -1}
	fc.self = &closure{fn: fc}
	return fc
}

// builtinIntr implements a builtin call as an intrinsic.
func (m *machine) builtinIntr(b *ssa.Builtin, cc *ssa.CallCommon, pos token.Pos) intrinsic {
	argType := func(i int) *rtype { return m.rtypeOf(cc.Args[i].Type()) }
	switch b.Name() {
	case "len", "cap":
		isCap := b.Name() == "cap"
		t := argType(0)
		return func(c *icall) ctrl {
			v := c.args[0]
			switch t.kind {
			case kString:
				return c.ret(intV(int64(v.a)))
			case kSlice:
				if isCap {
					return c.ret(intV(int64(v.sliceCap())))
				}
				return c.ret(intV(int64(v.sliceLen())))
			case kMap:
				if mo := v.mapObj(); mo != nil {
					return c.ret(intV(int64(mo.len())))
				}
			case kChan:
				if ch := v.chanObj(); ch != nil {
					if isCap {
						return c.ret(intV(int64(ch.capacity())))
					}
					return c.ret(intV(int64(ch.length())))
				}
			}
			return c.ret(intV(0))
		}
	case "append":
		st := argType(0)
		fromString := argType(1).kind == kString
		return func(c *icall) ctrl { return c.ret(appendValues(c.g, st, c.args[0], c.args[1], fromString)) }
	case "copy":
		dt := argType(0)
		fromString := argType(1).kind == kString
		esz := dt.elem.size
		var readSite, writeSite int32
		if m.racesOn() {
			readSite = m.site(pos, "read "+m.prog.describeValue(cc.Args[1])+" (copy)")
			writeSite = m.site(pos, "write "+m.prog.describeValue(cc.Args[0])+" (copy)")
		}
		return func(c *icall) ctrl {
			dst, src := c.args[0], c.args[1]
			n := dst.sliceLen()
			if fromString {
				s := src.Str()
				n = min(n, len(s))
				if n == 0 {
					return c.ret(intV(0)) // dst may be nil
				}
				if rs := c.x().race; rs != nil && n > 0 {
					rs.access(c.g, dst.obj(), dst.off(), n, true, false, writeSite)
				}
				cells := dst.obj().cellsFrom(dst.off())
				for i := 0; i < n; i++ {
					cells[i] = Value{a: uint64(s[i])}
				}
				return c.ret(intV(int64(n)))
			}
			n = min(n, src.sliceLen())
			if rs := c.x().race; rs != nil && n > 0 && esz > 0 {
				rs.access(c.g, src.obj(), src.off(), n*esz, false, false, readSite)
				rs.access(c.g, dst.obj(), dst.off(), n*esz, true, false, writeSite)
			}
			if n > 0 && dst.obj().shared && c.m().sharedMemory() && mayPublish(dt.elem) {
				c.m().publish(dt, src) // copied into shared memory
			}
			if n > 0 {
				copy(dst.obj().cells[dst.off():dst.off()+n*esz], src.obj().cells[src.off():src.off()+n*esz])
			}
			return c.ret(intV(int64(n)))
		}
	case "delete":
		kt := argType(1)
		what := m.prog.describeMap(pos, cc.Args[0])
		return func(c *icall) ctrl {
			mo := c.args[0].mapObj()
			if mo == nil {
				return c.ret(Value{})
			}
			if cc := c.g.mapAccess(mo, true, c.pos, what); cc != ctrlNext {
				return cc
			}
			if bad := mo.delete(kt, c.args[1]); bad != nil {
				return c.g.throwRuntime("hash of unhashable type %s", bad)
			}
			return c.ret(Value{})
		}
	case "close":
		what := sourceName(cc.Args[0])
		return func(c *icall) ctrl { return c.g.closeChan(c.args[0].chanObj(), c.pos, what) }
	case "clear":
		t := argType(0)
		return func(c *icall) ctrl {
			v := c.args[0]
			switch t.kind {
			case kMap:
				if mo := v.mapObj(); mo != nil {
					mo.clear()
				}
			case kSlice:
				if v.p != nil {
					clear(v.obj().cells[v.off() : v.off()+v.sliceLen()*t.elem.size])
				}
			}
			return c.ret(Value{})
		}
	case "print", "println":
		ln := b.Name() == "println"
		types := make([]*rtype, len(cc.Args))
		for i := range cc.Args {
			types[i] = argType(i)
		}
		return func(c *icall) ctrl {
			var sb strings.Builder
			for i, v := range c.args {
				if ln && i > 0 {
					sb.WriteByte(' ')
				}
				sb.WriteString(printBuiltin(types[i], v))
			}
			if ln {
				sb.WriteByte('\n')
			}
			c.x().writeOutput(c.g, true, sb.String())
			return c.ret(Value{})
		}
	case "recover":
		return func(c *icall) ctrl { return c.ret(c.g.recover(c.fr)) }
	case "real", "imag":
		isReal := b.Name() == "real"
		f32 := argType(0).kind == kComplex64
		return func(c *icall) ctrl {
			z := c.args[0].Complex()
			r := imag(z)
			if isReal {
				r = real(z)
			}
			if f32 {
				r = float64(float32(r))
			}
			return c.ret(floatV(r))
		}
	case "complex":
		c64 := m.rtypeOf(cc.Signature().Results().At(0).Type()).kind == kComplex64
		return func(c *icall) ctrl {
			z := complex(c.args[0].Float(), c.args[1].Float())
			if c64 {
				z = complex128(complex64(z))
			}
			return c.ret(complexV(z))
		}
	case "min", "max":
		t := argType(0)
		isMax := b.Name() == "max"
		return func(c *icall) ctrl { return c.ret(minMax(t, c.args, isMax)) }
	case "ssa:wrapnilchk":
		return func(c *icall) ctrl {
			if c.args[0].p == nil {
				// As the runtime's panicwrap prints it.
				recv, meth := c.args[1].Str(), c.args[2].Str()
				recv = recv[strings.LastIndex(recv, "/")+1:]
				return c.g.throwPlain(fmt.Sprintf("value method %s.%s called using nil *%s pointer", recv, meth, recv[strings.LastIndex(recv, ".")+1:]))
			}
			return c.ret(c.args[0])
		}
	case "ssa:deferstack":
		return func(c *icall) ctrl { return c.ret(deferStackV(c.fr)) }
	case "Sizeof", "Alignof":
		// constant-folded by the type checker, except for an operand whose
		// type has a type parameter (unsafe.Sizeof(k) for a key k K): in an
		// instantiated body the type is concrete, and the gc compiler's
		// sizes give the value
		t := cc.Args[0].Type()
		if types.IsInterface(t) || hasTypeParam(t) {
			break
		}
		n := hostSizes().Sizeof(t)
		if b.Name() == "Alignof" {
			n = hostSizes().Alignof(t)
		}
		return func(c *icall) ctrl { return c.ret(uintV(uint64(n))) }
	case "String":
		// unsafe.String(ptr *byte, len IntegerType) string
		return func(c *icall) ctrl {
			p, n := c.args[0], int(c.args[1].a)
			if n == 0 {
				return c.ret(Value{})
			}
			o := p.obj()
			if p.off()+n > len(o.cells) {
				return c.g.unsupported(c.pos, "unsafe.String beyond the pointed-to object")
			}
			bs := make([]byte, n)
			for i := range bs {
				bs[i] = byte(o.cells[p.off()+i].a)
			}
			return c.ret(strV(string(bs)))
		}
	case "StringData":
		return func(c *icall) ctrl {
			s := c.args[0].Str()
			if s == "" {
				return c.ret(Value{})
			}
			v := bytesToSlice([]byte(s))
			return c.ret(ptrV(v.obj(), 0))
		}
	case "Slice":
		et := m.rtypeOf(cc.Signature().Results().At(0).Type()).elem
		return func(c *icall) ctrl {
			p, n := c.args[0], int(c.args[1].a)
			if p.p == nil {
				return c.ret(Value{})
			}
			if p.off()+n*et.size > len(p.obj().cells) {
				return c.g.unsupported(c.pos, "unsafe.Slice beyond the pointed-to object")
			}
			return c.ret(sliceV(p.obj(), p.off(), n, n))
		}
	case "SliceData":
		return func(c *icall) ctrl {
			s := c.args[0]
			if s.p == nil {
				return c.ret(Value{})
			}
			return c.ret(ptrV(s.obj(), s.off()))
		}
	case "Add":
		stride, cells := m.unsafeAddStride(cc.Args[0])
		return func(c *icall) ctrl {
			p, n := c.args[0], int64(c.args[1].a)
			if n == 0 {
				return c.ret(p)
			}
			if p.p == nil || stride == 0 || n%stride != 0 {
				return c.g.unsupported(c.pos, "unsafe.Add (pointer arithmetic other than by whole elements of the pointer's element type)")
			}
			off := int64(p.off()) + n/stride*int64(cells)
			if off < 0 || off >= int64(len(p.obj().cells)) {
				return c.g.unsupported(c.pos, "unsafe.Add beyond the pointed-to object")
			}
			return c.ret(ptrV(p.obj(), int(off)))
		}
	}
	name := b.Name()
	return func(c *icall) ctrl { return c.g.unsupported(c.pos, "builtin %s", name) }
}

// hasTypeParam reports whether t mentions a type parameter.
func hasTypeParam(t types.Type) bool {
	switch t := t.(type) {
	case *types.TypeParam:
		return true
	case *types.Named:
		for i := range t.TypeArgs().Len() {
			if hasTypeParam(t.TypeArgs().At(i)) {
				return true
			}
		}
	case *types.Pointer:
		return hasTypeParam(t.Elem())
	case *types.Slice:
		return hasTypeParam(t.Elem())
	case *types.Array:
		return hasTypeParam(t.Elem())
	case *types.Map:
		return hasTypeParam(t.Key()) || hasTypeParam(t.Elem())
	case *types.Chan:
		return hasTypeParam(t.Elem())
	case *types.Struct:
		for i := range t.NumFields() {
			if hasTypeParam(t.Field(i).Type()) {
				return true
			}
		}
	}
	return false
}

// unsafeAddStride gives the element type's size in bytes and in cells
// when ptr, the first argument of unsafe.Add, converts a *T to
// unsafe.Pointer (unsafe.Add(unsafe.Pointer(&a[i]), k*unsafe.Sizeof(a[0])),
// the bounds-check-free indexing idiom); 0, 0 otherwise. unsafe.Add then
// moves the pointer by whole elements of T within its object, the only
// pointer arithmetic the cell memory can represent: an offset that is not
// a multiple of the size is unsupported.
func (m *machine) unsafeAddStride(ptr ssa.Value) (stride int64, cells int) {
	var from types.Type
	switch v := ptr.(type) {
	case *ssa.Convert:
		from = v.X.Type()
	case *ssa.ChangeType:
		from = v.X.Type()
	default:
		return 0, 0
	}
	pt, ok := from.Underlying().(*types.Pointer)
	if !ok {
		return 0, 0
	}
	stride = hostSizes().Sizeof(pt.Elem())
	if stride <= 0 {
		return 0, 0
	}
	return stride, m.rtypeOf(pt.Elem()).size
}

func (o *object) cellsFrom(off int) []Value { return o.cells[off:] }

func minMax(t *rtype, args []Value, isMax bool) Value {
	best := args[0]
	for _, v := range args[1:] {
		var less, greater bool
		switch {
		case t.kind.isSigned():
			less, greater = int64(v.a) < int64(best.a), int64(v.a) > int64(best.a)
		case t.kind.isInteger():
			less, greater = v.a < best.a, v.a > best.a
		case t.kind == kString:
			less, greater = v.Str() < best.Str(), v.Str() > best.Str()
		case t.kind.isFloat():
			x, y := v.Float(), best.Float()
			switch {
			case math.IsNaN(x) || math.IsNaN(y):
				return floatV(math.NaN())
			case x == 0 && y == 0:
				// min(-0, +0) = -0, max(-0, +0) = +0
				less = math.Signbit(x) && !math.Signbit(y)
				greater = !math.Signbit(x) && math.Signbit(y)
			default:
				less, greater = x < y, x > y
			}
		}
		if (isMax && greater) || (!isMax && less) {
			best = v
		}
	}
	return best
}

// printBuiltin formats a value as the print/println builtins do.
func printBuiltin(t *rtype, v Value) string {
	switch k := t.kind; {
	case k == kBool:
		return fmt.Sprint(v.Bool())
	case k.isSigned():
		return fmt.Sprint(v.Int())
	case k.isInteger():
		return fmt.Sprint(v.Uint())
	case k.isFloat():
		return fmt.Sprintf("%+e", v.Float())
	case k.isComplex():
		z := v.Complex()
		return fmt.Sprintf("(%+e%+ei)", real(z), imag(z))
	case k == kString:
		return v.Str()
	case k == kIface:
		if v.p == nil {
			return "(0x0,0x0)"
		}
		it := v.iface()
		return fmt.Sprintf("(%s) %s", it.t, printBuiltin(it.t, it.v))
	}
	if v.p == nil {
		return "0x0"
	}
	return fmt.Sprintf("%#x", uintptr(v.p)+uintptr(v.a))
}

// recover implements the recover builtin called from frame fr.
func (g *goroutine) recover(fr *frame) Value {
	p := g.panic
	if p == nil || p.goexit || p.recovered || !fr.isDefer || fr.deferPanic != p {
		return Value{}
	}
	p.recovered = true
	return p.val
}

// appendSites are the access sites of an append: the new elements, the
// old ones when they move, the appended ones.
func appendSites(c *compiler, e *ssa.Call, cc *ssa.CallCommon) [3]int32 {
	if !c.m.racesOn() {
		return [3]int32{}
	}
	pos := accessPos(e)
	return [3]int32{
		c.m.site(pos, "append to "+c.m.prog.describeValue(cc.Args[0])),
		c.m.site(pos, "read "+c.m.prog.describeValue(cc.Args[0])+" (append)"),
		c.m.site(pos, "read "+c.m.prog.describeValue(cc.Args[1])+" (append)"),
	}
}

// appendRace checks append(s, x...) for data races, as Go's race
// detector does: the appended elements of x are read, s's elements are
// read when they move to a new array, and the new elements are written
// (in s's array when it has room).
func appendRace(rs *raceState, g *goroutine, st *rtype, s, x Value, fromString bool, sites [3]int32) {
	n := x.sliceLen()
	if fromString {
		n = int(x.a)
	}
	esz := st.elem.size
	if n == 0 || esz == 0 {
		return
	}
	if !fromString {
		rs.access(g, x.obj(), x.off(), n*esz, false, false, sites[2])
	}
	l, cp := s.sliceLen(), s.sliceCap()
	switch {
	case l+n <= cp:
		rs.access(g, s.obj(), s.off()+l*esz, n*esz, true, false, sites[0])
	case l > 0:
		rs.access(g, s.obj(), s.off(), l*esz, false, false, sites[1])
	}
}
