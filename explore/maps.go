package explore

import (
	"fmt"
	"go/token"
	"slices"
	"strconv"
	"unicode/utf8"
	"unsafe"

	"golang.org/x/tools/go/ssa"
)

// mapObject is a Go map. Entries are kept in insertion order; a range
// over the map visits them in an order the exploration chooses (see
// rangeInstr).
type mapObject struct {
	kt, vt *rtype
	class  keyClass
	ints   map[uint64]int32
	strs   map[string]int32
	gen    map[any]int32
	keys   []Value
	vals   []Value
	dead   []bool
	n      int
	// iterated forbids compaction: live iterators hold entry indices.
	iterated bool
	// identity and sharing, as for objects (see object)
	id, owner uint64
	shared    bool
	// the race detector's record of the map (race.go)
	raceGen  uint32
	raceCell shadowCell
}

type keyClass uint8

const (
	keyInt keyClass = iota
	keyString
	keyGeneric
)

func newMap(kt, vt *rtype) *mapObject {
	m := &mapObject{kt: kt, vt: vt}
	switch {
	case kt.kind.isInteger() || kt.kind == kBool:
		m.class = keyInt
		m.ints = map[uint64]int32{}
	case kt.kind == kString:
		m.class = keyString
		m.strs = map[string]int32{}
	default:
		m.class = keyGeneric
		m.gen = map[any]int32{}
	}
	return m
}

func (m *mapObject) len() int { return m.n }

type ptrKey struct {
	p unsafe.Pointer
	a uint64
}

// chanMapKey is a channel's key (ptrKey is a pointer's): kept apart so that
// hashKey can read the channel's identity.
type chanMapKey struct{ p unsafe.Pointer }
type nilKey struct{}
type ifaceKey struct {
	t *rtype
	k any
}
type consKey struct{ h, t any }

// keyOf returns a comparable Go value identifying v (of type t) as a map
// key, or the uncomparable dynamic type.
func keyOf(t *rtype, v Value) (any, *rtype) {
	switch k := t.kind; {
	case k.isInteger() || k == kBool:
		return v.a, nil
	case k == kString:
		return v.Str(), nil
	case k.isFloat():
		return v.Float(), nil
	case k.isComplex():
		return v.Complex(), nil
	case k == kIface:
		if v.p == nil {
			return nilKey{}, nil
		}
		it := v.iface()
		if !it.t.comparable {
			return nil, it.t
		}
		inner, bad := keyOf(it.t, it.v)
		if bad != nil {
			return nil, bad
		}
		return ifaceKey{it.t, inner}, nil
	case k == kStruct:
		var key any = nilKey{}
		for i := len(t.fields) - 1; i >= 0; i-- {
			f := t.fields[i]
			fk, bad := keyOf(f.t, viewAt(f.t, v, f.off))
			if bad != nil {
				return nil, bad
			}
			key = consKey{fk, key}
		}
		return key, nil
	case k == kArray:
		var key any = nilKey{}
		for i := t.len - 1; i >= 0; i-- {
			ek, bad := keyOf(t.elem, viewAt(t.elem, v, i*t.elem.size))
			if bad != nil {
				return nil, bad
			}
			key = consKey{ek, key}
		}
		return key, nil
	case k == kSlice || k == kMap || k == kFunc:
		return nil, t
	}
	if t.kind == kChan {
		return chanMapKey{v.p}, nil
	}
	return ptrKey{v.p, v.a}, nil
}

// find returns the entry index of key k, or -1.
func (m *mapObject) find(k Value) (int, *rtype) {
	var i int32
	var ok bool
	switch m.class {
	case keyInt:
		i, ok = m.ints[k.a]
	case keyString:
		i, ok = m.strs[k.Str()]
	default:
		key, bad := keyOf(m.kt, k)
		if bad != nil {
			return -1, bad
		}
		i, ok = m.gen[key]
	}
	if !ok {
		return -1, nil
	}
	return int(i), nil
}

