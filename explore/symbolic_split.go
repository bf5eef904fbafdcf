package explore

import (
	"errors"
	"fmt"
	"go/token"
	"go/types"

	"github.com/henceforth-go/henceforth/symbolic"
	"golang.org/x/tools/go/ssa"
)

// Covering the inputs where a symbolic value meets something concrete
// (symbolic.go, "Symbolic inputs"): map keys fork over the keys present,
// sizes and slice bounds fork Go's panics, and the values the interpreter
// needs concrete are split (execution.concretize), including booleans and
// integers inside structs and arrays (compared, converted to interfaces,
// used as map keys) and in memory that a modelled function reads.

// ---- maps

// mapKeyType returns the symbolic type of a map type's key, if its keys
// can be symbolic (booleans and integers).
func (c *compiler) mapKeyType(mt types.Type) (symbolic.Type, bool) {
	m, ok := mt.Underlying().(*types.Map)
	if !ok {
		return 0, false
	}
	return symbolic.TypeOf(m.Key())
}

// symKeys reports whether the execution stored symbolic keys in m.
func (x *execution) symKeys(m *mapObject) bool {
	st := x.symst
	return st != nil && len(st.mapKeys[m]) > 0
}

// mapCase decides which entry of m the key k (of symbolic type t) is on
// this path: the index of the entry whose key equals it, or -1 for none.
// With a concrete key and only concrete keys in m there is nothing to
// decide; otherwise the candidates are the entries whose keys may equal
// it (all live entries for a symbolic key; the symbolic keys for a
// concrete one absent from m's index), and the path forks over the
// feasible cases: one per candidate, then "none of them". Keys of m are
// pairwise distinct on the path (a key is inserted only in the "none"
// case), so the cases are exclusive.
func (x *execution) mapCase(g *goroutine, pos token.Pos, m *mapObject, t symbolic.Type, k Value, what string) (int, ctrl) {
	var cands []int
	if k.p == nil {
		if i, _ := m.find(k); i >= 0 {
			return i, ctrlNext
		}
		if st := x.symst; st != nil {
			for _, i := range st.mapKeys[m] {
				if !m.dead[i] {
					cands = append(cands, i)
				}
			}
		}
	} else {
		for i, dead := range m.dead {
			if !dead {
				cands = append(cands, i)
			}
		}
	}
	if len(cands) == 0 {
		return -1, ctrlNext
	}
	st, err := x.sym()
	if err != nil {
		return 0, g.unsupported(pos, "symbolic map key: %v", err)
	}
	q, ok := symOf(k, t)
	if !ok {
		return 0, g.unsupported(pos, "map key: a symbolic value of another engine")
	}
	type alt struct {
		idx  int
		cond symbolic.Value
	}
	var alts []alt
	var nes []symbolic.Value
	unknown := false
	check := func(idx int, cond symbolic.Value) error {
		r, err := st.sess.Feasible(st.solverCtx(), cond)
		if err != nil {
			return err
		}
		switch r.Status {
		case symbolic.Sat:
			alts = append(alts, alt{idx, cond})
		case symbolic.Unknown:
			unknown = true
			st.inconclusive = append(st.inconclusive, fmt.Sprintf("%s: the case %s of the map key was not explored: the solver answered %s",
				shortPos(x.m.prog.Fset.Position(pos)), cond, r))
		default:
			st.infeasible++
		}
		return nil
	}
	for _, i := range cands {
		ki, ok := symOf(m.keys[i], t)
		if !ok {
			return 0, g.unsupported(pos, "map key: a symbolic value of another engine")
		}
		eq, err := symbolic.BinOp(token.EQL, q, ki)
		if err == nil {
			var ne symbolic.Value
			if ne, err = symbolic.BinOp(token.NEQ, q, ki); err == nil {
				nes = append(nes, ne)
				err = check(i, eq)
			}
		}
		if err != nil {
			return 0, x.symInconclusive(g, pos, "solver error at the map key %s: %v", q, err)
		}
	}
	if err := check(-1, symbolic.And(nes...)); err != nil {
		return 0, x.symInconclusive(g, pos, "solver error at the map key %s: %v", q, err)
	}
	if len(alts) == 0 {
		return 0, x.symInconclusive(g, pos, "no case of the map key %s is known to be feasible", q)
	}
	a := alts[0]
	if len(alts) > 1 {
		i, cc := x.chooseLocal(g, len(alts), choiceBranch)
		if cc != ctrlNext {
			return 0, cc
		}
		a = alts[i]
		if a.idx >= 0 {
			x.note(g, pos, "map key %s equals the key %s of %s (%d cases)", q, symbolicOrConcrete(m.keys[a.idx], t), what, len(alts))
		} else {
			x.note(g, pos, "map key %s is none of the %d keys of %s it may equal (%d cases)", q, len(cands), what, len(alts))
		}
	}
	if len(alts) > 1 || unknown {
		if err := st.sess.Assume(a.cond); err != nil {
			return 0, x.symInconclusive(g, pos, "solver error at the map key %s: %v", q, err)
		}
	}
	return a.idx, ctrlNext
}

