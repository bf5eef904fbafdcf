package smv

import (
	"slices"

	"github.com/henceforth-go/henceforth/internal/srcpos"
	"github.com/henceforth-go/henceforth/split"
)

// This file is the parser of the text format: a readable subset of the SMV
// language that the thesis's SPLIT tool read, extended with guarded
// commands. The grammar (EBNF; "--" and "//" start comments):
//
//	file     = module { module } .
//	module   = "MODULE" ident [ "(" ident { "," ident } ")" ] { section } .
//	section  = "VAR" { ident ":" type ";" }
//	         | "ASSIGN" { ("init" | "next") "(" lvalue ")" ":=" expr ";" }
//	         | "INIT" expr [";"]
//	         | "DEFINE" { ident ":=" expr ";" }
//	         | "COMMANDS" { command }
//	         | ("JUSTICE" | "FAIRNESS") expr [";"]
//	         | "COMPASSION" "(" expr "," expr ")" [";"]
//	         | "INVARSPEC" [ "NAME" ident ":=" ] expr [";"]
//	         | "LTLSPEC" [ "NAME" ident ":=" ] ltl [";"] .
//	type     = "boolean" | expr ".." expr | "{" value { "," value } "}"
//	         | "array" expr ".." expr "of" type
//	         | "process" ident [ "(" expr { "," expr } ")" ] .
//	command  = [ ident ] [ "[" ident "in" expr ".." expr "]" ] ":" guard "->" update { "," update } ";" .
//	guard    = ("forall" | "exists") ident "in" expr ".." expr ":" guard | or .
//	update   = [ "forall" ident "in" expr ".." expr ":" ] lvalue ":=" expr .
//	lvalue   = ident { "[" expr "]" | "." ident } .
//	expr     = ("forall" | "exists") ident "in" expr ".." expr ":" expr
//	         | iff [ "?" expr ":" expr ] .
//
// Binary operators, loosest first: <->; -> (right); | and xor; &; in LTL
// specs U, W, R and V (right); = != < <= > >=; + -; * / mod. Unary: ! and
// -. In LTL specs, !, G, F, X, [] and <> apply to a whole comparison:
// F x = 2 is F (x = 2), and !x = y is !(x = y). Primaries: numbers, TRUE, FALSE,
// names, x[i], P[i].v, min(a, b), max(a, b), (e), case c : v; … esac and
// {a, b} (a nondeterministic choice, only as an assigned value). A guard
// is an expression at the level of | (use parentheses for ->, <->, ?: and
// for quantifiers that are not at its start).
//
// Module main declares the shared variables and the processes (a process,
// or an array of them: P : array 1..N of process m(args)); other modules
// are process templates whose VARs are local. Inside a template, self is
// the instance's index (1 for a process outside an array) and N the
// parameter of Parse; main's definitions and shared variables are visible
// unless a parameter or local variable of the same name hides them.
// Arguments are evaluated in main with self bound to the instance's index,
// so P : array 1..N of process phil(f, self) passes the array f by
// reference and the index by value.
//
// Semantics: the next(…) assignments of a module's ASSIGN form one command
// (all assigned simultaneously); each COMMANDS entry is a command (one per
// index of its binder). A step of the program is one command of one
// process; variables the command does not assign keep their values; a
// case with no true condition, or a value outside the variable's range,
// disables the command; a process with no enabled command skips.
// "JUSTICE running" makes the process unconditionally fair (scheduled
// infinitely often); other JUSTICE expressions are weak fairness GF e;
// COMPASSION(p, q) is GF p -> GF q. init(v) := {a, b} allows either value.

// skind is the kind of a syntax-tree node.
type skind uint8

const (
	sNum skind = iota
	sBool
	sIdent
	sUnary  // text: "!", "-", "G", "F", "X"
	sBinary // text: the operator ("&", "|", "xor", "->", "<->", "=", …, "U", "W", "R", "V")
	sIte    // args: cond, then, else
	sCase   // args: c1, v1, c2, v2, …
	sSet
	sIndex // args: base, index
	sField // args: base; text: field
	sCall  // text: function; args
	sQuant // text: "forall" or "exists"; name: bound variable; args: lo, hi, body
)

