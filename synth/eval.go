package synth

// valuation maps variable names to values (Booleans as 0 and 1).
type valuation map[string]int

// evalExpr evaluates e at a step from cur to next (next may be nil for
// expressions without next). It is a direct interpreter, independent of the
// BDD compilation, used to check controllers against their specification.
func evalExpr(e *Expr, cur, next valuation) int {
	switch e.Op {
	case ExprTrue:
		return 1
	case ExprFalse:
		return 0
	case ExprInt:
		return e.Val
	case ExprVar:
		return cur[e.Name]
	case ExprNext:
		return evalExpr(e.Args[0], next, nil)
	case ExprNot:
		return 1 - evalExpr(e.Args[0], cur, next)
	}
	a := evalExpr(e.Args[0], cur, next)
	switch e.Op {
	case ExprAnd:
		if a == 0 {
			return 0
		}
		return evalExpr(e.Args[1], cur, next)
	case ExprOr:
		if a == 1 {
			return 1
		}
		return evalExpr(e.Args[1], cur, next)
	case ExprImp:
		if a == 0 {
			return 1
		}
		return evalExpr(e.Args[1], cur, next)
	}
	b := evalExpr(e.Args[1], cur, next)
	switch e.Op {
	case ExprXor:
		return b2i(a != b)
	case ExprIff, ExprEq:
		return b2i(a == b)
	case ExprNe:
		return b2i(a != b)
	case ExprLt:
		return b2i(a < b)
	case ExprLe:
		return b2i(a <= b)
	case ExprGt:
		return b2i(a > b)
	case ExprGe:
		return b2i(a >= b)
	case ExprAdd:
		return a + b
	case ExprSub:
		return a - b
	}
	return 0
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
