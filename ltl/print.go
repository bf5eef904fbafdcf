package ltl

import "strings"

// This file is the printer. String writes the canonical ASCII form: the
// first spelling docs/semantics.md lists for each operator (! && || ^ -> <-> X N F G
// U W R M Y Z O H S B start end), strong intervals as [f, g)s, and the fewest
// parentheses that the parser's precedence and associativity allow, so that
// Parse(f.String()) == f for every formula with at most MaxNesting levels
// of nesting. Atoms print bare when they are identifiers that are not
// keywords or scenario atoms at(G,L), and in double quotes otherwise.

// String returns f in canonical ASCII syntax. The zero Formula prints as
// "<invalid>". The printer keeps its own stack, so formulas of any depth
// (AndAll of 100 000 conjuncts, say) print without deep recursion.
func (f Formula) String() string {
	if f.IsZero() {
		return "<invalid>"
	}
	var b strings.Builder
	// A work item either writes text or prints a formula at a minimum
	// precedence level (parenthesizing it if it binds more loosely).
	type item struct {
		text  string
		f     Formula
		level int
	}
	stack := append(make([]item, 0, 32), item{f: f, level: levelIff})
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if it.f.IsZero() {
			b.WriteString(it.text)
			continue
		}
		g := it.f
		n := g.node()
		if formulaLevel(g) < it.level {
			stack = append(stack, item{text: ")"}, item{f: g, level: levelIff}, item{text: "("})
			continue
		}
		// Items are pushed in reverse order of output.
		switch {
		case n.op == OpTrue || n.op == OpFalse:
			b.WriteString(n.op.String())
		case n.op == OpAtom:
			if n.quoted || !isPlainAtom(n.name) {
				b.WriteString(quote(n.name))
			} else {
				b.WriteString(n.name)
			}
		case n.op == OpStart || n.op == OpEnd:
			b.WriteString(n.op.String())
			b.WriteByte('(')
			stack = append(stack, item{text: ")"}, item{f: n.l, level: levelIff})
		case n.op == OpIntervalStrong || n.op == OpIntervalWeak:
			suffix := ")s"
			if n.op == OpIntervalWeak {
				suffix = ")w"
			}
			b.WriteByte('[')
			stack = append(stack, item{text: suffix}, item{f: n.r, level: levelIff},
				item{text: ", "}, item{f: n.l, level: levelIff})
		case n.op.Arity() == 1:
			b.WriteString(n.op.String())
			// Letter operators need a space before an operand that does
			// not start with a parenthesis: X a, X !a, but X(a || b).
			if n.op != OpNot && formulaLevel(n.l) >= levelUnary {
				b.WriteByte(' ')
			}
			stack = append(stack, item{f: n.l, level: levelUnary})
		case n.op.Arity() == 2:
			level := binaryLevel(n.op)
			left, right := level, level+1
			if rightAssoc(level) {
				left, right = level+1, level
			}
			stack = append(stack, item{f: n.r, level: right},
				item{text: infix[n.op]}, item{f: n.l, level: left})
		default:
			b.WriteString("<invalid>")
		}
	}
	return b.String()
}

// formulaLevel is the precedence level of f's root operator: how loosely it
// binds.
func formulaLevel(f Formula) int {
	op := f.Op()
	switch {
	case op == OpStart || op == OpEnd || op == OpIntervalStrong || op == OpIntervalWeak:
		return levelPrimary
	case op.Arity() == 2:
		return binaryLevel(op)
	case op.Arity() == 1:
		return levelUnary
	}
	return levelPrimary
}

// infix is the printed form of each binary operator, with its spaces.
var infix = func() (t [numOps]string) {
	for op := range numOps {
		if op.Arity() == 2 && op < OpIntervalStrong {
			t[op] = " " + op.String() + " "
		}
	}
	return t
}()