// symMapCase is the access check of a map operation with key k (of
// symbolic type t; write says whether it modifies m) followed by mapCase.
func (g *goroutine) symMapCase(m *mapObject, write bool, pos token.Pos, t symbolic.Type, k Value, what string) (int, ctrl) {
	if cc := g.mapAccess(m, write, pos, what); cc != ctrlNext {
		return 0, cc
	}
	return g.x.mapCase(g, pos, m, t, k, what)
}

func symbolicOrConcrete(v Value, t symbolic.Type) string {
	s, _ := symOf(v, t)
	return s.String()
}

// insertSymbolic adds an entry with a symbolic key to m (not in m's
// hash index: mapCase finds it).
func (x *execution) insertSymbolic(m *mapObject, k, v Value) {
	st := x.symst
	if st.mapKeys == nil {
		st.mapKeys = map[*mapObject][]int{}
	}
	m.iterated = true // no compaction: the slots are recorded
	st.mapKeys[m] = append(st.mapKeys[m], len(m.keys))
	m.keys = append(m.keys, k)
	m.vals = append(m.vals, v)
	m.dead = append(m.dead, false)
	m.n++
}

// deleteAt deletes entry i of m.
func (m *mapObject) deleteAt(kt *rtype, i int) {
	if m.keys[i].p == nil || m.class != keyInt {
		m.delete(kt, m.keys[i])
		return
	}
	m.dead[i] = true
	m.keys[i], m.vals[i] = Value{}, Value{}
	m.n--
}

// symMapLookup is Lookup on a map whose key type can be symbolic.
func (c *compiler) symMapLookup(e *ssa.Lookup, f instrFn) instrFn {
	t, ok := c.mapKeyType(e.X.Type())
	if !ok {
		return c.concretizingLeaves(e, "map key", f, e.Index)
	}
	d, x, k := c.def(e), c.use(e.X), c.use(e.Index)
	vt := c.m.rtypeOf(e.X.Type()).elem
	commaOk := e.CommaOk
	pos := e.Pos()
	what := c.m.prog.describeMap(pos, e.X)
	return func(fr *frame) ctrl {
		r := fr.regs
		m := r[x].mapObj()
		g := fr.g
		if m == nil || r[k].p == nil && !g.x.symKeys(m) {
			return f(fr)
		}
		i, cc := g.symMapCase(m, false, pos, t, r[k], what)
		if cc != ctrlNext {
			return cc
		}
		v, found := vt.zero, false
		if i >= 0 {
			v, found = m.vals[i], true
		}
		if commaOk {
			r[d] = tupleV(v, boolV(found))
		} else {
			r[d] = v
		}
		return ctrlNext
	}
}

