package symbolic

import (
	"go/types"
	"reflect"
)

// Type is the Go type of a Value: bool or one of Go's integer types.
// Integers are bit-vectors of the type's width; int, uint and uintptr
// are 64 bits wide (the amd64/arm64 sizes). byte and rune are the
// aliases Uint8 and Int32.
//
// The zero Type is Invalid.
type Type uint8

// The types a Value can have.
const (
	Invalid Type = iota
	Bool
	Int
	Int8
	Int16
	Int32
	Int64
	Uint
	Uint8
	Uint16
	Uint32
	Uint64
	Uintptr

	Byte = Uint8
	Rune = Int32
)

var typeNames = [...]string{
	Invalid: "invalid",
	Bool:    "bool",
	Int:     "int",
	Int8:    "int8",
	Int16:   "int16",
	Int32:   "int32",
	Int64:   "int64",
	Uint:    "uint",
	Uint8:   "uint8",
	Uint16:  "uint16",
	Uint32:  "uint32",
	Uint64:  "uint64",
	Uintptr: "uintptr",
}

// String returns the Go name of t ("int8", "bool"; "invalid" for
// Invalid and out-of-range values).
func (t Type) String() string {
	if int(t) < len(typeNames) {
		return typeNames[t]
	}
	return "invalid"
}

// IsInteger reports whether t is one of Go's integer types.
func (t Type) IsInteger() bool { return t >= Int && t <= Uintptr }

// Signed reports whether t is a signed integer type.
func (t Type) Signed() bool { return t >= Int && t <= Int64 }

// Bits returns the width of t in bits: 8…64 for integers, 1 for Bool,
// 0 for Invalid.
func (t Type) Bits() int {
	switch t {
	case Bool:
		return 1
	case Int8, Uint8:
		return 8
	case Int16, Uint16:
		return 16
	case Int32, Uint32:
		return 32
	case Int, Int64, Uint, Uint64, Uintptr:
		return 64
	}
	return 0
}

// mask returns the bit mask of t's width (all ones for 64-bit types).
func (t Type) mask() uint64 {
	return ^uint64(0) >> (64 - uint(t.Bits()))
}

// TypeOf returns the Type of the Go type t, looking through named types
// to the underlying basic type (so `type Celsius int8` is Int8). It
// reports false for types that are neither bool nor an integer,
// including untyped constants' types.
func TypeOf(t types.Type) (Type, bool) {
	b, ok := t.Underlying().(*types.Basic)
	if !ok {
		return Invalid, false
	}
	switch b.Kind() {
	case types.Bool:
		return Bool, true
	case types.Int:
		return Int, true
	case types.Int8:
		return Int8, true
	case types.Int16:
		return Int16, true
	case types.Int32:
		return Int32, true
	case types.Int64:
		return Int64, true
	case types.Uint:
		return Uint, true
	case types.Uint8:
		return Uint8, true
	case types.Uint16:
		return Uint16, true
	case types.Uint32:
		return Uint32, true
	case types.Uint64:
		return Uint64, true
	case types.Uintptr:
		return Uintptr, true
	}
	return Invalid, false
}

// TypeFor returns the Type of the Go type T (by its kind, so named
// types count as their underlying type), or Invalid if T is neither
// bool nor an integer type.
func TypeFor[T any]() Type {
	return typeOfKind(reflect.TypeFor[T]().Kind())
}

func typeOfKind(k reflect.Kind) Type {
	switch k {
	case reflect.Bool:
		return Bool
	case reflect.Int:
		return Int
	case reflect.Int8:
		return Int8
	case reflect.Int16:
		return Int16
	case reflect.Int32:
		return Int32
	case reflect.Int64:
		return Int64
	case reflect.Uint:
		return Uint
	case reflect.Uint8:
		return Uint8
	case reflect.Uint16:
		return Uint16
	case reflect.Uint32:
		return Uint32
	case reflect.Uint64:
		return Uint64
	case reflect.Uintptr:
		return Uintptr
	}
	return Invalid
}