// snode is a node of the syntax tree of an expression.
type snode struct {
	kind skind
	pos  split.Pos
	text string
	name string
	num  int
	args []*snode
}

type moduleDecl struct {
	name       string
	pos        split.Pos
	params     []string
	vars       []*varDecl
	assigns    []*assignDecl
	inits      []*snode
	defines    []*defineDecl
	commands   []*commandDecl
	justice    []*snode
	compassion [][2]*snode
	invarspecs []*specDecl
	ltlspecs   []*specDecl
}

type varDecl struct {
	name string
	pos  split.Pos
	typ  *typeDecl
}

type tyKind uint8

const (
	tyBool tyKind = iota
	tyRange
	tyEnum
	tyArray
	tyProcess
)

type typeDecl struct {
	kind   tyKind
	pos    split.Pos
	lo, hi *snode
	values []string
	elem   *typeDecl
	module string
	args   []*snode
}

type assignDecl struct {
	next     bool
	lhs, rhs *snode
	pos      split.Pos
}

type defineDecl struct {
	name string
	body *snode
	pos  split.Pos
}

type binder struct {
	name   string
	lo, hi *snode
	pos    split.Pos
}

type commandDecl struct {
	label   string
	binder  *binder
	guard   *snode
	updates []*updateDecl
	pos     split.Pos
}

type updateDecl struct {
	binder   *binder
	lhs, rhs *snode
	pos      split.Pos
}

type specDecl struct {
	name string
	body *snode
	pos  split.Pos
}

// maxDepth bounds the nesting of expressions, so hostile inputs cannot
// exhaust the stack.
const maxDepth = 500

type parser struct {
	toks     []token
	i        int
	temporal bool // parsing an LTL spec
	depth    int
}

var sectionWords = []string{"VAR", "ASSIGN", "INIT", "DEFINE", "COMMANDS", "JUSTICE", "FAIRNESS", "COMPASSION", "INVARSPEC", "LTLSPEC", "MODULE"}

func (p *parser) peek() token { return p.toks[p.i] }

func (p *parser) next() token {
	t := p.toks[p.i]
	if t.kind != tEOF {
		p.i++
	}
	return t
}

func (p *parser) is(text string) bool {
	t := p.peek()
	return (t.kind == tOp || t.kind == tIdent) && t.text == text
}

func (p *parser) accept(text string) bool {
	if p.is(text) {
		p.next()
		return true
	}
	return false
}

func (p *parser) expect(text string) (token, error) {
	t := p.peek()
	if !p.is(text) {
		return t, srcpos.Errorf(t.pos, split.ErrSyntax, "expected %q, found %s", text, t)
	}
	return p.next(), nil
}

// expectAll consumes the tokens texts in order.
func (p *parser) expectAll(texts ...string) error {
	for _, text := range texts {
		if _, err := p.expect(text); err != nil {
			return err
		}
	}
	return nil
}

// exprThen parses an expression followed by the token text (a closing
// bracket, a separator or a terminator).
func (p *parser) exprThen(text string) (*snode, error) {
	e, err := p.expr()
	if err != nil {
		return nil, err
	}
	if _, err := p.expect(text); err != nil {
		return nil, err
	}
	return e, nil
}

// exprList parses "e1, e2, …, en" followed by the token close (n ≥ 1).
func (p *parser) exprList(close string) ([]*snode, error) {
	var out []*snode
	for {
		e, err := p.expr()
		if err != nil {
			return nil, err
		}
		out = append(out, e)
		if p.accept(close) {
			return out, nil
		}
		if _, err := p.expect(","); err != nil {
			return nil, err
		}
	}
}

func (p *parser) ident(what string) (token, error) {
	t := p.peek()
	if t.kind != tIdent || slices.Contains(sectionWords, t.text) {
		return t, srcpos.Errorf(t.pos, split.ErrSyntax, "expected %s, found %s", what, t)
	}
	return p.next(), nil
}