// symMapUpdate is MapUpdate on a map whose key type can be symbolic.
func (c *compiler) symMapUpdate(e *ssa.MapUpdate, f instrFn) instrFn {
	t, ok := c.mapKeyType(e.Map.Type())
	if !ok {
		return c.concretizingLeaves(e, "map key", f, e.Key)
	}
	x, k, v := c.use(e.Map), c.use(e.Key), c.use(e.Value)
	pos := e.Pos()
	what := c.m.prog.describeMap(pos, e.Map)
	vt := c.m.rtypeOf(e.Value.Type())
	return func(fr *frame) ctrl {
		r := fr.regs
		m := r[x].mapObj()
		g := fr.g
		if m == nil || r[k].p == nil && !g.x.symKeys(m) {
			return f(fr)
		}
		i, cc := g.symMapCase(m, true, pos, t, r[k], what)
		if cc != ctrlNext {
			return cc
		}
		if g.x.m.sharedMemory() && m.shared {
			g.x.m.publish(vt, r[v])
		}
		switch {
		case i >= 0:
			m.vals[i] = r[v]
		case r[k].p == nil:
			m.set(r[k], r[v])
		default:
			g.x.insertSymbolic(m, r[k], r[v])
		}
		return ctrlNext
	}
}

// symDelete is the builtin delete (called, not deferred) on a map whose
// key type can be symbolic.
func (c *compiler) symDelete(e *ssa.Call, f instrFn) instrFn {
	args := e.Common().Args
	t, ok := c.mapKeyType(args[0].Type())
	if !ok {
		return c.concretizingLeaves(e, "map key", f, args[1])
	}
	x, k := c.use(args[0]), c.use(args[1])
	kt := c.m.rtypeOf(args[1].Type())
	pos := e.Pos()
	what := c.m.prog.describeMap(pos, args[0])
	return func(fr *frame) ctrl {
		r := fr.regs
		m := r[x].mapObj()
		g := fr.g
		if m == nil || r[k].p == nil && !g.x.symKeys(m) {
			return f(fr)
		}
		i, cc := g.symMapCase(m, true, pos, t, r[k], what)
		if cc != ctrlNext {
			return cc
		}
		if i >= 0 {
			m.deleteAt(kt, i)
		}
		return ctrlNext
	}
}

// ---- sizes and slice bounds

// wide converts a bool or integer Value of type t to a 64-bit signed
// term (Go's conversion: sign- or zero-extension), for bounds checks.
func wide(v Value, t symbolic.Type) (symbolic.Value, error) {
	s, ok := symOf(v, t)
	if !ok {
		return symbolic.Value{}, errors.New("a symbolic value of another engine")
	}
	return symbolic.Convert(s, symbolic.Int64)
}

// between returns lo <= v && v <= hi on 64-bit signed terms.
func between(lo, v, hi symbolic.Value) (symbolic.Value, error) {
	a, err := symbolic.BinOp(token.LEQ, lo, v)
	if err != nil {
		return symbolic.Value{}, err
	}
	b, err := symbolic.BinOp(token.LEQ, v, hi)
	if err != nil {
		return symbolic.Value{}, err
	}
	return symbolic.And(a, b), nil
}

func i64(n int64) symbolic.Value { return symbolic.MakeInt(symbolic.Int64, n) }

// operand is a bool or integer operand of an instruction: its register
// and symbolic type.
type operand struct {
	slot int
	t    symbolic.Type
}

func (c *compiler) operand(v ssa.Value) (operand, bool) {
	if v == nil {
		return operand{}, false
	}
	t, ok := symbolic.TypeOf(v.Type())
	if !ok {
		return operand{}, false
	}
	return operand{c.use(v), t}, true
}

