package ltl

import (
	"fmt"
	"strconv"
)

// This file is the recursive-descent parser. The grammar, loosest binding
// first (docs/semantics.md, "Syntax"):
//
//	formula  = iff
//	iff      = implies { ("<->" | "<=>" | "↔") implies }        left-associative
//	implies  = xor [ ("->" | "=>" | "→") implies ]             right-associative
//	xor      = or { ("^" | "xor" | "⊕") or }                   left-associative
//	or       = and { ("||" | "|" | "∨") and }                  left-associative
//	and      = temporal { ("&&" | "&" | "∧") temporal }        left-associative
//	temporal = unary [ ("U"|"W"|"R"|"V"|"M"|"S"|"B") temporal ]  right-associative
//	unary    = prefix unary | primary
//	prefix   = "!" | "~" | "¬" | "X" | "X[!]" | "◯" | "N" | "WX" | "F" | "<>" | "◇"
//	         | "G" | "[]" | "□" | "Y" | "Z" | "O" | "H"
//	primary  = "true" | "false" | atom | quoted | "(" formula ")"
//	         | "start" "(" formula ")" | "end" "(" formula ")"
//	         | "[" formula "," formula ")" [ "s" | "w" ]
//	         | "at" "(" goroutine "," label ")"                 scenario atom
//	atom     = [A-Za-z_][A-Za-z0-9_.]* that is not a keyword
//	goroutine, label = [A-Za-z0-9_.#]+, [A-Za-z0-9_.]+
//
// `<->` is left-associative, as in most LTL tools (Spot, NuSMV): a <-> b <-> c
// is (a <-> b) <-> c. The interval suffix s or w must follow the `)` with no
// space between; without a suffix the interval is strong. Binary operators of
// one level are parsed by loops, not recursion, so long chains such as
// AndAll's output of 100 000 conjuncts parse in constant stack depth.

// MaxNesting is the deepest nesting Parse accepts: every parenthesis,
// bracket, start/end call and prefix operator opens one level. Deeper input
// is a *SyntaxError rather than a stack overflow.
const MaxNesting = 4096

// A SyntaxError is a parse error at a byte offset of the formula's source.
// Callers that embed formulas in larger texts (such as //ltl: directives)
// add the formula's own position to Offset to report a file column.
type SyntaxError struct {
	// Offset is the byte offset in the source where the problem is.
	Offset int
	// Found is the text found there; "" means the end of the input.
	Found string
	// Expected says what would have been valid there.
	Expected string
}

func (e *SyntaxError) Error() string {
	found := "end of input"
	if e.Found != "" {
		found = strconv.Quote(e.Found)
	}
	return fmt.Sprintf("offset %d: expected %s, found %s", e.Offset, e.Expected, found)
}

// Parse parses a formula written in the syntax of docs/semantics.md. On failure it
// returns the zero Formula and a *SyntaxError.
func Parse(src string) (Formula, error) {
	toks, err := lex(src)
	if err != nil {
		return Formula{}, err
	}
	p := &parser{toks: toks}
	f, err := p.formula()
	if err != nil {
		return Formula{}, err
	}
	if t := p.peek(); t.kind != tokEOF {
		return Formula{}, p.errorAt(t, "binary operator or end of input")
	}
	return f, nil
}

// MustParse is like Parse but panics on error. It is meant for tests and
// examples with constant formulas, never for user input.
func MustParse(src string) Formula {
	f, err := Parse(src)
	if err != nil {
		panic(fmt.Sprintf("ltl.MustParse(%q): %v", src, err))
	}
	return f
}

// parser holds the tokens of one Parse call and the current position.
type parser struct {
	toks  []token
	i     int // index of the next token; toks ends with tokEOF
	depth int // current nesting, at most MaxNesting
}

func (p *parser) peek() token { return p.peekN(0) }

// peekN returns the token n places ahead, or the final tokEOF.
func (p *parser) peekN(n int) token {
	if p.i+n < len(p.toks) {
		return p.toks[p.i+n]
	}
	return p.toks[len(p.toks)-1]
}

func (p *parser) next() token {
	t := p.peek()
	if p.i < len(p.toks)-1 {
		p.i++
	}
	return t
}

func (p *parser) errorAt(t token, expected string) error {
	found := t.text
	if t.kind == tokEOF {
		found = ""
	}
	return &SyntaxError{Offset: t.pos, Found: found, Expected: expected}
}

// expect consumes a token of kind k or fails, naming what was expected.
func (p *parser) expect(k tokenKind, expected string) (token, error) {
	t := p.peek()
	if t.kind != k {
		return t, p.errorAt(t, expected)
	}
	return p.next(), nil
}

// enter opens one nesting level at token t; leave closes one.
func (p *parser) enter(t token) error {
	if p.depth >= MaxNesting {
		return p.errorAt(t, "at most "+strconv.Itoa(MaxNesting)+" nested operators and parentheses")
	}
	p.depth++
	return nil
}

func (p *parser) leave() { p.depth-- }

// Binary operator levels, loosest first; unary operators bind tighter than
// all of them.
const (
	levelIff = iota
	levelImplies
	levelXor
	levelOr
	levelAnd
	levelTemporal
	levelUnary
	levelPrimary
)

// binaryLevel returns the precedence level of a binary operator.
func binaryLevel(op Op) int {
	switch op {
	case OpIff:
		return levelIff
	case OpImplies:
		return levelImplies
	case OpXor:
		return levelXor
	case OpOr:
		return levelOr
	case OpAnd:
		return levelAnd
	}
	return levelTemporal
}

