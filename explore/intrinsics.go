package explore

import (
	"go/types"
	"maps"
	"strings"
	"unsafe"

	"golang.org/x/tools/go/ssa"
)

// Models of standard packages.
//
// The interpreter runs the user's code and most of the standard library
// from SSA, but models some standard packages natively: the operations
// that schedule (sync, sync/atomic, time, runtime), those whose code is
// assembly or reaches into the runtime (internal/bytealg, reflect,
// unique, os), the ones whose effects the explorer captures (fmt, log,
// testing), and pure leaf functions faster to call than to interpret
// (strings, strconv, math…). Each modelled package has its file,
// model_<pkg>.go, whose constructor (syncModel, timeModel…) returns a
// model; models lists them. (The packages modelled by native pure
// functions alone, math, unicode, bytes, path…, share pureModel in
// natives.go.) A model provides:
//
//   - intrinsics: functions and methods implemented natively (funcs);
//   - natives: pure Go functions called through reflection (natives.go);
//   - the initial values of the variables of opaque packages that
//     interpreted code may read (globals: os.Stdout, strconv.ErrRange…);
//   - per-execution state, if the model keeps any beyond what lives in
//     the interpreter's memory or in the side table of its objects
//     (execution.side): a slot and a constructor (modelState).
//
// The machine merges the models' tables once (modelRegistry). The
// interpreter consults them when it compiles a call or first meets a
// package variable: a map lookup per function or variable, never per
// instruction.

// A model is how the interpreter models one standard package (or a few
// closely related ones).
type model struct {
	// funcs maps function names to the factories of their intrinsics.
	// Names are as ssa.Function.String prints them (for instantiations of
	// generic functions, the origin's): "time.Sleep",
	// "(*sync.Mutex).Lock", "(*sync/atomic.Pointer[T]).Load".
	funcs map[string]intrinsicFactory
	// natives maps function names (as in funcs) to pure Go functions
	// called directly (natives.go).
	natives map[string]any
	// globals maps the variables of opaque packages ("os.Stdout") to the
	// constructors of their initializers.
	globals map[string]globalFactory
	// replaced maps the import paths of the packages the model replaces
	// to what it models of them: their initialization does not run and
	// their functions without an intrinsic are unsupported stubs
	// (model_spew.go).
	replaced map[string]string
	// slot is where the execution keeps the model's state (noState if it
	// keeps none); newState creates that state on its first use.
	slot     stateSlot
	newState func(x *execution) modelState
}

// models returns the models of standard packages (and of the helpers of
// ltltest the interpreter implements). They are built per machine: no
// package-level mutable state.
func models() []model {
	return []model{
		runtimeModel(),
		syncModel(),
		atomicModel(),
		timeModel(),
		testingModel(),
		fmtModel(),
		errorsModel(),
		godebugModel(),
		osModel(),
		netModel(),
		execModel(),
		logModel(),
		regexpModel(),
		jsonModel(),
		gobModel(),
		reflectModel(),
		randModel(),
		bigModel(),
		flagModel(),
		quickModel(),
		strconvModel(),
		stringsModel(),
		bytealgModel(),
		sortModel(),
		uniqueModel(),
		maphashModel(),
		pureModel(),
		spewModel(),
		symbolicModel(),
		testenvModel(),
		// last: other models that return errnos share its methods of
		// syscall.Errno (Is knows the io/fs sentinels)
		fileErrModel(),
	}
}

// A factory builds the intrinsic for one function; it may inspect the
// function's signature (atomic operations use it for the operand width).
type intrinsicFactory func(m *machine, fn *ssa.Function) intrinsic

// simple adapts an intrinsic that needs no signature.
func simple(f intrinsic) intrinsicFactory {
	return func(*machine, *ssa.Function) intrinsic { return f }
}

// globalInit initializes the memory o of a modelled package variable at
// the start of an execution (after the variables are zeroed).
type globalInit func(x *execution, o *object)

// A globalFactory builds the initializer of one package variable; it may
// inspect the variable's type.
type globalFactory func(m *machine, g *ssa.Global) globalInit

// stateSlot indexes the per-execution state of the models that keep one
// (execution.models).
type stateSlot uint8

const (
	noState     stateSlot = iota // the model keeps no per-execution state
	randSlot                     // math/rand's top-level generator (model_rand.go)
	logSlot                      // the log package's standard logger (model_log.go)
	uniqueSlot                   // unique.Make's table (model_unique.go)
	osSlot                       // the files os.Open opened (model_os.go)
	fmtSlot                      // the fake addresses %p prints (model_fmt.go)
	testingSlot                  // the execution's tests (model_testing.go)
	netSlot                      // the loopback network's listeners and connections (model_net.go)
	numSlots
)

