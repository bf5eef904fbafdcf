package explore

import (
	"fmt"
	"go/token"
	"go/types"
	"runtime"
	"unsafe"

	"golang.org/x/tools/go/ssa"
)

// The reflect package: reflect.TypeOf (and internal/reflectlite.TypeOf,
// which errors and context use) returns a synthesized type with native
// methods (typeValue); reflect.DeepEqual runs natively.
//
// A subset of reflect.Value, enough for libraries that inspect values
// generically (testify's assertions: ObjectsAreEqual, isNil, getLen,
// isEmpty, containsElement). A reflect.Value is an interpreter value of
// the real struct type (three cells: typ_, ptr, flag); the model keeps the
// payload in the ptr cell and the interpreter's rtype in the flag cell's
// pointer word (a uintptr-typed cell, so copying and snapshots leave it
// alone). An addressable Value (from Elem of a pointer, a slice's
// Index, a Field or Index of an addressable Value, reflect.New's Elem)
// keeps the address of its memory in the ptr cell instead, with
// reflectAddr in its flag, and reads it at each use; Set writes there
// (an unsafe.Pointer cell, so a package snapshot is not taken while one
// is live). A field that is not exported gives a read-only Value
// (reflectRO), which Set refuses as Go's does. The other setters (SetInt,
// Addr…) are not modelled.

// Flag bits of a reflect.Value's flag cell.
const (
	reflectValid = 1
	reflectAddr  = 2 // the ptr cell is the address of the value
	reflectRO    = 4 // obtained through a field that is not exported
)

var typByte = types.Typ[types.Uint8]

func (m *machine) reflectValueType() *rtype {
	if t := m.named("reflect", "Value"); t != nil {
		return m.rtypeOf(t)
	}
	return nil
}

// newReflectValue builds a reflect.Value holding v of type t (nil t: the
// zero, invalid Value).
func (m *machine) newReflectValue(t *rtype, v Value) Value {
	vt := m.reflectValueType()
	o := newObject(max(3, vt.size))
	if t != nil {
		o.cells[1] = v
		o.cells[2] = Value{p: unsafe.Pointer(t), a: reflectValid}
	}
	return ptrV(o, 0)
}

// newReflectAddr builds an addressable reflect.Value of type t for the
// memory at o's cell off; flags adds reflectRO.
func (m *machine) newReflectAddr(t *rtype, o *object, off int, flags uint64) Value {
	v := m.newReflectValue(t, ptrV(o, off))
	v.obj().cells[v.off()+2].a |= reflectAddr | flags
	return v
}

// reflectOf decodes a reflect.Value argument: its type and its value (an
// addressable one's, read from its memory now).
func reflectOf(v Value) (*rtype, Value) {
	cells := v.obj().cells[v.off():]
	t := (*rtype)(cells[2].p)
	if cells[2].a&reflectAddr != 0 {
		a := cells[1]
		return t, loadValue(t, a.obj(), a.off())
	}
	return t, cells[1]
}

// reflectAddrOf returns the memory of an addressable reflect.Value and
// its extra flags (reflectRO); ok is false for another Value.
func reflectAddrOf(v Value) (o *object, off int, flags uint64, ok bool) {
	cells := v.obj().cells[v.off():]
	if cells[2].a&reflectAddr == 0 {
		return nil, 0, 0, false
	}
	return cells[1].obj(), cells[1].off(), cells[2].a & reflectRO, true
}

// reflectSet is reflect.Value.Set: dst must be addressable and not
// read-only, x's type assignable to dst's.
func reflectSet(c *icall) ctrl {
	t, _ := reflectOf(c.args[0])
	xt, xv := reflectOf(c.args[1])
	if t == nil || xt == nil {
		return c.reflectPanic("Set", nil)
	}
	o, off, flags, ok := reflectAddrOf(c.args[0])
	switch {
	case ok && flags&reflectRO != 0:
		return c.g.throwPlain("reflect: reflect.Value.Set using value obtained using unexported field")
	case !ok:
		return c.g.throwPlain("reflect: reflect.Value.Set using unaddressable value")
	case !types.AssignableTo(xt.T, t.T):
		return c.g.throwPlain("reflect.Set: value of type " + xt.String() + " is not assignable to type " + t.String())
	}
	if t.kind == kIface && xt.kind != kIface {
		xv = ifaceV(xt, xv)
	}
	storeValue(t, o, off, xv)
	return c.ret(Value{})
}

