package explore

import (
	"go/types"
	"unsafe"

	"golang.org/x/tools/go/ssa"
)

// errors.Is and errors.As use reflectlite; they are modelled here, calling
// the Is/As/Unwrap methods of the interpreted errors synchronously. The
// rest of package errors is interpreted.

func errorsIntrinsics() map[string]intrinsicFactory {
	return map[string]intrinsicFactory{
		"errors.Is": nests(simple(errorsIs), true),
		"errors.As": nests(simple(errorsAs), true),
		// reflectlite, as used by errors' and context's initialization and
		// context's String methods.
		"internal/reflectlite.TypeOf": func(m *machine, fn *ssa.Function) intrinsic {
			return func(c *icall) ctrl { return c.ret(m.typeValue(c.args[0])) }
		},
		"reflect.TypeOf": func(m *machine, fn *ssa.Function) intrinsic {
			return func(c *icall) ctrl { return c.ret(m.typeValue(c.args[0])) }
		},
		"reflect.DeepEqual": simple(func(c *icall) ctrl {
			return c.ret(boolV(deepEqualIface(c.args[0], c.args[1], map[[2]unsafe.Pointer]bool{})))
		}),
		"internal/godebug.New": func(m *machine, fn *ssa.Function) intrinsic {
			st := m.rtypeOf(fn.Signature.Results().At(0).Type().(*types.Pointer).Elem())
			return func(c *icall) ctrl { return c.ret(ptrV(newObject(max(1, st.size)), 0)) }
		},
		"(*internal/godebug.Setting).Value":         simple(func(c *icall) ctrl { return c.ret(Value{}) }),
		"(*internal/godebug.Setting).IncNonDefault": simple(func(c *icall) ctrl { return c.ret(Value{}) }),
		"(*internal/godebug.Setting).Name":          simple(func(c *icall) ctrl { return c.ret(Value{}) }),
	}
}

// unwrapOnce returns the errors err wraps (Unwrap() error or
// Unwrap() []error).
func unwrapOnce(c *icall, err Value) ([]Value, ctrl) {
	it := err.iface()
	fc := c.m().stringMethodAny(it.t, "Unwrap")
	if fc == nil {
		return nil, ctrlNext
	}
	res, cc := c.g.callNested(funcV(fc.self), []Value{it.v})
	if cc != ctrlNext {
		return nil, cc
	}
	var sig *types.Signature
	if fc.fn != nil {
		sig = fc.fn.Signature
	}
	if sig != nil && sig.Results().Len() == 1 {
		if _, isSlice := sig.Results().At(0).Type().Underlying().(*types.Slice); isSlice {
			return sliceElems(res), ctrlNext
		}
	}
	if res.p == nil {
		return nil, ctrlNext
	}
	return []Value{res}, ctrlNext
}

// walkErrors visits err and the errors it wraps, depth first (as
// errors.Is and errors.As do), until visit returns true.
func walkErrors(c *icall, err Value, visit func(err Value) (bool, ctrl)) (bool, ctrl) {
	for depth := 0; depth < 100 && err.p != nil; depth++ {
		if ok, cc := visit(err); ok || cc != ctrlNext {
			return ok, cc
		}
		next, cc := unwrapOnce(c, err)
		if cc != ctrlNext {
			return false, cc
		}
		if len(next) != 1 {
			for _, e := range next {
				if ok, cc := walkErrors(c, e, visit); ok || cc != ctrlNext {
					return ok, cc
				}
			}
			return false, ctrlNext
		}
		err = next[0]
	}
	return false, ctrlNext
}

// callBoolMethod calls it.name(arg) if the type has such a method.
func callBoolMethod(c *icall, it *iface, name string, arg Value) (bool, ctrl) {
	fc := c.m().methodNamed(it.t, name)
	if fc == nil {
		return false, ctrlNext
	}
	res, cc := c.g.callNested(funcV(fc.self), []Value{it.v, arg})
	return cc == ctrlNext && res.Bool(), cc
}

