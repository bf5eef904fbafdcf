package explore

import (
	"go/types"
	"strings"

	"golang.org/x/tools/go/types/typeutil"
)

// kind classifies a type by its representation in a Value.
type kind uint8

const (
	kInvalid kind = iota
	kBool
	kInt
	kInt8
	kInt16
	kInt32
	kInt64
	kUint
	kUint8
	kUint16
	kUint32
	kUint64
	kUintptr
	kFloat32
	kFloat64
	kComplex64
	kComplex128
	kString
	kUnsafePointer
	kPtr
	kSlice
	kMap
	kChan
	kFunc
	kIface
	kStruct
	kArray
	kTuple
)

func (k kind) isInteger() bool { return k >= kInt && k <= kUintptr }
func (k kind) isSigned() bool  { return k >= kInt && k <= kInt64 }
func (k kind) isFloat() bool   { return k == kFloat32 || k == kFloat64 }
func (k kind) isComplex() bool { return k == kComplex64 || k == kComplex128 }

// isAggregate reports whether values of the kind are held as views of
// flattened cells.
func (k kind) isAggregate() bool { return k == kStruct || k == kArray }

// rtype is the interpreter's runtime descriptor of a Go type. There is one
// rtype per identical type per machine, so pointer equality is type identity.
type rtype struct {
	T      types.Type
	kind   kind
	size   int    // number of cells a value occupies in memory
	elem   *rtype // pointer, slice, array, chan element; map value
	key    *rtype // map key
	len    int    // array length
	fields []fieldInfo
	tuple  []*rtype

	comparable bool
	zero       Value // zero value; a view for aggregates

	methods map[string]*fnCode // method set, by types.Func.Id, filled lazily
	impl    map[*rtype]bool    // interface rtype → whether this type implements it
	// native methods of synthesized types (runtime errors, reflect types).
	native map[string]intrinsic
	// opaque types hold interpreter-internal payloads (a reflect type
	// value's payload is an *rtype): never dereferenced as memory.
	opaque bool
	name   string // cached printed name
}

type fieldInfo struct {
	off  int
	t    *rtype
	name string
	emb  bool
}

// types is the per-machine canonical map from types.Type to rtype.
type typeTable struct {
	m     typeutil.Map
	sizes typeutil.Map // struct type → cell count (see cells)
	all   []*rtype
}

func (tt *typeTable) lookup(t types.Type) *rtype {
	if rt, ok := tt.m.At(t).(*rtype); ok {
		return rt
	}
	rt := &rtype{T: t}
	tt.m.Set(t, rt)
	tt.all = append(tt.all, rt)
	tt.fill(rt)
	return rt
}

// cells returns the number of cells a value of type t occupies. It does
// not go through rtypes, so it is right for recursive types whose rtypes
// are still being filled (recursion through pointers ends at one cell).
func (tt *typeTable) cells(t types.Type) int {
	switch u := t.Underlying().(type) {
	case *types.Struct:
		if n, ok := tt.sizes.At(t).(int); ok {
			return n
		}
		n := 0
		for i := range u.NumFields() {
			n += tt.cells(u.Field(i).Type())
		}
		tt.sizes.Set(t, n)
		return n
	case *types.Array:
		return int(u.Len()) * tt.cells(u.Elem())
	}
	return 1
}

func (tt *typeTable) fill(rt *rtype) {
	t := rt.T
	rt.size = 1
	rt.comparable = types.Comparable(t)
	switch u := t.Underlying().(type) {
	case *types.Basic:
		rt.kind = basicKind(u)
	case *types.Pointer:
		rt.kind = kPtr
		rt.elem = tt.lookup(u.Elem())
	case *types.Slice:
		rt.kind = kSlice
		rt.comparable = false
		rt.elem = tt.lookup(u.Elem())
	case *types.Map:
		rt.kind = kMap
		rt.comparable = false
		rt.key = tt.lookup(u.Key())
		rt.elem = tt.lookup(u.Elem())
	case *types.Chan:
		rt.kind = kChan
		rt.elem = tt.lookup(u.Elem())
	case *types.Signature:
		rt.kind = kFunc
		rt.comparable = false
	case *types.Interface:
		rt.kind = kIface
	case *types.Struct:
		rt.kind = kStruct
		rt.size = 0
		rt.fields = make([]fieldInfo, u.NumFields())
		for i := range u.NumFields() {
			f := u.Field(i)
			rt.fields[i] = fieldInfo{off: rt.size, t: tt.lookup(f.Type()), name: f.Name(), emb: f.Embedded()}
			rt.size += tt.cells(f.Type())
		}
	case *types.Array:
		rt.kind = kArray
		rt.elem = tt.lookup(u.Elem())
		rt.len = int(u.Len())
		rt.size = rt.len * tt.cells(u.Elem())
	case *types.Tuple:
		rt.kind = kTuple
		rt.comparable = false
		for i := range u.Len() {
			rt.tuple = append(rt.tuple, tt.lookup(u.At(i).Type()))
		}
	default:
		rt.kind = kInvalid
	}
	if rt.kind.isAggregate() {
		rt.zero = ptrV(newObject(rt.size), 0)
	}
}

func basicKind(b *types.Basic) kind {
	switch b.Kind() {
	case types.Bool, types.UntypedBool:
		return kBool
	case types.Int, types.UntypedInt, types.UntypedRune:
		if b.Kind() == types.UntypedRune {
			return kInt32
		}
		return kInt
	case types.Int8:
		return kInt8
	case types.Int16:
		return kInt16
	case types.Int32:
		return kInt32
	case types.Int64:
		return kInt64
	case types.Uint:
		return kUint
	case types.Uint8:
		return kUint8
	case types.Uint16:
		return kUint16
	case types.Uint32:
		return kUint32
	case types.Uint64:
		return kUint64
	case types.Uintptr:
		return kUintptr
	case types.Float32:
		return kFloat32
	case types.Float64, types.UntypedFloat:
		return kFloat64
	case types.Complex64:
		return kComplex64
	case types.Complex128, types.UntypedComplex:
		return kComplex128
	case types.String, types.UntypedString:
		return kString
	case types.UnsafePointer:
		return kUnsafePointer
	case types.UntypedNil:
		return kPtr
	}
	return kInvalid
}

// String returns the type's name as reflect and fmt's %T print it.
func (rt *rtype) String() string {
	if rt.name == "" {
		rt.name = typeString(rt.T)
	}
	return rt.name
}

// typeString prints t the way the reflect package does: package names
// (not paths) qualify named types and "interface {}" has a space.
func typeString(t types.Type) string {
	s := types.TypeString(t, func(p *types.Package) string { return p.Name() })
	if strings.Contains(s, "interface{") || strings.Contains(s, "struct{") || strings.Contains(s, "any") {
		s = strings.ReplaceAll(s, "interface{}", "interface {}")
		s = strings.ReplaceAll(s, "struct{}", "struct {}")
		if s == "any" {
			s = "interface {}"
		}
		s = strings.ReplaceAll(s, "[]any", "[]interface {}")
		s = strings.ReplaceAll(s, "]any", "]interface {}")
	}
	return s
}
