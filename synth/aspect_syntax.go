package synth

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// This file reads AspectLTL, the SMV-like language of the JTLV thesis
// (§3.2) for base systems and LTL aspects:
//
//	MODULE ExamService              -- a base system
//	VARENV evalExam : {pass, fail};  -- environment (input) variables
//	       newStudent : boolean;
//	VAR    state : {wait, welcome, exit};  -- system (output) variables
//	       n : 0..3;
//	INIT   state=wait;
//	TRANS  (state=wait) -> next(state)=welcome | next(state)=wait;
//
//	ASPECT Tuition                   -- an aspect
//	VARENV new tuition : boolean;    -- ext: a base variable; new: its own
//	VAR    ext state : {wait, welcome, exit};
//	TRANS  state=wait & next(state)=exit & !tuition;   -- added transitions
//	LTLSPEC    [] !(state=wait & !tuition & next(state)=welcome);
//	LTLSPECENV [] <> tuition;        -- environment assumptions
//
// Sections may come in any order and repeat; a section holds declarations
// or formulas each ended by ';' (the ';' may be left out before the next
// section keyword or the end of the input, as in the thesis's listing of
// ExamCounter). Types are boolean, enumerations {a, b, …}, sets of
// integers {0, 1, 2} and ranges lo..hi. Expressions, from loosest to
// tightest binding:
//
//	<->                   equivalence (left-associative)
//	->                    implication (right-associative)
//	|  ||                 or
//	&  &&                 and
//	Since  S  U           since, until (right-associative)
//	=  !=  <  <=  >  >=   comparison
//	+  -                  arithmetic
//	!  []  <>  (_)  next(…)   and, in henceforth's syntax,  G  F  Y  X  O  H
//
// where the prefix operators take a comparison (! a = b is !(a = b),
// <> s = b is <>(s = b)), with TRUE, FALSE, true, false, integers and parentheses. The one-letter
// operators are names when the module declares a variable or value so
// named. Comments start with -- and end with the line.

// ModuleKind says whether a Module is a base system or an aspect.
type ModuleKind uint8

// The two kinds of modules.
const (
	BaseModule   ModuleKind = iota // MODULE: a base system
	AspectModule                   // ASPECT: an LTL aspect
)

func (k ModuleKind) String() string {
	if k == AspectModule {
		return "ASPECT"
	}
	return "MODULE"
}

// Module is a parsed base system (MODULE) or LTL aspect (ASPECT), as
// written: its formulas are not yet resolved against the base's variables
// (Weave does that).
type Module struct {
	Kind ModuleKind
	Name string
	Pos  Pos // of the MODULE or ASPECT keyword
	// Vars are the declared variables in order.
	Vars []ModuleVar
	// Init, Trans, Spec and EnvSpec are the formulas of the INIT, TRANS,
	// LTLSPEC and LTLSPECENV sections, in order (each section's formulas
	// are conjoined).
	Init, Trans, Spec, EnvSpec []Formula
}

// ModuleVar is a variable declaration.
type ModuleVar struct {
	Name string
	Env  bool // declared in VARENV (an input), else in VAR (an output)
	// Ext is set for an aspect's "ext" declaration (a variable of the base,
	// seen with a sub-domain); New for "new". A base's variables have
	// neither.
	Ext, New bool
	Domain   Domain
	Pos      Pos
}

// Domain is a variable's type: Boolean, an enumeration of names, or a set
// of integers.
type Domain struct {
	Bool   bool
	Values []string // enumeration values, in declaration order
	Ints   []int    // integer values, ascending, without duplicates
}

func (d Domain) String() string {
	switch {
	case d.Bool:
		return "boolean"
	case d.Values != nil:
		return "{" + strings.Join(d.Values, ", ") + "}"
	}
	s := make([]string, len(d.Ints))
	for i, v := range d.Ints {
		s[i] = strconv.Itoa(v)
	}
	return "{" + strings.Join(s, ", ") + "}"
}

// Formula is one formula of a section, as written.
type Formula struct {
	Expr *Expr
	Pos  Pos
	Text string // the source text, with blanks collapsed
}

// AspectLTL is a parsed AspectLTL specification: the base systems and
// aspects of one or more files, in order.
type AspectLTL struct {
	Bases   []*Module
	Aspects []*Module
}

