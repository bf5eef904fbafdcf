package explore

import (
	"go/token"
	"go/types"
	"unsafe"

	"golang.org/x/tools/go/ssa"
)

func uintptrOf[T any](p *T) uintptr { return uintptr(unsafe.Pointer(p)) }

// loadValue reads a value of type t from cells starting at off.
func loadValue(t *rtype, o *object, off int) Value {
	if t.kind.isAggregate() {
		n := t.size
		if n == 0 {
			return t.zero
		}
		cp := newObject(n)
		copy(cp.cells, o.cells[off:off+n])
		return ptrV(cp, 0)
	}
	return o.cells[off]
}

// storeValue writes v (of type t) into cells starting at off.
func storeValue(t *rtype, o *object, off int, v Value) {
	if t.kind.isAggregate() {
		if n := t.size; n > 0 {
			copy(o.cells[off:off+n], v.obj().cells[v.off():v.off()+n])
		}
		return
	}
	o.cells[off] = v
}

// viewField returns field/element data of an aggregate view without
// copying: a scalar cell, or a narrower view.
func viewAt(t *rtype, v Value, off int) Value {
	if t.kind.isAggregate() {
		return ptrV(v.obj(), v.off()+off)
	}
	return v.obj().cells[v.off()+off]
}

func (c *compiler) alloc(e *ssa.Alloc) instrFn {
	d := c.def(e)
	t := c.m.rtypeOf(e.Type().(*types.Pointer).Elem())
	n := t.size
	return func(fr *frame) ctrl {
		o := &object{cells: make([]Value, n), id: fr.g.newID(), owner: fr.g.key}
		fr.regs[d] = ptrV(o, 0)
		return ctrlNext
	}
}

func (c *compiler) load(e *ssa.UnOp) instrFn {
	d, x := c.def(e), c.use(e.X)
	t := c.m.rtypeOf(e.Type())
	if c.m.sharedMemory() {
		return c.sharedAccess(e, x, false, func(fr *frame, o *object, off int) {
			fr.regs[d] = loadValue(t, o, off)
		})
	}
	if site, n := c.raceSite(e, e.X, t, false, ""); site >= 0 {
		return func(fr *frame) ctrl {
			r := fr.regs
			p := r[x]
			if p.p == nil {
				return fr.g.throwRuntime("invalid memory address or nil pointer dereference")
			}
			o := p.obj()
			if rs := fr.g.x.race; rs != nil {
				if n == 1 {
					rs.access1(fr.g, o, p.off(), false, site)
				} else {
					rs.access(fr.g, o, p.off(), n, false, false, site)
				}
			}
			r[d] = loadValue(t, o, p.off())
			return ctrlNext
		}
	}
	if !t.kind.isAggregate() {
		return func(fr *frame) ctrl {
			r := fr.regs
			p := r[x]
			if p.p == nil {
				return fr.g.throwRuntime("invalid memory address or nil pointer dereference")
			}
			r[d] = (*object)(p.p).cells[p.a]
			return ctrlNext
		}
	}
	return func(fr *frame) ctrl {
		r := fr.regs
		p := r[x]
		if p.p == nil {
			return fr.g.throwRuntime("invalid memory address or nil pointer dereference")
		}
		r[d] = loadValue(t, p.obj(), p.off())
		return ctrlNext
	}
}

func (c *compiler) store(e *ssa.Store) instrFn {
	a, v := c.use(e.Addr), c.use(e.Val)
	t := c.m.rtypeOf(e.Val.Type())
	if c.m.sharedMemory() {
		return c.sharedAccess(e, a, true, func(fr *frame, o *object, off int) {
			storeValue(t, o, off, fr.regs[v])
		})
	}
	if site, n := c.raceSite(e, e.Addr, t, true, ""); site >= 0 {
		return func(fr *frame) ctrl {
			r := fr.regs
			p := r[a]
			if p.p == nil {
				return fr.g.throwRuntime("invalid memory address or nil pointer dereference")
			}
			o := p.obj()
			if rs := fr.g.x.race; rs != nil {
				if n == 1 {
					rs.access1(fr.g, o, p.off(), true, site)
				} else {
					rs.access(fr.g, o, p.off(), n, true, false, site)
				}
			}
			storeValue(t, o, p.off(), r[v])
			return ctrlNext
		}
	}
	if !t.kind.isAggregate() {
		return func(fr *frame) ctrl {
			r := fr.regs
			p := r[a]
			if p.p == nil {
				return fr.g.throwRuntime("invalid memory address or nil pointer dereference")
			}
			(*object)(p.p).cells[p.a] = r[v]
			return ctrlNext
		}
	}
	return func(fr *frame) ctrl {
		r := fr.regs
		p := r[a]
		if p.p == nil {
			return fr.g.throwRuntime("invalid memory address or nil pointer dereference")
		}
		storeValue(t, p.obj(), p.off(), r[v])
		return ctrlNext
	}
}

