package split

import (
	"strconv"
	"strings"
)

// Expr is an expression over a Program's variables: a Boolean predicate, an
// integer term, or — only as the value of an Update — a nondeterministic
// choice (OneOf, or a Case whose branches are choices). Exprs are immutable;
// the zero Expr means "absent" (a missing guard is true).
//
// Integers are exact (no overflow). Multiplication, division and modulus
// must be constant after the program is built: they are folded when both
// operands are constants and rejected by the compiler otherwise.
type Expr struct{ n *enode }

type eop uint8

const (
	eConst eop = iota // k: an integer, or a Boolean (0/1) when typ is bool
	eVar              // a variable's current value
	eNot
	eAnd
	eOr
	eXor
	eImp
	eIff
	eEq
	eNe
	eLt
	eLe
	eAdd
	eSub
	eNeg
	eMul
	eDiv
	eMod
	eMin
	eMax
	eIte  // args: cond, then, else
	eCase // args: c1, v1, c2, v2, …: the first branch whose condition holds; none: no value
	eSet  // args: the alternatives of a nondeterministic choice
)

// enode is a node of an Expr.
type enode struct {
	op   eop
	k    int  // eConst
	bool bool // eConst: a Boolean constant
	v    *Var // eVar
	args []*enode
	pos  Pos    // where the parser read it; zero for the Go API
	sym  string // eConst: an enumeration constant's name, for printing
}

// IsZero reports whether e is the zero (absent) Expr.
func (e Expr) IsZero() bool { return e.n == nil }

// Pos returns where the expression was read, if it came from a source text.
func (e Expr) Pos() Pos {
	if e.n == nil {
		return Pos{}
	}
	return e.n.pos
}

// Int is the integer constant k.
func Int(k int) Expr { return Expr{&enode{op: eConst, k: k}} }

// Bool is the Boolean constant b.
func Bool(b bool) Expr {
	k := 0
	if b {
		k = 1
	}
	return Expr{&enode{op: eConst, k: k, bool: true}}
}

// True is the Boolean constant true.
func True() Expr { return Bool(true) }

// False is the Boolean constant false.
func False() Expr { return Bool(false) }

// Ref is the current value of v.
func Ref(v *Var) Expr { return Expr{&enode{op: eVar, v: v}} }

// Var returns the variable e reads when e is Ref(v), nil otherwise.
func (e Expr) Var() *Var {
	if e.n == nil || e.n.op != eVar {
		return nil
	}
	return e.n.v
}

// EnumConst is the value k of an enumeration, printed as its name.
func EnumConst(k int, name string) Expr { return Expr{&enode{op: eConst, k: k, sym: name}} }

// Is is the predicate "v = k" (for a Boolean, k is 0 or 1).
func Is(v *Var, k int) Expr {
	if v != nil && v.bool {
		if k != 0 {
			return Ref(v)
		}
		return Not(Ref(v))
	}
	return Eq(Ref(v), Int(k))
}

func mk(op eop, args ...Expr) Expr {
	n := &enode{op: op, args: make([]*enode, len(args))}
	for i, a := range args {
		n.args[i] = a.n
	}
	return Expr{n}
}

// Not is ¬e.
func Not(e Expr) Expr {
	if b, ok := e.ConstBool(); ok {
		return Bool(!b)
	}
	return mk(eNot, e)
}

// ConstBool returns the value of a Boolean constant; ok is false for any
// other expression.
func (e Expr) ConstBool() (b, ok bool) {
	if e.n != nil && e.n.op == eConst && e.n.bool {
		return e.n.k != 0, true
	}
	return false, false
}

// And is the conjunction of es (true for none).
func And(es ...Expr) Expr { return fold(eAnd, true, es) }

// Or is the disjunction of es (false for none).
func Or(es ...Expr) Expr { return fold(eOr, false, es) }

func fold(op eop, unit bool, es []Expr) Expr {
	var kept []Expr
	for _, e := range es {
		if e.IsZero() {
			continue
		}
		if b, ok := e.ConstBool(); ok {
			if b == unit {
				continue
			}
			return Bool(!unit)
		}
		kept = append(kept, e)
	}
	switch len(kept) {
	case 0:
		return Bool(unit)
	case 1:
		return kept[0]
	}
	return mk(op, kept...)
}

// Xor is a ⊕ b.
func Xor(a, b Expr) Expr {
	if x, ok := a.ConstBool(); ok {
		if y, ok := b.ConstBool(); ok {
			return Bool(x != y)
		}
	}
	return mk(eXor, a, b)
}