// boundsCheck wraps f, an instruction whose scalar operands ops must be
// in range (cond builds the condition from their 64-bit values): with a
// symbolic operand the path forks; on the failing side the operands are
// fixed to a model for the message of the panic f raises, on the other
// they are split (concretize; size prefers small values when not
// covered).
func (c *compiler) boundsCheck(ins ssa.Instruction, what, why string, f instrFn, ops []operand, size bool,
	cond func(fr *frame, vs []symbolic.Value) (symbolic.Value, bool, error)) instrFn {
	if len(ops) == 0 {
		return f
	}
	pos := ins.Pos()
	return func(fr *frame) ctrl {
		r := fr.regs
		sym := false
		for _, o := range ops {
			if r[o.slot].p != nil {
				sym = true
			}
		}
		if !sym {
			return f(fr)
		}
		g := fr.g
		vs := make([]symbolic.Value, len(ops))
		for i, o := range ops {
			w, err := wide(r[o.slot], o.t)
			if err != nil {
				return g.unsupported(pos, "%s: %v", why, err)
			}
			vs[i] = w
		}
		ok, applies, err := cond(fr, vs)
		if err != nil {
			return g.unsupported(pos, "%s: %v", why, err)
		}
		if !applies {
			return f(fr) // f panics first for another reason (nil)
		}
		in, cc := g.x.symFork(fr, pos, ok, what)
		if cc != ctrlNext {
			return cc
		}
		for _, o := range ops {
			var cc ctrl
			switch {
			case !in:
				cc = g.x.concretizeForPanic(g, pos, &r[o.slot], o.t, why+" out of range")
			case size:
				cc = g.x.concretizeSize(g, pos, &r[o.slot], o.t, why)
			default:
				cc = g.x.concretize(g, pos, &r[o.slot], o.t, why)
			}
			if cc != ctrlNext {
				return cc
			}
		}
		return f(fr)
	}
}

// symMakeSlice forks makeslice's panics (the interpreter's limits: a
// length or capacity below 0 or above 2^31, a capacity below the length)
// and splits the sizes.
func (c *compiler) symMakeSlice(e *ssa.MakeSlice, f instrFn) instrFn {
	lo, okl := c.operand(e.Len)
	co, okc := c.operand(e.Cap)
	if !okl || !okc {
		return c.concretizing(e, "allocation size", f, e.Len, e.Cap)
	}
	ops := []operand{lo}
	if co.slot != lo.slot {
		ops = append(ops, co)
	}
	return c.boundsCheck(e, "the size check of", "makeslice size", f, ops, true, func(fr *frame, vs []symbolic.Value) (symbolic.Value, bool, error) {
		l, k := vs[0], vs[0]
		if len(vs) > 1 {
			k = vs[1]
		}
		okl, err := between(i64(0), l, i64(1<<31))
		if err != nil {
			return symbolic.Value{}, false, err
		}
		okc, err := between(l, k, i64(1<<31))
		return symbolic.And(okl, okc), true, err
	})
}

// symMakeChan forks makechan's panic (a size below 0 or above 2^30) and
// splits the size.
func (c *compiler) symMakeChan(e *ssa.MakeChan, f instrFn) instrFn {
	o, ok := c.operand(e.Size)
	if !ok {
		return f
	}
	return c.boundsCheck(e, "the size check of", "makechan size", f, []operand{o}, true, func(fr *frame, vs []symbolic.Value) (symbolic.Value, bool, error) {
		ok, err := between(i64(0), vs[0], i64(1<<30))
		return ok, true, err
	})
}