// modelState is the per-execution state of a model. An execution starts
// without any: the model's accessor creates it on first use
// (execution.modelState), so an execution pays only for the models it
// uses, and there is nothing to reset (a new execution has new states).
type modelState interface {
	// snapshot returns an independent copy of the state for the package
	// initialization snapshot (snapshot.go), or false if the state
	// cannot be carried by a snapshot: the model then prevents it. A nil
	// copy with true carries nothing (the state belongs to the execution,
	// not to package initialization). Restoring a snapshot installs a
	// further copy of each non-nil copy in each execution.
	snapshot() (modelState, bool)
	// release frees what the state holds outside the interpreter (open
	// files); it is called once, when the execution is released.
	release()
}

// modelRegistry is the models' tables merged, built once per machine.
type modelRegistry struct {
	funcs    map[string]intrinsicFactory
	natives  map[string]any
	globals  map[string]globalFactory
	replaced map[string]string
	newState [numSlots]func(x *execution) modelState
}

func newModelRegistry() *modelRegistry {
	r := &modelRegistry{
		funcs:    map[string]intrinsicFactory{},
		natives:  map[string]any{},
		globals:  map[string]globalFactory{},
		replaced: map[string]string{},
	}
	for _, md := range models() {
		maps.Copy(r.replaced, md.replaced)
		maps.Copy(r.funcs, md.funcs)
		maps.Copy(r.natives, md.natives)
		maps.Copy(r.globals, md.globals)
		if md.slot != noState {
			r.newState[md.slot] = md.newState
		}
	}
	return r
}

// registry returns the machine's merged model tables.
func (m *machine) registry() *modelRegistry {
	if m.models == nil {
		m.models = newModelRegistry()
	}
	return m.models
}

// modelState returns the execution's state of the model in slot s,
// created on first use.
func (x *execution) modelState(s stateSlot) modelState {
	if st := x.models[s]; st != nil {
		return st
	}
	st := x.m.registry().newState[s](x)
	x.models[s] = st
	return st
}

// releaseModels releases the models' states (modelState.release).
func (x *execution) releaseModels() {
	for i, st := range x.models {
		if st != nil {
			st.release()
			x.models[i] = nil
		}
	}
}

// replaced returns what the models model of the package pkg, if they
// replace it (model.replaced).
func (m *machine) replaced(pkg *ssa.Package) (string, bool) {
	if pkg == nil {
		return "", false
	}
	what, ok := m.registry().replaced[pkg.Pkg.Path()]
	return what, ok
}

// lookupIntrinsic returns the intrinsic implementing fn, or nil if fn is
// interpreted.
func (m *machine) lookupIntrinsic(fn *ssa.Function) intrinsic {
	name := fn.String()
	if o := fn.Origin(); o != nil {
		name = o.String()
	}
	r := m.registry()
	if f, ok := r.funcs[name]; ok {
		return f(m, fn)
	}
	if nf := r.natives[name]; nf != nil {
		if intr := m.nativeIntrinsic(fn, nf); intr != nil {
			return intr
		}
	}
	if target := m.prog.linkname(fn); target != "" {
		// a user function declared without body and pulled from the
		// runtime by //go:linkname (say runtime.cheaprand): the model of
		// its target
		if f, ok := r.funcs[target]; ok {
			return f(m, fn)
		}
	}
	if fn.Pkg != nil && !m.prog.isInterpreted(fn.Pkg.Pkg) && len(fn.Blocks) == 0 {
		if fn.Synthetic == "package initializer" || fn.Name() == "init" {
			return func(c *icall) ctrl { return c.ret(Value{}) }
		}
	}
	return nil
}

// globalModel returns the initializer of a modelled package variable of
// an opaque package, or nil.
func (m *machine) globalModel(g *ssa.Global) globalInit {
	if f := m.registry().globals[g.Pkg.Pkg.Path()+"."+g.Name()]; f != nil {
		return f(m, g)
	}
	return nil
}

// globalUnsupported reports whether reading g is unsupported: its package
// is opaque and the variable is not modelled.
func (m *machine) globalUnsupported(g *ssa.Global) bool {
	if g.Pkg == nil || m.prog.isInterpreted(g.Pkg.Pkg) {
		return false
	}
	return m.globalModel(g) == nil
}

// sideState returns the model state attached to a memory cell (created
// by mk on first use): the state of a sync.Map, a strings.Builder, a
// timer… lives in the execution's side table, keyed by the object and
// offset of the Go value it models.
func (x *execution) sideState(o *object, off int, mk func() any) any {
	k := objKey{p: unsafe.Pointer(o), off: off}
	if v, ok := x.side[k]; ok {
		return v
	}
	if x.side == nil {
		x.side = map[objKey]any{}
	}
	v := mk()
	x.side[k] = v
	return v
}

// setSide attaches model state v to the cell off of o (-1: the object as
// a whole).
func (x *execution) setSide(o *object, off int, v any) {
	if x.side == nil {
		x.side = map[objKey]any{}
	}
	x.side[objKeyOf(o, off)] = v
}