// Implies is a → b.
func Implies(a, b Expr) Expr {
	if x, ok := a.ConstBool(); ok {
		if !x {
			return True()
		}
		return b
	}
	if y, ok := b.ConstBool(); ok && y {
		return True()
	}
	return mk(eImp, a, b)
}

// Iff is a ↔ b.
func Iff(a, b Expr) Expr {
	if x, ok := a.ConstBool(); ok {
		if y, ok := b.ConstBool(); ok {
			return Bool(x == y)
		}
	}
	return mk(eIff, a, b)
}

// Eq is a = b (integers, enumerations or Booleans).
func Eq(a, b Expr) Expr { return compare(eEq, a, b) }

// Ne is a ≠ b.
func Ne(a, b Expr) Expr { return compare(eNe, a, b) }

// Lt is a < b.
func Lt(a, b Expr) Expr { return compare(eLt, a, b) }

// Le is a ≤ b.
func Le(a, b Expr) Expr { return compare(eLe, a, b) }

// Gt is a > b.
func Gt(a, b Expr) Expr { return compare(eLt, b, a) }

// Ge is a ≥ b.
func Ge(a, b Expr) Expr { return compare(eLe, b, a) }

func compare(op eop, a, b Expr) Expr {
	x, okx := a.ConstInt()
	y, oky := b.ConstInt()
	if !okx || !oky {
		bx, okx2 := a.ConstBool()
		by, oky2 := b.ConstBool()
		if okx2 && oky2 && (op == eEq || op == eNe) {
			return Bool((bx == by) == (op == eEq))
		}
		return mk(op, a, b)
	}
	switch op {
	case eEq:
		return Bool(x == y)
	case eNe:
		return Bool(x != y)
	case eLt:
		return Bool(x < y)
	}
	return Bool(x <= y)
}

// Add is a + b.
func Add(a, b Expr) Expr { return arith(eAdd, a, b) }

// Sub is a − b.
func Sub(a, b Expr) Expr { return arith(eSub, a, b) }

// Mul is a · b (constant operands only, see Expr).
func Mul(a, b Expr) Expr { return arith(eMul, a, b) }

// Div is a / b rounded toward zero (constant operands only).
func Div(a, b Expr) Expr { return arith(eDiv, a, b) }

// Mod is a mod b, in 0..|b|-1 (constant operands only).
func Mod(a, b Expr) Expr { return arith(eMod, a, b) }

// Min is the smaller of a and b.
func Min(a, b Expr) Expr { return arith(eMin, a, b) }

// Max is the larger of a and b.
func Max(a, b Expr) Expr { return arith(eMax, a, b) }

// Neg is −a.
func Neg(a Expr) Expr {
	if k, ok := a.ConstInt(); ok {
		return Int(-k)
	}
	return mk(eNeg, a)
}

func arith(op eop, a, b Expr) Expr {
	x, okx := a.ConstInt()
	y, oky := b.ConstInt()
	if okx && oky {
		if k, ok := evalArith(op, x, y); ok {
			return Int(k)
		}
	}
	return mk(op, a, b)
}

func evalArith(op eop, x, y int) (int, bool) {
	switch op {
	case eAdd:
		return x + y, true
	case eSub:
		return x - y, true
	case eMul:
		return x * y, true
	case eDiv:
		if y == 0 {
			return 0, false
		}
		return x / y, true
	case eMod:
		if y == 0 {
			return 0, false
		}
		m := x % y
		if m < 0 {
			if y < 0 {
				m -= y
			} else {
				m += y
			}
		}
		return m, true
	case eMin:
		return min(x, y), true
	case eMax:
		return max(x, y), true
	}
	return 0, false
}

// ConstInt returns the value of an integer constant; ok is false for any
// other expression.
func (e Expr) ConstInt() (k int, ok bool) {
	if e.n != nil && e.n.op == eConst && !e.n.bool {
		return e.n.k, true
	}
	return 0, false
}

// Ite is "if c then a else b".
func Ite(c, a, b Expr) Expr {
	if v, ok := c.ConstBool(); ok {
		if v {
			return a
		}
		return b
	}
	return mk(eIte, c, a, b)
}

// Branch is one arm of a Case.
type Branch struct {
	Cond, Value Expr
}

// Case is SMV's case…esac: the value of the first branch whose condition
// holds. When no condition holds the expression has no value, and an Update
// using it disables its command in that state.
func Case(bs ...Branch) Expr {
	n := &enode{op: eCase}
	for _, b := range bs {
		n.args = append(n.args, b.Cond.n, b.Value.n)
	}
	return Expr{n}
}

// OneOf is the nondeterministic choice among es (SMV's {a, b, c}); it may
// only be the value of an Update (or a Case branch of one).
func OneOf(es ...Expr) Expr { return mk(eSet, es...) }