// symSlice forks the bounds check of x[lo:hi:max] (0 <= lo <= hi <= max
// <= cap, hi <= len for strings) and splits the bounds.
func (c *compiler) symSlice(e *ssa.Slice, f instrFn) instrFn {
	xs := c.use(e.X)
	xt := c.m.rtypeOf(e.X.Type())
	var ops []operand
	idx := [3]int{-1, -1, -1} // index in ops of lo, hi, max
	for i, v := range []ssa.Value{e.Low, e.High, e.Max} {
		if o, ok := c.operand(v); ok {
			idx[i] = len(ops)
			ops = append(ops, o)
		}
	}
	three := e.Max != nil
	var length func(v Value) (n, cp int, ok bool)
	switch xt.kind {
	case kString:
		length = func(v Value) (int, int, bool) { n := len(v.Str()); return n, n, true }
	case kSlice:
		length = func(v Value) (int, int, bool) { return v.sliceLen(), v.sliceCap(), true }
	case kPtr:
		n := xt.elem.len
		length = func(v Value) (int, int, bool) { return n, n, v.p != nil }
	default:
		return c.concretizing(e, "slice bounds", f, e.Low, e.High, e.Max)
	}
	return c.boundsCheck(e, "the bounds check of", "slice bounds", f, ops, false, func(fr *frame, vs []symbolic.Value) (symbolic.Value, bool, error) {
		n, cp, ok := length(fr.regs[xs])
		if !ok {
			return symbolic.Value{}, false, nil
		}
		get := func(k int, def int) symbolic.Value {
			if idx[k] >= 0 {
				return vs[idx[k]]
			}
			return i64(int64(def))
		}
		l, h, m := get(0, 0), get(1, n), get(2, cp)
		var conds []symbolic.Value
		add := func(a, b symbolic.Value) error {
			le, err := symbolic.BinOp(token.LEQ, a, b)
			conds = append(conds, le)
			return err
		}
		var err error
		if three {
			err = errors.Join(add(i64(0), l), add(l, h), add(h, m), add(m, i64(int64(cp))))
		} else {
			err = errors.Join(add(i64(0), l), add(l, h), add(h, i64(int64(cp))))
		}
		return symbolic.And(conds...), true, err
	})
}

// ---- builtins

// symMinMax computes min and max of booleans and integers symbolically.
func (c *compiler) symMinMax(e *ssa.Call, isMax bool, f instrFn) instrFn {
	args := e.Common().Args
	t, ok := symbolic.TypeOf(args[0].Type())
	if !ok || t == symbolic.Bool {
		return f
	}
	slots := c.argSlots(e.Common())
	d := c.def(e)
	pos := e.Pos()
	return func(fr *frame) ctrl {
		r := fr.regs
		sym := false
		for _, s := range slots {
			if r[s].p != nil {
				sym = true
			}
		}
		if !sym {
			return f(fr)
		}
		var acc symbolic.Value
		for i, s := range slots {
			v, ok := symOf(r[s], t)
			if !ok {
				return fr.g.unsupported(pos, "%s of a symbolic value of another engine", e.Common().Value.Name())
			}
			switch {
			case i == 0:
				acc = v
			case isMax:
				acc = symbolic.Max(acc, v)
			default:
				acc = symbolic.Min(acc, v)
			}
		}
		r[d] = valueOfSym(acc)
		return ctrlNext
	}
}

// symPrint gives print and println model values of their symbolic
// arguments without assuming them: what they write cannot influence the
// program, so nothing is fixed (the output shows one possible value).
func (c *compiler) symPrint(e *ssa.CallCommon, f instrFn) instrFn {
	ops := c.scalarOperands(e.Args)
	if len(ops) == 0 {
		return f
	}
	return func(fr *frame) ctrl {
		r := fr.regs
		var saved []Value
		for _, o := range ops {
			if r[o.slot].p == nil {
				continue
			}
			if saved == nil {
				saved = make([]Value, len(r))
				copy(saved, r)
			}
			r[o.slot] = fr.g.x.peek(r[o.slot], o.t)
		}
		cc := f(fr)
		for _, o := range ops {
			if saved != nil && saved[o.slot].p != nil {
				r[o.slot] = saved[o.slot]
			}
		}
		return cc
	}
}