// Weave weaves the specification's aspects into its base; it needs exactly
// one base.
func (a *AspectLTL) Weave() (*Weaving, error) {
	switch len(a.Bases) {
	case 0:
		return nil, errorf(Pos{}, ErrType, "AspectLTL: no base system (MODULE) among the inputs")
	case 1:
	default:
		return nil, errorf(a.Bases[1].Pos, ErrType, "AspectLTL: a second base system %s (the first is %s at %s)", a.Bases[1].Name, a.Bases[0].Name, a.Bases[0].Pos)
	}
	return Weave(a.Bases[0], a.Aspects...)
}

// Aspect returns the aspect called name, or nil.
func (a *AspectLTL) Aspect(name string) *Module {
	for _, m := range a.Aspects {
		if m.Name == name {
			return m
		}
	}
	return nil
}

// ParseAspectLTL reads AspectLTL source (any number of MODULE and ASPECT
// blocks); name is used in positions. Malformed input is an *Error with
// its file:line:col.
func ParseAspectLTL(name string, r io.Reader) (*AspectLTL, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	p := &altlParser{lex: altlLexer{cursor: cursor{src: string(data), line: 1, col: 1, file: name}}}
	if err := p.advance(); err != nil {
		return nil, err
	}
	var spec AspectLTL
	for p.tok.kind != atEOF {
		m, err := p.module()
		if err != nil {
			return nil, err
		}
		if m.Kind == BaseModule {
			spec.Bases = append(spec.Bases, m)
		} else {
			spec.Aspects = append(spec.Aspects, m)
		}
	}
	return &spec, nil
}

// ParseAspectLTLFiles reads the AspectLTL files at paths as one
// specification (typically a base and its aspects in separate .altl files).
// Two modules with the same name are an error.
func ParseAspectLTLFiles(paths ...string) (*AspectLTL, error) {
	var all AspectLTL
	seen := map[string]Pos{}
	for _, path := range paths {
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		spec, err := ParseAspectLTL(path, f)
		f.Close()
		if err != nil {
			return nil, err
		}
		for _, m := range append(append([]*Module(nil), spec.Bases...), spec.Aspects...) {
			if p, dup := seen[m.Name]; dup {
				return nil, errorf(m.Pos, ErrType, "%s %s is declared twice (first at %s)", m.Kind, m.Name, p)
			}
			seen[m.Name] = m.Pos
		}
		all.Bases = append(all.Bases, spec.Bases...)
		all.Aspects = append(all.Aspects, spec.Aspects...)
	}
	return &all, nil
}

type altlKind uint8

const (
	atEOF altlKind = iota
	atIdent
	atInt
	atPunct
)

type altlToken struct {
	kind altlKind
	text string
	pos  Pos
	off  int // byte offset of the token's start
	end  int // byte offset just after it
	val  int
}

type altlLexer struct{ cursor }

// altlPunct lists the punctuation, longest first where one is a prefix of
// another.
var altlPunct = []string{
	"(_)", "<->", "->", "<>", "<=", ">=", "!=", "[]", "&&", "||", "..",
	"(", ")", "{", "}", ",", ":", ";", "=", "<", ">", "!", "&", "|", "+", "-",
}

func (l *altlLexer) next() (altlToken, error) {
	if err := l.skipSpace("--"); err != nil {
		return altlToken{}, err
	}
	pos, off := l.pos(), l.i
	if l.i >= len(l.src) {
		return altlToken{kind: atEOF, pos: pos, off: off, end: off}, nil
	}
	c := l.src[l.i]
	switch {
	case c >= '0' && c <= '9':
		text, v, err := l.scanInt()
		if err != nil {
			return altlToken{}, err
		}
		return altlToken{kind: atInt, text: text, pos: pos, off: off, end: l.i, val: v}, nil
	case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		text := l.scanIdent("")
		return altlToken{kind: atIdent, text: text, pos: pos, off: off, end: l.i}, nil
	}
	for _, op := range altlPunct {
		if strings.HasPrefix(l.src[l.i:], op) {
			l.advance(len(op))
			return altlToken{kind: atPunct, text: op, pos: pos, off: off, end: l.i}, nil
		}
	}
	r, _ := utf8.DecodeRuneInString(l.src[l.i:])
	return altlToken{}, errorf(pos, ErrSyntax, "unexpected character %q", r)
}

// altlKeywords start modules and sections.
var altlKeywords = map[string]bool{
	"MODULE": true, "ASPECT": true, "VARENV": true, "VAR": true,
	"INIT": true, "TRANS": true, "LTLSPEC": true, "LTLSPECENV": true,
}

