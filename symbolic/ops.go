package symbolic

import (
	"fmt"
	"go/token"
)

// Messages of the runtime panics that PanicCondition describes, as Go
// prints them after "panic: ".
const (
	DivideByZero        = "runtime error: integer divide by zero"
	NegativeShiftAmount = "runtime error: negative shift amount"
)

// binaryOp maps an operator token to its op.
func binaryOp(tok token.Token) (op, bool) {
	switch tok {
	case token.ADD:
		return opAdd, true
	case token.SUB:
		return opSub, true
	case token.MUL:
		return opMul, true
	case token.QUO:
		return opQuo, true
	case token.REM:
		return opRem, true
	case token.AND:
		return opAnd, true
	case token.OR:
		return opOr, true
	case token.XOR:
		return opXor, true
	case token.AND_NOT:
		return opAndNot, true
	case token.SHL:
		return opShl, true
	case token.SHR:
		return opShr, true
	case token.EQL:
		return opEq, true
	case token.NEQ:
		return opNe, true
	case token.LSS:
		return opLt, true
	case token.LEQ:
		return opLe, true
	case token.GTR:
		return opGt, true
	case token.GEQ:
		return opGe, true
	case token.LAND:
		return opLAnd, true
	case token.LOR:
		return opLOr, true
	}
	return 0, false
}

// BinOp returns x op y with Go's semantics. op is a binary operator
// token as go/ssa's BinOp carries it:
//
//   - integers: + - * / % & | ^ &^ << >> and the comparisons
//     == != < <= > >= (signed or unsigned by the operands' type);
//   - bools: == != and, for building conditions, && || (no short
//     circuit: both operands are values already).
//
// Both operands have the same Type, except for shifts, whose count may
// have any integer type. Arithmetic wraps around at the type's width.
// Division truncates toward zero and % has the sign of the dividend;
// MinInt / -1 is MinInt and MinInt % -1 is 0, as in Go. Shifting by a
// count >= the width gives 0, or -1 for >> of a negative signed value.
//
// BinOp does not panic where Go does: a zero divisor or a negative shift
// count yields an unspecified value. Check PanicCondition first.
//
// The error reports operands that Go's type checker would reject
// (mismatched types, an operator the type does not have, an invalid
// Value); a well-typed program never causes one.
func BinOp(tok token.Token, x, y Value) (Value, error) {
	o, ok := binaryOp(tok)
	if !ok {
		return Value{}, fmt.Errorf("symbolic: %s is not a binary operator", tok)
	}
	if !x.IsValid() || !y.IsValid() {
		return Value{}, fmt.Errorf("symbolic: %s on an invalid Value", tok)
	}
	switch {
	case o == opShl || o == opShr:
		if !x.t.IsInteger() || !y.t.IsInteger() {
			return Value{}, fmt.Errorf("symbolic: %s %s %s: shift of non-integers", x.t, tok, y.t)
		}
		return mkBinary(o, x.t, x, y), nil
	case x.t != y.t:
		return Value{}, fmt.Errorf("symbolic: %s %s %s: mismatched types", x.t, tok, y.t)
	case x.t == Bool:
		switch o {
		case opEq, opNe, opLAnd, opLOr:
			return mkBinary(o, Bool, x, y), nil
		}
		return Value{}, fmt.Errorf("symbolic: operator %s not defined on bool", tok)
	case o == opLAnd || o == opLOr:
		return Value{}, fmt.Errorf("symbolic: operator %s not defined on %s", tok, x.t)
	case o.isComparison():
		return mkBinary(o, Bool, x, y), nil
	}
	return mkBinary(o, x.t, x, y), nil
}

// UnOp returns op x with Go's semantics: -x (wrapping: -MinInt is
// MinInt) and ^x for integers, !x for bools. The error reports an
// operator the operand's type does not have.
func UnOp(tok token.Token, x Value) (Value, error) {
	switch {
	case !x.IsValid():
		return Value{}, fmt.Errorf("symbolic: %s on an invalid Value", tok)
	case tok == token.NOT && x.t == Bool:
		return Not(x), nil
	case tok == token.SUB && x.t.IsInteger():
		return mkUnary(opNeg, x.t, x), nil
	case tok == token.XOR && x.t.IsInteger():
		return mkUnary(opCompl, x.t, x), nil
	}
	return Value{}, fmt.Errorf("symbolic: unary operator %s not defined on %s", tok, x.t)
}

// Convert returns x converted to type t as Go's t(x) does: truncation to
// a narrower type; sign extension from a signed and zero extension from
// an unsigned type to a wider one; a reinterpretation of the bits
// between types of equal width. Bools convert only to Bool.
func Convert(x Value, t Type) (Value, error) {
	switch {
	case !x.IsValid():
		return Value{}, fmt.Errorf("symbolic: conversion of an invalid Value to %s", t)
	case x.t == t:
		return x, nil
	case !x.t.IsInteger() || !t.IsInteger():
		return Value{}, fmt.Errorf("symbolic: cannot convert %s to %s", x.t, t)
	case x.e == nil:
		return Value{t: t, c: convert(x.t, t, x.c)}, nil
	}
	return symbolicValue(&node{op: opConv, t: t, x: x}), nil
}

// Min returns Go's min(x, y) and Max returns max(x, y), for integers of
// the same type; they return the invalid Value otherwise.
func Min(x, y Value) Value { return minMax(opMin, x, y) }

