package synth

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// This file parses the infix expressions of .structuredslugs, TLSF and the
// quoted atoms of LTL formulas. One grammar covers all three; from loosest
// to tightest binding:
//
//	<->  <-->  <=>                 equivalence
//	->   -->   =>                  implication (right-associative)
//	^                              exclusive or
//	|    ||    \/                  or
//	&    &&    /\                  and
//	U    W     R    V    M         temporal binary operators (right-assoc.)
//	=  ==  !=  <  <=  >  >=        comparison of integers (or Booleans)
//	+    -                         arithmetic
//	!  ~  X  G  F  []  <>  next()  unary; ! and X take a comparison
//	'                              postfix next value of a variable
//
// with TRUE, FALSE, true, false, integer literals, parentheses and variable
// names. The one-letter operators X G F U W R V M are names when a variable
// is declared with that name.

type infixKind uint8

const (
	tkEOF infixKind = iota
	tkIdent
	tkInt
	tkOp
	tkLParen
	tkRParen
	tkPrime
)

type infixToken struct {
	kind infixKind
	text string
	pos  Pos
	val  int
}

// cursor is a position in a source text: a byte offset with the line and
// column it is at.
type cursor struct {
	src  string
	i    int
	line int
	col  int
	file string
}

func (c *cursor) pos() Pos { return Pos{File: c.file, Line: c.line, Col: c.col} }

// advance moves n bytes forward.
func (c *cursor) advance(n int) {
	for _, r := range c.src[c.i : c.i+n] {
		if r == '\n' {
			c.line++
			c.col = 1
		} else {
			c.col++
		}
	}
	c.i += n
}

// skipSpace moves past white space, and past comments from lineComment to
// the end of the line when lineComment is not empty.
func (c *cursor) skipSpace(lineComment string) error {
	for c.i < len(c.src) {
		r, size := utf8.DecodeRuneInString(c.src[c.i:])
		if r == utf8.RuneError && size == 1 {
			return errorf(c.pos(), ErrSyntax, "invalid UTF-8")
		}
		if lineComment != "" && strings.HasPrefix(c.src[c.i:], lineComment) {
			j := strings.IndexByte(c.src[c.i:], '\n')
			if j < 0 {
				j = len(c.src) - c.i
			}
			c.advance(j)
			continue
		}
		if !unicode.IsSpace(r) {
			return nil
		}
		c.advance(size)
	}
	return nil
}

// scanInt reads the decimal integer at the cursor (at most 2^30).
func (c *cursor) scanInt() (string, int, error) {
	pos := c.pos()
	j := c.i
	for j < len(c.src) && c.src[j] >= '0' && c.src[j] <= '9' {
		j++
	}
	text := c.src[c.i:j]
	v, err := strconv.Atoi(text)
	if err != nil || v > 1<<30 {
		return "", 0, errorf(pos, ErrSyntax, "integer %s is too large", text)
	}
	c.advance(j - c.i)
	return text, v, nil
}

// scanIdent reads the name at the cursor: ASCII letters, digits, '_' and
// the bytes in extra.
func (c *cursor) scanIdent(extra string) string {
	j := c.i
	for j < len(c.src) {
		d := c.src[j]
		if d == '_' || d >= 'a' && d <= 'z' || d >= 'A' && d <= 'Z' || d >= '0' && d <= '9' || strings.IndexByte(extra, d) >= 0 {
			j++
			continue
		}
		break
	}
	text := c.src[c.i:j]
	c.advance(j - c.i)
	return text
}

// infixLexer turns text into tokens.
type infixLexer struct{ cursor }

var infixOps = []string{
	"<-->", "<->", "<=>", "-->", "->", "=>", "/\\", "\\/", "&&", "||", "==", "!=", "<=", ">=", "[]", "<>",
	"&", "|", "^", "!", "~", "=", "<", ">", "+", "-",
}