func (c *icall) reflectPanic(method string, t *rtype) ctrl {
	kind := "zero"
	if t != nil {
		kind = kindName(t)
	}
	return c.g.throwPlain(fmt.Sprintf("reflect: call of reflect.Value.%s on %s Value", method, kind))
}

// kindName is reflect.Kind's String.
func kindName(t *rtype) string {
	names := []string{"invalid", "bool", "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16",
		"uint32", "uint64", "uintptr", "float32", "float64", "complex64", "complex128", "array", "chan", "func",
		"interface", "map", "ptr", "slice", "string", "struct", "unsafe.Pointer"}
	if k := reflectKind(t); k < len(names) {
		return names[k]
	}
	return "invalid"
}

func reflectModel() model {
	// value methods: f gets the Value's type (nil: invalid) and payload
	method := func(f func(c *icall, t *rtype, v Value) ctrl) intrinsicFactory {
		return simple(func(c *icall) ctrl {
			t, v := reflectOf(c.args[0])
			return f(c, t, v)
		})
	}
	elemAt := func(t *rtype, v Value, i int) Value {
		et := t.elem
		if t.kind == kArray {
			return viewAt(et, v, i*et.size)
		}
		return loadValue(et, v.obj(), v.off()+i*et.size)
	}
	return model{funcs: map[string]intrinsicFactory{
		"reflect.ValueOf": func(m *machine, fn *ssa.Function) intrinsic {
			return func(c *icall) ctrl {
				if c.args[0].p == nil {
					return c.ret(m.newReflectValue(nil, Value{}))
				}
				it := c.args[0].iface()
				return c.ret(m.newReflectValue(it.t, it.v))
			}
		},
		"reflect.Zero": func(m *machine, fn *ssa.Function) intrinsic {
			return func(c *icall) ctrl {
				if c.args[0].p == nil {
					return c.g.throwPlain("reflect: Zero(nil)")
				}
				t := (*rtype)(c.args[0].iface().v.p)
				return c.ret(m.newReflectValue(t, t.zero))
			}
		},
		"reflect.Indirect": func(m *machine, fn *ssa.Function) intrinsic {
			return func(c *icall) ctrl {
				t, v := reflectOf(c.args[0])
				if t == nil || t.kind != kPtr {
					return c.ret(c.args[0])
				}
				if v.p == nil {
					return c.ret(m.newReflectValue(nil, Value{}))
				}
				return c.ret(m.newReflectValue(t.elem, loadValue(t.elem, v.obj(), v.off())))
			}
		},
		"reflect.New": func(m *machine, fn *ssa.Function) intrinsic {
			return func(c *icall) ctrl {
				if c.args[0].p == nil {
					return c.g.throwPlain("reflect: New(nil)")
				}
				t := (*rtype)(c.args[0].iface().v.p)
				o := newObject(max(t.size, 1))
				storeValue(t, o, 0, t.zero)
				return c.ret(m.newReflectValue(m.rtypeOf(types.NewPointer(t.T)), ptrV(o, 0)))
			}
		},
		"(reflect.Value).Set": simple(reflectSet),
		"(reflect.Value).CanSet": func(m *machine, fn *ssa.Function) intrinsic {
			return func(c *icall) ctrl {
				_, _, flags, ok := reflectAddrOf(c.args[0])
				return c.ret(boolV(ok && flags&reflectRO == 0))
			}
		},
		"(reflect.Value).CanAddr": func(m *machine, fn *ssa.Function) intrinsic {
			return func(c *icall) ctrl {
				_, _, _, ok := reflectAddrOf(c.args[0])
				return c.ret(boolV(ok))
			}
		},
		"(reflect.Value).IsValid": method(func(c *icall, t *rtype, v Value) ctrl { return c.ret(boolV(t != nil)) }),
		"(reflect.Value).Kind": method(func(c *icall, t *rtype, v Value) ctrl {
			if t == nil {
				return c.ret(Value{})
			}
			return c.ret(uintV(uint64(reflectKind(t))))
		}),
		"(reflect.Value).Type": func(m *machine, fn *ssa.Function) intrinsic {
			return func(c *icall) ctrl {
				t, _ := reflectOf(c.args[0])
				if t == nil {
					return c.reflectPanic("Type", nil)
				}
				return c.ret(ifaceV(m.reflectType(), Value{p: unsafe.Pointer(t)}))
			}
		},
		"(reflect.Value).IsNil": method(func(c *icall, t *rtype, v Value) ctrl {
			if t == nil {
				return c.reflectPanic("IsNil", t)
			}
			switch t.kind {
			case kPtr, kMap, kChan, kFunc, kSlice, kUnsafePointer, kIface:
				return c.ret(boolV(v.p == nil))
			}
			return c.reflectPanic("IsNil", t)
		}),
		"(reflect.Value).Len": method(func(c *icall, t *rtype, v Value) ctrl {
			if t == nil {
				return c.reflectPanic("Len", t)
			}
			switch t.kind {
			case kSlice:
				return c.ret(intV(int64(v.sliceLen())))
			case kString:
				return c.ret(intV(int64(v.a)))
			case kArray:
				return c.ret(intV(int64(t.len)))
			case kMap:
				if mo := v.mapObj(); mo != nil {
					return c.ret(intV(int64(mo.len())))
				}
				return c.ret(intV(0))
			case kChan:
				if ch := v.chanObj(); ch != nil {
					return c.ret(intV(int64(ch.length())))
				}
				return c.ret(intV(0))
			case kPtr:
				if t.elem.kind == kArray {
					return c.ret(intV(int64(t.elem.len)))
				}
			}
			return c.reflectPanic("Len", t)
		}),
		"(reflect.Value).Cap": method(func(c *icall, t *rtype, v Value) ctrl {
			switch {
			case t != nil && t.kind == kSlice:
				return c.ret(intV(int64(v.sliceCap())))
			case t != nil && t.kind == kArray:
				return c.ret(intV(int64(t.len)))
			case t != nil && t.kind == kChan && v.p != nil:
				return c.ret(intV(int64(v.chanObj().capacity())))
			}
			return c.reflectPanic("Cap", t)
		}),
		"(reflect.Value).Index": func(m *machine, fn *ssa.Function) intrinsic {
			return func(c *icall) ctrl {
				t, v := reflectOf(c.args[0])
				i := int(c.args[1].Int())
				if t == nil {
					return c.reflectPanic("Index", t)
				}
				switch t.kind {
				case kSlice, kArray:
					n := t.len
					if t.kind == kSlice {
						n = v.sliceLen()
					}
					if i < 0 || i >= n {
						return c.g.throwPlain("reflect: slice index out of range")
					}
					if t.kind == kSlice {
						return c.ret(m.newReflectAddr(t.elem, v.obj(), v.off()+i*t.elem.size, 0))
					}
					if o, off, flags, ok := reflectAddrOf(c.args[0]); ok {
						return c.ret(m.newReflectAddr(t.elem, o, off+i*t.elem.size, flags))
					}
					return c.ret(m.newReflectValue(t.elem, elemAt(t, v, i)))
				case kString:
					s := v.Str()
					if i < 0 || i >= len(s) {
						return c.g.throwPlain("reflect: string index out of range")
					}
					return c.ret(m.newReflectValue(m.rtypeOf(typByte), uintV(uint64(s[i]))))
				}
				return c.reflectPanic("Index", t)
			}
		},
		"(reflect.Value).Elem": func(m *machine, fn *ssa.Function) intrinsic {
			return func(c *icall) ctrl {
				t, v := reflectOf(c.args[0])
				switch {
				case t != nil && t.kind == kPtr:
					if v.p == nil {
						return c.ret(m.newReflectValue(nil, Value{}))
					}
					return c.ret(m.newReflectAddr(t.elem, v.obj(), v.off(), 0))
				case t != nil && t.kind == kIface:
					if v.p == nil {
						return c.ret(m.newReflectValue(nil, Value{}))
					}
					it := v.iface()
					return c.ret(m.newReflectValue(it.t, it.v))
				}
				return c.reflectPanic("Elem", t)
			}
		},
		"(reflect.Value).Interface": method(func(c *icall, t *rtype, v Value) ctrl {
			if t == nil {
				return c.g.throwPlain("reflect: call of reflect.Value.Interface on zero Value")
			}
			if t.kind == kIface {
				return c.ret(v)
			}
			return c.ret(ifaceV(t, v))
		}),
		"(reflect.Value).CanInterface": method(func(c *icall, t *rtype, v Value) ctrl { return c.ret(boolV(t != nil)) }),
		"(reflect.Value).String": method(func(c *icall, t *rtype, v Value) ctrl {
			switch {
			case t == nil:
				return c.ret(strV("<invalid Value>"))
			case t.kind == kString:
				return c.ret(v)
			}
			return c.ret(strV("<" + t.String() + " Value>"))
		}),
		"(reflect.Value).Int": method(func(c *icall, t *rtype, v Value) ctrl {
			if t == nil || !t.kind.isSigned() {
				return c.reflectPanic("Int", t)
			}
			return c.ret(v)
		}),
		"(reflect.Value).Uint": method(func(c *icall, t *rtype, v Value) ctrl {
			if t == nil || !t.kind.isInteger() || t.kind.isSigned() {
				return c.reflectPanic("Uint", t)
			}
			return c.ret(v)
		}),
		"(reflect.Value).Float": method(func(c *icall, t *rtype, v Value) ctrl {
			if t == nil || !t.kind.isFloat() {
				return c.reflectPanic("Float", t)
			}
			return c.ret(v)
		}),
		"(reflect.Value).Bool": method(func(c *icall, t *rtype, v Value) ctrl {
			if t == nil || t.kind != kBool {
				return c.reflectPanic("Bool", t)
			}
			return c.ret(v)
		}),
		"(reflect.Value).IsZero": method(func(c *icall, t *rtype, v Value) ctrl {
			if t == nil {
				return c.reflectPanic("IsZero", t)
			}
			switch t.kind {
			case kSlice, kMap, kFunc, kChan, kPtr, kUnsafePointer, kIface:
				return c.ret(boolV(v.p == nil))
			}
			eq, _ := equal(t, v, t.zero)
			return c.ret(boolV(eq))
		}),
		"(reflect.Value).NumField": method(func(c *icall, t *rtype, v Value) ctrl {
			if t == nil || t.kind != kStruct {
				return c.reflectPanic("NumField", t)
			}
			return c.ret(intV(int64(len(t.fields))))
		}),
		"(reflect.Value).Field": func(m *machine, fn *ssa.Function) intrinsic {
			return func(c *icall) ctrl {
				t, v := reflectOf(c.args[0])
				i := int(c.args[1].Int())
				if t == nil || t.kind != kStruct {
					return c.reflectPanic("Field", t)
				}
				if i < 0 || i >= len(t.fields) {
					return c.g.throwPlain("reflect: Field index out of range")
				}
				f := t.fields[i]
				if o, off, flags, ok := reflectAddrOf(c.args[0]); ok {
					if !token.IsExported(f.name) {
						flags |= reflectRO
					}
					return c.ret(m.newReflectAddr(f.t, o, off+f.off, flags))
				}
				return c.ret(m.newReflectValue(f.t, viewAt(f.t, v, f.off)))
			}
		},
		"(reflect.Value).MapKeys": func(m *machine, fn *ssa.Function) intrinsic {
			return func(c *icall) ctrl {
				t, v := reflectOf(c.args[0])
				if t == nil || t.kind != kMap {
					return c.reflectPanic("MapKeys", t)
				}
				var keys []Value
				if mo := v.mapObj(); mo != nil {
					mo.each(func(k, _ Value) bool { keys = append(keys, k); return true })
				}
				vt := m.reflectValueType()
				o := newObject(len(keys) * vt.size)
				for i, k := range keys {
					rv := m.newReflectValue(t.key, k)
					copy(o.cells[i*vt.size:], rv.obj().cells[:vt.size])
				}
				return c.ret(sliceV(o, 0, len(keys), len(keys)))
			}
		},
		"(reflect.Value).MapIndex": func(m *machine, fn *ssa.Function) intrinsic {
			return func(c *icall) ctrl {
				t, v := reflectOf(c.args[0])
				_, k := reflectOf(c.args[1])
				if t == nil || t.kind != kMap {
					return c.reflectPanic("MapIndex", t)
				}
				mo := v.mapObj()
				if mo == nil {
					return c.ret(m.newReflectValue(nil, Value{}))
				}
				e, ok, bad := mo.get(k)
				if bad != nil {
					return c.g.throwRuntime("hash of unhashable type %s", bad)
				}
				if !ok {
					return c.ret(m.newReflectValue(nil, Value{}))
				}
				return c.ret(m.newReflectValue(t.elem, e))
			}
		},
		"(reflect.Value).Pointer": method(func(c *icall, t *rtype, v Value) ctrl {
			if t == nil {
				return c.reflectPanic("Pointer", t)
			}
			switch t.kind {
			case kPtr, kMap, kChan, kFunc, kSlice, kUnsafePointer:
				if v.p == nil {
					return c.ret(Value{})
				}
				return c.ret(uintV(c.x().fakeAddr(v)))
			}
			return c.reflectPanic("Pointer", t)
		}),
		// reflectlite, as used by errors' and context's initialization and
		// context's String methods.
		"internal/reflectlite.TypeOf": func(m *machine, fn *ssa.Function) intrinsic {
			return func(c *icall) ctrl { return c.ret(m.typeValue(c.args[0])) }
		},
		"reflect.TypeOf": func(m *machine, fn *ssa.Function) intrinsic {
			return func(c *icall) ctrl { return c.ret(m.typeValue(c.args[0])) }
		},
		// Convert: numeric conversions and conversions between types of
		// identical underlying types (the payload is unchanged); any other
		// conversion reflect allows is unsupported.
		"(reflect.Value).Convert": func(m *machine, fn *ssa.Function) intrinsic {
			return func(c *icall) ctrl {
				t, v := reflectOf(c.args[0])
				if t == nil {
					return c.reflectPanic("Convert", t)
				}
				if c.args[1].p == nil {
					return c.g.throwPlain("reflect: nil type passed to Value.Convert")
				}
				to := (*rtype)(c.args[1].iface().v.p)
				switch {
				case !types.ConvertibleTo(t.T, to.T):
					return c.g.throwPlain("reflect.Value.Convert: value of type " + t.String() + " cannot be converted to type " + to.String())
				case isNumericKind(t.kind) && isNumericKind(to.kind):
					return c.ret(m.newReflectValue(to, convertNumeric(pval{rt: t, v: v}, to)))
				case types.Identical(t.T.Underlying(), to.T.Underlying()):
					return c.ret(m.newReflectValue(to, v))
				}
				return c.g.unsupported(c.pos, "reflect.Value.Convert from %s to %s", t, to)
			}
		},
		"reflect.DeepEqual": simple(func(c *icall) ctrl {
			return c.ret(boolV(deepEqualIface(c.args[0], c.args[1], map[[2]unsafe.Pointer]bool{})))
		}),
	}}
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
		"ConvertibleTo": func(c *icall) ctrl {
			if c.args[1].p == nil {
				return c.g.throwPlain("reflect: nil type passed to Type.ConvertibleTo")
			}
			u := (*rtype)(c.args[1].iface().v.p)
			return c.ret(boolV(types.ConvertibleTo(of(c).T, u.T)))
		},
		"Size": func(c *icall) ctrl {
			return c.ret(uintV(uint64(hostSizes().Sizeof(of(c).T))))
		},
	}
	m.reflectT = rt
	return rt
}

// isNumericKind reports whether k is an integer or floating-point kind.
func isNumericKind(k kind) bool { return k.isInteger() || k.isFloat() }

// hostSizes gives reflect.Type.Size: the sizes of the gc compiler for the
// host architecture (amd64's if go/types does not know it).
func hostSizes() types.Sizes {
	if s := types.SizesFor("gc", runtime.GOARCH); s != nil {
		return s
	}
	return types.SizesFor("gc", "amd64")
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