func errorsIs(c *icall) ctrl {
	err, target := c.args[0], c.args[1]
	if err.p == nil || target.p == nil {
		return c.ret(boolV(err.p == target.p))
	}
	comparable := target.iface().t.comparable
	ok, cc := walkErrors(c, err, func(err Value) (bool, ctrl) {
		if comparable {
			if eq, _ := equal(c.m().errorIface, err, target); eq {
				return true, ctrlNext
			}
		}
		return callBoolMethod(c, err.iface(), "Is", target)
	})
	if cc != ctrlNext {
		return cc
	}
	return c.ret(boolV(ok))
}

func errorsAs(c *icall) ctrl {
	err, target := c.args[0], c.args[1]
	if target.p == nil {
		return c.g.throwPlain("errors: target cannot be nil")
	}
	tt := target.iface()
	if tt.t.kind != kPtr || tt.v.p == nil {
		return c.g.throwPlain("errors: target must be a non-nil pointer")
	}
	elem := tt.t.elem
	if elem.kind != kIface && !c.m().implements(elem, c.m().errorIface) {
		return c.g.throwPlain("errors: *target must be interface or implement error")
	}
	ok, cc := walkErrors(c, err, func(err Value) (bool, ctrl) {
		it := err.iface()
		if elem.kind == kIface && c.m().implements(it.t, elem) || it.t == elem {
			v := it.v
			if elem.kind == kIface {
				v = err
			}
			storeValue(elem, tt.v.obj(), tt.v.off(), v)
			return true, ctrlNext
		}
		return callBoolMethod(c, it, "As", target)
	})
	if cc != ctrlNext {
		return cc
	}
	return c.ret(boolV(ok))
}

// methodNamed returns t's method with the given name (any signature).
func (m *machine) methodNamed(t *rtype, name string) *fnCode {
	return m.stringMethodAny(t, name)
}

// typeValue returns a reflect.Type-like value describing the dynamic type
// of the interface value v: its dynamic type is a synthesized type with
// native methods String, Name, Kind, Elem, Comparable, PkgPath.
func (m *machine) typeValue(v Value) Value {
	if v.p == nil {
		return Value{}
	}
	return ifaceV(m.reflectType(), Value{p: unsafe.Pointer(v.iface().t)})
}

func (m *machine) reflectType() *rtype {
	if m.reflectT != nil {
		return m.reflectT
	}
	pkg := types.NewPackage("internal/reflectlite", "reflectlite")
	tn := types.NewTypeName(0, pkg, "rtype", nil)
	n := types.NewNamed(tn, types.Typ[types.UnsafePointer], nil)
	rt := m.rtypeOf(types.NewPointer(n))
	rt.opaque = true
	of := func(c *icall) *rtype { return (*rtype)(c.args[0].p) }
	rt.native = map[string]intrinsic{
		"String": func(c *icall) ctrl { return c.ret(strV(of(c).String())) },
		"Name": func(c *icall) ctrl {
			if nt, ok := of(c).T.(*types.Named); ok {
				return c.ret(strV(nt.Obj().Name()))
			}
			return c.ret(Value{})
		},
		"PkgPath": func(c *icall) ctrl {
			if nt, ok := of(c).T.(*types.Named); ok && nt.Obj().Pkg() != nil {
				return c.ret(strV(nt.Obj().Pkg().Path()))
			}
			return c.ret(Value{})
		},
		"Comparable": func(c *icall) ctrl { return c.ret(boolV(of(c).comparable)) },
		"Kind":       func(c *icall) ctrl { return c.ret(uintV(uint64(reflectKind(of(c))))) },
		"Elem": func(c *icall) ctrl {
			t := of(c)
			if t.elem == nil {
				return c.g.throwPlain("reflect: Elem of invalid type " + t.String())
			}
			return c.ret(ifaceV(rt, Value{p: unsafe.Pointer(t.elem)}))
		},
		"Implements": func(c *icall) ctrl {
			u := c.args[1]
			if u.p == nil {
				return c.g.throwPlain("reflect: nil type passed to Type.Implements")
			}
			it := (*rtype)(u.iface().v.p)
			return c.ret(boolV(it.kind == kIface && m.implements(of(c), it)))
		},
		"Key": func(c *icall) ctrl {
			t := of(c)
			if t.kind != kMap {
				return c.g.throwPlain("reflect: Key of non-map type " + t.String())
			}
			return c.ret(ifaceV(rt, Value{p: unsafe.Pointer(t.key)}))
		},
		"Len": func(c *icall) ctrl {
			t := of(c)
			if t.kind != kArray {
				return c.g.throwPlain("reflect: Len of non-array type " + t.String())
			}
			return c.ret(intV(int64(t.len)))
		},
		"NumField": func(c *icall) ctrl {
			t := of(c)
			if t.kind != kStruct {
				return c.g.throwPlain("reflect: NumField of non-struct type " + t.String())
			}
			return c.ret(intV(int64(len(t.fields))))
		},
		"AssignableTo": func(c *icall) ctrl {
			u := (*rtype)(c.args[1].iface().v.p)
			return c.ret(boolV(types.AssignableTo(of(c).T, u.T)))
		},
	}
	m.reflectT = rt
	return rt
}

