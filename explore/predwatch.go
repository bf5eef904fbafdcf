package explore

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// State predicates observed at every write (instruction-level semantics).
//
// A state predicate can change value only when memory it reads is
// written. When the package is compiled for an exploration with
// state-predicate specs, every instruction that may write such memory
// (a store, copy/clear into a slice, a map update, delete or clear for
// the length of a map) is decided at compile time by the alias analysis
// below; only those instructions are wrapped (withWatchedWrite), every
// other store runs exactly the code it runs without specs. A wrapped
// write is a scheduling point of its own (an observer event), and after
// it is performed the predicates are evaluated: if a value changed, the
// state is one position of the trace. So a state that exists between
// two writes of one goroutine's transition (level = 1200, then clamped
// to 1000) is seen, and the interleavings of writes of different
// goroutines that predicates observe are explored.
//
// For partial-order reduction a watched write is an event on the written
// cell that also conflicts with every observer event and every other
// watched write (dpor.go, newEvent): DPOR explores one execution per
// class of the observed trace. With state predicates, atomic stores and
// (when a predicate reads len or cap of a channel) channel operations
// conflict with observer events too (predConflicts): they change
// predicate values at scheduling steps.
//
// The alias analysis is type-based. A predicate's reads are described
// by their access paths (memRead): a root region — a package variable,
// the pointee of a pointer, or an element of a slice — and the steps
// down to the cell read (a field of a struct type, an element of an
// array type). A write's target (memTarget) is described the same way
// from its SSA address: FieldAddr and IndexAddr steps down from a base
// that is a package variable, a new heap object, or a pointer of unknown
// origin. In type-safe Go two regions overlap only if one contains the
// other, and a region's parent is unique, so a write can reach a read
// cell only if: both are in the same package variable along compatible
// paths; or the written region's last step (struct type and field, or
// array element type) is a step of the read path; or the write goes
// through a pointer of unknown origin to a region whose type is the type
// of a region of the read path; or the written region contains the read
// path's root by value. Types are compared by their underlying types
// (conversions between pointer types with identical underlying types
// keep memory shared). Variables of a frame (allocations that do not
// escape) and stores into an object allocated earlier in the same block
// whose address has not been used otherwise yet (composite literals) are
// never watched.
//
// Not watched: memory written by modelled functions (sort.Slice swaps
// elements natively; atomics are scheduling points, so their effect is
// seen at the step), append writing into a backing array shared with a
// longer slice, and writes through unsafe.Pointer conversions.

// memStep is one step from a memory region to a region inside it: the
// field with index field of struct st, or (st nil) an element of an
// array of elem.
type memStep struct {
	st    *types.Struct
	field int
	elem  types.Type
}

func (s memStep) none() bool { return s.st == nil && s.elem == nil }

func sameStep(a, b memStep) bool {
	switch {
	case a.st != nil:
		return b.st != nil && a.field == b.field && types.Identical(a.st, b.st)
	case a.elem != nil:
		return b.elem != nil && types.Identical(a.elem.Underlying(), b.elem.Underlying())
	}
	return false
}

// memRegion is a region of an access path: its type and the step from
// the enclosing region (none for a root of unknown parent).
type memRegion struct {
	t      types.Type
	parent memStep
}

// memRead is the access path of one read of a predicate: regions[0] is
// the package variable global, or (global nil) the pointee of a pointer
// (no parent step) or an element of a slice (an element step); the last
// region is the cell read.
type memRead struct {
	global  *ssa.Global
	regions []memRegion
}

func (r memRead) with(reg memRegion) memRead {
	out := memRead{global: r.global, regions: make([]memRegion, len(r.regions), len(r.regions)+1)}
	copy(out.regions, r.regions)
	out.regions = append(out.regions, reg)
	return out
}

func isAggregateType(t types.Type) bool {
	switch t.Underlying().(type) {
	case *types.Struct, *types.Array:
		return true
	}
	return false
}

