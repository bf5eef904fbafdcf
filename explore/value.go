package explore

import (
	"math"
	"unsafe"
)

// Value is one Go value as the interpreter holds it: in a register, in a
// memory cell, in a channel buffer, a map entry or an interface payload.
//
// A Value is three machine words and never boxes scalars, so arithmetic,
// comparisons and register moves do not allocate. Its meaning depends on the
// static type, which the compiled code always knows:
//
//	bool                  a = 0 or 1
//	signed integers       a = uint64(int64(x)) (sign-extended to 64 bits)
//	unsigned integers     a = uint64(x) (zero-extended)
//	float32, float64      a = math.Float64bits(float64(x)); float32 results are rounded to float32
//	complex64, complex128 a, b = bits of the real and imaginary parts
//	string                p = data, a = length
//	pointer, unsafe.Pointer p = *object, a = cell offset (nil: p == nil)
//	slice                 p = *object (backing array), a = cell offset of element 0, b = len | cap<<32
//	map                   p = *mapObject
//	chan                  p = *chanObject
//	func                  p = *closure
//	interface             p = *iface (nil interface: p == nil)
//	struct, array         p = *object, a = cell offset: an immutable view of flattened cells
//	tuple                 p = *object whose cells are the components
//
// Invariant: for every scalar type p is nil in concrete execution. A future
// symbolic mode stores a term in p of a scalar Value (see hooks.go); code
// that must stay concrete checks p == nil.
//
// Aggregate values held in registers are views of private objects that
// nothing mutates (Load copies), so views may be shared freely. Only memory
// reached through pointers, slices and globals is mutable.
type Value struct {
	p unsafe.Pointer
	a uint64
	b uint64
}

// object is a block of interpreter memory: every scalar leaf of the
// allocated type occupies one cell (structs and arrays are flattened).
type object struct {
	cells []Value
	// shared is set for globals and for heap memory another goroutine
	// can reach (published through a go statement, a channel, or a store
	// into shared memory, or accessed by a goroutine other than its
	// owner). With Options.Shared its loads and stores are scheduling
	// points.
	shared bool
	// walked is set once publish has walked the whole object (mem.go).
	walked bool
	// owner is the key of the allocating goroutine (0: unknown).
	owner uint64
	// snap is the index+1 of a snapshot template object (0 otherwise).
	snap int32
	// race is the race detector's shadow of the cells (race.go).
	race *shadow
	// id identifies the object across executions that share the prefix
	// in which it was allocated (for DPOR): a hash of the allocating
	// goroutine's key and its allocation count; 0 for private objects.
	id uint64
}

func newObject(n int) *object { return &object{cells: make([]Value, n)} }

func boolV(b bool) Value {
	if b {
		return Value{a: 1}
	}
	return Value{}
}

func intV(x int64) Value     { return Value{a: uint64(x)} }
func uintV(x uint64) Value   { return Value{a: x} }
func floatV(x float64) Value { return Value{a: math.Float64bits(x)} }
func complexV(c complex128) Value {
	return Value{a: math.Float64bits(real(c)), b: math.Float64bits(imag(c))}
}

func strV(s string) Value {
	if len(s) == 0 {
		return Value{}
	}
	return Value{p: unsafe.Pointer(unsafe.StringData(s)), a: uint64(len(s))}
}

func ptrV(o *object, off int) Value { return Value{p: unsafe.Pointer(o), a: uint64(off)} }

func ptrOf(o *object) unsafe.Pointer { return unsafe.Pointer(o) }

func sliceV(o *object, off, n, c int) Value {
	return Value{p: unsafe.Pointer(o), a: uint64(off), b: uint64(n) | uint64(c)<<32}
}

func mapV(m *mapObject) Value {
	if m == nil {
		return Value{}
	}
	return Value{p: unsafe.Pointer(m)}
}

func chanV(c *chanObject) Value {
	if c == nil {
		return Value{}
	}
	return Value{p: unsafe.Pointer(c)}
}

func funcV(c *closure) Value {
	if c == nil {
		return Value{}
	}
	return Value{p: unsafe.Pointer(c)}
}

func ifaceV(t *rtype, v Value) Value {
	return Value{p: unsafe.Pointer(&iface{t: t, v: v})}
}

func (v Value) Bool() bool     { return v.a != 0 }
func (v Value) Int() int64     { return int64(v.a) }
func (v Value) Uint() uint64   { return v.a }
func (v Value) Float() float64 { return math.Float64frombits(v.a) }
func (v Value) Complex() complex128 {
	return complex(math.Float64frombits(v.a), math.Float64frombits(v.b))
}

func (v Value) Str() string {
	if v.a == 0 {
		return ""
	}
	return unsafe.String((*byte)(v.p), int(v.a))
}

func (v Value) obj() *object         { return (*object)(v.p) }
func (v Value) off() int             { return int(v.a) }
func (v Value) sliceLen() int        { return int(uint32(v.b)) }
func (v Value) sliceCap() int        { return int(v.b >> 32) }
func (v Value) mapObj() *mapObject   { return (*mapObject)(v.p) }
func (v Value) chanObj() *chanObject { return (*chanObject)(v.p) }
func (v Value) closure() *closure    { return (*closure)(v.p) }
func (v Value) iface() *iface        { return (*iface)(v.p) }
func (v Value) isNil() bool          { return v.p == nil }

// cell returns the addressed cell of a pointer value.
func (v Value) cell() *Value { return &(*object)(v.p).cells[v.a] }

// iface is the payload of a non-nil interface value.
type iface struct {
	t *rtype
	v Value
}

// closure is a function value: code plus the captured free variables.
type closure struct {
	fn  *fnCode
	env []Value
	// recv is set for native method values created by intrinsics.
}

// tuple builds a tuple value from its components.
func tupleV(vs ...Value) Value {
	o := &object{cells: vs}
	return Value{p: unsafe.Pointer(o)}
}