func (m *mapObject) get(k Value) (Value, bool, *rtype) {
	i, bad := m.find(k)
	if i < 0 {
		return m.vt.zero, false, bad
	}
	return m.vals[i], true, nil
}

func (m *mapObject) set(k, v Value) *rtype {
	i, bad := m.find(k)
	if bad != nil {
		return bad
	}
	if i >= 0 {
		m.vals[i] = v
		return nil
	}
	if !m.iterated && len(m.keys) > 32 && len(m.keys) > 2*m.n {
		m.compact()
	}
	idx := int32(len(m.keys))
	switch m.class {
	case keyInt:
		m.ints[k.a] = idx
	case keyString:
		m.strs[k.Str()] = idx
	default:
		key, _ := keyOf(m.kt, k)
		m.gen[key] = idx
	}
	m.keys = append(m.keys, k)
	m.vals = append(m.vals, v)
	m.dead = append(m.dead, false)
	m.n++
	return nil
}

func (m *mapObject) delete(kt *rtype, k Value) *rtype {
	i, bad := m.find(k)
	if i < 0 {
		return bad
	}
	switch m.class {
	case keyInt:
		delete(m.ints, k.a)
	case keyString:
		delete(m.strs, k.Str())
	default:
		key, _ := keyOf(m.kt, k)
		delete(m.gen, key)
	}
	m.dead[i] = true
	m.keys[i], m.vals[i] = Value{}, Value{}
	m.n--
	return nil
}

func (m *mapObject) clear() {
	for i := range m.dead {
		m.dead[i] = true
		m.keys[i], m.vals[i] = Value{}, Value{}
	}
	clear(m.ints)
	clear(m.strs)
	clear(m.gen)
	m.n = 0
}

// compact drops deleted entries (only when no iterator may be live).
func (m *mapObject) compact() {
	keys, vals, dead := m.keys, m.vals, m.dead
	m.keys = make([]Value, 0, m.n)
	m.vals = make([]Value, 0, m.n)
	m.dead = make([]bool, 0, m.n)
	clear(m.ints)
	clear(m.strs)
	clear(m.gen)
	m.n = 0
	for i := range keys {
		if !dead[i] {
			m.set(keys[i], vals[i])
		}
	}
}

// entries iterates live entries in insertion order (used by intrinsics).
func (m *mapObject) each(f func(k, v Value) bool) {
	m.iterated = true
	for i := 0; i < len(m.keys); i++ {
		if !m.dead[i] {
			if !f(m.keys[i], m.vals[i]) {
				return
			}
		}
	}
}

func (c *compiler) makeMap(e *ssa.MakeMap) instrFn {
	d := c.def(e)
	t := c.m.rtypeOf(e.Type())
	return func(fr *frame) ctrl {
		mo := newMap(t.key, t.elem)
		mo.id, mo.owner = fr.g.newID(), fr.g.key
		fr.regs[d] = mapV(mo)
		return ctrlNext
	}
}

// mapAccess checks an operation on a map for data races (the map is one
// memory location, as Go's race detector sees it: lookups and iteration
// read it, assignments, delete and clear write it) and, with
// Options.Shared, makes it a scheduling point when the map is shared. It
// returns ctrlNext when the operation may proceed.
func (g *goroutine) mapAccess(mo *mapObject, write bool, pos token.Pos, what string) ctrl {
	if mo == nil {
		return ctrlNext
	}
	label := func() string {
		if write {
			return "write map " + what
		}
		return "read map " + what
	}
	if g.x.m.sharedMemory() {
		if !mo.shared && mo.owner != 0 && mo.owner != g.key {
			mo.shared = true
		}
		if mo.shared {
			if !g.granted {
				g.pend = pendingOp{kind: opShared, key: evKey{id: mo.id, off: -4}, write: write, pos: pos, label: label()}
				return ctrlYield
			}
			g.granted = false
		}
	}
	if rs := g.x.race; rs != nil {
		if mo.raceGen != rs.gen {
			mo.raceGen, mo.raceCell = rs.gen, shadowCell{}
		}
		m := g.x.m
		k := mapSiteKey{pos, write}
		site, ok := m.mapSites[k]
		if !ok {
			site = m.site(pos, label())
			if m.mapSites == nil {
				m.mapSites = map[mapSiteKey]int32{}
			}
			m.mapSites[k] = site
		}
		rs.accessCell(g, &mo.raceCell, g.epochOf(false), write, site)
	}
	return ctrlNext
}

