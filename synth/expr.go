package synth

import (
	"fmt"
	"strconv"
	"strings"
)

// ExprOp is the operator at the root of an Expr.
type ExprOp uint8

// The operators of specification expressions.
const (
	ExprTrue  ExprOp = iota // true
	ExprFalse               // false
	ExprVar                 // a variable (Name)
	ExprInt                 // an integer constant (Val)

	ExprNot // !a
	ExprAnd // a && b
	ExprOr  // a || b
	ExprXor // a ^ b
	ExprImp // a -> b
	ExprIff // a <-> b

	ExprEq // a = b
	ExprNe // a != b
	ExprLt // a < b
	ExprLe // a <= b
	ExprGt // a > b
	ExprGe // a >= b

	ExprAdd // a + b
	ExprSub // a - b

	ExprNext       // X a, or a' : the value in the next state
	ExprAlways     // G a
	ExprEventually // F a
	// ExprTemporal is any other temporal operator (Name says which); it only
	// occurs in formulas that are then rejected as outside GR(1).
	ExprTemporal
)

// Expr is a Boolean or integer expression of a specification, with the
// position where it starts. Temporal operators other than next only appear
// before a formula has been classified into its GR(1) section.
type Expr struct {
	Op   ExprOp
	Args []*Expr
	Name string // variable name, or the temporal operator of ExprTemporal
	Val  int    // ExprInt
	Pos  Pos
}

// mk builds an expression node.
func mk(op ExprOp, pos Pos, args ...*Expr) *Expr { return &Expr{Op: op, Pos: pos, Args: args} }

var exprSymbols = [...]string{
	ExprNot: "!", ExprAnd: "&&", ExprOr: "||", ExprXor: "^", ExprImp: "->", ExprIff: "<->",
	ExprEq: "=", ExprNe: "!=", ExprLt: "<", ExprLe: "<=", ExprGt: ">", ExprGe: ">=",
	ExprAdd: "+", ExprSub: "-",
}

// precedence for printing: larger binds tighter.
func (op ExprOp) precedence() int {
	switch op {
	case ExprIff:
		return 1
	case ExprImp:
		return 2
	case ExprXor:
		return 3
	case ExprOr:
		return 4
	case ExprAnd:
		return 5
	case ExprEq, ExprNe, ExprLt, ExprLe, ExprGt, ExprGe:
		return 6
	case ExprAdd, ExprSub:
		return 7
	}
	return 9
}

// String prints e in the infix syntax of .structuredslugs (with X for next
// applied to compound expressions and ' on variables).
func (e *Expr) String() string {
	var b strings.Builder
	e.write(&b, 0)
	return b.String()
}

func (e *Expr) write(b *strings.Builder, ctx int) {
	switch e.Op {
	case ExprTrue:
		b.WriteString("TRUE")
	case ExprFalse:
		b.WriteString("FALSE")
	case ExprVar:
		b.WriteString(e.Name)
	case ExprInt:
		b.WriteString(strconv.Itoa(e.Val))
	case ExprNot:
		b.WriteString("!")
		e.Args[0].write(b, 9)
	case ExprNext:
		if e.Args[0].Op == ExprVar {
			b.WriteString(e.Args[0].Name)
			b.WriteString("'")
			return
		}
		b.WriteString("X(")
		e.Args[0].write(b, 0)
		b.WriteString(")")
	case ExprAlways, ExprEventually, ExprTemporal:
		name := map[ExprOp]string{ExprAlways: "G", ExprEventually: "F"}[e.Op]
		if e.Op == ExprTemporal {
			name = e.Name
		}
		if len(e.Args) == 2 {
			b.WriteString("(")
			e.Args[0].write(b, 9)
			fmt.Fprintf(b, " %s ", name)
			e.Args[1].write(b, 9)
			b.WriteString(")")
			return
		}
		b.WriteString(name)
		b.WriteString("(")
		for i, a := range e.Args {
			if i > 0 {
				b.WriteString(", ")
			}
			a.write(b, 0)
		}
		b.WriteString(")")
	default:
		p := e.Op.precedence()
		if p < ctx {
			b.WriteString("(")
		}
		// Left-associative printing; the right operand of an equal-precedence
		// operator is parenthesised (-> is right-associative but is printed
		// the same way, which re-parses identically).
		e.Args[0].write(b, p)
		fmt.Fprintf(b, " %s ", exprSymbols[e.Op])
		e.Args[1].write(b, p+1)
		if p < ctx {
			b.WriteString(")")
		}
	}
}

// walk calls fn on e and its subexpressions, parents first; next is true
// inside a next operator. A subexpression shared by several parents (the
// memory buffers of .slugsin make expressions DAGs) is visited once per
// value of next.
func (e *Expr) walk(next bool, fn func(e *Expr, next bool)) {
	seen := map[walkKey]bool{}
	var rec func(e *Expr, next bool)
	rec = func(e *Expr, next bool) {
		k := walkKey{e, next}
		if seen[k] {
			return
		}
		seen[k] = true
		fn(e, next)
		inner := next || e.Op == ExprNext
		for _, a := range e.Args {
			rec(a, inner)
		}
	}
	rec(e, next)
}

type walkKey struct {
	e    *Expr
	next bool
}

// treeSize returns the number of nodes of e counted as a tree (shared
// subexpressions counted at each use), saturating at limit.
func (e *Expr) treeSize(limit int) int {
	memo := map[*Expr]int{}
	var rec func(e *Expr) int
	rec = func(e *Expr) int {
		if n, ok := memo[e]; ok {
			return n
		}
		n := 1
		for _, a := range e.Args {
			n += rec(a)
			if n > limit {
				n = limit
			}
		}
		memo[e] = n
		return n
	}
	return rec(e)
}

// arity is the number of operands of op (-1: variable, for ExprTemporal).
func (op ExprOp) arity() int {
	switch op {
	case ExprTrue, ExprFalse, ExprVar, ExprInt:
		return 0
	case ExprNot, ExprNext, ExprAlways, ExprEventually:
		return 1
	case ExprTemporal:
		return -1
	}
	return 2
}

// isInt reports whether the operator yields an integer.
func (op ExprOp) isInt() bool { return op == ExprInt || op == ExprAdd || op == ExprSub }

// isComparison reports whether the operator compares integers.
func (op ExprOp) isComparison() bool { return op >= ExprEq && op <= ExprGe }
