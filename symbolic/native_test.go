package symbolic

import (
	"fmt"
	"go/token"
)

// This file evaluates operations with Go's own operators on Go's own
// types (through generics and type switches), as the reference the
// package's semantics are tested against. A runtime panic is returned
// as its message.

type integer interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr
}

// catch turns a runtime panic into its message.
func catch(msg *string) {
	if r := recover(); r != nil {
		*msg = fmt.Sprint(r)
	}
}

func goBinary[T integer](tok token.Token, x, y T) (r any, panicMsg string) {
	defer catch(&panicMsg)
	switch tok {
	case token.ADD:
		return x + y, ""
	case token.SUB:
		return x - y, ""
	case token.MUL:
		return x * y, ""
	case token.QUO:
		return x / y, ""
	case token.REM:
		return x % y, ""
	case token.AND:
		return x & y, ""
	case token.OR:
		return x | y, ""
	case token.XOR:
		return x ^ y, ""
	case token.AND_NOT:
		return x &^ y, ""
	case token.EQL:
		return x == y, ""
	case token.NEQ:
		return x != y, ""
	case token.LSS:
		return x < y, ""
	case token.LEQ:
		return x <= y, ""
	case token.GTR:
		return x > y, ""
	case token.GEQ:
		return x >= y, ""
	}
	panic("goBinary: " + tok.String())
}

func goShift[T, U integer](tok token.Token, x T, y U) (r any, panicMsg string) {
	defer catch(&panicMsg)
	if tok == token.SHL {
		return x << y, ""
	}
	return x >> y, ""
}

func goUnary[T integer](tok token.Token, x T) any {
	if tok == token.SUB {
		return -x
	}
	return ^x
}

func goMinMax[T integer](max_ bool, x, y T) any {
	if max_ {
		return max(x, y)
	}
	return min(x, y)
}

// nativeBinary evaluates x tok y for Go values of one type (or, for
// shifts, any two integer types).
func nativeBinary(tok token.Token, x, y any) (any, string) {
	if tok == token.SHL || tok == token.SHR {
		return nativeShift(tok, x, y)
	}
	switch x := x.(type) {
	case bool:
		y := y.(bool)
		switch tok {
		case token.EQL:
			return x == y, ""
		case token.NEQ:
			return x != y, ""
		case token.LAND:
			return x && y, ""
		case token.LOR:
			return x || y, ""
		}
	case int:
		return goBinary(tok, x, y.(int))
	case int8:
		return goBinary(tok, x, y.(int8))
	case int16:
		return goBinary(tok, x, y.(int16))
	case int32:
		return goBinary(tok, x, y.(int32))
	case int64:
		return goBinary(tok, x, y.(int64))
	case uint:
		return goBinary(tok, x, y.(uint))
	case uint8:
		return goBinary(tok, x, y.(uint8))
	case uint16:
		return goBinary(tok, x, y.(uint16))
	case uint32:
		return goBinary(tok, x, y.(uint32))
	case uint64:
		return goBinary(tok, x, y.(uint64))
	case uintptr:
		return goBinary(tok, x, y.(uintptr))
	}
	panic(fmt.Sprintf("nativeBinary: %T %s %T", x, tok, y))
}

func nativeShift(tok token.Token, x, y any) (any, string) {
	switch x := x.(type) {
	case int:
		return shiftBy(tok, x, y)
	case int8:
		return shiftBy(tok, x, y)
	case int16:
		return shiftBy(tok, x, y)
	case int32:
		return shiftBy(tok, x, y)
	case int64:
		return shiftBy(tok, x, y)
	case uint:
		return shiftBy(tok, x, y)
	case uint8:
		return shiftBy(tok, x, y)
	case uint16:
		return shiftBy(tok, x, y)
	case uint32:
		return shiftBy(tok, x, y)
	case uint64:
		return shiftBy(tok, x, y)
	case uintptr:
		return shiftBy(tok, x, y)
	}
	panic(fmt.Sprintf("nativeShift: %T", x))
}