// collectReads computes pr.reads, pr.mapLens and pr.chanLen from the
// expression, following what value evaluates.
func (pr *predicate) collectReads() {
	w := readWalker{pr: pr}
	w.expr(pr.expr.AST)
}

type readWalker struct{ pr *predicate }

// read records r if its last region is a scalar (value loads scalars;
// aggregates are only addressed) and returns it.
func (w *readWalker) read(r memRead) memRead {
	if !isAggregateType(r.regions[len(r.regions)-1].t) {
		w.pr.reads = append(w.pr.reads, r)
	}
	return r
}

// expr visits e and returns where its value lives (ok false: not in
// memory: a constant or the result of an operation).
func (w *readWalker) expr(e ast.Expr) (memRead, bool) {
	info := w.pr.expr.Info
	if tv, ok := info.Types[e]; ok && tv.Value != nil {
		return memRead{}, false
	}
	switch e := e.(type) {
	case *ast.ParenExpr:
		return w.expr(e.X)
	case *ast.Ident:
		if obj, ok := info.Uses[e].(*types.Var); ok {
			if g := w.pr.globals[obj]; g != nil {
				return w.read(memRead{global: g, regions: []memRegion{{t: obj.Type()}}}), true
			}
		}
	case *ast.SelectorExpr:
		sel, ok := info.Selections[e]
		if !ok {
			return w.expr(e.Sel)
		}
		cur, in := w.expr(e.X)
		t := info.TypeOf(e.X)
		for _, i := range sel.Index() {
			if p, ok := t.Underlying().(*types.Pointer); ok {
				t = p.Elem()
				cur, in = memRead{regions: []memRegion{{t: t}}}, true
			}
			st, ok := t.Underlying().(*types.Struct)
			if !ok || !in {
				return memRead{}, false
			}
			t = st.Field(i).Type()
			cur = cur.with(memRegion{t: t, parent: memStep{st: st, field: i}})
		}
		if !in {
			return memRead{}, false
		}
		return w.read(cur), true
	case *ast.StarExpr:
		w.expr(e.X)
		if p, ok := info.TypeOf(e.X).Underlying().(*types.Pointer); ok {
			return w.read(memRead{regions: []memRegion{{t: p.Elem()}}}), true
		}
	case *ast.IndexExpr:
		base, in := w.expr(e.X)
		w.expr(e.Index)
		switch xt := info.TypeOf(e.X).Underlying().(type) {
		case *types.Array:
			if in {
				return w.read(base.with(memRegion{t: xt.Elem(), parent: memStep{elem: xt.Elem()}})), true
			}
		case *types.Slice:
			return w.read(memRead{regions: []memRegion{{t: xt.Elem(), parent: memStep{elem: xt.Elem()}}}}), true
		case *types.Pointer:
			if at, ok := xt.Elem().Underlying().(*types.Array); ok {
				r := memRead{regions: []memRegion{{t: xt.Elem()}}}
				return w.read(r.with(memRegion{t: at.Elem(), parent: memStep{elem: at.Elem()}})), true
			}
		}
	case *ast.UnaryExpr:
		w.expr(e.X)
	case *ast.BinaryExpr:
		w.expr(e.X)
		w.expr(e.Y)
	case *ast.CallExpr:
		for _, a := range e.Args {
			w.expr(a)
		}
		if tv := info.Types[e.Fun]; !tv.IsType() && len(e.Args) == 1 {
			at := info.TypeOf(e.Args[0]).Underlying()
			if p, ok := at.(*types.Pointer); ok {
				at = p.Elem().Underlying()
			}
			switch at.(type) {
			case *types.Map:
				w.pr.mapLens = append(w.pr.mapLens, at)
			case *types.Chan:
				w.pr.chanLen = true
			}
		}
	}
	return memRead{}, false
}

// containsType reports whether a value of type outer contains (by value,
// not through references) a region of type inner; strict excludes outer
// itself.
func containsType(outer, inner types.Type, strict bool) bool {
	ou := outer.Underlying()
	if !strict && types.Identical(ou, inner.Underlying()) {
		return true
	}
	switch ou := ou.(type) {
	case *types.Struct:
		for i := range ou.NumFields() {
			if containsType(ou.Field(i).Type(), inner, false) {
				return true
			}
		}
	case *types.Array:
		return containsType(ou.Elem(), inner, false)
	}
	return false
}