// yieldOp parks the calling goroutine at a scheduling point (first run
// of a visible intrinsic). It returns false if the operation was granted
// and must now be performed.
func (c *icall) yield(p pendingOp) bool {
	g := c.g
	if g.granted {
		g.granted = false
		return false
	}
	if !p.pos.IsValid() {
		p.pos = c.pos
	}
	if !p.pos.IsValid() {
		p.pos = g.sourcePos()
	}
	g.pend = p
	return true
}

// ptrArg returns argument i as a pointer, or false after starting a nil
// dereference panic.
func (c *icall) ptrArg(i int) (*object, int, bool) {
	v := c.args[i]
	if v.p == nil {
		return nil, 0, false
	}
	return v.obj(), v.off(), true
}

func (c *icall) nilPanic() ctrl {
	return c.g.throwRuntime("invalid memory address or nil pointer dereference")
}

// named looks up a named type of a loaded package (cached per machine).
func (m *machine) named(pkg, name string) types.Type {
	key := pkg + "." + name
	if t, ok := m.namedCache[key]; ok {
		return t
	}
	var t types.Type
	if p := m.findPackage(pkg); p != nil {
		if tn, ok := p.Scope().Lookup(name).(*types.TypeName); ok {
			t = tn.Type()
		}
	}
	if m.namedCache == nil {
		m.namedCache = map[string]types.Type{}
	}
	m.namedCache[key] = t
	return t
}

// cellOffset returns the cell offset of the field path within struct t.
func (m *machine) cellOffset(t types.Type, path ...string) (int, bool) {
	off := 0
	for _, name := range path {
		st, ok := t.Underlying().(*types.Struct)
		if !ok {
			return 0, false
		}
		rt := m.rtypeOf(t)
		found := false
		for i := range st.NumFields() {
			if st.Field(i).Name() == name {
				off += rt.fields[i].off
				t = st.Field(i).Type()
				found = true
				break
			}
		}
		if !found {
			return 0, false
		}
	}
	return off, true
}

func (m *machine) ptrTo(pkg, name string) *rtype {
	t := m.named(pkg, name)
	if t == nil {
		return nil
	}
	return m.rtypeOf(types.NewPointer(t))
}

// globalByName finds a package-level variable.
func (m *machine) globalByName(pkg, name string) *ssa.Global {
	for _, p := range m.prog.SSA.AllPackages() {
		if p.Pkg.Path() == pkg {
			g, _ := p.Members[name].(*ssa.Global)
			return g
		}
	}
	return nil
}

// throwString panics with the string msg, as panic(msg) in the standard
// library code an intrinsic models does, positioned at the intrinsic's
// call (c.pos, also when the intrinsic runs from a trampoline).
func (c *icall) throwString(msg string) ctrl {
	g := c.g
	v := ifaceV(c.m().stringType, strV(msg))
	if !c.pos.IsValid() {
		return g.throw(v)
	}
	st := g.stack()
	if len(st) > 0 && g.top == c.fr && c.fr.fn.fn != nil {
		st[0].Pos = c.m().prog.Fset.Position(c.pos)
	}
	g.panic = &panicRec{val: v, prev: g.panic, pos: c.pos, stack: st}
	return ctrlPanic
}

// sliceElems returns the elements of a slice value (one cell each).
func sliceElems(s Value) []Value {
	if s.p == nil {
		return nil
	}
	return s.obj().cells[s.off() : s.off()+s.sliceLen()]
}

// stringMethodAny returns the method of t with the given name.
func (m *machine) stringMethodAny(t *rtype, name string) *fnCode {
	ms := m.prog.SSA.MethodSets.MethodSet(t.T)
	for i := range ms.Len() {
		if f := ms.At(i).Obj().(*types.Func); f.Name() == name {
			return m.method(t, f)
		}
	}
	if t.native != nil {
		if intr, ok := t.native[name]; ok {
			fc := &fnCode{name: name, intr: intr, compiled: true, recoverPC: -1}
			fc.self = &closure{fn: fc}
			return fc
		}
	}
	return nil
}

// linkname returns the target of a //go:linkname directive for fn, a
// function of the user's packages declared without a body ("" if none):
// "//go:linkname runtime_cheaprand runtime.cheaprand" pulls
// runtime.cheaprand's implementation into runtime_cheaprand.
func (p *Program) linkname(fn *ssa.Function) string {
	if len(fn.Blocks) != 0 || fn.Pkg == nil || fn.Signature.Recv() != nil {
		return ""
	}
	tf := p.Fset.File(fn.Pos())
	if tf == nil || p.files[tf] == nil {
		return ""
	}
	for _, cg := range p.files[tf].Comments {
		for _, c := range cg.List {
			f := strings.Fields(c.Text)
			if len(f) == 3 && f[0] == "//go:linkname" && f[1] == fn.Name() {
				return f[2]
			}
		}
	}
	return ""
}
