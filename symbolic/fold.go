package symbolic

// This file holds the native (concrete) semantics of every operation,
// on the bit patterns of Values. It is used to fold concrete operands
// and to evaluate expressions in a model, so it must agree with the Z3
// encoding in z3.go on every input — including the ones where Go panics
// (a zero divisor, a negative shift count), for which both follow the
// SMT-LIB bit-vector definitions:
//
//	x / 0 (unsigned) = all ones      x % 0 = x
//	x / 0 (signed)   = -1 if x >= 0, 1 if x < 0
//	x << n, x >> n with n's bits read unsigned, n >= width as in Go
//
// Callers that execute Go code check PanicCondition first, so those
// results are never observed as Go values.

// sext returns the bits x of type t sign-extended to an int64.
func sext(t Type, x uint64) int64 {
	s := uint(64 - t.Bits())
	return int64(x<<s) >> s
}

// fold computes o on concrete operand bits. t is the type of x (and of
// y, except for shifts, where yt is the count's type). The result is
// masked to the result type's width (bools are 0 or 1).
func fold(o op, t Type, x, y uint64, yt Type) uint64 {
	m := t.mask()
	w := uint64(t.Bits())
	switch o {
	case opAdd:
		return (x + y) & m
	case opSub:
		return (x - y) & m
	case opMul:
		return (x * y) & m
	case opQuo:
		if !t.Signed() {
			if y == 0 {
				return m
			}
			return x / y
		}
		a, b := sext(t, x), sext(t, y)
		if b == 0 {
			if a < 0 {
				return 1
			}
			return m
		}
		return uint64(a/b) & m // MinInt / -1 wraps to MinInt, as in Go
	case opRem:
		if y == 0 {
			return x
		}
		if !t.Signed() {
			return x % y
		}
		return uint64(sext(t, x)%sext(t, y)) & m // sign of the dividend
	case opAnd:
		return x & y
	case opOr:
		return x | y
	case opXor:
		return x ^ y
	case opAndNot:
		return x &^ y
	case opShl:
		if y&yt.mask() >= w {
			return 0
		}
		return (x << y) & m
	case opShr:
		neg := t.Signed() && sext(t, x) < 0
		if y&yt.mask() >= w {
			if neg {
				return m
			}
			return 0
		}
		if t.Signed() {
			return uint64(sext(t, x)>>y) & m
		}
		return x >> y
	case opMin, opMax:
		if less(t, x, y) == (o == opMin) {
			return x
		}
		return y
	case opNeg:
		return -x & m
	case opCompl:
		return ^x & m
	case opNot:
		return x ^ 1
	case opLAnd:
		return x & y
	case opLOr:
		return x | y
	case opEq:
		return b2u(x == y)
	case opNe:
		return b2u(x != y)
	case opLt:
		return b2u(less(t, x, y))
	case opLe:
		return b2u(!less(t, y, x))
	case opGt:
		return b2u(less(t, y, x))
	case opGe:
		return b2u(!less(t, x, y))
	}
	panic("symbolic: fold of unknown op") // unreachable: every op is listed above
}

// convert returns the bits of x (of type from) converted to type to as
// Go's conversion does: truncation, or sign extension from a signed
// type, or zero extension from an unsigned one.
func convert(from, to Type, x uint64) uint64 {
	if from.Signed() {
		return uint64(sext(from, x)) & to.mask()
	}
	return x & to.mask()
}

// less reports x < y for operands of type t.
func less(t Type, x, y uint64) bool {
	if t.Signed() {
		return sext(t, x) < sext(t, y)
	}
	return x < y
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}