type targetBase uint8

const (
	baseUnknown targetBase = iota // through a pointer of unknown origin
	baseGlobal                    // inside the package variable global
	baseFresh                     // inside an object allocated by new, &T{} or an escaping local
)

// memTarget describes the memory a write reaches: steps down from its
// base to the written region, of type t.
type memTarget struct {
	base   targetBase
	global *ssa.Global
	steps  []memStep
	t      types.Type
}

// targetOf describes the memory written through addr (a pointer, or a
// slice for copy and clear); ok is false when no predicate can read it
// (a variable of the frame).
func targetOf(addr ssa.Value) (tg memTarget, ok bool) {
	switch t := addr.Type().Underlying().(type) {
	case *types.Pointer:
		tg.t = t.Elem()
	case *types.Slice:
		tg.t = t.Elem()
		tg.steps = []memStep{{elem: t.Elem()}}
		return tg, true
	default:
		return tg, false
	}
	var rev []memStep
	defer func() {
		for i := len(rev) - 1; i >= 0; i-- {
			tg.steps = append(tg.steps, rev[i])
		}
	}()
	for range 100 {
		switch a := addr.(type) {
		case *ssa.FieldAddr:
			st, ok := a.X.Type().Underlying().(*types.Pointer).Elem().Underlying().(*types.Struct)
			if !ok {
				return tg, true
			}
			rev = append(rev, memStep{st: st, field: a.Field})
			addr = a.X
			continue
		case *ssa.IndexAddr:
			switch xt := a.X.Type().Underlying().(type) {
			case *types.Pointer:
				if at, ok := xt.Elem().Underlying().(*types.Array); ok {
					rev = append(rev, memStep{elem: at.Elem()})
					addr = a.X
					continue
				}
			case *types.Slice:
				rev = append(rev, memStep{elem: xt.Elem()})
			}
		case *ssa.ChangeType:
			addr = a.X
			continue
		case *ssa.Global:
			tg.base, tg.global = baseGlobal, a
		case *ssa.Alloc:
			if !a.Heap {
				return tg, false
			}
			tg.base = baseFresh
		case *ssa.FreeVar:
			if b := freeVarBinding(a); b != nil {
				addr = b
				continue
			}
		}
		return tg, true
	}
	return tg, true
}

// freeVarBinding is the value a closure's free variable is bound to by
// the only MakeClosure of the closure in its parent function (nil if
// not found).
func freeVarBinding(fv *ssa.FreeVar) ssa.Value {
	fn := fv.Parent()
	if fn == nil || fn.Parent() == nil {
		return nil
	}
	idx := -1
	for i, v := range fn.FreeVars {
		if v == fv {
			idx = i
		}
	}
	var found ssa.Value
	n := 0
	for _, b := range fn.Parent().Blocks {
		for _, ins := range b.Instrs {
			if mc, ok := ins.(*ssa.MakeClosure); ok && mc.Fn == fn && idx < len(mc.Bindings) {
				found = mc.Bindings[idx]
				n++
			}
		}
	}
	if n != 1 || idx < 0 {
		return nil
	}
	return found
}