// raceSite returns the access site of a load or store the race detector
// checks, and the number of cells it covers; site -1 when it needs no
// check: race detection is off, the value has no cells, or the address
// is a local variable of the frame (an Alloc the SSA builder did not put
// on the heap: no other goroutine can reach it). label is the access's
// label (Program.accessLabel), computed here if "" and needed: finding a
// label reads the package's syntax.
func (c *compiler) raceSite(ins ssa.Instruction, addr ssa.Value, t *rtype, write bool, label string) (int32, int) {
	n := 1
	if t.kind.isAggregate() {
		n = t.size
	}
	if !c.m.racesOn() || n == 0 || frameLocal(addr) {
		return -1, 0
	}
	if label == "" {
		label = c.m.prog.accessLabel(addr, write)
	}
	return c.m.site(accessPos(ins), label), n
}

// frameLocal reports whether addr is (a part of) a variable that lives in
// its function's frame.
func frameLocal(addr ssa.Value) bool {
	for {
		switch a := addr.(type) {
		case *ssa.Alloc:
			return !a.Heap
		case *ssa.FieldAddr:
			addr = a.X
		case *ssa.IndexAddr:
			if _, ok := a.X.Type().Underlying().(*types.Pointer); !ok {
				return false // a slice element
			}
			addr = a.X
		default:
			return false
		}
	}
}

// accessPos is where an access happens: the instruction's position, or
// the nearest earlier one of its block (implicit loads have none).
func accessPos(ins ssa.Instruction) token.Pos {
	if p := ins.Pos(); p.IsValid() {
		return p
	}
	if b := ins.Block(); b != nil {
		var last token.Pos
		for _, i := range b.Instrs {
			if i == ins {
				break
			}
			if p := i.Pos(); p.IsValid() {
				last = p
			}
		}
		if last.IsValid() {
			return last
		}
	}
	if v, ok := ins.(ssa.Value); ok {
		if op, ok := v.(*ssa.UnOp); ok && op.X.Pos().IsValid() {
			return op.X.Pos()
		}
	}
	if fn := ins.Parent(); fn != nil {
		return fn.Pos()
	}
	return token.NoPos
}

func (c *compiler) fieldAddr(e *ssa.FieldAddr) instrFn {
	d, x := c.def(e), c.use(e.X)
	st := c.m.rtypeOf(e.X.Type().Underlying().(*types.Pointer).Elem())
	off := uint64(st.fields[e.Field].off)
	return func(fr *frame) ctrl {
		r := fr.regs
		p := r[x]
		if p.p == nil {
			return fr.g.throwRuntime("invalid memory address or nil pointer dereference")
		}
		r[d] = Value{p: p.p, a: p.a + off}
		return ctrlNext
	}
}

func (c *compiler) field(e *ssa.Field) instrFn {
	d, x := c.def(e), c.use(e.X)
	st := c.m.rtypeOf(e.X.Type())
	f := st.fields[e.Field]
	off, ft := f.off, f.t
	if ft.kind.isAggregate() {
		return func(fr *frame) ctrl {
			r := fr.regs
			v := r[x]
			r[d] = ptrV(v.obj(), v.off()+off)
			return ctrlNext
		}
	}
	return func(fr *frame) ctrl {
		r := fr.regs
		v := r[x]
		r[d] = v.obj().cells[v.off()+off]
		return ctrlNext
	}
}

