package symbolic

import (
	"go/ast"
	"go/printer"
	"go/token"
	"strconv"
	"strings"
)

// maxPrintedNodes bounds the expression nodes String prints; larger
// expressions (loops can build exponentially large trees out of shared
// subexpressions) end in "…".
const maxPrintedNodes = 2000

// String returns v in Go syntax, formatted as gofmt would: inputs by
// name, constants in decimal, conversions as calls (`n*3 == limit+7`,
// `int8(x) < 0`). Very large expressions are cut short with "…". The
// zero Value prints as "<invalid>".
func (v Value) String() string {
	if !v.IsValid() {
		return "<invalid>"
	}
	budget := maxPrintedNodes
	return printExpr(goExpr(v, &budget))
}

// PathCondition is the conjunction of the constraints of a path, in the
// order they were added. It is a snapshot: Sessions hand out copies.
type PathCondition []Value

// String returns the conjunction in Go syntax (`a+b < a && n > 0`);
// the empty path condition is "true".
func (pc PathCondition) String() string {
	if len(pc) == 0 {
		return "true"
	}
	budget := maxPrintedNodes
	e := goExpr(pc[0], &budget)
	for _, c := range pc[1:] {
		e = &ast.BinaryExpr{X: e, Op: token.LAND, Y: paren(goExpr(c, &budget), c, token.LAND.Precedence())}
	}
	return printExpr(e)
}

func printExpr(e ast.Expr) string {
	var b strings.Builder
	if err := printer.Fprint(&b, token.NewFileSet(), e); err != nil {
		return "<unprintable: " + err.Error() + ">" // printer fails only on malformed trees
	}
	return b.String()
}

// precedence returns the Go precedence of v's outermost operator
// (token.UnaryPrec for operands that never need parentheses).
func precedence(v Value) int {
	if v.e == nil {
		if v.t.Signed() && sext(v.t, v.c) < 0 {
			return token.UnaryPrec
		}
		return token.HighestPrec
	}
	if tok, ok := binaryToken(v.e.op); ok {
		return tok.Precedence()
	}
	return token.UnaryPrec
}

// paren wraps e, the syntax of v, in parentheses if v binds looser than
// an operand of an operator of precedence prec must.
func paren(e ast.Expr, v Value, prec int) ast.Expr {
	if precedence(v) < prec {
		return &ast.ParenExpr{X: e}
	}
	return e
}

// goExpr builds the Go syntax tree of v, spending one unit of budget
// per node.
func goExpr(v Value, budget *int) ast.Expr {
	if *budget <= 0 {
		return ast.NewIdent("…")
	}
	*budget--
	if v.e == nil {
		return literal(v)
	}
	n := v.e
	switch n.op {
	case opInput:
		return ast.NewIdent(n.name)
	case opConv:
		return &ast.CallExpr{Fun: ast.NewIdent(n.t.String()), Args: []ast.Expr{goExpr(n.x, budget)}}
	case opMin, opMax:
		name := "min"
		if n.op == opMax {
			name = "max"
		}
		return &ast.CallExpr{Fun: ast.NewIdent(name), Args: []ast.Expr{goExpr(n.x, budget), goExpr(n.y, budget)}}
	case opNeg, opCompl, opNot:
		tok := token.SUB
		switch n.op {
		case opCompl:
			tok = token.XOR
		case opNot:
			tok = token.NOT
		}
		return &ast.UnaryExpr{Op: tok, X: paren(goExpr(n.x, budget), n.x, token.UnaryPrec)}
	}
	tok, _ := binaryToken(n.op)
	y := n.y
	if tok == token.ADD && y.e == nil && y.t.Signed() && sext(y.t, y.c) < 0 && y.c != 1<<(y.t.Bits()-1) {
		// x + -5 reads better as x - 5 (not for MinInt, whose negation is itself).
		tok, y = token.SUB, MakeInt(y.t, -sext(y.t, y.c))
	}
	prec := tok.Precedence()
	return &ast.BinaryExpr{
		X:  paren(goExpr(n.x, budget), n.x, prec),
		Op: tok,
		Y:  paren(goExpr(y, budget), y, prec+1), // left-associative: equal precedence on the right needs parentheses
	}
}

// literal returns the Go syntax of a concrete value.
func literal(v Value) ast.Expr {
	switch {
	case v.t == Bool:
		return ast.NewIdent(strconv.FormatBool(v.c != 0))
	case v.t.Signed():
		s := sext(v.t, v.c)
		if s < 0 {
			return &ast.UnaryExpr{Op: token.SUB, X: &ast.BasicLit{Kind: token.INT, Value: strconv.FormatUint(uint64(-s), 10)}}
		}
	}
	return &ast.BasicLit{Kind: token.INT, Value: strconv.FormatUint(v.c, 10)}
}

// binaryToken returns the operator token of a binary op.
func binaryToken(o op) (token.Token, bool) {
	switch o {
	case opAdd:
		return token.ADD, true
	case opSub:
		return token.SUB, true
	case opMul:
		return token.MUL, true
	case opQuo:
		return token.QUO, true
	case opRem:
		return token.REM, true
	case opAnd:
		return token.AND, true
	case opOr:
		return token.OR, true
	case opXor:
		return token.XOR, true
	case opAndNot:
		return token.AND_NOT, true
	case opShl:
		return token.SHL, true
	case opShr:
		return token.SHR, true
	case opEq:
		return token.EQL, true
	case opNe:
		return token.NEQ, true
	case opLt:
		return token.LSS, true
	case opLe:
		return token.LEQ, true
	case opGt:
		return token.GTR, true
	case opGe:
		return token.GEQ, true
	case opLAnd:
		return token.LAND, true
	case opLOr:
		return token.LOR, true
	}
	return token.ILLEGAL, false
}