func (p *parser) atSection() bool {
	t := p.peek()
	return t.kind == tEOF || (t.kind == tIdent && slices.Contains(sectionWords, t.text))
}

// parseFile parses a whole text.
func parseFile(file, src string) ([]*moduleDecl, error) {
	toks, err := lex(file, src)
	if err != nil {
		return nil, err
	}
	p := &parser{toks: toks}
	var mods []*moduleDecl
	for p.peek().kind != tEOF {
		m, err := p.module()
		if err != nil {
			return nil, err
		}
		mods = append(mods, m)
	}
	if len(mods) == 0 {
		return nil, srcpos.Errorf(p.peek().pos, split.ErrSyntax, "expected MODULE, found end of input")
	}
	return mods, nil
}

func (p *parser) module() (*moduleDecl, error) {
	kw, err := p.expect("MODULE")
	if err != nil {
		return nil, err
	}
	name, err := p.ident("a module name")
	if err != nil {
		return nil, err
	}
	m := &moduleDecl{name: name.text, pos: kw.pos}
	if p.accept("(") {
		for {
			prm, err := p.ident("a parameter name")
			if err != nil {
				return nil, err
			}
			m.params = append(m.params, prm.text)
			if p.accept(")") {
				break
			}
			if _, err := p.expect(","); err != nil {
				return nil, err
			}
		}
	}
	for !p.is("MODULE") && p.peek().kind != tEOF {
		t := p.next()
		if t.kind != tIdent {
			return nil, srcpos.Errorf(t.pos, split.ErrSyntax, "expected a section (VAR, ASSIGN, …), found %s", t)
		}
		var err error
		switch t.text {
		case "VAR":
			err = p.varSection(m)
		case "ASSIGN":
			err = p.assignSection(m)
		case "INIT":
			var e *snode
			if e, err = p.expr(); err == nil {
				m.inits = append(m.inits, e)
				p.accept(";")
			}
		case "DEFINE":
			err = p.defineSection(m)
		case "COMMANDS":
			err = p.commandSection(m)
		case "JUSTICE", "FAIRNESS":
			var e *snode
			if e, err = p.expr(); err == nil {
				m.justice = append(m.justice, e)
				p.accept(";")
			}
		case "COMPASSION":
			err = p.compassion(m)
		case "INVARSPEC", "LTLSPEC":
			var s *specDecl
			if s, err = p.spec(t); err == nil {
				if t.text == "INVARSPEC" {
					m.invarspecs = append(m.invarspecs, s)
				} else {
					m.ltlspecs = append(m.ltlspecs, s)
				}
			}
		case "TRANS", "INVAR", "SPEC", "CTLSPEC", "FROZENVAR", "IVAR", "CONSTANTS", "PSLSPEC", "COMPUTE":
			err = srcpos.Errorf(t.pos, split.ErrUnsupported, "section %s is not part of this SMV subset", t.text)
		default:
			err = srcpos.Errorf(t.pos, split.ErrSyntax, "expected a section (VAR, ASSIGN, …), found %s", t)
		}
		if err != nil {
			return nil, err
		}
	}
	return m, nil
}

func (p *parser) varSection(m *moduleDecl) error {
	for !p.atSection() {
		name, err := p.ident("a variable name")
		if err != nil {
			return err
		}
		if _, err := p.expect(":"); err != nil {
			return err
		}
		ty, err := p.typ()
		if err != nil {
			return err
		}
		if _, err := p.expect(";"); err != nil {
			return err
		}
		m.vars = append(m.vars, &varDecl{name: name.text, pos: name.pos, typ: ty})
	}
	return nil
}