func (l *infixLexer) next() (infixToken, error) {
	if err := l.skipSpace(""); err != nil {
		return infixToken{}, err
	}
	pos := l.pos()
	if l.i >= len(l.src) {
		return infixToken{kind: tkEOF, pos: pos}, nil
	}
	c := l.src[l.i]
	switch {
	case c == '(':
		l.advance(1)
		return infixToken{kind: tkLParen, text: "(", pos: pos}, nil
	case c == ')':
		l.advance(1)
		return infixToken{kind: tkRParen, text: ")", pos: pos}, nil
	case c == '\'':
		l.advance(1)
		return infixToken{kind: tkPrime, text: "'", pos: pos}, nil
	case c >= '0' && c <= '9':
		text, v, err := l.scanInt()
		if err != nil {
			return infixToken{}, err
		}
		return infixToken{kind: tkInt, text: text, pos: pos, val: v}, nil
	case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		return infixToken{kind: tkIdent, text: l.scanIdent("@."), pos: pos}, nil
	}
	for _, op := range infixOps {
		if strings.HasPrefix(l.src[l.i:], op) {
			l.advance(len(op))
			return infixToken{kind: tkOp, text: op, pos: pos}, nil
		}
	}
	r, _ := utf8.DecodeRuneInString(l.src[l.i:])
	return infixToken{}, errorf(pos, ErrSyntax, "unexpected character %q", r)
}

// infixParser is a precedence-climbing parser over infixLexer tokens.
type infixParser struct {
	lex   *infixLexer
	tok   infixToken
	names map[string]bool // declared variables (they shadow one-letter operators)
	depth int
}

// parseInfix parses src, which starts at position start, as one expression.
// names are the declared variables.
func parseInfix(src string, start Pos, names map[string]bool) (*Expr, error) {
	line, col := start.Line, start.Col
	if line == 0 {
		line, col = 1, 1
	}
	p := &infixParser{lex: &infixLexer{cursor{src: src, line: line, col: col, file: start.File}}, names: names}
	if err := p.advance(); err != nil {
		return nil, err
	}
	e, err := p.expr(precIff)
	if err != nil {
		return nil, err
	}
	if p.tok.kind != tkEOF {
		return nil, errorf(p.tok.pos, ErrSyntax, "unexpected %q after a complete expression", p.tok.text)
	}
	return e, nil
}

func (p *infixParser) advance() error {
	t, err := p.lex.next()
	if err != nil {
		return err
	}
	p.tok = t
	return nil
}

const (
	precIff = iota + 1
	precImp
	precXor
	precOr
	precAnd
	precTemporal
	precCmp
	precAdd
	precUnary
)

// binaryPunct returns the binary operator written text (punctuation, as
// in "<->" or "&&") and its precedence.
func binaryPunct(text string) (ExprOp, int, bool) {
	switch text {
	case "<->", "<-->", "<=>":
		return ExprIff, precIff, true
	case "->", "-->", "=>":
		return ExprImp, precImp, true
	case "^":
		return ExprXor, precXor, true
	case "|", "||", "\\/":
		return ExprOr, precOr, true
	case "&", "&&", "/\\":
		return ExprAnd, precAnd, true
	case "=", "==":
		return ExprEq, precCmp, true
	case "!=":
		return ExprNe, precCmp, true
	case "<":
		return ExprLt, precCmp, true
	case "<=":
		return ExprLe, precCmp, true
	case ">":
		return ExprGt, precCmp, true
	case ">=":
		return ExprGe, precCmp, true
	case "+":
		return ExprAdd, precAdd, true
	case "-":
		return ExprSub, precAdd, true
	}
	return 0, 0, false
}

// binaryOp returns the operator, its precedence and whether the current
// token is a binary operator.
func (p *infixParser) binaryOp() (ExprOp, string, int, bool) {
	t := p.tok
	switch t.kind {
	case tkOp:
		if op, prec, ok := binaryPunct(t.text); ok {
			return op, "", prec, true
		}
	case tkIdent:
		switch t.text {
		case "U", "W", "R", "V", "M":
			if !p.names[t.text] {
				return ExprTemporal, t.text, precTemporal, true
			}
		}
	}
	return 0, "", 0, false
}

