package symbolic

import (
	"context"
	"go/token"
	"go/types"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// z3Value returns the value Z3 gives v when every input of v is pinned
// to the value in pins (a path condition of equalities); s must send
// every question to Z3 (newZ3Session).
func z3Value(t *testing.T, s *Session, v Value, pins map[string]any) Value {
	t.Helper()
	s.Push()
	defer s.Pop()
	for name, x := range pins {
		c := concreteOf(x)
		require.NoError(t, s.Assume(mustValue(BinOp(token.EQL, Input(name, c.Type()), c))))
	}
	r, err := s.NewInput("result", v.Type())
	require.NoError(t, err)
	require.NoError(t, s.Assume(mustValue(BinOp(token.EQL, r, v))))
	m, err := s.Model(context.Background())
	require.NoError(t, err)
	got, _ := m.Value("result")
	return got
}

// opCase is x op y with Go's expected result; each case is checked
// folded (concrete operands) and by Z3 (symbolic operands pinned to the
// same values).
type opCase struct {
	tok  token.Token
	x, y any
	want any
}

func checkOpCases(t *testing.T, cases []opCase) {
	s := newZ3Session(t)
	for _, c := range cases {
		x, y := concreteOf(c.x), concreteOf(c.y)
		folded, err := BinOp(c.tok, x, y)
		require.NoError(t, err)
		got, _ := folded.Concrete()
		assert.Equal(t, c.want, got, "folded %T(%v) %s %T(%v)", c.x, c.x, c.tok, c.y, c.y)

		sym, err := BinOp(c.tok, Input("x", x.Type()), Input("y", y.Type()))
		require.NoError(t, err)
		got, _ = z3Value(t, s, sym, map[string]any{"x": c.x, "y": c.y}).Concrete()
		assert.Equal(t, c.want, got, "Z3 %T(%v) %s %T(%v)", c.x, c.x, c.tok, c.y, c.y)
	}
}

func TestOverflowAtTheLimits(t *testing.T) {
	checkOpCases(t, []opCase{
		{token.ADD, int64(math.MaxInt64), int64(1), int64(math.MinInt64)},
		{token.SUB, int64(math.MinInt64), int64(1), int64(math.MaxInt64)},
		{token.MUL, int64(math.MaxInt64), int64(2), int64(-2)},
		{token.MUL, int64(math.MinInt64), int64(-1), int64(math.MinInt64)},
		{token.QUO, int64(math.MinInt64), int64(-1), int64(math.MinInt64)},
		{token.REM, int64(math.MinInt64), int64(-1), int64(0)},
		{token.QUO, int(math.MinInt), int(-1), int(math.MinInt)},
		{token.QUO, int8(-128), int8(-1), int8(-128)},
		{token.REM, int8(-128), int8(-1), int8(0)},
		{token.ADD, uint64(math.MaxUint64), uint64(1), uint64(0)},
		{token.SUB, uint8(0), uint8(1), uint8(255)},
		{token.MUL, uint32(1 << 31), uint32(2), uint32(0)},
		{token.LSS, int64(math.MaxInt64), int64(math.MinInt64), false},
		{token.LSS, uint64(math.MaxUint64), uint64(0), false},
		{token.GTR, uint8(200), uint8(100), true},
		{token.GTR, int8(-56), int8(100), false}, // the bits of uint8(200), compared signed
	})
}

func TestDivisionTruncatesTowardZero(t *testing.T) {
	checkOpCases(t, []opCase{
		{token.QUO, int(-7), int(2), int(-3)},
		{token.REM, int(-7), int(2), int(-1)},
		{token.QUO, int(7), int(-2), int(-3)},
		{token.REM, int(7), int(-2), int(1)},
		{token.REM, int32(-7), int32(-2), int32(-1)},
		{token.QUO, uint8(250), uint8(7), uint8(35)},
		{token.REM, uint8(250), uint8(7), uint8(5)},
		{token.AND_NOT, int16(-1), int16(0x0f0f), int16(-3856)},
	})
}

func TestShifts(t *testing.T) {
	checkOpCases(t, []opCase{
		{token.SHL, int64(1), uint(63), int64(math.MinInt64)},
		{token.SHL, int64(1), uint(64), int64(0)},
		{token.SHL, int64(1), uint64(1 << 40), int64(0)},
		{token.SHR, int64(-8), uint(1), int64(-4)},
		{token.SHR, int64(-8), uint(64), int64(-1)},
		{token.SHR, int8(-8), uint8(200), int8(-1)},
		{token.SHR, int8(8), uint8(200), int8(0)},
		{token.SHR, uint8(128), uint8(7), uint8(1)},
		{token.SHR, uint8(128), uint8(8), uint8(0)},
		{token.SHL, uint8(1), int64(7), uint8(128)},
		{token.SHL, uint8(1), int64(8), uint8(0)},
		{token.SHL, uint16(1), uint8(255), uint16(0)},
		{token.SHR, int32(math.MinInt32), uint64(math.MaxUint64), int32(-1)},
		{token.SHL, uint64(3), uint32(1), uint64(6)},
	})
}

func TestConversions(t *testing.T) {
	cases := []struct {
		x    any
		to   Type
		want any
	}{
		{int8(-1), Uint16, uint16(65535)},
		{int8(-1), Int64, int64(-1)},
		{uint8(255), Int8, int8(-1)},
		{uint8(255), Int, int(255)},
		{int64(-1), Uint32, uint32(math.MaxUint32)},
		{uint32(math.MaxUint32), Int64, int64(math.MaxUint32)},
		{int32(-5), Int64, int64(-5)},
		{uint64(1 << 63), Int, int(math.MinInt)},
		{int(300), Uint8, uint8(44)},
		{int(-300), Int8, int8(-44)},
		{uintptr(math.MaxUint64), Int16, int16(-1)},
		{int16(-2), Uintptr, uintptr(math.MaxUint64 - 1)},
	}
	s := newZ3Session(t)
	for _, c := range cases {
		x := concreteOf(c.x)
		folded, err := Convert(x, c.to)
		require.NoError(t, err)
		got, _ := folded.Concrete()
		assert.Equal(t, c.want, got, "folded %s(%T(%v))", c.to, c.x, c.x)

		sym, err := Convert(Input("x", x.Type()), c.to)
		require.NoError(t, err)
		assert.Equal(t, c.to.String()+"(x)", sym.String())
		got, _ = z3Value(t, s, sym, map[string]any{"x": c.x}).Concrete()
		assert.Equal(t, c.want, got, "Z3 %s(%T(%v))", c.to, c.x, c.x)
	}
}

func TestPanicCondition(t *testing.T) {
	x, y := Input("x", Int), Input("y", Int)
	cond, msg := PanicCondition(token.QUO, x, y)
	assert.Equal(t, "y == 0", cond.String())
	assert.Equal(t, "runtime error: integer divide by zero", msg)

	cond, msg = PanicCondition(token.REM, x, MakeInt(Int, 0))
	assert.Equal(t, MakeBool(true), cond, "a concrete zero divisor always panics")
	assert.Equal(t, DivideByZero, msg)

	cond, msg = PanicCondition(token.QUO, x, MakeInt(Int, -1))
	assert.Equal(t, MakeBool(false), cond, "MinInt / -1 does not panic in Go")
	assert.Empty(t, msg)

	cond, msg = PanicCondition(token.SHL, x, Input("n", Int8))
	assert.Equal(t, "n < 0", cond.String())
	assert.Equal(t, "runtime error: negative shift amount", msg)

	cond, msg = PanicCondition(token.SHR, x, Input("n", Uint8))
	assert.Equal(t, MakeBool(false), cond, "unsigned counts never panic")
	assert.Empty(t, msg)

	cond, _ = PanicCondition(token.ADD, x, y)
	assert.Equal(t, MakeBool(false), cond)

	// An explorer forks on the condition: both sides are feasible for a
	// free divisor, only the non-panicking one under y != 0.
	s := newTestSession(t, Config{})
	ctx := context.Background()
	cond, _ = PanicCondition(token.QUO, x, y)
	panics, continues, err := s.Branch(ctx, cond)
	require.NoError(t, err)
	assert.Equal(t, Sat, panics.Status)
	assert.Equal(t, Sat, continues.Status)
	require.NoError(t, s.Assume(mustValue(BinOp(token.NEQ, y, MakeInt(Int, 0)))))
	panics, continues, err = s.Branch(ctx, cond)
	require.NoError(t, err)
	assert.Equal(t, Unsat, panics.Status)
	assert.Equal(t, Sat, continues.Status)
}

func TestOperandErrors(t *testing.T) {
	i, b := Input("i", Int), Input("b", Bool)
	_, err := BinOp(token.ADD, i, Input("j", Int32))
	assert.EqualError(t, err, "symbolic: int + int32: mismatched types")
	_, err = BinOp(token.ADD, b, b)
	assert.EqualError(t, err, "symbolic: operator + not defined on bool")
	_, err = BinOp(token.LAND, i, i)
	assert.EqualError(t, err, "symbolic: operator && not defined on int")
	_, err = BinOp(token.SHL, b, i)
	assert.EqualError(t, err, "symbolic: bool << int: shift of non-integers")
	_, err = BinOp(token.ARROW, i, i)
	assert.EqualError(t, err, "symbolic: <- is not a binary operator")
	_, err = BinOp(token.ADD, Value{}, i)
	assert.EqualError(t, err, "symbolic: + on an invalid Value")
	_, err = UnOp(token.NOT, i)
	assert.EqualError(t, err, "symbolic: unary operator ! not defined on int")
	_, err = UnOp(token.SUB, b)
	assert.EqualError(t, err, "symbolic: unary operator - not defined on bool")
	_, err = Convert(b, Int)
	assert.EqualError(t, err, "symbolic: cannot convert bool to int")
	_, err = FromGo(1.5)
	assert.EqualError(t, err, "symbolic: cannot represent float64: not a bool or an integer")
	assert.False(t, Not(i).IsValid())
	assert.False(t, And(b, i).IsValid())
	assert.False(t, Min(i, b).IsValid())
	assert.False(t, Input("", Int).IsValid())
	assert.False(t, MakeInt(Bool, 1).IsValid())
}

func TestValuesAndTypes(t *testing.T) {
	type celsius int16
	v, err := FromGo(celsius(-40))
	require.NoError(t, err)
	assert.Equal(t, Int16, v.Type())
	got, ok := v.Concrete()
	assert.True(t, ok)
	assert.Equal(t, int16(-40), got)
	n, _ := v.Int64()
	assert.Equal(t, int64(-40), n)
	u, _ := v.Uint64()
	assert.Equal(t, uint64(math.MaxUint64-39), u, "as Go's uint64(int16(-40))")

	c, ok := As[celsius](v)
	assert.True(t, ok)
	assert.Equal(t, celsius(-40), c)
	_, ok = As[int32](v)
	assert.False(t, ok, "As wants the same kind")
	_, ok = As[int16](Input("x", Int16))
	assert.False(t, ok, "symbolic values have no Go value")

	assert.Equal(t, Int16, TypeFor[celsius]())
	assert.Equal(t, Uint8, TypeFor[byte]())
	assert.Equal(t, Int32, TypeFor[rune]())
	assert.Equal(t, Invalid, TypeFor[string]())
	named := types.NewNamed(types.NewTypeName(token.NoPos, nil, "Celsius", nil), types.Typ[types.Uintptr], nil)
	tt, ok := TypeOf(named)
	assert.True(t, ok)
	assert.Equal(t, Uintptr, tt)
	_, ok = TypeOf(types.Typ[types.Float64])
	assert.False(t, ok)
	assert.Equal(t, 64, Uintptr.Bits())
	assert.True(t, Int8.Signed())
	assert.False(t, Uint.Signed())

	x := Input("x", Uint8)
	name, ok := x.InputName()
	assert.True(t, ok)
	assert.Equal(t, "x", name)
	_, ok = x.Concrete()
	assert.False(t, ok, "symbolic values have no concrete value")
	sum := mustValue(BinOp(token.ADD, x, Input("a", Uint8)))
	assert.Equal(t, []Value{Input("a", Uint8), x}, sum.Inputs())
	assert.True(t, Identical(sum, mustValue(BinOp(token.ADD, Input("x", Uint8), Input("a", Uint8)))))
	assert.False(t, Identical(sum, mustValue(BinOp(token.ADD, Input("a", Uint8), Input("x", Uint8)))))
}