func (p *parser) typ() (*typeDecl, error) {
	t := p.peek()
	switch {
	case p.accept("boolean"):
		return &typeDecl{kind: tyBool, pos: t.pos}, nil
	case p.accept("{"):
		ty := &typeDecl{kind: tyEnum, pos: t.pos}
		for {
			v := p.next()
			switch v.kind {
			case tIdent:
				ty.values = append(ty.values, v.text)
			default:
				return nil, srcpos.Errorf(v.pos, split.ErrSyntax, "expected an enumeration value (a name), found %s", v)
			}
			if p.accept("}") {
				break
			}
			if _, err := p.expect(","); err != nil {
				return nil, err
			}
		}
		return ty, nil
	case p.accept("array"):
		lo, hi, err := p.bounds()
		if err != nil {
			return nil, err
		}
		if _, err := p.expect("of"); err != nil {
			return nil, err
		}
		p.depth++
		defer func() { p.depth-- }()
		if p.depth > maxDepth {
			return nil, srcpos.Errorf(t.pos, split.ErrSyntax, "types nested too deeply")
		}
		elem, err := p.typ()
		if err != nil {
			return nil, err
		}
		return &typeDecl{kind: tyArray, pos: t.pos, lo: lo, hi: hi, elem: elem}, nil
	case p.accept("process"):
		name, err := p.ident("a module name")
		if err != nil {
			return nil, err
		}
		ty := &typeDecl{kind: tyProcess, pos: t.pos, module: name.text}
		if p.accept("(") && !p.accept(")") {
			if ty.args, err = p.exprList(")"); err != nil {
				return nil, err
			}
		}
		return ty, nil
	}
	if t.kind == tIdent && !p.isNameAhead() {
		return nil, srcpos.Errorf(t.pos, split.ErrUnsupported, "module instances must be processes: write \"process %s\"", t.text)
	}
	lo, hi, err := p.bounds()
	if err != nil {
		return nil, err
	}
	return &typeDecl{kind: tyRange, pos: t.pos, lo: lo, hi: hi}, nil
}

// isNameAhead reports whether the identifier at the cursor starts a range
// (N..M, N-1..M) rather than naming a module.
func (p *parser) isNameAhead() bool {
	if p.i+1 >= len(p.toks) {
		return false
	}
	n := p.toks[p.i+1]
	return n.kind == tOp && slices.Contains([]string{"..", "+", "-", "*", "/"}, n.text)
}

func (p *parser) assignSection(m *moduleDecl) error {
	for !p.atSection() {
		t := p.next()
		var next bool
		switch {
		case t.kind == tIdent && t.text == "init":
		case t.kind == tIdent && t.text == "next":
			next = true
		case t.kind == tIdent:
			return srcpos.Errorf(t.pos, split.ErrUnsupported, "invariant assignments (%s := …) are not supported; use init(…) or next(…)", t.text)
		default:
			return srcpos.Errorf(t.pos, split.ErrSyntax, "expected init(…) or next(…), found %s", t)
		}
		if _, err := p.expect("("); err != nil {
			return err
		}
		lhs, err := p.lvalue()
		if err != nil {
			return err
		}
		if err := p.expectAll(")", ":="); err != nil {
			return err
		}
		rhs, err := p.exprThen(";")
		if err != nil {
			return err
		}
		m.assigns = append(m.assigns, &assignDecl{next: next, lhs: lhs, rhs: rhs, pos: t.pos})
	}
	return nil
}

func (p *parser) defineSection(m *moduleDecl) error {
	for !p.atSection() {
		name, err := p.ident("a name")
		if err != nil {
			return err
		}
		if _, err := p.expect(":="); err != nil {
			return err
		}
		body, err := p.exprThen(";")
		if err != nil {
			return err
		}
		m.defines = append(m.defines, &defineDecl{name: name.text, body: body, pos: name.pos})
	}
	return nil
}

// bounds parses a range "a..b" of additive expressions.
func (p *parser) bounds() (lo, hi *snode, err error) {
	if lo, err = p.additive(); err != nil {
		return nil, nil, err
	}
	if _, err = p.expect(".."); err != nil {
		return nil, nil, err
	}
	if hi, err = p.additive(); err != nil {
		return nil, nil, err
	}
	return lo, hi, nil
}

// binderAfter parses "ident in a..b" (after "[" or a quantifier).
func (p *parser) binderAfter(open string) (*binder, error) {
	name, err := p.ident("an index name")
	if err != nil {
		return nil, err
	}
	if _, err := p.expect("in"); err != nil {
		return nil, err
	}
	lo, hi, err := p.bounds()
	if err != nil {
		return nil, err
	}
	return &binder{name: name.text, lo: lo, hi: hi, pos: name.pos}, nil
}