func (c *compiler) scalarOperands(vs []ssa.Value) []operand {
	var ops []operand
	for _, v := range vs {
		if o, ok := c.operand(v); ok {
			ops = append(ops, o)
		}
	}
	return ops
}

// peek returns the value a symbolic v takes in a model of the path,
// without assuming it (zero if there is none).
func (x *execution) peek(v Value, t symbolic.Type) Value {
	s, ok := symOf(v, t)
	st, err := x.sym()
	if !ok || err != nil {
		return Value{}
	}
	m, err := st.sess.Model(st.solverCtx())
	if err != nil {
		return Value{}
	}
	return valueOfSym(m.Eval(s))
}

// ---- aggregates and memory

// leaves calls fn for each cell offset of a value of type t (from off)
// holding a boolean or an integer, depth first; fn returns false to stop.
func leaves(t *rtype, off int, fn func(lt *rtype, off int) bool) bool {
	switch t.kind {
	case kStruct:
		for _, f := range t.fields {
			if !leaves(f.t, off+f.off, fn) {
				return false
			}
		}
	case kArray:
		for i := range t.len {
			if !leaves(t.elem, off+i*t.elem.size, fn) {
				return false
			}
		}
	default:
		if t.kind == kBool || t.kind.isInteger() {
			return fn(t, off)
		}
	}
	return true
}

// hasScalarLeaves reports whether values of the aggregate type t hold
// booleans or integers.
func hasScalarLeaves(t *rtype) bool {
	if !t.kind.isAggregate() {
		return false
	}
	found := false
	leaves(t, 0, func(*rtype, int) bool { found = true; return false })
	return found
}

// symLeafType is the symbolic type of a leaf.
func symLeafType(lt *rtype) (symbolic.Type, bool) { return symbolic.TypeOf(lt.T) }

// concretizeView splits the symbolic leaves of the aggregate view v of
// type t in place (the cells are the value's own: a register's view or
// memory; the concrete value equals the symbolic one on the path).
func (x *execution) concretizeView(g *goroutine, pos token.Pos, t *rtype, v Value, why string) ctrl {
	if v.p == nil {
		return ctrlNext
	}
	cells := v.obj().cells
	base := v.off()
	cc := ctrlNext
	leaves(t, 0, func(lt *rtype, off int) bool {
		if cells[base+off].p == nil {
			return true
		}
		st, ok := symLeafType(lt)
		if !ok {
			return true
		}
		cc = x.concretize(g, pos, &cells[base+off], st, why)
		return cc == ctrlNext
	})
	return cc
}

// concretizingLeaves is concretizing for operands that may also be
// aggregates with boolean or integer leaves.
func (c *compiler) concretizingLeaves(ins ssa.Instruction, why string, f instrFn, vs ...ssa.Value) instrFn {
	f = c.concretizing(ins, why, f, vs...)
	type agg struct {
		slot int
		t    *rtype
	}
	var aggs []agg
	for _, v := range vs {
		if v == nil {
			continue
		}
		if t := c.m.rtypeOf(v.Type()); hasScalarLeaves(t) {
			aggs = append(aggs, agg{c.use(v), t})
		}
	}
	if len(aggs) == 0 {
		return f
	}
	pos := ins.Pos()
	return func(fr *frame) ctrl {
		for _, a := range aggs {
			if cc := fr.g.x.concretizeView(fr.g, pos, a.t, fr.regs[a.slot], why); cc != ctrlNext {
				return cc
			}
		}
		return f(fr)
	}
}