// overlaps reports whether a write to tg may change the cell r reads.
func (tg *memTarget) overlaps(r *memRead) bool {
	if r.global != nil && tg.base != baseUnknown {
		// both inside known variables or objects: the same variable,
		// along compatible paths
		if tg.base != baseGlobal || tg.global != r.global {
			return false
		}
		for i := 0; i < len(tg.steps) && i+1 < len(r.regions); i++ {
			if !sameStep(tg.steps[i], r.regions[i+1].parent) {
				return false
			}
		}
		return true
	}
	r0 := r.regions[0]
	if n := len(tg.steps); n > 0 {
		last := tg.steps[n-1]
		for _, reg := range r.regions {
			if sameStep(last, reg.parent) {
				return true
			}
		}
		// the read's root (a pointee or a slice element) may be the
		// written region, or lie inside it
		return r.global == nil && (r0.parent.none() && types.Identical(tg.t.Underlying(), r0.t.Underlying()) || containsType(tg.t, r0.t, true))
	}
	if tg.base != baseUnknown {
		// a whole variable or new object (not the read's variable)
		return r.global == nil && containsType(tg.t, r0.t, false)
	}
	// through a pointer of unknown origin: any region of its type
	for _, reg := range r.regions {
		if types.Identical(tg.t.Underlying(), reg.t.Underlying()) {
			return true
		}
	}
	return r.global == nil && containsType(tg.t, r0.t, true)
}

// unpublished reports whether store writes into an object allocated
// earlier in the same block whose address has been used since only to
// address its parts and store into them: no predicate can read it yet.
func unpublished(store *ssa.Store) bool {
	base := store.Addr
	for {
		switch a := base.(type) {
		case *ssa.FieldAddr:
			base = a.X
			continue
		case *ssa.IndexAddr:
			if _, ok := a.X.Type().Underlying().(*types.Pointer); ok {
				base = a.X
				continue
			}
			return false
		}
		break
	}
	al, ok := base.(*ssa.Alloc)
	if !ok || al.Block() != store.Block() {
		return false
	}
	derived := map[ssa.Value]bool{al: true}
	started := false
	var ops []*ssa.Value
	for _, ins := range store.Block().Instrs {
		if ins == ssa.Instruction(al) {
			started = true
			continue
		}
		if !started {
			continue
		}
		if ins == ssa.Instruction(store) {
			return !derived[store.Val]
		}
		switch i := ins.(type) {
		case *ssa.DebugRef:
			continue
		case *ssa.FieldAddr:
			if derived[i.X] {
				derived[i] = true
				continue
			}
		case *ssa.IndexAddr:
			if derived[i.X] {
				if _, ok := i.X.Type().Underlying().(*types.Pointer); ok {
					derived[i] = true
					continue
				}
			}
		case *ssa.Store:
			if derived[i.Addr] && !derived[i.Val] {
				continue
			}
		}
		for _, op := range ins.Operands(ops[:0]) {
			if *op != nil && derived[*op] {
				return false
			}
		}
	}
	return false
}

// watchSet is what state predicates read: those of the checked specs,
// or one predicate's.
type watchSet struct {
	// reads is the memory read.
	reads []memRead
	// mapLens are the map types whose length is read (len of a map);
	// chanLen is set when the length or capacity of a channel is read.
	mapLens []types.Type
	chanLen bool
}

// union adds what o reads to ws.
func (ws *watchSet) union(o *watchSet) {
	ws.reads = append(ws.reads, o.reads...)
	ws.mapLens = append(ws.mapLens, o.mapLens...)
	ws.chanLen = ws.chanLen || o.chanLen
}

// newWatchSet collects the reads of the used predicates of set (nil if
// it has none).
func newWatchSet(set *specSet) *watchSet {
	if !set.stateful {
		return nil
	}
	ws := &watchSet{}
	for i, pr := range set.preds {
		if !set.used[i] {
			continue
		}
		ws.union(&pr.watchSet)
	}
	return ws
}

// writes reports whether a write to tg may change a predicate.
func (ws *watchSet) writes(tg *memTarget) bool {
	for i := range ws.reads {
		if tg.overlaps(&ws.reads[i]) {
			return true
		}
	}
	return false
}

// mapLen reports whether a predicate reads the length of maps of type t.
func (ws *watchSet) mapLen(t types.Type) bool {
	for _, m := range ws.mapLens {
		if types.Identical(m, t.Underlying()) {
			return true
		}
	}
	return false
}

