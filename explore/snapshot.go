package explore

import (
	"fmt"
	"go/types"
)

// Package initialization snapshots.
//
// Executions are stateless: each starts from zeroed package variables and
// runs the package initializers, which for programs importing time,
// context, strings… costs more than a small test body. So the first
// execution copies the memory reachable from package variables right after
// initialization (a typed deep copy), and later executions of the same
// machine restore a fresh copy instead of running the initializers again.
//
// A snapshot is taken only when initialization was a plain sequential
// computation: a single goroutine, no timers, no clock change, no model
// state in side tables (sync.Map, strings.Builder…), no per-execution
// model state that cannot be copied (modelState.snapshot: unique.Make's
// table, %p addresses, open files), no unsafe.Pointer or modelled std
// object reachable from a package variable, and no observer event during
// initialization. The per-execution model states that can be copied (the
// math/rand generator, the standard logger) are carried by the snapshot.
// Initialization is invisible in traces either way (its steps are not
// recorded), so executions with and without the snapshot are the same.
// The package variables themselves are not copied: a pointer to one
// (time.Local is &time.localLoc) still points to it after a restore,
// which writes the saved contents into the variables in place.

type snapshot struct {
	vars   []snapVar
	objs   []*object     // template objects (object.snap = index+1)
	ranges [][]snapRange // per template object: the typed ranges holding references
	cells  int           // total cells of the template objects
	allocs uint64        // the entry goroutine's allocation count
	// vc is the entry goroutine's race detector clock: initialization's
	// synchronization advanced it, and the epochs of later accesses (which
	// a replay completing a race report matches, race.go) count from it.
	vc     vclock
	nchans int
	models [numSlots]modelState // copies of the models' states (nil: none)
	output string
}

// snapVar is the saved content of one package variable.
type snapVar struct {
	o     *object
	t     *rtype
	cells []Value
}

type snapRange struct {
	off int
	t   *rtype
}

// snapshotBlocker names what prevents a snapshot of the state after
// initialization, "" if nothing does (the models' per-execution states
// are checked by takeSnapshotWhy, which copies them).
func (x *execution) snapshotBlocker(g *goroutine, sideBefore int) string {
	switch {
	case x.initEvents:
		return "observer events during initialization"
	case len(x.gs) != 1:
		return "goroutines started by initialization"
	case len(x.timers) != 0:
		return "timers set by initialization"
	case x.clock != epoch || x.advances != 0:
		return "the clock advanced during initialization"
	case len(x.side) != sideBefore:
		return "model state in side tables"
	case len(x.path) != 0:
		return "choices during initialization"
	case x.stopped:
		return "initialization stopped"
	case g.panic != nil:
		return "initialization panicked"
	}
	return ""
}

// takeSnapshotWhy copies the memory reachable from package variables into
// a template; without a snapshot, it says what prevented it.
func (x *execution) takeSnapshotWhy(g *goroutine) (*snapshot, string) {
	m := x.m
	c := newCopier(m, x.sideObjects())
	c.ranges = map[*object][]snapRange{}
	c.keep = map[*object]bool{}
	for _, o := range m.globals {
		c.keep[o] = true
	}
	s := &snapshot{allocs: g.allocs, nchans: x.nchans, output: x.out.String(), vc: append(vclock(nil), g.vc...)}
	for i, st := range x.models {
		if st == nil {
			continue
		}
		cp, ok := st.snapshot()
		if !ok {
			return nil, fmt.Sprintf("model state %T", st)
		}
		s.models[i] = cp
	}
	for _, gl := range m.globalList {
		o := m.globals[gl]
		if m.isModelled(o) || allZero(o.cells) {
			continue
		}
		t := m.rtypeOf(gl.Type().(*types.Pointer).Elem())
		s.vars = append(s.vars, snapVar{o: o, t: t, cells: c.cells(t, o.cells)})
		if c.bad {
			return nil, fmt.Sprintf("%s reaches %s", gl, c.why)
		}
	}
	for _, cp := range c.order {
		s.objs = append(s.objs, cp)
		s.ranges = append(s.ranges, c.ranges[cp])
		cp.snap = int32(len(s.objs))
		s.cells += len(cp.cells)
	}
	return s, ""
}

func allZero(cells []Value) bool {
	for _, v := range cells {
		if v != (Value{}) {
			return false
		}
	}
	return true
}