func (p *parser) commandSection(m *moduleDecl) error {
	for !p.atSection() {
		c := &commandDecl{pos: p.peek().pos}
		if t := p.peek(); t.kind == tIdent {
			c.label = p.next().text
		}
		if p.accept("[") {
			b, err := p.binderAfter("[")
			if err != nil {
				return err
			}
			if _, err := p.expect("]"); err != nil {
				return err
			}
			c.binder = b
		}
		if _, err := p.expect(":"); err != nil {
			return err
		}
		g, err := p.guard()
		if err != nil {
			return err
		}
		c.guard = g
		if _, err := p.expect("->"); err != nil {
			return err
		}
		for {
			u := &updateDecl{pos: p.peek().pos}
			if p.accept("forall") {
				b, err := p.binderAfter("forall")
				if err != nil {
					return err
				}
				if _, err := p.expect(":"); err != nil {
					return err
				}
				u.binder = b
			}
			lhs, err := p.lvalue()
			if err != nil {
				return err
			}
			if _, err := p.expect(":="); err != nil {
				return err
			}
			rhs, err := p.expr()
			if err != nil {
				return err
			}
			u.lhs, u.rhs = lhs, rhs
			c.updates = append(c.updates, u)
			if p.accept(";") {
				break
			}
			if _, err := p.expect(","); err != nil {
				return err
			}
		}
		m.commands = append(m.commands, c)
	}
	return nil
}

func (p *parser) compassion(m *moduleDecl) error {
	if _, err := p.expect("("); err != nil {
		return err
	}
	a, err := p.exprThen(",")
	if err != nil {
		return err
	}
	b, err := p.exprThen(")")
	if err != nil {
		return err
	}
	p.accept(";")
	m.compassion = append(m.compassion, [2]*snode{a, b})
	return nil
}

func (p *parser) spec(kw token) (*specDecl, error) {
	s := &specDecl{pos: kw.pos}
	if p.accept("NAME") {
		name, err := p.ident("a spec name")
		if err != nil {
			return nil, err
		}
		s.name = name.text
		if _, err := p.expect(":="); err != nil {
			return nil, err
		}
	}
	p.temporal = kw.text == "LTLSPEC"
	defer func() { p.temporal = false }()
	body, err := p.expr()
	if err != nil {
		return nil, err
	}
	s.body = body
	p.accept(";")
	return s, nil
}

func (p *parser) lvalue() (*snode, error) {
	name, err := p.ident("a variable")
	if err != nil {
		return nil, err
	}
	return p.selectors(&snode{kind: sIdent, pos: name.pos, text: name.text})
}

// Expressions.

func (p *parser) enter() error {
	p.depth++
	if p.depth > maxDepth {
		return srcpos.Errorf(p.peek().pos, split.ErrSyntax, "expression nested too deeply")
	}
	return nil
}

// quantified parses "forall|exists i in a..b : body" when the cursor is at
// a quantifier (ok false otherwise); body parses the body.
func (p *parser) quantified(body func() (*snode, error)) (n *snode, ok bool, err error) {
	t := p.peek()
	if t.kind != tIdent || (t.text != "forall" && t.text != "exists") {
		return nil, false, nil
	}
	p.next()
	b, err := p.binderAfter(t.text)
	if err != nil {
		return nil, true, err
	}
	if _, err := p.expect(":"); err != nil {
		return nil, true, err
	}
	e, err := body()
	if err != nil {
		return nil, true, err
	}
	return &snode{kind: sQuant, pos: t.pos, text: t.text, name: b.name, args: []*snode{b.lo, b.hi, e}}, true, nil
}

