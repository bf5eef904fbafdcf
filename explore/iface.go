package explore

import (
	"go/types"

	"golang.org/x/tools/go/ssa"
)

func (c *compiler) makeInterface(e *ssa.MakeInterface) instrFn {
	d, x := c.def(e), c.use(e.X)
	t := c.m.rtypeOf(e.X.Type())
	return func(fr *frame) ctrl {
		r := fr.regs
		r[d] = ifaceV(t, r[x])
		return ctrlNext
	}
}

func (c *compiler) makeClosure(e *ssa.MakeClosure) instrFn {
	d := c.def(e)
	fc := c.m.code(e.Fn.(*ssa.Function))
	bs := make([]int, len(e.Bindings))
	for i, b := range e.Bindings {
		bs[i] = c.use(b)
	}
	return func(fr *frame) ctrl {
		r := fr.regs
		env := make([]Value, len(bs))
		for i, s := range bs {
			env[i] = r[s]
		}
		r[d] = funcV(&closure{fn: fc, env: env})
		return ctrlNext
	}
}

// implements reports whether dynamic type t implements interface it.
func (m *machine) implements(t, it *rtype) bool {
	if ok, found := t.impl[it]; found {
		return ok
	}
	if t.impl == nil {
		t.impl = map[*rtype]bool{}
	}
	ok := types.Implements(t.T, it.T.Underlying().(*types.Interface))
	t.impl[it] = ok
	return ok
}

func (c *compiler) typeAssert(e *ssa.TypeAssert) instrFn {
	d, x := c.def(e), c.use(e.X)
	at := c.m.rtypeOf(e.AssertedType)
	st := c.m.rtypeOf(e.X.Type())
	m := c.m
	commaOk := e.CommaOk
	if at.kind == kIface {
		iface := at.T.Underlying().(*types.Interface)
		return func(fr *frame) ctrl {
			r := fr.regs
			v := r[x]
			ok := v.p != nil && m.implements(v.iface().t, at)
			switch {
			case commaOk && ok:
				r[d] = tupleV(v, boolV(true))
			case commaOk:
				r[d] = tupleV(Value{}, boolV(false))
			case ok:
				r[d] = v
			case v.p == nil:
				return fr.g.throwTypeAssert("interface conversion: interface is nil, not %s", at)
			default:
				dyn := v.iface().t
				missing, _ := types.MissingMethod(dyn.T, iface, true)
				name := "?"
				if missing != nil {
					name = missing.Name()
				}
				return fr.g.throwTypeAssert("interface conversion: %s is not %s: missing method %s", dyn, at, name)
			}
			return ctrlNext
		}
	}
	return func(fr *frame) ctrl {
		r := fr.regs
		v := r[x]
		ok := v.p != nil && v.iface().t == at
		switch {
		case commaOk && ok:
			r[d] = tupleV(v.iface().v, boolV(true))
		case commaOk:
			r[d] = tupleV(at.zero, boolV(false))
		case ok:
			r[d] = v.iface().v
		case v.p == nil:
			return fr.g.throwTypeAssert("interface conversion: %s is nil, not %s", ifaceName(st), at)
		default:
			return fr.g.throwTypeAssert("interface conversion: %s is %s, not %s", ifaceName(st), v.iface().t, at)
		}
		return ctrlNext
	}
}

// ifaceName prints an interface type as runtime messages do.
func ifaceName(t *rtype) string {
	if _, named := t.T.(*types.Named); named {
		return t.String()
	}
	if t.T.Underlying().(*types.Interface).NumMethods() == 0 {
		return "interface {}"
	}
	return "interface"
}

// throwTypeAssert panics with a *runtime.TypeAssertionError-like error.
func (g *goroutine) throwTypeAssert(format string, args ...any) ctrl {
	return g.throwPlainf(format, args...)
}

// newRuntimeErrorType returns the dynamic type of runtime panics: the
// runtime's own errorString when the runtime package is loaded, so
// %T prints "runtime.errorString"; Error() adds "runtime error: ".
func (m *machine) newRuntimeErrorType() *rtype {
	return m.runtimeStringError("errorString", "runtime error: ")
}

func (m *machine) runtimeStringError(name, prefix string) *rtype {
	var named types.Type
	if pkg := m.findPackage("runtime"); pkg != nil {
		if obj, ok := pkg.Scope().Lookup(name).(*types.TypeName); ok {
			named = obj.Type()
		}
	}
	if named == nil {
		pkg := types.NewPackage("runtime", "runtime")
		tn := types.NewTypeName(0, pkg, name, nil)
		n := types.NewNamed(tn, types.Typ[types.String], nil)
		sig := types.NewSignatureType(types.NewVar(0, pkg, "e", n), nil, nil, nil,
			types.NewTuple(types.NewVar(0, pkg, "", types.Typ[types.String])), false)
		n.AddMethod(types.NewFunc(0, pkg, "Error", sig))
		named = n
	}
	rt := m.rtypeOf(named)
	rt.native = map[string]intrinsic{
		"Error":        func(c *icall) ctrl { return c.ret(strV(prefix + c.args[0].Str())) },
		"RuntimeError": func(c *icall) ctrl { return c.ret(Value{}) },
	}
	return rt
}

// newPanicNilType returns *runtime.PanicNilError, the type of the value
// panic(nil) panics with since Go 1.21, with native Error and RuntimeError
// methods; nil when the program's runtime does not declare it.
func (m *machine) newPanicNilType() *rtype {
	pkg := m.findPackage("runtime")
	if pkg == nil {
		return nil
	}
	obj, ok := pkg.Scope().Lookup("PanicNilError").(*types.TypeName)
	if !ok {
		return nil
	}
	rt := m.rtypeOf(types.NewPointer(obj.Type()))
	rt.native = map[string]intrinsic{
		"Error":        func(c *icall) ctrl { return c.ret(strV(panicNilMsg)) },
		"RuntimeError": func(c *icall) ctrl { return c.ret(Value{}) },
	}
	return rt
}

const panicNilMsg = "panic called with nil argument (use -race to debug)"

// panicNilValue returns the value panic(nil) panics with: a
// *runtime.PanicNilError, or, when the program's runtime does not declare
// that type, a runtime.Error with its message.
func (m *machine) panicNilValue() Value {
	if m.panicNilType == nil {
		return ifaceV(m.rtErrorType, strV(panicNilMsg+" [PanicNilError]"))
	}
	return ifaceV(m.panicNilType, ptrV(&object{cells: make([]Value, 1)}, 0))
}

// findPackage returns the loaded package with the given path.
func (m *machine) findPackage(path string) *types.Package {
	for _, p := range m.prog.SSA.AllPackages() {
		if p.Pkg.Path() == path {
			return p.Pkg
		}
	}
	return nil
}