// watched returns the operand an instruction writes through (the
// address, the slice or the map) if the instruction may change a state
// predicate, and whether that operand is a map.
func (ws *watchSet) watched(ins ssa.Instruction) (ssa.Value, bool) {
	switch ins := ins.(type) {
	case *ssa.Store:
		tg, ok := targetOf(ins.Addr)
		if ok && !unpublished(ins) && ws.writes(&tg) {
			return ins.Addr, false
		}
	case *ssa.MapUpdate:
		if ws.mapLen(ins.Map.Type()) {
			return ins.Map, true
		}
	case *ssa.Call:
		b, ok := ins.Call.Value.(*ssa.Builtin)
		if !ok || len(ins.Call.Args) == 0 {
			break
		}
		arg := ins.Call.Args[0]
		switch b.Name() {
		case "copy", "clear":
			if _, ok := arg.Type().Underlying().(*types.Map); ok {
				if ws.mapLen(arg.Type()) {
					return arg, true
				}
				break
			}
			if tg, ok := targetOf(arg); ok && ws.writes(&tg) {
				return arg, false
			}
		case "delete":
			if ws.mapLen(arg.Type()) {
				return arg, true
			}
		}
	}
	return nil, false
}

// watchObserver is implemented by the spec observers (and what wraps
// them): what the predicates of their specs read.
type watchObserver interface {
	watching() *watchSet
}

func (o specObserver) watching() *watchSet { return o.set.watch }

// watching returns the union computed once by installSpecs (it is asked
// per compiled instruction and per atomic or channel step).
func (o specsObserver) watching() *watchSet { return o.watch }

// watchOfSets is the union of the watch sets of sets (nil if none has
// one).
func watchOfSets(sets []*specSet) *watchSet {
	var ws []*watchSet
	for _, set := range sets {
		if set.watch != nil {
			ws = append(ws, set.watch)
		}
	}
	return mergeWatchSets(ws)
}

func (t teeObserver) watching() *watchSet {
	if wo, ok := t.a.(watchObserver); ok {
		return wo.watching()
	}
	return nil
}

// mergeWatchSets is the union of sets (nil if empty).
func mergeWatchSets(sets []*watchSet) *watchSet {
	switch len(sets) {
	case 0:
		return nil
	case 1:
		return sets[0]
	}
	ws := &watchSet{}
	for _, s := range sets {
		ws.union(s)
	}
	return ws
}

// unwrapObserver returns the observer whose events a quiet replay
// (race.go) schedules.
func unwrapObserver(o observer) observer {
	if q, ok := o.(quietObserver); ok {
		return q.observer
	}
	return o
}

// watchSetOf returns the watch set of the exploration's observer (nil
// without state-predicate specs).
func watchSetOf(o observer) *watchSet {
	if wo, ok := unwrapObserver(o).(watchObserver); ok {
		return wo.watching()
	}
	return nil
}

// stateWatcher is implemented by the path monitors of specs: the start
// of the entry, and a watched write just performed.
type stateWatcher interface {
	entryStart(x *execution, g *goroutine) *violation
	written(x *execution, g *goroutine, pos token.Pos, what string) *violation
}

func (ps *specPaths) entryStart(x *execution, g *goroutine) *violation {
	for _, p := range ps.paths {
		if w, ok := p.(stateWatcher); ok {
			if v := w.entryStart(x, g); v != nil {
				return v
			}
		}
	}
	return nil
}

func (ps *specPaths) written(x *execution, g *goroutine, pos token.Pos, what string) *violation {
	for _, p := range ps.paths {
		if w, ok := p.(stateWatcher); ok {
			if v := w.written(x, g, pos, what); v != nil {
				return v
			}
		}
	}
	return nil
}

func (t teePath) entryStart(x *execution, g *goroutine) *violation {
	if w, ok := t.a.(stateWatcher); ok {
		return w.entryStart(x, g)
	}
	return nil
}

func (t teePath) written(x *execution, g *goroutine, pos token.Pos, what string) *violation {
	if w, ok := t.a.(stateWatcher); ok {
		return w.written(x, g, pos, what)
	}
	return nil
}