// Max returns Go's max(x, y); see Min.
func Max(x, y Value) Value { return minMax(opMax, x, y) }

func minMax(o op, x, y Value) Value {
	if !x.t.IsInteger() || x.t != y.t {
		return Value{}
	}
	return mkBinary(o, x.t, x, y)
}

// Not returns !c for a bool c, and the invalid Value for anything else.
// Negated comparisons are flipped (!(a < b) is a >= b) and double
// negations removed, so path conditions read naturally.
func Not(c Value) Value {
	if c.t != Bool {
		return Value{}
	}
	if c.e == nil {
		return Value{t: Bool, c: c.c ^ 1}
	}
	n := c.e
	switch n.op {
	case opNot:
		return n.x
	case opEq, opNe, opLt, opLe, opGt, opGe:
		return symbolicValue(&node{op: n.op.negated(), t: Bool, x: n.x, y: n.y})
	}
	return symbolicValue(&node{op: opNot, t: Bool, x: c})
}

// negated returns the comparison that is true exactly when the
// comparison o is false.
func (o op) negated() op {
	switch o {
	case opEq:
		return opNe
	case opNe:
		return opEq
	case opLt:
		return opGe
	case opLe:
		return opGt
	case opGt:
		return opLe
	}
	return opLt // opGe
}

// And returns the conjunction of bools (true for none). It returns the
// invalid Value if an operand is not a bool.
func And(cs ...Value) Value { return junction(opLAnd, cs) }

// Or returns the disjunction of bools (false for none). It returns the
// invalid Value if an operand is not a bool.
func Or(cs ...Value) Value { return junction(opLOr, cs) }

func junction(o op, cs []Value) Value {
	r := MakeBool(o == opLAnd)
	for _, c := range cs {
		if c.t != Bool {
			return Value{}
		}
		r = mkBinary(o, Bool, r, c)
	}
	return r
}

// PanicCondition returns the condition under which Go panics when it
// evaluates x op y, and the panic's message: y == 0 for integer / and %
// (DivideByZero), y < 0 for a shift by a signed count
// (NegativeShiftAmount). For every other operation, and for operands
// that rule the panic out, cond is the concrete false and msg is "".
//
// An explorer branches on cond before evaluating x op y: the true side
// panics with msg, the false side continues with cond's negation on its
// path condition.
func PanicCondition(tok token.Token, x, y Value) (cond Value, msg string) {
	no := MakeBool(false)
	if !x.t.IsInteger() || !y.t.IsInteger() {
		return no, ""
	}
	switch tok {
	case token.QUO, token.REM:
		cond, msg = mkBinary(opEq, Bool, y, MakeUint(y.t, 0)), DivideByZero
	case token.SHL, token.SHR:
		if !y.t.Signed() {
			return no, ""
		}
		cond, msg = mkBinary(opLt, Bool, y, MakeUint(y.t, 0)), NegativeShiftAmount
	default:
		return no, ""
	}
	if b, ok := cond.Bool(); ok && !b {
		return no, ""
	}
	return cond, msg
}

// mkUnary builds op x of type t, folding a concrete operand.
func mkUnary(o op, t Type, x Value) Value {
	if x.e == nil {
		return Value{t: t, c: fold(o, t, x.c, 0, Invalid)}
	}
	if x.e.op == o && (o == opNeg || o == opCompl) {
		return x.e.x // -(-x) and ^(^x) are x for bit-vectors
	}
	return symbolicValue(&node{op: o, t: t, x: x})
}

// mkBinary builds x o y with result type t (the operands' type decides
// the semantics). It folds concrete operands and applies identities that
// hold for every bit-vector (x+0, x*1, x&^0, true && c…), so simple
// cases print and solve as the programmer would expect.
func mkBinary(o op, t Type, x, y Value) Value {
	if x.e == nil && y.e == nil {
		return Value{t: t, c: fold(o, x.t, x.c, y.c, y.t)}
	}
	if r, ok := simplify(o, x, y); ok {
		return r
	}
	return symbolicValue(&node{op: o, t: t, x: x, y: y})
}

// simplify applies identities where one operand is concrete.
func simplify(o op, x, y Value) (Value, bool) {
	// Identities with a concrete right operand.
	if y.e == nil {
		switch {
		case y.c == 0 && (o == opAdd || o == opSub || o == opOr || o == opXor || o == opAndNot || o == opShl || o == opShr):
			return x, true
		case y.c == 0 && (o == opMul || o == opAnd):
			return y, true
		case y.c == 1 && (o == opMul || o == opQuo):
			return x, true
		case o == opLAnd:
			if y.c == 1 {
				return x, true
			}
			return y, true
		case o == opLOr:
			if y.c == 0 {
				return x, true
			}
			return y, true
		}
	}
	// Commutative identities with a concrete left operand.
	if x.e == nil {
		switch {
		case x.c == 0 && (o == opAdd || o == opOr || o == opXor):
			return y, true
		case x.c == 0 && (o == opMul || o == opAnd):
			return x, true
		case x.c == 1 && o == opMul:
			return y, true
		case o == opLAnd:
			if x.c == 1 {
				return y, true
			}
			return x, true
		case o == opLOr:
			if x.c == 0 {
				return y, true
			}
			return x, true
		}
	}
	if (o == opLAnd || o == opLOr) && Identical(x, y) {
		return x, true
	}
	return Value{}, false
}