// maxDomain bounds the span of an integer domain.
const maxDomain = 1 << 16

// maxAltlDepth bounds the nesting of expressions.
const maxAltlDepth = 500

// altlParser is a recursive-descent parser of AspectLTL.
type altlParser struct {
	lex   altlLexer
	tok   altlToken
	prev  altlToken       // the last token consumed
	names map[string]bool // the current module's variables and values
	depth int
}

func (p *altlParser) advance() error {
	t, err := p.lex.next()
	if err != nil {
		return err
	}
	p.prev, p.tok = p.tok, t
	return nil
}

func (p *altlParser) is(text string) bool {
	return (p.tok.kind == atPunct || p.tok.kind == atIdent) && p.tok.text == text
}

func (p *altlParser) atKeyword() bool {
	return p.tok.kind == atEOF || p.tok.kind == atIdent && altlKeywords[p.tok.text]
}

func (p *altlParser) expect(text string) error {
	if !p.is(text) {
		return p.unexpected("%q", text)
	}
	return p.advance()
}

func (p *altlParser) unexpected(format string, args ...any) error {
	want := fmt.Sprintf(format, args...)
	if p.tok.kind == atEOF {
		return errorf(p.tok.pos, ErrSyntax, "unexpected end of input, expected %s", want)
	}
	return errorf(p.tok.pos, ErrSyntax, "unexpected %q, expected %s", p.tok.text, want)
}

func (p *altlParser) ident(what string) (altlToken, error) {
	t := p.tok
	if t.kind != atIdent || altlKeywords[t.text] {
		return t, p.unexpected("%s", what)
	}
	return t, p.advance()
}

func (p *altlParser) module() (*Module, error) {
	m := &Module{Pos: p.tok.pos}
	switch {
	case p.is("MODULE"):
		m.Kind = BaseModule
	case p.is("ASPECT"):
		m.Kind = AspectModule
	default:
		return nil, p.unexpected("MODULE or ASPECT")
	}
	if err := p.advance(); err != nil {
		return nil, err
	}
	name, err := p.ident("a module name")
	if err != nil {
		return nil, err
	}
	m.Name = name.text
	p.names = map[string]bool{}
	for p.tok.kind != atEOF && !p.is("MODULE") && !p.is("ASPECT") {
		if p.tok.kind != atIdent || !altlKeywords[p.tok.text] {
			return nil, p.unexpected("a section (VARENV, VAR, INIT, TRANS, LTLSPEC or LTLSPECENV)")
		}
		section := p.tok.text
		if err := p.advance(); err != nil {
			return nil, err
		}
		var err error
		switch section {
		case "VARENV", "VAR":
			err = p.decls(m, section == "VARENV")
		case "INIT":
			m.Init, err = p.formulas(m.Init)
		case "TRANS":
			m.Trans, err = p.formulas(m.Trans)
		case "LTLSPEC":
			m.Spec, err = p.formulas(m.Spec)
		case "LTLSPECENV":
			m.EnvSpec, err = p.formulas(m.EnvSpec)
		}
		if err != nil {
			return nil, err
		}
	}
	return m, nil
}

// decls reads declarations up to the next keyword.
func (p *altlParser) decls(m *Module, env bool) error {
	for !p.atKeyword() {
		v := ModuleVar{Env: env, Pos: p.tok.pos}
		switch {
		case p.is("ext"), p.is("new"):
			if m.Kind != AspectModule {
				return errorf(p.tok.pos, ErrSyntax, "%q declarations belong in an ASPECT, not in the base MODULE %s", p.tok.text, m.Name)
			}
			v.Ext, v.New = p.is("ext"), p.is("new")
			if err := p.advance(); err != nil {
				return err
			}
		case m.Kind == AspectModule:
			return p.unexpected("ext or new before an aspect's variable")
		}
		name, err := p.ident("a variable name")
		if err != nil {
			return err
		}
		v.Name = name.text
		if err := p.expect(":"); err != nil {
			return err
		}
		if v.Domain, err = p.domain(); err != nil {
			return err
		}
		for _, w := range m.Vars {
			if w.Name == v.Name {
				return errorf(v.Pos, ErrType, "variable %s is declared twice in %s (first at %s)", v.Name, m.Name, w.Pos)
			}
		}
		m.Vars = append(m.Vars, v)
		p.names[v.Name] = true
		for _, val := range v.Domain.Values {
			p.names[val] = true
		}
		if p.is(";") {
			if err := p.advance(); err != nil {
				return err
			}
		} else if !p.atKeyword() {
			return p.unexpected("';' after the declaration of %s", v.Name)
		}
	}
	return nil
}