func (c *compiler) lookup(e *ssa.Lookup) instrFn {
	d, x, k := c.def(e), c.use(e.X), c.use(e.Index)
	xt := c.m.rtypeOf(e.X.Type())
	if xt.kind == kString {
		return stringIndex(d, x, k, c.m.rtypeOf(e.Index.Type()).kind.isSigned())
	}
	vt := xt.elem
	commaOk := e.CommaOk
	pos := e.Pos()
	what := c.m.prog.describeMap(pos, e.X)
	return func(fr *frame) ctrl {
		r := fr.regs
		m := r[x].mapObj()
		if cc := fr.g.mapAccess(m, false, pos, what); cc != ctrlNext {
			return cc
		}
		v, ok := vt.zero, false
		if m != nil {
			var bad *rtype
			v, ok, bad = m.get(r[k])
			if bad != nil {
				return fr.g.throwRuntime("hash of unhashable type %s", bad)
			}
		}
		if commaOk {
			r[d] = tupleV(v, boolV(ok))
		} else {
			r[d] = v
		}
		return ctrlNext
	}
}

func (c *compiler) mapUpdate(e *ssa.MapUpdate) instrFn {
	x, k, v := c.use(e.Map), c.use(e.Key), c.use(e.Value)
	pos := e.Pos()
	what := c.m.prog.describeMap(pos, e.Map)
	var publish func(fr *frame)
	if c.m.sharedMemory() {
		kt, vt := c.m.rtypeOf(e.Key.Type()), c.m.rtypeOf(e.Value.Type())
		publish = func(fr *frame) {
			if mo := fr.regs[x].mapObj(); mo != nil && mo.shared {
				fr.g.x.m.publish(kt, fr.regs[k])
				fr.g.x.m.publish(vt, fr.regs[v])
			}
		}
	}
	return func(fr *frame) ctrl {
		r := fr.regs
		m := r[x].mapObj()
		if m == nil {
			return fr.g.throwPlain("assignment to entry in nil map")
		}
		if cc := fr.g.mapAccess(m, true, pos, what); cc != ctrlNext {
			return cc
		}
		if publish != nil {
			publish(fr)
		}
		if bad := m.set(r[k], r[v]); bad != nil {
			return fr.g.throwRuntime("hash of unhashable type %s", bad)
		}
		return ctrlNext
	}
}

// iterators for Range/Next
//
// Iteration order. Go does not specify the order of a range over a map
// (the runtime starts at a random bucket and offset), so a program whose
// outcome depends on it has behaviours the explorer must cover. The
// range's order is a choice of the ranging goroutine (chooseLocal, kind
// choiceMapOrder: explored by every strategy, recorded in replay tokens):
//
//   - MapOffsets (default): the entries are visited in insertion order
//     rotated by a start k chosen among the n live entries, one choice
//     point with n alternatives when the range starts (none for n < 2);
//   - MapPermutations: every order; each step of the range chooses the
//     next entry among the original entries not visited yet (n·(n-1)…
//     alternatives in all, chosen lazily, so a range that stops early
//     costs less).
//
// Maps modified during the iteration, as the explorer runs them (Go's
// rules allow each of these behaviours, not only them):
//
//   - an entry deleted before it is reached is not visited (as in Go);
//   - an entry added during the range is always visited, after every
//     entry present when the range started (Go may visit it, at any
//     point, or skip it: a program that depends on skipping an added
//     entry, or on visiting it before an original one, is not explored
//     that way — the report warns when an added entry was visited);
//   - an entry deleted and added again is a new entry (visited again).
//
// Package initializers of packages other than the loaded ones (the
// standard library and other dependencies) iterate in insertion order:
// choosing there would disable the init snapshot (snapshot.go) for every
// program; the loaded packages' own initializers do choose. Scenario
// search (Find) iterates in insertion order (a choice inside a transition
// is not a position of its formula), and so do the modelled functions
// that read maps natively (fmt prints maps sorted, as Go does;
// reflect.Value.MapKeys, sync.Map.Range).