func (p *parser) expr() (*snode, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer func() { p.depth-- }()
	if q, ok, err := p.quantified(p.expr); ok {
		return q, err
	}
	c, err := p.iff()
	if err != nil {
		return nil, err
	}
	if q := p.peek(); p.accept("?") {
		a, err := p.exprThen(":")
		if err != nil {
			return nil, err
		}
		b, err := p.expr()
		if err != nil {
			return nil, err
		}
		return &snode{kind: sIte, pos: q.pos, args: []*snode{c, a, b}}, nil
	}
	return c, nil
}

// guard parses a command's guard: an expression without a top-level ->,
// <-> or ?: (they need parentheses there), possibly quantified.
func (p *parser) guard() (*snode, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer func() { p.depth-- }()
	if q, ok, err := p.quantified(p.guard); ok {
		return q, err
	}
	return p.or()
}

func (p *parser) binaryLeft(ops []string, sub func() (*snode, error)) (*snode, error) {
	l, err := sub()
	if err != nil {
		return nil, err
	}
	for {
		t := p.peek()
		if (t.kind != tOp && t.kind != tIdent) || !slices.Contains(ops, t.text) {
			return l, nil
		}
		p.next()
		r, err := sub()
		if err != nil {
			return nil, err
		}
		l = &snode{kind: sBinary, pos: t.pos, text: t.text, args: []*snode{l, r}}
	}
}

func (p *parser) iff() (*snode, error) { return p.binaryLeft([]string{"<->"}, p.implies) }

func (p *parser) implies() (*snode, error) {
	l, err := p.or()
	if err != nil {
		return nil, err
	}
	if t := p.peek(); p.accept("->") {
		if err := p.enter(); err != nil {
			return nil, err
		}
		defer func() { p.depth-- }()
		r, err := p.implies()
		if err != nil {
			return nil, err
		}
		return &snode{kind: sBinary, pos: t.pos, text: "->", args: []*snode{l, r}}, nil
	}
	return l, nil
}

func (p *parser) or() (*snode, error) { return p.binaryLeft([]string{"|", "xor"}, p.and) }

func (p *parser) and() (*snode, error) { return p.binaryLeft([]string{"&"}, p.until) }

func (p *parser) until() (*snode, error) {
	l, err := p.temporalUnary()
	if err != nil {
		return nil, err
	}
	t := p.peek()
	if p.temporal && t.kind == tIdent && slices.Contains([]string{"U", "W", "R", "V"}, t.text) {
		p.next()
		if err := p.enter(); err != nil {
			return nil, err
		}
		defer func() { p.depth-- }()
		r, err := p.until()
		if err != nil {
			return nil, err
		}
		return &snode{kind: sBinary, pos: t.pos, text: t.text, args: []*snode{l, r}}, nil
	}
	return l, nil
}

// temporalUnary parses, in LTL specs, the unary operators !, G, F, X, []
// and <>, which there apply to a whole comparison (F x = 2 is F (x = 2)).
func (p *parser) temporalUnary() (*snode, error) {
	if !p.temporal {
		return p.comparison()
	}
	t := p.peek()
	op := ""
	switch {
	case t.kind == tOp && t.text == "!":
		op = "!"
	case t.kind == tOp && t.text == "[]":
		op = "G"
	case t.kind == tOp && t.text == "<>":
		op = "F"
	case t.kind == tIdent && (t.text == "G" || t.text == "F" || t.text == "X"):
		op = t.text
	}
	if op == "" {
		return p.comparison()
	}
	p.next()
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer func() { p.depth-- }()
	a, err := p.temporalUnary()
	if err != nil {
		return nil, err
	}
	return &snode{kind: sUnary, pos: t.pos, text: op, args: []*snode{a}}, nil
}

func (p *parser) comparison() (*snode, error) {
	l, err := p.additive()
	if err != nil {
		return nil, err
	}
	t := p.peek()
	if t.kind == tOp && slices.Contains([]string{"=", "!=", "<", "<=", ">", ">="}, t.text) {
		p.next()
		r, err := p.additive()
		if err != nil {
			return nil, err
		}
		return &snode{kind: sBinary, pos: t.pos, text: t.text, args: []*snode{l, r}}, nil
	}
	return l, nil
}