func (p *altlParser) domain() (Domain, error) {
	var d Domain
	switch {
	case p.is("boolean"):
		d.Bool = true
		return d, p.advance()
	case p.is("{"):
		start := p.tok.pos
		if err := p.advance(); err != nil {
			return d, err
		}
		seen := map[string]bool{}
		for {
			t := p.tok
			neg := false
			if p.is("-") {
				neg = true
				if err := p.advance(); err != nil {
					return d, err
				}
				t = p.tok
				if t.kind != atInt {
					return d, p.unexpected("an integer after '-'")
				}
			}
			switch {
			case t.kind == atInt:
				if d.Values != nil {
					return d, errorf(t.pos, ErrType, "integer %s in an enumeration of names", t.text)
				}
				val := t.val
				if neg {
					val = -val
				}
				if seen[strconv.Itoa(val)] {
					return d, errorf(t.pos, ErrType, "value %d listed twice", val)
				}
				seen[strconv.Itoa(val)] = true
				d.Ints = append(d.Ints, val)
			case t.kind == atIdent && !altlKeywords[t.text]:
				if d.Ints != nil {
					return d, errorf(t.pos, ErrType, "name %s in a set of integers", t.text)
				}
				if seen[t.text] {
					return d, errorf(t.pos, ErrType, "value %s listed twice", t.text)
				}
				seen[t.text] = true
				d.Values = append(d.Values, t.text)
			default:
				return d, p.unexpected("a value")
			}
			if err := p.advance(); err != nil {
				return d, err
			}
			if p.is("}") {
				break
			}
			if err := p.expect(","); err != nil {
				return d, err
			}
		}
		if len(d.Ints) > 0 {
			slices.Sort(d.Ints)
			if d.Ints[len(d.Ints)-1]-d.Ints[0] >= maxDomain {
				return d, errorf(start, ErrType, "the set of integers spans too large a range")
			}
		}
		return d, p.advance()
	case p.tok.kind == atInt || p.is("-"):
		lo, err := p.signedInt()
		if err != nil {
			return d, err
		}
		at := p.tok.pos
		if err := p.expect(".."); err != nil {
			return d, err
		}
		hi, err := p.signedInt()
		if err != nil {
			return d, err
		}
		if lo > hi || hi-lo >= maxDomain {
			return d, errorf(at, ErrType, "range %d..%d is empty or too large", lo, hi)
		}
		for v := lo; v <= hi; v++ {
			d.Ints = append(d.Ints, v)
		}
		return d, nil
	}
	return d, p.unexpected("a type (boolean, {values} or lo..hi)")
}

func (p *altlParser) signedInt() (int, error) {
	neg := false
	if p.is("-") {
		neg = true
		if err := p.advance(); err != nil {
			return 0, err
		}
	}
	if p.tok.kind != atInt {
		return 0, p.unexpected("an integer")
	}
	v := p.tok.val
	if neg {
		v = -v
	}
	return v, p.advance()
}

// formulas reads formulas up to the next keyword.
func (p *altlParser) formulas(fs []Formula) ([]Formula, error) {
	for !p.atKeyword() {
		if p.is(";") {
			if err := p.advance(); err != nil {
				return nil, err
			}
			continue
		}
		start := p.tok
		e, err := p.expr(precIff)
		if err != nil {
			return nil, err
		}
		text := strings.Join(strings.Fields(p.lex.src[start.off:p.prev.end]), " ")
		fs = append(fs, Formula{Expr: e, Pos: start.pos, Text: text})
		if p.is(";") {
			if err := p.advance(); err != nil {
				return nil, err
			}
		} else if !p.atKeyword() {
			return nil, p.unexpected("';' or an operator")
		}
	}
	return fs, nil
}

// isOp reports whether the current token is the one-letter operator op,
// that is, op is not one of the module's names.
func (p *altlParser) isOp(op string) bool {
	return p.tok.kind == atIdent && p.tok.text == op && !p.names[op]
}

