package symbolic

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
)

// Value is a Go bool or integer: either concrete, or a symbolic
// expression over named inputs. Values are immutable; they belong to no
// Session and may be shared between goroutines and Sessions.
//
// Operations on Values (BinOp, UnOp, Convert, Not, And, Or…) follow Go's
// semantics bit for bit. When every operand is concrete the result is
// computed natively and is concrete too, so concrete execution never
// reaches Z3.
//
// The zero Value is invalid (Type Invalid).
type Value struct {
	t Type
	c uint64 // concrete bits, masked to t's width; meaningful when e == nil
	e *node  // the expression when symbolic, nil when concrete
}

// node is a symbolic expression. Nodes are immutable after
// construction; hash and size are computed from the operands.
type node struct {
	op   op
	t    Type   // result type
	name string // opInput: the input's name
	x, y Value  // operands; y is invalid for unary operations
	hash uint64 // structural hash; equal nodes have equal hashes
	size uint32 // number of nodes in the tree (saturating); bounds recursion without memoization
}

// op is a node's operation. Operand types are those of the Go
// operators: both operands have the result type for arithmetic, the
// operand type decides signedness for /, %, >> and comparisons, and the
// count of a shift may have any integer type.
type op uint8

const (
	opInput op = iota + 1
	opAdd
	opSub
	opMul
	opQuo
	opRem
	opAnd
	opOr
	opXor
	opAndNot
	opShl
	opShr
	opMin
	opMax
	opNeg
	opCompl
	opConv
	opEq
	opNe
	opLt
	opLe
	opGt
	opGe
	opNot
	opLAnd
	opLOr
)

// isComparison reports whether o compares two operands to a bool.
func (o op) isComparison() bool { return o >= opEq && o <= opGe }

// maxSize saturates node sizes.
const maxSize = 1 << 30

// MakeBool returns the concrete bool b.
func MakeBool(b bool) Value {
	if b {
		return Value{t: Bool, c: 1}
	}
	return Value{t: Bool}
}

// MakeInt returns the concrete integer of type t with value v converted
// as Go's t(v) does (truncation to t's width). It returns the invalid
// Value if t is not an integer type.
func MakeInt(t Type, v int64) Value {
	return MakeUint(t, uint64(v))
}

// MakeUint is like MakeInt for an unsigned source value.
func MakeUint(t Type, v uint64) Value {
	if !t.IsInteger() {
		return Value{}
	}
	return Value{t: t, c: v & t.mask()}
}

// FromGo returns the concrete Value of x, which must be a bool or any
// integer (named types included: their kind decides the Type).
func FromGo(x any) (Value, error) {
	rv := reflect.ValueOf(x)
	if !rv.IsValid() {
		return Value{}, fmt.Errorf("symbolic: cannot represent %v", x)
	}
	t := typeOfKind(rv.Kind())
	switch {
	case t == Bool:
		return MakeBool(rv.Bool()), nil
	case t.Signed():
		return MakeInt(t, rv.Int()), nil
	case t.IsInteger():
		return MakeUint(t, rv.Uint()), nil
	}
	return Value{}, fmt.Errorf("symbolic: cannot represent %T: not a bool or an integer", x)
}

// Input returns the symbolic input called name, of type t. Two inputs
// are the same symbol when their names are equal; using one name with
// two types in one query is an error that the Session reports. Input
// returns the invalid Value if name is empty or t is neither Bool nor an
// integer type.
func Input(name string, t Type) Value {
	if name == "" || (t != Bool && !t.IsInteger()) {
		return Value{}
	}
	return symbolicValue(&node{op: opInput, t: t, name: name})
}

// symbolicValue finishes n (hash, size) and wraps it.
func symbolicValue(n *node) Value {
	n.hash = hashNode(n)
	n.size = 1
	for _, v := range [2]Value{n.x, n.y} {
		if v.e != nil {
			n.size = min(n.size+v.e.size, maxSize)
		}
	}
	return Value{t: n.t, e: n}
}

// Type returns v's Go type (Invalid for the zero Value).
func (v Value) Type() Type { return v.t }

// IsValid reports whether v is a Value rather than the zero Value.
func (v Value) IsValid() bool { return v.t != Invalid }

// IsConcrete reports whether v is a valid concrete value.
func (v Value) IsConcrete() bool { return v.t != Invalid && v.e == nil }

// IsSymbolic reports whether v depends on an input.
func (v Value) IsSymbolic() bool { return v.e != nil }

// Bool returns the value of a concrete bool. ok is false if v is not a
// concrete bool.
func (v Value) Bool() (b, ok bool) {
	if v.t != Bool || v.e != nil {
		return false, false
	}
	return v.c != 0, true
}

// Int64 returns a concrete integer converted as Go's int64(v) does. ok is
// false if v is not a concrete integer.
func (v Value) Int64() (n int64, ok bool) {
	if !v.t.IsInteger() || v.e != nil {
		return 0, false
	}
	if v.t.Signed() {
		return sext(v.t, v.c), true
	}
	return int64(v.c), true
}