// withEntryStart wraps the first instruction of the explored entry
// function when state predicates are checked: its state is the first
// position of the path. Other instructions are returned unchanged.
func (c *compiler) withEntryStart(obs observer, ins ssa.Instruction, f instrFn) instrFn {
	wo, ok := obs.(watchObserver)
	if !ok || wo.watching() == nil {
		return f
	}
	// (the machine's driver of the explored entry exists before the entry
	// is compiled)
	if _, entry := c.m.drivers[c.fn]; !entry || ins != firstInstr(c.fn) {
		return f
	}
	return func(fr *frame) ctrl {
		g := fr.g
		if w, ok := g.x.monitor.(stateWatcher); ok {
			if cc := g.x.observed(w.entryStart(g.x, g), g.sourcePos()); cc != ctrlNext {
				return cc
			}
		}
		return f(fr)
	}
}

// withWatchedWrite wraps an instruction that may write memory a state
// predicate reads (watchSet.watched): it becomes a scheduling point, and
// the predicates are observed after it. Other instructions are returned
// unchanged.
func (c *compiler) withWatchedWrite(obs observer, ins ssa.Instruction, f instrFn) instrFn {
	wo, ok := obs.(watchObserver)
	if !ok {
		return f
	}
	ws := wo.watching()
	if ws == nil {
		return f
	}
	op, isMap := ws.watched(ins)
	if op == nil {
		return f
	}
	reg := c.use(op)
	pos := accessPos(ins)
	if !pos.IsValid() {
		pos = c.fn.Pos()
	}
	label := "write " + c.m.prog.describeAddr(op)
	if isMap {
		label = "update map " + c.m.prog.describeAddr(op)
	}
	return func(fr *frame) ctrl {
		g := fr.g
		x := g.x
		if x.inInit {
			return f(fr)
		}
		if !g.granted {
			v := fr.regs[reg]
			if v.p == nil {
				return f(fr) // nil: the instruction panics (or does nothing)
			}
			g.pend = pendingOp{kind: opEvent, pos: pos, label: label, write: true}
			if isMap {
				g.pend.key = evKey{id: v.mapObj().id, off: -4}
			} else {
				g.pend.obj, g.pend.off = v.obj(), v.off()
			}
			return ctrlYield
		}
		// The grant is left to the instruction: with Options.Shared its
		// own access to shared memory is this scheduling point.
		cc := f(fr)
		g.granted = false
		if cc != ctrlNext {
			return cc
		}
		if w, ok := x.monitor.(stateWatcher); ok {
			return x.observed(w.written(x, g, pos, label), pos)
		}
		return ctrlNext
	}
}

// firstInstr is the instruction fn's code starts with.
func firstInstr(fn *ssa.Function) ssa.Instruction {
	for _, b := range fn.Blocks {
		for _, ins := range b.Instrs {
			switch ins.(type) {
			case *ssa.Phi, *ssa.DebugRef:
				continue
			}
			return ins
		}
		break
	}
	return nil
}

// observed ends an observation of the state: a violation (a predicate
// that cannot be evaluated) stops the execution with a finding at pos,
// as does a symbolic decision that stopped it.
func (x *execution) observed(v *violation, pos token.Pos) ctrl {
	if v != nil {
		if v.Pos.IsValid() {
			pos = v.Pos
		}
		x.addViolation(v, pos)
		x.stopped = true
		return ctrlStop
	}
	if x.stopped {
		return ctrlStop // stopped while deciding a symbolic predicate
	}
	return ctrlNext
}

// predConflicts makes the scheduling steps that change what state
// predicates read outside watched writes conflict with observer events:
// atomic stores, and channel operations when a predicate reads the
// length or capacity of a channel.
func (x *execution) predConflicts(e *event, p *pendingOp) {
	switch p.kind {
	case opAtomic, opSend, opRecv, opClose, opSelect:
	default:
		return
	}
	if x.opts.observer == nil {
		return
	}
	ws := watchSetOf(x.opts.observer)
	if ws == nil || p.kind == opAtomic && !p.write || p.kind != opAtomic && !ws.chanLen {
		return
	}
	e.also = append(e.also, eventsObj)
}