// symAggEqual compares structs or arrays with symbolic leaves: the
// result is the conjunction of the leaves' equalities (false at once if
// another leaf differs). A leaf that cannot be compared (an interface
// holding an uncomparable value, which panics) makes it split the
// symbolic leaves and compare concretely, as f does.
func (c *compiler) symAggEqual(e *ssa.BinOp, f instrFn) instrFn {
	t := c.m.rtypeOf(e.X.Type())
	if !hasScalarLeaves(t) || (e.Op != token.EQL && e.Op != token.NEQ) {
		return f
	}
	d, xs, ys := c.def(e), c.use(e.X), c.use(e.Y)
	pos, neq := e.Pos(), e.Op == token.NEQ
	return func(fr *frame) ctrl {
		r := fr.regs
		a, b := r[xs], r[ys]
		if a.p == nil || b.p == nil {
			return f(fr)
		}
		sym := false
		leaves(t, 0, func(_ *rtype, off int) bool {
			sym = a.obj().cells[a.off()+off].p != nil || b.obj().cells[b.off()+off].p != nil
			return !sym
		})
		if !sym {
			return f(fr)
		}
		var conds []symbolic.Value
		differ, bad := false, false
		var walk func(t *rtype, off int) bool
		walk = func(t *rtype, off int) bool {
			switch t.kind {
			case kStruct:
				for _, fl := range t.fields {
					if !walk(fl.t, off+fl.off) {
						return false
					}
				}
				return true
			case kArray:
				for i := range t.len {
					if !walk(t.elem, off+i*t.elem.size) {
						return false
					}
				}
				return true
			}
			av, bv := a.obj().cells[a.off()+off], b.obj().cells[b.off()+off]
			if st, ok := symLeafType(t); ok && (av.p != nil || bv.p != nil) {
				sa, ok1 := symOf(av, st)
				sb, ok2 := symOf(bv, st)
				if !ok1 || !ok2 {
					bad = true
					return false
				}
				eq, err := symbolic.BinOp(token.EQL, sa, sb)
				if err != nil {
					bad = true
					return false
				}
				conds = append(conds, eq)
				return true
			}
			eq, unc := equal(t, av, bv)
			if unc != nil {
				bad = true
				return false
			}
			if !eq {
				differ = true
				return false
			}
			return true
		}
		walk(t, 0)
		switch {
		case bad:
			for _, v := range []Value{a, b} {
				if cc := fr.g.x.concretizeView(fr.g, pos, t, v, "comparison"); cc != ctrlNext {
					return cc
				}
			}
			return f(fr)
		case differ:
			r[d] = boolV(neq)
		default:
			res := symbolic.And(conds...)
			if neq {
				res = symbolic.Not(res)
			}
			r[d] = valueOfSym(res)
		}
		return ctrlNext
	}
}

// concretizeReachable splits the symbolic booleans and integers in the
// memory a modelled function may read through v (of type t): aggregate
// values, what pointers, slices, maps and interfaces reach. Objects of
// types declared outside the user's packages (the standard library's
// models keep their own state in cells) and channels are not entered.
func (x *execution) concretizeReachable(g *goroutine, pos token.Pos, t *rtype, v Value, why string) ctrl {
	w := &reach{x: x, g: g, pos: pos, why: why, seen: map[reachKey]bool{}, maps: map[*mapObject]bool{}}
	w.value(t, v)
	return w.cc
}

type reach struct {
	x    *execution
	g    *goroutine
	pos  token.Pos
	why  string
	seen map[reachKey]bool
	maps map[*mapObject]bool
	cc   ctrl
	n    int
}

type reachKey struct {
	o   *object
	off int
}

// opaque reports whether the walk stays out of values of type t.
func (w *reach) opaque(t *rtype) bool {
	if t.opaque {
		return true
	}
	if n, ok := t.T.(*types.Named); ok && t.kind == kStruct {
		pkg := n.Obj().Pkg()
		if pkg == nil {
			return true
		}
		_, user := w.x.m.prog.syntax[pkg]
		return !user || pkg.Path() == ltltestPath
	}
	return false
}

// cells walks the cells [off, off+n*t.size) of o holding values of type t.
func (w *reach) cells(o *object, off int, t *rtype, n int) {
	if w.cc != ctrlNext || w.opaque(t) {
		return
	}
	for i := range n {
		w.cell(o, off+i*t.size, t)
		if w.cc != ctrlNext {
			return
		}
	}
}