func (p *parser) additive() (*snode, error) {
	return p.binaryLeft([]string{"+", "-"}, p.multiplicative)
}

func (p *parser) multiplicative() (*snode, error) {
	return p.binaryLeft([]string{"*", "/", "mod"}, p.unary)
}

func (p *parser) unary() (*snode, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer func() { p.depth-- }()
	t := p.peek()
	op := ""
	switch {
	case t.kind == tOp && (t.text == "!" || t.text == "-"):
		op = t.text
	case p.temporal && t.kind == tIdent && (t.text == "G" || t.text == "F" || t.text == "X"):
		op = t.text // inside an operand: G F p
	}
	if op != "" {
		p.next()
		a, err := p.unary()
		if err != nil {
			return nil, err
		}
		return &snode{kind: sUnary, pos: t.pos, text: op, args: []*snode{a}}, nil
	}
	return p.postfix()
}

func (p *parser) postfix() (*snode, error) {
	n, err := p.primary()
	if err != nil {
		return nil, err
	}
	return p.selectors(n)
}

// selectors parses the index and field selectors after n: n[e], n.f.
func (p *parser) selectors(n *snode) (*snode, error) {
	for {
		t := p.peek()
		switch {
		case p.accept("["):
			idx, err := p.exprThen("]")
			if err != nil {
				return nil, err
			}
			n = &snode{kind: sIndex, pos: t.pos, args: []*snode{n, idx}}
		case p.accept("."):
			f, err := p.ident("a field name")
			if err != nil {
				return nil, err
			}
			n = &snode{kind: sField, pos: f.pos, text: f.text, args: []*snode{n}}
		default:
			return n, nil
		}
	}
}

func (p *parser) primary() (*snode, error) {
	t := p.next()
	switch t.kind {
	case tNum:
		return &snode{kind: sNum, pos: t.pos, num: t.num}, nil
	case tIdent:
		switch t.text {
		case "TRUE", "true":
			return &snode{kind: sBool, pos: t.pos, num: 1}, nil
		case "FALSE", "false":
			return &snode{kind: sBool, pos: t.pos, num: 0}, nil
		case "case":
			return p.caseExpr(t)
		case "min", "max":
			if p.is("(") {
				return p.call(t)
			}
		}
		if slices.Contains(sectionWords, t.text) {
			return nil, srcpos.Errorf(t.pos, split.ErrSyntax, "expected an expression, found %s", t)
		}
		return &snode{kind: sIdent, pos: t.pos, text: t.text}, nil
	case tOp:
		switch t.text {
		case "(":
			e, err := p.exprThen(")")
			if err != nil {
				return nil, err
			}
			return e, nil
		case "{":
			args, err := p.exprList("}")
			if err != nil {
				return nil, err
			}
			return &snode{kind: sSet, pos: t.pos, args: args}, nil
		}
	}
	return nil, srcpos.Errorf(t.pos, split.ErrSyntax, "expected an expression, found %s", t)
}

func (p *parser) call(fn token) (*snode, error) {
	p.next() // "("
	args, err := p.exprList(")")
	if err != nil {
		return nil, err
	}
	n := &snode{kind: sCall, pos: fn.pos, text: fn.text, args: args}
	if len(n.args) != 2 {
		return nil, srcpos.Errorf(fn.pos, split.ErrSyntax, "%s takes 2 arguments, found %d", fn.text, len(n.args))
	}
	return n, nil
}

func (p *parser) caseExpr(kw token) (*snode, error) {
	n := &snode{kind: sCase, pos: kw.pos}
	for !p.accept("esac") {
		if p.peek().kind == tEOF {
			return nil, srcpos.Errorf(p.peek().pos, split.ErrSyntax, "expected esac, found end of input")
		}
		c, err := p.exprThen(":")
		if err != nil {
			return nil, err
		}
		v, err := p.exprThen(";")
		if err != nil {
			return nil, err
		}
		n.args = append(n.args, c, v)
	}
	if len(n.args) == 0 {
		return nil, srcpos.Errorf(kw.pos, split.ErrSyntax, "empty case")
	}
	return n, nil
}