// In is the condition "v has one of the values x can take", where x may be
// a choice (OneOf), a Case or an Ite of such values: the initial
// constraint SMV's init(v) := x states.
func In(v *Var, x Expr) Expr {
	if x.n != nil {
		switch x.n.op {
		case eSet:
			var alts []Expr
			for _, a := range x.n.args {
				alts = append(alts, In(v, Expr{a}))
			}
			return Or(alts...)
		case eCase:
			var bs []Branch
			for i := 0; i+1 < len(x.n.args); i += 2 {
				bs = append(bs, Branch{Cond: Expr{x.n.args[i]}, Value: In(v, Expr{x.n.args[i+1]})})
			}
			return Case(bs...)
		case eIte:
			return Ite(Expr{x.n.args[0]}, In(v, Expr{x.n.args[1]}), In(v, Expr{x.n.args[2]}))
		}
	}
	if v.bool {
		return Iff(Ref(v), x).WithPos(x.Pos())
	}
	return Eq(Ref(v), x).WithPos(x.Pos())
}

// WithPos returns e with its root positioned at pos: where a front end
// read it, for the errors that concern it.
func (e Expr) WithPos(pos Pos) Expr {
	if e.n == nil {
		return e
	}
	c := *e.n
	c.pos = pos
	return Expr{&c}
}

// String prints e in the syntax of the text format.
func (e Expr) String() string {
	if e.n == nil {
		return "<absent>"
	}
	var b strings.Builder
	writeExpr(&b, e.n, 0)
	return b.String()
}

// Precedences for printing, loosest first.
func prec(op eop) int {
	switch op {
	case eIff:
		return 1
	case eImp:
		return 2
	case eOr, eXor:
		return 3
	case eAnd:
		return 4
	case eEq, eNe, eLt, eLe:
		return 5
	case eAdd, eSub:
		return 6
	case eMul, eDiv, eMod:
		return 7
	case eNot, eNeg:
		return 8
	}
	return 9
}

var opText = map[eop]string{
	eAnd: " & ", eOr: " | ", eXor: " xor ", eImp: " -> ", eIff: " <-> ",
	eEq: " = ", eNe: " != ", eLt: " < ", eLe: " <= ",
	eAdd: " + ", eSub: " - ", eMul: " * ", eDiv: " / ", eMod: " mod ",
}

func writeExpr(b *strings.Builder, n *enode, ctx int) {
	if n == nil {
		b.WriteString("<absent>")
		return
	}
	p := prec(n.op)
	paren := p < ctx || (p == ctx && p < 8)
	if paren {
		b.WriteByte('(')
	}
	switch n.op {
	case eConst:
		switch {
		case n.sym != "":
			b.WriteString(n.sym)
		case n.bool && n.k != 0:
			b.WriteString("TRUE")
		case n.bool:
			b.WriteString("FALSE")
		default:
			b.WriteString(strconv.Itoa(n.k))
		}
	case eVar:
		if n.v == nil {
			b.WriteString("<nil>")
		} else {
			b.WriteString(n.v.name)
		}
	case eNot:
		b.WriteByte('!')
		writeExpr(b, n.args[0], 8)
	case eNeg:
		b.WriteByte('-')
		writeExpr(b, n.args[0], 8)
	case eMin, eMax:
		if n.op == eMin {
			b.WriteString("min(")
		} else {
			b.WriteString("max(")
		}
		writeExpr(b, n.args[0], 0)
		b.WriteString(", ")
		writeExpr(b, n.args[1], 0)
		b.WriteByte(')')
	case eIte:
		b.WriteString("(")
		writeExpr(b, n.args[0], 0)
		b.WriteString(" ? ")
		writeExpr(b, n.args[1], 0)
		b.WriteString(" : ")
		writeExpr(b, n.args[2], 0)
		b.WriteString(")")
	case eCase:
		b.WriteString("case ")
		for i := 0; i+1 < len(n.args); i += 2 {
			writeExpr(b, n.args[i], 0)
			b.WriteString(" : ")
			writeExpr(b, n.args[i+1], 0)
			b.WriteString("; ")
		}
		b.WriteString("esac")
	case eSet:
		b.WriteByte('{')
		for i, a := range n.args {
			if i > 0 {
				b.WriteString(", ")
			}
			writeExpr(b, a, 0)
		}
		b.WriteByte('}')
	default:
		for i, a := range n.args {
			if i > 0 {
				b.WriteString(opText[n.op])
			}
			// Left-associative printing: the right operand of a
			// non-associative operator needs parentheses at equal precedence.
			writeExpr(b, a, p+boolToInt(i > 0 && n.op != eAnd && n.op != eOr))
		}
	}
	if paren {
		b.WriteByte(')')
	}
}

func boolToInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// vars calls fn for every variable e reads.
func (e Expr) vars(fn func(*Var)) {
	var rec func(n *enode)
	rec = func(n *enode) {
		if n == nil {
			return
		}
		if n.op == eVar {
			fn(n.v)
		}
		for _, a := range n.args {
			rec(a)
		}
	}
	rec(e.n)
}

// etype is the type of an expression.
type etype uint8

const (
	tBool etype = iota
	tInt
)

func (t etype) String() string {
	if t == tBool {
		return "boolean"
	}
	return "integer"
}

// typeOf infers e's type; choice reports whether e is (or contains at a
// value position) a nondeterministic choice.
func typeOf(n *enode) (t etype, choice bool, err error) {
	if n == nil {
		return tBool, false, errorf(Pos{}, ErrType, "absent expression")
	}
	bad := func(format string, args ...any) (etype, bool, error) {
		return 0, false, errorf(n.pos, ErrType, format, args...)
	}
	want := func(a *enode, w etype) error {
		t, ch, err := typeOf(a)
		if err != nil {
			return err
		}
		if ch {
			return errorf(posOr(a.pos, n.pos), ErrType, "a choice {…} can only be the value of an assignment")
		}
		if t != w {
			return errorf(posOr(a.pos, n.pos), ErrType, "%s is %s, want %s", Expr{a}, t, w)
		}
		return nil
	}
	switch n.op {
	case eConst:
		if n.bool {
			return tBool, false, nil
		}
		return tInt, false, nil
	case eVar:
		if n.v == nil {
			return bad("nil variable")
		}
		if n.v.bool {
			return tBool, false, nil
		}
		return tInt, false, nil
	case eNot:
		return tBool, false, want(n.args[0], tBool)
	case eAnd, eOr, eXor, eImp, eIff:
		for _, a := range n.args {
			if err := want(a, tBool); err != nil {
				return 0, false, err
			}
		}
		return tBool, false, nil
	case eEq, eNe:
		t0, c0, err := typeOf(n.args[0])
		if err != nil {
			return 0, false, err
		}
		if c0 {
			return bad("a choice {…} can only be the value of an assignment")
		}
		return tBool, false, want(n.args[1], t0)
	case eLt, eLe:
		for _, a := range n.args {
			if err := want(a, tInt); err != nil {
				return 0, false, err
			}
		}
		return tBool, false, nil
	case eAdd, eSub, eMul, eDiv, eMod, eMin, eMax, eNeg:
		for _, a := range n.args {
			if err := want(a, tInt); err != nil {
				return 0, false, err
			}
		}
		return tInt, false, nil
	case eIte:
		if err := want(n.args[0], tBool); err != nil {
			return 0, false, err
		}
		t1, c1, err := typeOf(n.args[1])
		if err != nil {
			return 0, false, err
		}
		t2, c2, err := typeOf(n.args[2])
		if err != nil {
			return 0, false, err
		}
		if t1 != t2 {
			return bad("branches of ?: are %s and %s", t1, t2)
		}
		return t1, c1 || c2, nil
	case eCase, eSet:
		var t etype
		choice := n.op == eSet
		first := true
		for i, a := range n.args {
			if n.op == eCase && i%2 == 0 {
				if err := want(a, tBool); err != nil {
					return 0, false, err
				}
				continue
			}
			ta, ca, err := typeOf(a)
			if err != nil {
				return 0, false, err
			}
			if ca && n.op == eSet {
				return bad("nested choice")
			}
			choice = choice || ca
			if !first && ta != t {
				return bad("alternatives of mixed types %s and %s", t, ta)
			}
			t, first = ta, false
		}
		if first {
			return bad("empty %s", map[eop]string{eCase: "case", eSet: "choice"}[n.op])
		}
		return t, choice, nil
	}
	return bad("unknown operator %d", n.op)
}

func posOr(p, q Pos) Pos {
	if p.IsValid() {
		return p
	}
	return q
}

// Check reports the first type error in e, such as an operand of the
// wrong type.
func (e Expr) Check() error {
	_, _, err := typeOf(e.n)
	return err
}

// CheckBool reports an error unless e is a Boolean expression without
// choices; what names e's role in the message ("guard of c").
func (e Expr) CheckBool(what string) error {
	t, ch, err := typeOf(e.n)
	if err != nil {
		return err
	}
	if ch {
		return errorf(e.n.pos, ErrType, "%s: a choice {…} can only be the value of an assignment", what)
	}
	if t != tBool {
		return errorf(e.n.pos, ErrType, "%s: %s is %s, want boolean", what, e, t)
	}
	return nil
}