func (c *compiler) indexAddr(e *ssa.IndexAddr) instrFn {
	d, x, i := c.def(e), c.use(e.X), c.use(e.Index)
	xt := c.m.rtypeOf(e.X.Type())
	signed := c.m.rtypeOf(e.Index.Type()).kind.isSigned()
	if xt.kind == kSlice {
		esz := uint64(xt.elem.size)
		return func(fr *frame) ctrl {
			r := fr.regs
			s := r[x]
			idx := r[i].a
			n := uint64(uint32(s.b))
			if idx >= n {
				return fr.g.throwIndex(idx, signed, int(n))
			}
			r[d] = Value{p: s.p, a: s.a + idx*esz}
			return ctrlNext
		}
	}
	// pointer to array
	at := xt.elem
	esz, n := uint64(at.elem.size), uint64(at.len)
	return func(fr *frame) ctrl {
		r := fr.regs
		p := r[x]
		idx := r[i].a
		if p.p == nil {
			return fr.g.throwRuntime("invalid memory address or nil pointer dereference")
		}
		if idx >= n {
			return fr.g.throwIndex(idx, signed, int(n))
		}
		r[d] = Value{p: p.p, a: p.a + idx*esz}
		return ctrlNext
	}
}

// throwIndex panics with Go's index-out-of-range message.
func (g *goroutine) throwIndex(idx uint64, signed bool, n int) ctrl {
	if signed && int64(idx) < 0 {
		return g.throwRuntime("index out of range [%d]", int64(idx))
	}
	return g.throwRuntime("index out of range [%d] with length %d", idx, n)
}

func (c *compiler) index(e *ssa.Index) instrFn {
	d, x, i := c.def(e), c.use(e.X), c.use(e.Index)
	xt := c.m.rtypeOf(e.X.Type())
	signed := c.m.rtypeOf(e.Index.Type()).kind.isSigned()
	switch xt.kind {
	case kString:
		return stringIndex(d, x, i, signed)
	case kArray:
		et, n := xt.elem, uint64(xt.len)
		esz := et.size
		return func(fr *frame) ctrl {
			r := fr.regs
			idx := r[i].a
			if idx >= n {
				return fr.g.throwIndex(idx, signed, int(n))
			}
			r[d] = viewAt(et, r[x], int(idx)*esz)
			return ctrlNext
		}
	}
	unsupportedf("index of %s", xt)
	return nil
}

// stringIndex compiles s[i] on a string.
func stringIndex(d, x, i int, signed bool) instrFn {
	return func(fr *frame) ctrl {
		r := fr.regs
		s := r[x].Str()
		idx := r[i].a
		if idx >= uint64(len(s)) {
			return fr.g.throwIndex(idx, signed, len(s))
		}
		r[d] = Value{a: uint64(s[idx])}
		return ctrlNext
	}
}

func (c *compiler) makeSlice(e *ssa.MakeSlice) instrFn {
	d, l, k := c.def(e), c.use(e.Len), c.use(e.Cap)
	t := c.m.rtypeOf(e.Type())
	esz := t.elem.size
	lsigned := c.m.rtypeOf(e.Len.Type()).kind.isSigned()
	return func(fr *frame) ctrl {
		r := fr.regs
		n, cp := r[l].a, r[k].a
		if lsigned && int64(n) < 0 || n > 1<<31 {
			return fr.g.throwRuntime("makeslice: len out of range")
		}
		if lsigned && int64(cp) < 0 || cp > 1<<31 || cp < n {
			return fr.g.throwRuntime("makeslice: cap out of range")
		}
		o := &object{cells: make([]Value, int(cp)*esz), id: fr.g.newID(), owner: fr.g.key}
		r[d] = sliceV(o, 0, int(n), int(cp))
		return ctrlNext
	}
}