// reflectKind maps an rtype to reflect.Kind's numbering.
func reflectKind(t *rtype) int {
	switch t.kind {
	case kBool:
		return 1
	case kInt, kInt8, kInt16, kInt32, kInt64:
		return 2 + int(t.kind-kInt)
	case kUint, kUint8, kUint16, kUint32, kUint64, kUintptr:
		return 7 + int(t.kind-kUint)
	case kFloat32:
		return 13
	case kFloat64:
		return 14
	case kComplex64:
		return 15
	case kComplex128:
		return 16
	case kArray:
		return 17
	case kChan:
		return 18
	case kFunc:
		return 19
	case kIface:
		return 20
	case kMap:
		return 21
	case kPtr:
		return 22
	case kSlice:
		return 23
	case kString:
		return 24
	case kStruct:
		return 25
	case kUnsafePointer:
		return 26
	}
	return 0
}

// deepEqualIface implements reflect.DeepEqual on interface values.
func deepEqualIface(a, b Value, seen map[[2]unsafe.Pointer]bool) bool {
	if a.p == nil || b.p == nil {
		return a.p == b.p
	}
	ai, bi := a.iface(), b.iface()
	if ai.t != bi.t {
		return false
	}
	return deepEqual(ai.t, ai.v, bi.v, seen)
}

func deepEqual(t *rtype, a, b Value, seen map[[2]unsafe.Pointer]bool) bool {
	switch t.kind {
	case kIface:
		return deepEqualIface(a, b, seen)
	case kPtr:
		if a.p == b.p && a.a == b.a {
			return true
		}
		if a.p == nil || b.p == nil {
			return false
		}
		k := [2]unsafe.Pointer{a.p, b.p}
		if seen[k] {
			return true
		}
		seen[k] = true
		return deepEqual(t.elem, loadValue(t.elem, a.obj(), a.off()), loadValue(t.elem, b.obj(), b.off()), seen)
	case kSlice:
		if (a.p == nil) != (b.p == nil) || a.sliceLen() != b.sliceLen() {
			return false
		}
		if a.p == b.p && a.a == b.a {
			return true
		}
		es := t.elem.size
		for i := range a.sliceLen() {
			if !deepEqual(t.elem, loadValue(t.elem, a.obj(), a.off()+i*es), loadValue(t.elem, b.obj(), b.off()+i*es), seen) {
				return false
			}
		}
		return true
	case kMap:
		am, bm := a.mapObj(), b.mapObj()
		if (am == nil) != (bm == nil) {
			return false
		}
		if am == bm {
			return true
		}
		if am.len() != bm.len() {
			return false
		}
		ok := true
		am.each(func(k, v Value) bool {
			w, found, _ := bm.get(k)
			if !found || !deepEqual(t.elem, v, w, seen) {
				ok = false
			}
			return ok
		})
		return ok
	case kStruct:
		for _, f := range t.fields {
			if !deepEqual(f.t, viewAt(f.t, a, f.off), viewAt(f.t, b, f.off), seen) {
				return false
			}
		}
		return true
	case kArray:
		for i := range t.len {
			if !deepEqual(t.elem, viewAt(t.elem, a, i*t.elem.size), viewAt(t.elem, b, i*t.elem.size), seen) {
				return false
			}
		}
		return true
	case kFunc:
		return a.p == nil && b.p == nil
	}
	eq, _ := equal(t, a, b)
	return eq
}