// Uint64 returns a concrete integer converted as Go's uint64(v) does. ok
// is false if v is not a concrete integer.
func (v Value) Uint64() (n uint64, ok bool) {
	s, ok := v.Int64()
	return uint64(s), ok
}

// Concrete returns a concrete v as a Go value of its Type (int8, uint,
// bool, …; Uintptr values as uintptr). ok is false if v is symbolic or
// invalid.
func (v Value) Concrete() (x any, ok bool) {
	if v.t == Invalid || v.e != nil {
		return nil, false
	}
	s := sext(v.t, v.c)
	switch v.t {
	case Bool:
		return v.c != 0, true
	case Int:
		return int(s), true
	case Int8:
		return int8(s), true
	case Int16:
		return int16(s), true
	case Int32:
		return int32(s), true
	case Int64:
		return s, true
	case Uint:
		return uint(v.c), true
	case Uint8:
		return uint8(v.c), true
	case Uint16:
		return uint16(v.c), true
	case Uint32:
		return uint32(v.c), true
	case Uint64:
		return v.c, true
	case Uintptr:
		return uintptr(v.c), true
	}
	return nil, false
}

// As returns a concrete v as a value of the Go type T, which must have
// v's Type as its kind (named types included: a Value of Type Int16
// converts to `type Celsius int16`). ok is false otherwise, or if v is
// symbolic.
func As[T any](v Value) (x T, ok bool) {
	c, ok := v.Concrete()
	rt := reflect.TypeFor[T]()
	if !ok || typeOfKind(rt.Kind()) != v.t {
		return x, false
	}
	return reflect.ValueOf(c).Convert(rt).Interface().(T), true
}

// InputName returns the name of an input created by Input or
// Session.NewInput; ok is false for any other Value.
func (v Value) InputName() (name string, ok bool) {
	if v.e == nil || v.e.op != opInput {
		return "", false
	}
	return v.e.name, true
}

// Inputs returns the distinct inputs that v depends on, sorted by name
// (inputs with one name and different types are all listed).
func (v Value) Inputs() []Value {
	var ins []Value
	forEachInput(v, func(n *node) error {
		ins = append(ins, Value{t: n.t, e: n})
		return nil
	})
	slices.SortFunc(ins, func(a, b Value) int {
		if c := strings.Compare(a.e.name, b.e.name); c != 0 {
			return c
		}
		return int(a.t) - int(b.t)
	})
	return slices.CompactFunc(ins, Identical)
}

// forEachInput calls f for the input nodes of v, in depth-first order
// (each occurrence in a tree; once per shared subtree in large DAGs),
// and stops at f's first error.
func forEachInput(v Value, f func(*node) error) error {
	var seen map[*node]bool
	var walk func(v Value) error
	walk = func(v Value) error {
		n := v.e
		switch {
		case n == nil:
			return nil
		case n.op == opInput:
			return f(n)
		case n.size > 32:
			if seen == nil {
				seen = make(map[*node]bool)
			}
			if seen[n] {
				return nil
			}
			seen[n] = true
		}
		if err := walk(n.x); err != nil {
			return err
		}
		return walk(n.y)
	}
	return walk(v)
}

// Identical reports whether a and b are structurally the same value:
// equal concrete values, or the same expression over the same inputs.
// It is a syntactic test (x+1 and 1+x are not identical); use a Session
// to decide semantic equality.
func Identical(a, b Value) bool {
	return identical(a, b, nil)
}

// identical compares a and b; memo remembers node pairs already found
// equal, so shared subtrees (DAGs) are compared once. It is allocated
// lazily, only for large trees.
func identical(a, b Value, memo map[[2]*node]bool) bool {
	if a.t != b.t {
		return false
	}
	if a.e == nil || b.e == nil {
		return a.e == b.e && a.c == b.c
	}
	m, n := a.e, b.e
	if m == n {
		return true
	}
	if m.hash != n.hash || m.op != n.op || m.name != n.name || m.size != n.size {
		return false
	}
	if m.size > 32 {
		if memo == nil {
			memo = make(map[[2]*node]bool)
		}
		if memo[[2]*node{m, n}] {
			return true
		}
	}
	if !identical(m.x, n.x, memo) || !identical(m.y, n.y, memo) {
		return false
	}
	if memo != nil {
		memo[[2]*node{m, n}] = true
	}
	return true
}

// hashValue returns the structural hash of v.
func hashValue(v Value) uint64 {
	if v.e != nil {
		return v.e.hash
	}
	return mix(mix(0x51ed27, uint64(v.t)), v.c)
}

// hashNode computes n's structural hash from its fields.
func hashNode(n *node) uint64 {
	h := mix(uint64(n.op), uint64(n.t))
	for i := 0; i < len(n.name); i++ {
		h = mix(h, uint64(n.name[i]))
	}
	h = mix(h, hashValue(n.x))
	return mix(h, hashValue(n.y))
}

// mix combines h with v (a multiply–xorshift round, as in splitmix64).
func mix(h, v uint64) uint64 {
	h ^= v + 0x9e3779b97f4a7c15 + (h << 6) + (h >> 2)
	h *= 0xbf58476d1ce4e5b9
	return h ^ (h >> 31)
}