func (c *compiler) slice(e *ssa.Slice) instrFn {
	d, x := c.def(e), c.use(e.X)
	lo, hi, mx := -1, -1, -1
	if e.Low != nil {
		lo = c.use(e.Low)
	}
	if e.High != nil {
		hi = c.use(e.High)
	}
	if e.Max != nil {
		mx = c.use(e.Max)
	}
	xt := c.m.rtypeOf(e.X.Type())
	get := func(r []Value, s int, def int) int {
		if s < 0 {
			return def
		}
		v := int64(r[s].a)
		if v > 1<<40 || v < -(1<<40) {
			return -1
		}
		return int(v)
	}
	switch xt.kind {
	case kString:
		return func(fr *frame) ctrl {
			r := fr.regs
			s := r[x].Str()
			l, h := get(r, lo, 0), get(r, hi, len(s))
			if h < 0 || h > len(s) {
				return fr.g.throwRuntime("slice bounds out of range [:%d] with length %d", h, len(s))
			}
			if l < 0 || l > h {
				return fr.g.throwRuntime("slice bounds out of range [%d:%d]", l, h)
			}
			r[d] = strV(s[l:h])
			return ctrlNext
		}
	case kSlice:
		esz := xt.elem.size
		return func(fr *frame) ctrl {
			r := fr.regs
			s := r[x]
			cp := s.sliceCap()
			l, h, m := get(r, lo, 0), get(r, hi, s.sliceLen()), get(r, mx, cp)
			if cc := checkSlice(fr.g, l, h, m, cp, mx >= 0); cc != ctrlNext {
				return cc
			}
			if s.p == nil {
				r[d] = Value{}
				return ctrlNext
			}
			r[d] = sliceV(s.obj(), s.off()+l*esz, h-l, m-l)
			return ctrlNext
		}
	case kPtr:
		at := xt.elem
		esz, n := at.elem.size, at.len
		return func(fr *frame) ctrl {
			r := fr.regs
			p := r[x]
			if p.p == nil {
				return fr.g.throwRuntime("invalid memory address or nil pointer dereference")
			}
			l, h, m := get(r, lo, 0), get(r, hi, n), get(r, mx, n)
			if cc := checkSlice(fr.g, l, h, m, n, mx >= 0); cc != ctrlNext {
				return cc
			}
			r[d] = sliceV(p.obj(), p.off()+l*esz, h-l, m-l)
			return ctrlNext
		}
	}
	unsupportedf("slice of %s", xt)
	return nil
}

func checkSlice(g *goroutine, l, h, m, cp int, three bool) ctrl {
	if three {
		if m < 0 || m > cp {
			return g.throwRuntime("slice bounds out of range [::%d] with capacity %d", m, cp)
		}
		if h < 0 || h > m {
			return g.throwRuntime("slice bounds out of range [:%d:%d]", h, m)
		}
		if l < 0 || l > h {
			return g.throwRuntime("slice bounds out of range [%d:%d:]", l, h)
		}
		return ctrlNext
	}
	if h < 0 || h > cp {
		return g.throwRuntime("slice bounds out of range [:%d] with capacity %d", h, cp)
	}
	if l < 0 || l > h {
		return g.throwRuntime("slice bounds out of range [%d:%d]", l, h)
	}
	return ctrlNext
}

// equal compares two values of type t. It returns the uncomparable type
// if the comparison panics.
func equal(t *rtype, x, y Value) (bool, *rtype) {
	switch t.kind {
	case kString:
		return x.Str() == y.Str(), nil
	case kFloat32, kFloat64:
		return x.Float() == y.Float(), nil
	case kComplex64, kComplex128:
		return x.Complex() == y.Complex(), nil
	case kIface:
		if x.p == nil || y.p == nil {
			return x.p == y.p, nil
		}
		xi, yi := x.iface(), y.iface()
		if xi.t != yi.t {
			return false, nil
		}
		if !xi.t.comparable {
			return false, xi.t
		}
		return equal(xi.t, xi.v, yi.v)
	case kStruct:
		for _, f := range t.fields {
			eq, bad := equal(f.t, viewAt(f.t, x, f.off), viewAt(f.t, y, f.off))
			if bad != nil || !eq {
				return eq, bad
			}
		}
		return true, nil
	case kArray:
		es := t.elem.size
		for i := range t.len {
			eq, bad := equal(t.elem, viewAt(t.elem, x, i*es), viewAt(t.elem, y, i*es))
			if bad != nil || !eq {
				return eq, bad
			}
		}
		return true, nil
	case kSlice, kMap, kFunc:
		// only comparable to nil
		return x.p == y.p, nil
	}
	return x.p == y.p && x.a == y.a, nil
}

