package symbolic

import (
	"go/token"
	"testing"

	"github.com/stretchr/testify/assert"
)

func bin(tok token.Token, x, y Value) Value { return mustValue(BinOp(tok, x, y)) }

func TestStringIsGoSyntax(t *testing.T) {
	n, limit := Input("n", Int), Input("limit", Int)
	a, b := Input("a", Int), Input("b", Int)
	three, seven := MakeInt(Int, 3), MakeInt(Int, 7)
	magic := bin(token.EQL, bin(token.MUL, n, three), bin(token.ADD, limit, seven))
	overflow := bin(token.LSS, bin(token.ADD, a, b), a)

	cases := []struct {
		v    Value
		want string
	}{
		{magic, "n*3 == limit+7"},
		{overflow, "a+b < a"},
		{Not(overflow), "a+b >= a"},
		{Not(Not(overflow)), "a+b < a"},
		{bin(token.ADD, n, MakeInt(Int, -5)), "n - 5"},
		{bin(token.SUB, n, MakeInt(Int, -5)), "n - -5"},
		{bin(token.MUL, bin(token.ADD, n, three), limit), "(n + 3) * limit"},
		{bin(token.SUB, n, bin(token.SUB, limit, three)), "n - (limit - 3)"},
		{mustValue(UnOp(token.SUB, bin(token.ADD, n, three))), "-(n + 3)"},
		{mustValue(UnOp(token.XOR, Input("u", Uint8))), "^u"},
		{mustValue(Convert(bin(token.ADD, n, three), Int8)), "int8(n + 3)"},
		{bin(token.SHR, n, Input("k", Uint)), "n >> k"},
		{Or(magic, overflow), "n*3 == limit+7 || a+b < a"},
		{And(Or(magic, overflow), Input("ok", Bool)), "(n*3 == limit+7 || a+b < a) && ok"},
		{Not(Input("ok", Bool)), "!ok"},
		{Not(And(Input("p", Bool), Input("q", Bool))), "!(p && q)"},
		{Max(n, MakeInt(Int, 0)), "max(n, 0)"},
		{MakeInt(Int8, -128), "-128"},
		{MakeUint(Uint64, 1<<64-1), "18446744073709551615"},
		{MakeBool(true), "true"},
		{Value{}, "<invalid>"},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, c.v.String())
	}

	pc := PathCondition{magic, Or(overflow, Input("ok", Bool)), Not(Input("done", Bool))}
	assert.Equal(t, "n*3 == limit+7 && (a+b < a || ok) && !done", pc.String())
	assert.Equal(t, "true", PathCondition(nil).String())
}

func TestStringOfHugeSharedExpressionIsBounded(t *testing.T) {
	x := Input("x", Int)
	for range 100 { // 2^100 nodes as a tree, 100 as a DAG
		x = bin(token.ADD, x, x)
	}
	s := x.String()
	assert.Contains(t, s, "…")
	assert.Less(t, len(s), 20*maxPrintedNodes)
}