func (p *altlParser) binary() (ExprOp, string, int, bool) {
	t := p.tok
	if t.kind == atIdent {
		switch {
		case t.text == "Since" || p.isOp("S"):
			return ExprTemporal, "S", precTemporal, true
		case p.isOp("U"):
			return ExprTemporal, "U", precTemporal, true
		}
		return 0, "", 0, false
	}
	if t.kind != atPunct {
		return 0, "", 0, false
	}
	// The lexer makes none of the other spellings binaryPunct knows ("^",
	// "==", "=>", …).
	op, prec, ok := binaryPunct(t.text)
	return op, "", prec, ok
}

// expr parses an expression whose binary operators bind at least as
// tightly as minPrec.
func (p *altlParser) expr(minPrec int) (*Expr, error) {
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > maxAltlDepth {
		return nil, errorf(p.tok.pos, ErrSyntax, "expression nested too deeply")
	}
	left, err := p.unary()
	if err != nil {
		return nil, err
	}
	for {
		op, name, prec, ok := p.binary()
		if !ok || prec < minPrec {
			return left, nil
		}
		pos := p.tok.pos
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
		if prec == precCmp {
			if _, _, pr, ok := p.binary(); ok && pr == precCmp {
				return nil, errorf(p.tok.pos, ErrSyntax, "comparisons do not chain: parenthesize")
			}
		}
		left = &Expr{Op: op, Name: name, Args: []*Expr{left, right}, Pos: pos}
		if op != ExprTemporal {
			left.Pos = left.Args[0].Pos
		}
	}
}

// unaryOps maps prefix operators to their Expr (Op, Name).
var unaryOps = map[string]struct {
	op   ExprOp
	name string
}{
	"!": {ExprNot, ""}, "[]": {ExprAlways, ""}, "<>": {ExprEventually, ""}, "(_)": {ExprTemporal, "Y"},
	"G": {ExprAlways, ""}, "F": {ExprEventually, ""}, "X": {ExprNext, ""}, "Y": {ExprTemporal, "Y"},
	"O": {ExprTemporal, "O"}, "H": {ExprTemporal, "H"},
}

func (p *altlParser) unary() (*Expr, error) {
	t := p.tok
	if u, ok := unaryOps[t.text]; ok && (t.kind == atPunct || p.isOp(t.text)) {
		if err := p.advance(); err != nil {
			return nil, err
		}
		arg, err := p.expr(precCmp) // the operand is a comparison: ! a = b is !(a = b)
		if err != nil {
			return nil, err
		}
		return &Expr{Op: u.op, Name: u.name, Args: []*Expr{arg}, Pos: t.pos}, nil
	}
	if p.is("-") {
		if err := p.advance(); err != nil {
			return nil, err
		}
		arg, err := p.unary()
		if err != nil {
			return nil, err
		}
		if arg.Op == ExprInt {
			return &Expr{Op: ExprInt, Val: -arg.Val, Pos: t.pos}, nil
		}
		return &Expr{Op: ExprSub, Args: []*Expr{{Op: ExprInt, Pos: t.pos}, arg}, Pos: t.pos}, nil
	}
	return p.primary()
}

func (p *altlParser) primary() (*Expr, error) {
	t := p.tok
	switch {
	case t.kind == atInt:
		return &Expr{Op: ExprInt, Val: t.val, Pos: t.pos}, p.advance()
	case p.is("("):
		if err := p.advance(); err != nil {
			return nil, err
		}
		e, err := p.expr(precIff)
		if err != nil {
			return nil, err
		}
		return e, p.expect(")")
	case t.kind == atIdent && !altlKeywords[t.text]:
		if err := p.advance(); err != nil {
			return nil, err
		}
		switch t.text {
		case "TRUE", "true":
			return &Expr{Op: ExprTrue, Pos: t.pos}, nil
		case "FALSE", "false":
			return &Expr{Op: ExprFalse, Pos: t.pos}, nil
		case "next":
			if !p.names["next"] {
				if err := p.expect("("); err != nil {
					return nil, err
				}
				e, err := p.expr(precIff)
				if err != nil {
					return nil, err
				}
				if err := p.expect(")"); err != nil {
					return nil, err
				}
				return &Expr{Op: ExprNext, Args: []*Expr{e}, Pos: t.pos}, nil
			}
		}
		return &Expr{Op: ExprVar, Name: t.text, Pos: t.pos}, nil
	}
	return nil, p.unexpected("an operand")
}