// MapOrder selects which iteration orders of a range over a map are
// explored (Options.MapOrders).
type MapOrder string

const (
	// MapOffsets explores insertion order rotated by every start: n
	// orders for n entries.
	MapOffsets MapOrder = "offsets"
	// MapPermutations explores every order: n! orders for n entries.
	MapPermutations MapOrder = "permutations"
)

type mapIter struct {
	m   *mapObject
	i   int
	tup *object
	// start is the first slot of the rotation, end len(m.keys) when the
	// range started; phase 0 visits [start, end), phase 1 [0, start),
	// phase 2 the entries added during the range, [end, len(m.keys)).
	start, end int
	phase      uint8
	// perm: the next original entry is chosen among left (the slots of
	// the original entries not visited yet) at each step.
	perm bool
	left []int32
	// what names the map in trace notes; pos is the range's position.
	what string
	pos  token.Pos
}

type strIter struct {
	s   string
	i   int
	tup *object
}

// mapOrderChoices reports whether a range over a map may choose its
// order in this execution; root says whether the ranging function belongs
// to one of the loaded packages (see above).
func (x *execution) mapOrderChoices(root bool) bool {
	if _, find := x.chooser.(*findChooser); find {
		return false
	}
	return root || !x.inInit
}

func (c *compiler) rangeInstr(e *ssa.Range) instrFn {
	d, x := c.def(e), c.use(e.X)
	if c.m.rtypeOf(e.X.Type()).kind == kString {
		return func(fr *frame) ctrl {
			fr.regs[d] = Value{p: unsafe.Pointer(&strIter{s: fr.regs[x].Str(), tup: newObject(3)})}
			return ctrlNext
		}
	}
	pos := e.Pos()
	what := c.m.prog.describeMap(pos, e.X)
	perm := c.m.opts != nil && c.m.opts.MapOrders == MapPermutations
	root := c.fn.Pkg != nil && slices.Contains(c.m.prog.Packages, c.fn.Pkg)
	kt := c.m.rtypeOf(e.X.Type()).key
	return func(fr *frame) ctrl {
		m := fr.regs[x].mapObj()
		if cc := fr.g.mapAccess(m, false, pos, what); cc != ctrlNext {
			return cc
		}
		it := &mapIter{m: m, tup: newObject(3), what: what, pos: pos}
		if m != nil {
			m.iterated = true
			it.end = len(m.keys)
			if xe := fr.g.x; m.n >= 2 && xe.mapOrderChoices(root) {
				if perm {
					it.perm = true
					it.left = make([]int32, 0, m.n)
					for i, dead := range m.dead {
						if !dead {
							it.left = append(it.left, int32(i))
						}
					}
				} else {
					k, cc := xe.chooseLocal(fr.g, m.n, choiceMapOrder)
					if cc != ctrlNext {
						return cc
					}
					it.start = m.nthLive(k)
					if k > 0 {
						xe.note(fr.g, pos, "range over %s starts at entry %d of %d (%s)", what, k+1, m.n, describeKey(kt, m.keys[it.start]))
					}
				}
			}
			it.i = it.start
		}
		fr.regs[d] = Value{p: unsafe.Pointer(it)}
		return ctrlNext
	}
}