// sharedAccess compiles a load or store that, with Options.Shared, is a
// scheduling point when it touches shared memory (globals, heap
// allocations escaping their function).
func (c *compiler) sharedAccess(ins ssa.Instruction, addr int, write bool, do func(fr *frame, o *object, off int)) instrFn {
	pos := ins.Pos()
	var a ssa.Value
	switch ins := ins.(type) {
	case *ssa.UnOp:
		a = ins.X
	case *ssa.Store:
		a = ins.Addr
	}
	label := c.m.prog.accessLabel(a, write)
	rt := c.m.rtypeOf(a.Type().Underlying().(*types.Pointer).Elem())
	site, n := c.raceSite(ins, a, rt, write, label)
	var publish func(fr *frame)
	if st, ok := ins.(*ssa.Store); ok {
		vt := c.m.rtypeOf(st.Val.Type())
		v := c.use(st.Val)
		if mayPublish(vt) {
			publish = func(fr *frame) { fr.g.x.m.publish(vt, fr.regs[v]) }
		}
	}
	return func(fr *frame) ctrl {
		p := fr.regs[addr]
		if p.p == nil {
			return fr.g.throwRuntime("invalid memory address or nil pointer dereference")
		}
		o := p.obj()
		g := fr.g
		if !o.shared && o.owner != 0 && o.owner != g.key {
			// another goroutine reached it (through memory that was
			// not tracked as published)
			o.shared = true
		}
		if o.shared {
			if !g.granted {
				g.pend = pendingOp{kind: opShared, obj: o, off: p.off(), write: write, pos: pos, label: label}
				return ctrlYield
			}
			g.granted = false
			if publish != nil {
				publish(fr)
			}
		}
		if rs := g.x.race; rs != nil && site >= 0 {
			rs.access(g, o, p.off(), n, write, false, site)
		}
		do(fr, o, p.off())
		return ctrlNext
	}
}

// mayPublish reports whether values of type t can carry references to
// memory.
func mayPublish(t *rtype) bool {
	switch t.kind {
	case kPtr, kUnsafePointer, kSlice, kIface, kFunc, kMap:
		return true
	case kStruct:
		for _, f := range t.fields {
			if mayPublish(f.t) {
				return true
			}
		}
	case kArray:
		return mayPublish(t.elem)
	}
	return false
}

// publish marks the memory v (of type t) refers to as shared, and all
// the memory reachable from it: another goroutine can reach it now (v was
// passed to a go statement, sent on a channel, stored into shared
// memory…). Memory is walked by its static type. An object reached as a
// whole is walked once (object.walked); from then on every pointer
// stored into it is published when stored. A part of an object (a field,
// a subslice) is walked each time it is published: another goroutine
// cannot reach the rest of the object from it.
func (m *machine) publish(t *rtype, v Value) {
	var seen map[objKey]bool
	m.publishValue(t, v, &seen)
}

func (m *machine) publishValue(t *rtype, v Value, seen *map[objKey]bool) {
	if t.opaque {
		return
	}
	switch t.kind {
	case kPtr:
		if v.p != nil && t.elem != nil {
			m.publishMem(v.obj(), v.off(), t.elem, 1, seen)
		}
	case kUnsafePointer:
		if v.p != nil {
			v.obj().shared = true // of unknown type: not walked
		}
	case kSlice:
		if v.p != nil {
			m.publishMem(v.obj(), v.off(), t.elem, v.sliceCap(), seen)
		}
	case kMap:
		if mo := v.mapObj(); mo != nil && !mo.shared {
			mo.shared = true
			if mayPublish(mo.kt) || mayPublish(mo.vt) {
				mo.each(func(k, val Value) bool {
					m.publishValue(mo.kt, k, seen)
					m.publishValue(mo.vt, val, seen)
					return true
				})
			}
		}
	case kIface:
		if v.p != nil {
			it := v.iface()
			m.publishValue(it.t, it.v, seen)
		}
	case kFunc:
		if cl := v.closure(); cl != nil && cl.fn.fn != nil {
			for i, fv := range cl.fn.fn.FreeVars {
				if i < len(cl.env) {
					m.publishValue(m.rtypeOf(fv.Type()), cl.env[i], seen)
				}
			}
		}
	case kStruct:
		for _, f := range t.fields {
			if mayPublish(f.t) {
				m.publishValue(f.t, viewAt(f.t, v, f.off), seen)
			}
		}
	case kArray:
		if mayPublish(t.elem) {
			for i := range t.len {
				m.publishValue(t.elem, viewAt(t.elem, v, i*t.elem.size), seen)
			}
		}
	}
}