// restore installs a fresh copy of the snapshot into the machine's
// package variables: every template object is copied once (one
// allocation for all cells), then references are redirected to the copies.
func (s *snapshot) restore(x *execution, g *goroutine) {
	r := &restorer{m: x.m, copies: make([]*object, len(s.objs))}
	objs := make([]object, len(s.objs))
	cells := make([]Value, s.cells)
	for i, t := range s.objs {
		o := &objs[i]
		o.cells, cells = cells[:len(t.cells):len(t.cells)], cells[len(t.cells):]
		copy(o.cells, t.cells)
		o.shared, o.owner, o.id = t.shared, t.owner, t.id
		r.copies[i] = o
	}
	for i, t := range s.objs {
		for _, rg := range s.ranges[i] {
			r.fix(rg.t, t.cells, r.copies[i].cells, rg.off)
		}
	}
	for _, v := range s.vars {
		copy(v.o.cells, v.cells)
		r.fix(v.t, v.cells, v.o.cells, 0)
	}
	g.allocs = s.allocs
	if len(s.vc) > g.id {
		g.vc = append(g.vc[:0], s.vc...)
		g.setEpoch()
	}
	x.nchans = s.nchans
	for i, st := range s.models {
		if st != nil {
			x.models[i], _ = st.snapshot()
		}
	}
	x.out.WriteString(s.output)
}

// restorer redirects references of a template copy to the copies.
type restorer struct {
	m        *machine
	copies   []*object
	maps     map[*mapObject]*mapObject
	chans    map[*chanObject]*chanObject
	closures map[*closure]*closure
}

func (r *restorer) fix(t *rtype, src, dst []Value, off int) {
	eachLeaf(t, off, func(t *rtype, off int) { dst[off] = r.value(t, src[off]) })
}

// eachLeaf calls f for every scalar leaf of a value of type t stored at
// cell offset off.
func eachLeaf(t *rtype, off int, f func(t *rtype, off int)) {
	switch t.kind {
	case kStruct:
		for _, fl := range t.fields {
			eachLeaf(fl.t, off+fl.off, f)
		}
	case kArray:
		for i := range t.len {
			eachLeaf(t.elem, off+i*t.elem.size, f)
		}
	default:
		f(t, off)
	}
}

func (r *restorer) value(t *rtype, v Value) Value {
	if v.p == nil || t.opaque {
		return v
	}
	switch t.kind {
	case kPtr, kSlice, kStruct, kArray:
		if n := v.obj().snap; n > 0 {
			v.p = ptrOf(r.copies[n-1])
		}
		return v
	case kIface:
		it := v.iface()
		if nv := r.value(it.t, it.v); nv != it.v {
			return ifaceV(it.t, nv)
		}
		return v
	case kMap:
		mo := v.mapObj()
		if cp, ok := r.maps[mo]; ok {
			return mapV(cp)
		}
		cp := newMap(mo.kt, mo.vt)
		cp.id, cp.owner, cp.shared = mo.id, mo.owner, mo.shared
		if r.maps == nil {
			r.maps = map[*mapObject]*mapObject{}
		}
		r.maps[mo] = cp
		mo.each(func(k, e Value) bool {
			cp.set(r.value(mo.kt, k), r.value(mo.vt, e))
			return true
		})
		return mapV(cp)
	case kChan:
		ch := v.chanObj()
		if cp, ok := r.chans[ch]; ok {
			return chanV(cp)
		}
		cp := *ch
		cp.buf = make([]Value, len(ch.buf))
		for i, e := range ch.buf {
			cp.buf[i] = r.value(ch.elem, e)
		}
		if r.chans == nil {
			r.chans = map[*chanObject]*chanObject{}
		}
		r.chans[ch] = &cp
		return chanV(&cp)
	case kFunc:
		cl := v.closure()
		if len(cl.env) == 0 || cl.fn.fn == nil {
			return v
		}
		if cp, ok := r.closures[cl]; ok {
			return funcV(cp)
		}
		cp := &closure{fn: cl.fn, env: make([]Value, len(cl.env))}
		if r.closures == nil {
			r.closures = map[*closure]*closure{}
		}
		r.closures[cl] = cp
		for i, fv := range cl.fn.fn.FreeVars {
			if i < len(cl.env) {
				cp.env[i] = r.value(r.m.rtypeOf(fv.Type()), cl.env[i])
			}
		}
		return funcV(cp)
	}
	return v
}

// sideObjects are the objects that have model state in side tables.
func (x *execution) sideObjects() map[*object]bool {
	set := map[*object]bool{}
	for k := range x.side {
		set[(*object)(k.p)] = true
	}
	return set
}

func (m *machine) isModelled(o *object) bool {
	for _, mg := range m.modelled {
		if mg.o == o {
			return true
		}
	}
	return false
}

// copier deep-copies interpreter values by their static types,
// preserving sharing and interior pointers.
type copier struct {
	m        *machine
	objs     map[*object]*object
	done     map[copyRange]bool
	maps     map[*mapObject]*mapObject
	chans    map[*chanObject]*chanObject
	closures map[*closure]*closure
	avoid    map[*object]bool // objects that must not be reachable
	// keep are the objects that are not copied: references to them stay
	// references to them. A snapshot keeps the package variables, whose
	// identity the program may compare (time.Local == &time.localLoc):
	// restore writes their contents in place.
	keep map[*object]bool
	bad  bool   // something could not be copied
	why  string // what, if bad
	// order lists the copies in creation order, ranges the typed ranges
	// fixed in each (for snapshot templates).
	order  []*object
	ranges map[*object][]snapRange
}