func (w *reach) cell(o *object, off int, t *rtype) {
	w.n++
	if w.n > 1<<20 || off >= len(o.cells) {
		return
	}
	switch t.kind {
	case kStruct:
		if w.opaque(t) {
			return
		}
		for _, f := range t.fields {
			if w.cell(o, off+f.off, f.t); w.cc != ctrlNext {
				return
			}
		}
	case kArray:
		w.cells(o, off, t.elem, t.len)
	default:
		p := &o.cells[off]
		if t.kind == kBool || t.kind.isInteger() {
			if p.p != nil {
				if st, ok := symLeafType(t); ok {
					w.cc = w.x.concretize(w.g, w.pos, p, st, w.why)
				}
			}
			return
		}
		w.value(t, *p)
	}
}

// value walks what a non-aggregate value v of type t reaches (for an
// aggregate, v is a view of its cells).
func (w *reach) value(t *rtype, v Value) {
	if w.cc != ctrlNext || v.p == nil || t.opaque {
		return
	}
	switch t.kind {
	case kStruct, kArray:
		w.cell(v.obj(), v.off(), t)
	case kPtr:
		if t.elem == nil || w.opaque(t.elem) {
			return
		}
		k := reachKey{v.obj(), v.off()}
		if w.seen[k] {
			return
		}
		w.seen[k] = true
		w.cell(k.o, k.off, t.elem)
	case kSlice:
		k := reachKey{v.obj(), v.off()}
		if w.seen[k] {
			return
		}
		w.seen[k] = true
		w.cells(k.o, k.off, t.elem, v.sliceLen())
	case kIface:
		it := v.iface()
		if it.t.opaque {
			return
		}
		if it.t.kind.isAggregate() {
			w.cell(it.v.obj(), it.v.off(), it.t)
			return
		}
		if it.t.kind == kBool || it.t.kind.isInteger() {
			return // interfaces hold concrete scalars (MakeInterface splits)
		}
		w.value(it.t, it.v)
	case kMap:
		m := v.mapObj()
		if w.maps[m] {
			return
		}
		w.maps[m] = true
		w.mapEntries(m, t)
	}
}

// mapEntries walks the keys and values of m; a symbolic key made concrete
// joins m's hash index.
func (w *reach) mapEntries(m *mapObject, t *rtype) {
	for i := range m.keys {
		if m.dead[i] {
			continue
		}
		if k := m.keys[i]; k.p != nil && m.class == keyInt {
			st, ok := symLeafType(t.key)
			if !ok {
				continue
			}
			if w.cc = w.x.concretize(w.g, w.pos, &m.keys[i], st, w.why); w.cc != ctrlNext {
				return
			}
			m.ints[m.keys[i].a] = int32(i)
			if s := w.x.symst; s != nil {
				s.mapKeys[m] = removeInt(s.mapKeys[m], i)
			}
		} else if t.key.kind.isAggregate() {
			if w.cell(k.obj(), k.off(), t.key); w.cc != ctrlNext {
				return
			}
		}
		if t.elem.kind.isAggregate() {
			w.cell(m.vals[i].obj(), m.vals[i].off(), t.elem)
		} else {
			vv := m.vals[i]
			if vv.p != nil && (t.elem.kind == kBool || t.elem.kind.isInteger()) {
				if st, ok := symLeafType(t.elem); ok {
					w.cc = w.x.concretize(w.g, w.pos, &m.vals[i], st, w.why)
				}
			} else {
				w.value(t.elem, vv)
			}
		}
		if w.cc != ctrlNext {
			return
		}
	}
}

func removeInt(s []int, x int) []int {
	for i, y := range s {
		if y == x {
			return append(s[:i], s[i+1:]...)
		}
	}
	return s
}