// publishFunc publishes a function value (with Options.Shared): the
// variables it captured become reachable by another goroutine.
func (x *execution) publishFunc(v Value) {
	if x.m.sharedMemory() {
		x.m.publish(&rtype{kind: kFunc}, v)
	}
}

// publishAny publishes an interface value (with Options.Shared).
func (x *execution) publishAny(v Value) {
	if x.m.sharedMemory() {
		x.m.publish(x.m.emptyIface, v)
	}
}

// publishMem publishes n consecutive values of type et in o from cell
// off.
func (m *machine) publishMem(o *object, off int, et *rtype, n int, seen *map[objKey]bool) {
	o.shared = true
	if !mayPublish(et) || et.size == 0 {
		return
	}
	if off == 0 && n*et.size == len(o.cells) {
		if o.walked {
			return
		}
		o.walked = true
	} else {
		k := objKeyOf(o, off)
		if (*seen)[k] {
			return
		}
		if *seen == nil {
			*seen = map[objKey]bool{}
		}
		(*seen)[k] = true
	}
	base := ptrV(o, 0)
	for i := 0; i < n && off+(i+1)*et.size <= len(o.cells); i++ {
		m.publishValue(et, viewAt(et, base, off+i*et.size), seen)
	}
}

// sourceName returns the source-level name of a value when it has one
// (a parameter, a captured or named variable, a field), or "".
func sourceName(v ssa.Value) string {
	switch v := v.(type) {
	case *ssa.Parameter:
		return v.Name()
	case *ssa.FreeVar:
		return v.Name()
	case *ssa.UnOp:
		if v.Op != token.MUL {
			return ""
		}
		switch a := v.X.(type) {
		case *ssa.Global, *ssa.FreeVar:
			return namedAddr(a)
		case *ssa.Alloc:
			return a.Comment
		case *ssa.FieldAddr:
			if base := sourceName(a.X); base != "" || isNamedAddr(a.X) {
				return namedAddr(a)
			}
		}
	case *ssa.Field:
		if base := sourceName(v.X); base != "" {
			st := v.X.Type().Underlying().(*types.Struct)
			return base + "." + st.Field(v.Field).Name()
		}
	}
	return ""
}

func isNamedAddr(v ssa.Value) bool {
	switch v := v.(type) {
	case *ssa.Global, *ssa.FreeVar, *ssa.Parameter:
		return true
	case *ssa.Alloc:
		return v.Comment != ""
	case *ssa.FieldAddr:
		return isNamedAddr(v.X)
	}
	return false
}

// namedAddr names an address operand that isNamedAddr (Program.describeAddr
// names any).
func namedAddr(v ssa.Value) string {
	switch v := v.(type) {
	case *ssa.Global:
		return v.Pkg.Pkg.Name() + "." + v.Name()
	case *ssa.FieldAddr:
		st := v.X.Type().Underlying().(*types.Pointer).Elem().Underlying().(*types.Struct)
		base := namedAddr(v.X)
		if p, ok := v.X.(*ssa.Parameter); ok {
			base = p.Name()
		}
		return base + "." + st.Field(v.Field).Name()
	case *ssa.IndexAddr:
		return namedAddr(v.X) + "[i]"
	case *ssa.Alloc:
		if v.Comment != "" {
			return v.Comment
		}
	case *ssa.FreeVar:
		return v.Name() // a captured variable
	case *ssa.UnOp:
		if v.Op == token.MUL && isNamedAddr(v.X) {
			return "*" + namedAddr(v.X) // through a pointer variable
		}
	case *ssa.Parameter:
		return "*" + v.Name()
	case nil:
		return "memory"
	}
	return "*" + v.Name()
}