type copyRange struct {
	o   *object
	off int
	t   *rtype
}

func newCopier(m *machine, avoid map[*object]bool) *copier {
	return &copier{m: m, objs: map[*object]*object{}, done: map[copyRange]bool{},
		maps: map[*mapObject]*mapObject{}, chans: map[*chanObject]*chanObject{},
		closures: map[*closure]*closure{}, avoid: avoid}
}

// cells copies a block of cells holding a value of type t.
func (c *copier) cells(t *rtype, src []Value) []Value {
	dst := make([]Value, len(src))
	copy(dst, src)
	c.fix(t, src, dst, 0)
	return dst
}

// fix replaces the references in dst[off:off+t.size] (a copy of src) by
// copies.
func (c *copier) fix(t *rtype, src, dst []Value, off int) {
	eachLeaf(t, off, func(t *rtype, off int) { dst[off] = c.value(t, src[off]) })
}

// object returns the copy of o, copying its cells on first use, and
// fixes the range [off, off+n·t.size) as values of type t.
func (c *copier) object(o *object, off int, t *rtype, n int) *object {
	if c.avoid[o] && !c.bad {
		c.bad, c.why = true, "an object with model state in a side table"
	}
	if c.keep[o] {
		return o
	}
	cp, ok := c.objs[o]
	if !ok {
		cp = &object{cells: make([]Value, len(o.cells)), shared: o.shared, walked: o.walked, owner: o.owner, id: o.id}
		copy(cp.cells, o.cells)
		c.objs[o] = cp
		c.order = append(c.order, cp)
	}
	for i := range n {
		start := off + i*t.size
		r := copyRange{o, start, t}
		if c.done[r] || start+t.size > len(o.cells) {
			continue
		}
		c.done[r] = true
		if c.ranges != nil {
			c.ranges[cp] = append(c.ranges[cp], snapRange{start, t})
		}
		c.fix(t, o.cells, cp.cells, start)
	}
	return cp
}

// value copies one scalar, reference or interface value of type t.
func (c *copier) value(t *rtype, v Value) Value {
	if v.p == nil || t.opaque {
		return v
	}
	switch t.kind {
	case kPtr:
		if t.elem.size == 0 {
			return v
		}
		return Value{p: ptrOf(c.object(v.obj(), v.off(), t.elem, 1)), a: v.a}
	case kSlice:
		if t.elem.size == 0 {
			return v
		}
		o := c.object(v.obj(), v.off(), t.elem, v.sliceCap())
		return Value{p: ptrOf(o), a: v.a, b: v.b}
	case kIface:
		it := v.iface()
		nv := c.value(it.t, it.v)
		if nv == it.v {
			return v
		}
		return ifaceV(it.t, nv)
	case kMap:
		return mapV(c.mapObject(v.mapObj()))
	case kChan:
		return chanV(c.chanObject(v.chanObj()))
	case kFunc:
		return funcV(c.closure(v.closure()))
	case kStruct, kArray:
		// an aggregate view (inside interfaces, maps, channel buffers)
		o := c.object(v.obj(), v.off(), t, 1)
		return Value{p: ptrOf(o), a: v.a}
	case kUnsafePointer:
		if !c.bad {
			c.bad, c.why = true, "an unsafe.Pointer"
		}
	}
	return v // strings and scalars
}

func (c *copier) mapObject(mo *mapObject) *mapObject {
	if cp, ok := c.maps[mo]; ok {
		return cp
	}
	cp := newMap(mo.kt, mo.vt)
	cp.id, cp.owner, cp.shared = mo.id, mo.owner, mo.shared
	c.maps[mo] = cp
	mo.each(func(k, v Value) bool {
		cp.set(c.value(mo.kt, k), c.value(mo.vt, v))
		return true
	})
	return cp
}

func (c *copier) chanObject(ch *chanObject) *chanObject {
	if cp, ok := c.chans[ch]; ok {
		return cp
	}
	cp := *ch
	cp.buf = make([]Value, len(ch.buf))
	for i, v := range ch.buf {
		cp.buf[i] = c.value(ch.elem, v)
	}
	c.chans[ch] = &cp
	return &cp
}

func (c *copier) closure(cl *closure) *closure {
	if cp, ok := c.closures[cl]; ok {
		return cp
	}
	if len(cl.env) == 0 || cl.fn.fn == nil {
		return cl
	}
	cp := &closure{fn: cl.fn, env: make([]Value, len(cl.env))}
	c.closures[cl] = cp
	for i, fv := range cl.fn.fn.FreeVars {
		if i < len(cl.env) {
			cp.env[i] = c.value(c.m.rtypeOf(fv.Type()), cl.env[i])
		}
	}
	return cp
}
