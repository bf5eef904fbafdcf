package explore

import (
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// Intrinsics are looked up by the function's name as ssa.Function.String
// prints it (for instantiations of generic functions, the origin's name):
// "time.Sleep", "(*sync.Mutex).Lock", "(*sync/atomic.Pointer[T]).Load".
//
// A factory builds the intrinsic for one function; it may inspect the
// function's signature (atomic operations use it for the operand width).
type intrinsicFactory func(m *machine, fn *ssa.Function) intrinsic

// simple adapts an intrinsic that needs no signature.
func simple(f intrinsic) intrinsicFactory {
	return func(*machine, *ssa.Function) intrinsic { return f }
}

// intrinsicTable returns all intrinsics. It is built per machine from
// the per-area tables (no package-level mutable state).
func intrinsicTable() map[string]intrinsicFactory {
	t := map[string]intrinsicFactory{}
	for _, part := range []map[string]intrinsicFactory{
		runtimeIntrinsics(),
		syncIntrinsics(),
		atomicIntrinsics(),
		timeIntrinsics(),
		testingIntrinsics(),
		fmtIntrinsics(),
		errorsIntrinsics(),
		osIntrinsics(),
		logIntrinsics(),
		regexpIntrinsics(),
		reflectIntrinsics(),
		osFileIntrinsics(),
		miscIntrinsics(),
		randIntrinsics(),
		strconvIntrinsics(),
		symbolicIntrinsics(),
	} {
		for k, v := range part {
			t[k] = v
		}
	}
	return t
}

// lookupIntrinsic returns the intrinsic implementing fn, or nil if fn is
// interpreted.
func (m *machine) lookupIntrinsic(fn *ssa.Function) intrinsic {
	if m.intrinsics == nil {
		m.intrinsics = intrinsicTable()
	}
	name := fn.String()
	if o := fn.Origin(); o != nil {
		name = o.String()
	}
	if f, ok := m.intrinsics[name]; ok {
		return f(m, fn)
	}
	if nf := m.nativeFunc(name); nf != nil {
		if intr := m.nativeIntrinsic(fn, nf); intr != nil {
			return intr
		}
	}
	if fn.Pkg != nil && !m.prog.isInterpreted(fn.Pkg.Pkg) && len(fn.Blocks) == 0 {
		if fn.Synthetic == "package initializer" || fn.Name() == "init" {
			return func(c *icall) ctrl { return c.ret(Value{}) }
		}
	}
	return nil
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

// modelTypes holds types of modelled packages the intrinsics create
// values of, and checks the cell layouts the sync models rely on.
type modelTypes struct {
	layoutErr string // non-empty if sync types differ from the expected layout
}

// Cell offsets within sync types (verified in init).
const (
	rwWriter     = 0 // RWMutex.w.mu.state: 0 free, 1 writer waiting, 2 writer holds
	rwReaders    = 4 // RWMutex.readerCount.v
	onceDone     = 0 // Once.done.v
	onceRunning  = 1 // Once.m.mu.state
	condL        = 0 // Cond.L
	condWaitCell = 1 // Cond.notify.wait
	condNotify   = 2 // Cond.notify.notify
	wgWaiters    = 1 // WaitGroup.sema: the number of waiters (intr_sync.go)
)

func (mt *modelTypes) init(m *machine) {
	check := func(want int, typ string, path ...string) {
		t := m.named("sync", typ)
		if t == nil {
			return
		}
		if off, ok := m.cellOffset(t, path...); !ok || off != want {
			mt.layoutErr = "sync." + typ + "." + strings.Join(path, ".")
		}
	}
	check(0, "Mutex", "mu", "state")
	check(rwWriter, "RWMutex", "w", "mu", "state")
	check(rwReaders, "RWMutex", "readerCount", "v")
	check(0, "WaitGroup", "state", "v")
	check(wgWaiters, "WaitGroup", "sema")
	check(onceDone, "Once", "done", "v")
	check(onceRunning, "Once", "m", "mu", "state")
	check(condL, "Cond", "L")
	check(condWaitCell, "Cond", "notify", "wait")
	check(condNotify, "Cond", "notify", "notify")
}