// rightAssoc reports whether the operators of a level group to the right.
func rightAssoc(level int) bool { return level == levelImplies || level == levelTemporal }

func (p *parser) formula() (Formula, error) { return p.binary(levelIff) }

// binary parses a chain of operators of the given level and tighter ones.
func (p *parser) binary(level int) (Formula, error) {
	if level == levelUnary {
		return p.unary()
	}
	acc, err := p.binary(level + 1)
	if err != nil {
		return Formula{}, err
	}
	if !rightAssoc(level) {
		for {
			t := p.peek()
			if t.kind != tokBinary || binaryLevel(t.op) != level {
				return acc, nil
			}
			p.next()
			g, err := p.binary(level + 1)
			if err != nil {
				return Formula{}, err
			}
			acc = Binary(t.op, acc, g)
		}
	}
	// Right-associative: collect operand op operand op … iteratively, then
	// group from the right.
	if t := p.peek(); t.kind != tokBinary || binaryLevel(t.op) != level {
		return acc, nil // no operator of this level: the common case
	}
	operands := append(make([]Formula, 0, 8), acc)
	ops := make([]Op, 0, 8)
	for {
		t := p.peek()
		if t.kind != tokBinary || binaryLevel(t.op) != level {
			break
		}
		p.next()
		g, err := p.binary(level + 1)
		if err != nil {
			return Formula{}, err
		}
		ops = append(ops, t.op)
		operands = append(operands, g)
	}
	acc = operands[len(operands)-1]
	for k := len(ops) - 1; k >= 0; k-- {
		acc = Binary(ops[k], operands[k], acc)
	}
	return acc, nil
}

// unary parses prefix operators iteratively, then a primary formula.
func (p *parser) unary() (Formula, error) {
	depth := p.depth // restored on return: each prefix opened one level
	defer func(p *parser, depth int) { p.depth = depth }(p, depth)
	ops := make([]Op, 0, 8)
	for {
		t := p.peek()
		var op Op
		width := 1 // tokens the prefix operator takes
		switch {
		case t.kind == tokUnary && t.op == OpNext && p.isStrongNextMark():
			op, width = OpNext, 4 // X [ ! ]
		case t.kind == tokUnary:
			op = t.op
		case t.kind == tokLBrack && p.peekN(1).kind == tokRBrack:
			op, width = OpAlways, 2 // [ ]
		default:
			f, err := p.primary()
			if err != nil {
				return Formula{}, err
			}
			for k := len(ops) - 1; k >= 0; k-- {
				f = Unary(ops[k], f)
			}
			return f, nil
		}
		if err := p.enter(t); err != nil {
			return Formula{}, err
		}
		p.i += width
		ops = append(ops, op)
	}
}

// isStrongNextMark reports whether the X at the current token is followed by
// `[!]`, the strong-next mark of X[!] f.
func (p *parser) isStrongNextMark() bool {
	return p.peekN(1).kind == tokLBrack && p.peekN(2).text == "!" && p.peekN(3).kind == tokRBrack
}

func (p *parser) primary() (Formula, error) {
	t := p.peek()
	switch t.kind {
	case tokConst:
		p.next()
		if t.op == OpTrue {
			return True(), nil
		}
		return False(), nil
	case tokAtom:
		p.next()
		return mk(node{op: OpAtom, name: t.val}), nil // an identifier: needs no quotes
	case tokQuoted:
		p.next()
		return QuotedAtom(t.val), nil
	case tokLParen, tokCall, tokLBrack:
		if err := p.enter(t); err != nil {
			return Formula{}, err
		}
		defer p.leave()
		switch t.kind {
		case tokLParen:
			return p.parenthesized()
		case tokCall:
			return p.call()
		}
		return p.interval()
	}
	return Formula{}, p.errorAt(t, "formula")
}

// parenthesized parses ( f ); the current token is the `(`.
func (p *parser) parenthesized() (Formula, error) {
	p.next()
	f, err := p.formula()
	if err != nil {
		return Formula{}, err
	}
	_, err = p.expect(tokRParen, `binary operator or ")"`)
	return f, err
}

// call parses start(f) or end(f); the current token is the keyword.
func (p *parser) call() (Formula, error) {
	t := p.next()
	if lp := p.peek(); lp.kind != tokLParen {
		return Formula{}, p.errorAt(lp, `"(" after `+t.text)
	}
	f, err := p.parenthesized()
	if err != nil {
		return Formula{}, err
	}
	return Unary(t.op, f), nil
}

// interval parses [f, g) with an optional s or w suffix; the current token
// is the `[`.
func (p *parser) interval() (Formula, error) {
	p.next()
	f, err := p.formula()
	if err != nil {
		return Formula{}, err
	}
	if _, err := p.expect(tokComma, `binary operator or "," in interval [f, g)`); err != nil {
		return Formula{}, err
	}
	g, err := p.formula()
	if err != nil {
		return Formula{}, err
	}
	rp, err := p.expect(tokRParen, `binary operator or ")" closing interval [f, g)`)
	if err != nil {
		return Formula{}, err
	}
	op := OpIntervalStrong
	if s := p.peek(); s.kind == tokAtom && s.pos == rp.end && (s.text == "s" || s.text == "w") {
		p.next()
		if s.text == "w" {
			op = OpIntervalWeak
		}
	}
	return Binary(op, f, g), nil
}