func shiftBy[T integer](tok token.Token, x T, y any) (any, string) {
	switch y := y.(type) {
	case int:
		return goShift(tok, x, y)
	case int8:
		return goShift(tok, x, y)
	case int16:
		return goShift(tok, x, y)
	case int32:
		return goShift(tok, x, y)
	case int64:
		return goShift(tok, x, y)
	case uint:
		return goShift(tok, x, y)
	case uint8:
		return goShift(tok, x, y)
	case uint16:
		return goShift(tok, x, y)
	case uint32:
		return goShift(tok, x, y)
	case uint64:
		return goShift(tok, x, y)
	case uintptr:
		return goShift(tok, x, y)
	}
	panic(fmt.Sprintf("shiftBy: %T", y))
}

// nativeUnary evaluates -x, ^x or !x.
func nativeUnary(tok token.Token, x any) any {
	switch x := x.(type) {
	case bool:
		return !x
	case int:
		return goUnary(tok, x)
	case int8:
		return goUnary(tok, x)
	case int16:
		return goUnary(tok, x)
	case int32:
		return goUnary(tok, x)
	case int64:
		return goUnary(tok, x)
	case uint:
		return goUnary(tok, x)
	case uint8:
		return goUnary(tok, x)
	case uint16:
		return goUnary(tok, x)
	case uint32:
		return goUnary(tok, x)
	case uint64:
		return goUnary(tok, x)
	case uintptr:
		return goUnary(tok, x)
	}
	panic(fmt.Sprintf("nativeUnary: %T", x))
}

// nativeMinMax evaluates Go's min(x, y) or max(x, y).
func nativeMinMax(isMax bool, x, y any) any {
	switch x := x.(type) {
	case int:
		return goMinMax(isMax, x, y.(int))
	case int8:
		return goMinMax(isMax, x, y.(int8))
	case int16:
		return goMinMax(isMax, x, y.(int16))
	case int32:
		return goMinMax(isMax, x, y.(int32))
	case int64:
		return goMinMax(isMax, x, y.(int64))
	case uint:
		return goMinMax(isMax, x, y.(uint))
	case uint8:
		return goMinMax(isMax, x, y.(uint8))
	case uint16:
		return goMinMax(isMax, x, y.(uint16))
	case uint32:
		return goMinMax(isMax, x, y.(uint32))
	case uint64:
		return goMinMax(isMax, x, y.(uint64))
	case uintptr:
		return goMinMax(isMax, x, y.(uintptr))
	}
	panic(fmt.Sprintf("nativeMinMax: %T", x))
}

// nativeConvert evaluates Go's conversion t(x).
func nativeConvert(x any, t Type) any {
	switch x := x.(type) {
	case int:
		return convertTo(x, t)
	case int8:
		return convertTo(x, t)
	case int16:
		return convertTo(x, t)
	case int32:
		return convertTo(x, t)
	case int64:
		return convertTo(x, t)
	case uint:
		return convertTo(x, t)
	case uint8:
		return convertTo(x, t)
	case uint16:
		return convertTo(x, t)
	case uint32:
		return convertTo(x, t)
	case uint64:
		return convertTo(x, t)
	case uintptr:
		return convertTo(x, t)
	}
	panic(fmt.Sprintf("nativeConvert: %T", x))
}

func convertTo[T integer](x T, t Type) any {
	switch t {
	case Int:
		return int(x)
	case Int8:
		return int8(x)
	case Int16:
		return int16(x)
	case Int32:
		return int32(x)
	case Int64:
		return int64(x)
	case Uint:
		return uint(x)
	case Uint8:
		return uint8(x)
	case Uint16:
		return uint16(x)
	case Uint32:
		return uint32(x)
	case Uint64:
		return uint64(x)
	case Uintptr:
		return uintptr(x)
	}
	panic("convertTo " + t.String())
}