// nthLive returns the slot of the k-th live entry (0-based).
func (m *mapObject) nthLive(k int) int {
	if len(m.keys) == m.n {
		return k
	}
	for i, dead := range m.dead {
		if !dead {
			if k == 0 {
				return i
			}
			k--
		}
	}
	return len(m.keys)
}

// describeKey describes a map key in trace notes.
func describeKey(t *rtype, v Value) string {
	switch k := t.kind; {
	case v.p != nil && (k.isInteger() || k == kBool):
		if st := symbolicTerm(v); st != nil && st.Term != nil {
			return fmt.Sprintf("key %v", st.Term)
		}
		return "a symbolic key"
	case k == kString:
		return "key " + strconv.Quote(v.Str())
	case k == kBool, k.isInteger():
		return "key " + printBuiltin(t, v)
	}
	return "its key"
}

// nextSlot returns the slot of the next entry to visit, or -1 at the end.
func (it *mapIter) nextSlot(fr *frame) (int, ctrl) {
	m := it.m
	if it.perm {
		return it.nextPerm(fr)
	}
	for {
		var i int
		switch it.phase {
		case 0:
			if it.i >= it.end {
				it.phase, it.i = 1, 0
				continue
			}
		case 1:
			if it.i >= it.start {
				it.phase, it.i = 2, it.end
				continue
			}
		default:
			if it.i >= len(m.keys) {
				return -1, ctrlNext
			}
		}
		i = it.i
		it.i++
		if !m.dead[i] {
			if it.phase == 2 {
				fr.g.x.addedVisited(it.pos)
			}
			return i, ctrlNext
		}
	}
}

// nextPerm is nextSlot with MapPermutations: the next original entry is
// chosen among the live ones not visited yet.
func (it *mapIter) nextPerm(fr *frame) (int, ctrl) {
	m := it.m
	live := it.left[:0]
	for _, i := range it.left {
		if !m.dead[i] {
			live = append(live, i)
		}
	}
	it.left = live
	switch len(live) {
	case 0:
		it.perm, it.phase, it.i = false, 2, it.end
		return it.nextSlot(fr)
	case 1:
		it.left = live[:0]
		return int(live[0]), ctrlNext
	}
	k, cc := fr.g.x.chooseLocal(fr.g, len(live), choiceMapOrder)
	if cc != ctrlNext {
		return -1, cc
	}
	i := int(live[k])
	if k > 0 {
		fr.g.x.note(fr.g, it.pos, "range over %s visits entry %d of the %d left (%s)", it.what, k+1, len(live), describeKey(m.kt, m.keys[i]))
	}
	it.left = append(live[:k], live[k+1:]...)
	return i, ctrlNext
}

func (c *compiler) next(e *ssa.Next) instrFn {
	d, it := c.def(e), c.use(e.Iter)
	if e.IsString {
		return func(fr *frame) ctrl {
			r := fr.regs
			si := (*strIter)(r[it].p)
			t := si.tup
			if si.i >= len(si.s) {
				t.cells[0] = Value{}
			} else {
				rn, n := utf8.DecodeRuneInString(si.s[si.i:])
				t.cells[0] = Value{a: 1}
				t.cells[1] = intV(int64(si.i))
				t.cells[2] = intV(int64(rn))
				si.i += n
			}
			r[d] = Value{p: unsafe.Pointer(t)}
			return ctrlNext
		}
	}
	return func(fr *frame) ctrl {
		r := fr.regs
		mi := (*mapIter)(r[it].p)
		t := mi.tup
		t.cells[0] = Value{}
		if m := mi.m; m != nil {
			i, cc := mi.nextSlot(fr)
			if cc != ctrlNext {
				return cc
			}
			if i >= 0 {
				t.cells[0] = Value{a: 1}
				t.cells[1] = m.keys[i]
				t.cells[2] = m.vals[i]
			}
		}
		r[d] = Value{p: unsafe.Pointer(t)}
		return ctrlNext
	}
}