func (p *infixParser) expr(minPrec int) (*Expr, error) {
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > maxDepth {
		return nil, errorf(p.tok.pos, ErrSyntax, "expression nested more than %d deep", maxDepth)
	}
	left, err := p.unary()
	if err != nil {
		return nil, err
	}
	for {
		op, name, prec, ok := p.binaryOp()
		if !ok || prec < minPrec {
			return left, nil
		}
		optok := p.tok
		if err := p.advance(); err != nil {
			return nil, err
		}
		next := prec + 1
		if op == ExprImp || op == ExprTemporal {
			next = prec // right-associative
		}
		right, err := p.expr(next)
		if err != nil {
			return nil, err
		}
		e := mk(op, left.Pos, left, right)
		e.Name = name
		if op == ExprTemporal {
			e.Pos = optok.pos
		}
		if prec == precCmp {
			if _, _, p2, ok := p.binaryOp(); ok && p2 == precCmp {
				return nil, errorf(p.tok.pos, ErrSyntax, "comparisons cannot be chained; add parentheses")
			}
		}
		left = e
	}
}

func (p *infixParser) unary() (*Expr, error) {
	t := p.tok
	switch {
	case t.kind == tkOp && (t.text == "!" || t.text == "~"):
		if err := p.advance(); err != nil {
			return nil, err
		}
		a, err := p.expr(precCmp)
		if err != nil {
			return nil, err
		}
		return mk(ExprNot, t.pos, a), nil
	case t.kind == tkOp && t.text == "-":
		if err := p.advance(); err != nil {
			return nil, err
		}
		a, err := p.expr(precUnary)
		if err != nil {
			return nil, err
		}
		if a.Op == ExprInt {
			a.Val = -a.Val
			a.Pos = t.pos
			return a, nil
		}
		zero := mk(ExprInt, t.pos)
		return mk(ExprSub, t.pos, zero, a), nil
	case t.kind == tkOp && (t.text == "[]" || t.text == "<>"):
		if err := p.advance(); err != nil {
			return nil, err
		}
		a, err := p.expr(precCmp)
		if err != nil {
			return nil, err
		}
		op := ExprAlways
		if t.text == "<>" {
			op = ExprEventually
		}
		return mk(op, t.pos, a), nil
	case t.kind == tkIdent && !p.names[t.text]:
		var op ExprOp
		switch t.text {
		case "X", "next":
			op = ExprNext
		case "G":
			op = ExprAlways
		case "F":
			op = ExprEventually
		default:
			return p.postfix()
		}
		if err := p.advance(); err != nil {
			return nil, err
		}
		if t.text == "next" && p.tok.kind != tkLParen {
			return nil, errorf(p.tok.pos, ErrSyntax, "next must be followed by (")
		}
		a, err := p.expr(precCmp)
		if err != nil {
			return nil, err
		}
		return mk(op, t.pos, a), nil
	}
	return p.postfix()
}

func (p *infixParser) postfix() (*Expr, error) {
	e, err := p.primary()
	if err != nil {
		return nil, err
	}
	for p.tok.kind == tkPrime {
		if e.Op != ExprVar {
			return nil, errorf(p.tok.pos, ErrSyntax, "' applies to a variable; use X(...) for an expression")
		}
		e = mk(ExprNext, e.Pos, e)
		if err := p.advance(); err != nil {
			return nil, err
		}
		if p.tok.kind == tkPrime {
			return nil, errorf(p.tok.pos, ErrNotGR1, "nested next is outside GR(1)")
		}
	}
	return e, nil
}

func (p *infixParser) primary() (*Expr, error) {
	t := p.tok
	switch t.kind {
	case tkLParen:
		if err := p.advance(); err != nil {
			return nil, err
		}
		e, err := p.expr(precIff)
		if err != nil {
			return nil, err
		}
		if p.tok.kind != tkRParen {
			return nil, errorf(p.tok.pos, ErrSyntax, "expected ) to close the ( at %d:%d, found %s", t.pos.Line, t.pos.Col, describe(p.tok))
		}
		return e, p.advance()
	case tkInt:
		e := mk(ExprInt, t.pos)
		e.Val = t.val
		return e, p.advance()
	case tkIdent:
		if !p.names[t.text] {
			switch t.text {
			case "TRUE", "true":
				return mk(ExprTrue, t.pos), p.advance()
			case "FALSE", "false":
				return mk(ExprFalse, t.pos), p.advance()
			}
		}
		e := mk(ExprVar, t.pos)
		e.Name = t.text
		return e, p.advance()
	}
	return nil, errorf(t.pos, ErrSyntax, "expected an operand, found %s", describe(t))
}

func describe(t infixToken) string {
	if t.kind == tkEOF {
		return "the end of the expression"
	}
	return strconv.Quote(t.text)
}
