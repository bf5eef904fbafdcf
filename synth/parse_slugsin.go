package synth

import (
	"bufio"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// sectionLine is one non-empty, non-comment line of a Slugs file.
type sectionLine struct {
	text string // the line without its trailing comment and newline
	pos  Pos    // position of the first non-blank byte
}

// slugsSection names a [SECTION] of the two Slugs formats.
type slugsSection int

const (
	secNone slugsSection = iota
	secInput
	secOutput
	secClause // one of the six GR(1) sections; see clauseSection
)

var slugsSectionNames = map[string]Section{
	"ENV_INIT": EnvInit, "ENV_TRANS": EnvTrans, "ENV_LIVENESS": EnvLiveness,
	"SYS_INIT": SysInit, "SYS_TRANS": SysTrans, "SYS_LIVENESS": SysLiveness,
}

// slugsFile is a Slugs file split into sections.
type slugsFile struct {
	inputs, outputs []sectionLine
	clauses         []struct {
		sec  Section
		line sectionLine
	}
}

// maxLineBytes bounds a line of a Slugs or TLSF file.
const maxLineBytes = 1 << 20

// readSlugsSections splits a file in either Slugs format into sections.
// Comments start with # and run to the end of the line.
func readSlugsSections(name string, r io.Reader) (*slugsFile, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), maxLineBytes)
	f := &slugsFile{}
	kind := secNone
	var sec Section
	lineNo := 0
	for sc.Scan() {
		lineNo++
		raw := sc.Text()
		if !utf8.ValidString(raw) {
			return nil, errorf(Pos{File: name, Line: lineNo, Col: 1}, ErrSyntax, "line is not valid UTF-8")
		}
		text := raw
		if i := strings.IndexByte(text, '#'); i >= 0 {
			text = text[:i]
		}
		trimmed := strings.TrimRight(text, " \t\r")
		start := len(trimmed) - len(strings.TrimLeft(trimmed, " \t"))
		trimmed = strings.TrimSpace(trimmed)
		if trimmed == "" {
			continue
		}
		pos := Pos{File: name, Line: lineNo, Col: start + 1}
		if strings.HasPrefix(trimmed, "[") {
			if !strings.HasSuffix(trimmed, "]") {
				return nil, errorf(pos, ErrSyntax, "section header %q lacks its closing ]", trimmed)
			}
			head := strings.TrimSpace(trimmed[1 : len(trimmed)-1])
			switch head {
			case "INPUT":
				kind = secInput
			case "OUTPUT":
				kind = secOutput
			default:
				s, ok := slugsSectionNames[head]
				if !ok {
					return nil, errorf(pos, ErrUnsupported, "unknown section [%s] (want INPUT, OUTPUT, ENV_INIT, ENV_TRANS, ENV_LIVENESS, SYS_INIT, SYS_TRANS or SYS_LIVENESS)", head)
				}
				kind, sec = secClause, s
			}
			continue
		}
		l := sectionLine{text: trimmed, pos: pos}
		switch kind {
		case secNone:
			return nil, errorf(pos, ErrSyntax, "text before the first [SECTION]")
		case secInput:
			f.inputs = append(f.inputs, l)
		case secOutput:
			f.outputs = append(f.outputs, l)
		default:
			f.clauses = append(f.clauses, struct {
				sec  Section
				line sectionLine
			}{sec, l})
		}
	}
	if err := sc.Err(); err != nil {
		return nil, errorf(Pos{File: name, Line: lineNo + 1, Col: 1}, ErrSyntax, "reading: %v", err)
	}
	return f, nil
}

// ParseSlugsin reads a specification in Slugs' low-level format (.slugsin):
// Boolean variables in [INPUT] and [OUTPUT], one formula per line in prefix
// notation (! & | ^, constants 0 1, x' for the next value of x, and the
// memory buffers $ N … / ? i). Integer variables that Slugs' compiler encoded
// as bits (x@0.lo.hi, x@1, …) stay Boolean variables, with the encoding's
// range constraints as ordinary clauses. name is used in positions.
func ParseSlugsin(name string, r io.Reader) (*Spec, error) {
	f, err := readSlugsSections(name, r)
	if err != nil {
		return nil, err
	}
	return f.build(name, slugsinVar, func(l sectionLine, _ map[string]bool) (*Expr, error) { return parsePrefix(l) })
}

// build makes the Spec of a file in either Slugs format, with the format's
// parsers of declarations and formulas, and checks it.
func (f *slugsFile) build(name string, parseVar func(sectionLine) (Var, error), parseExpr func(sectionLine, map[string]bool) (*Expr, error)) (*Spec, error) {
	spec := &Spec{Name: specName(name)}
	names := map[string]bool{}
	for _, group := range []struct {
		lines []sectionLine
		dst   *[]Var
	}{{f.inputs, &spec.Inputs}, {f.outputs, &spec.Outputs}} {
		for _, l := range group.lines {
			v, err := parseVar(l)
			if err != nil {
				return nil, err
			}
			*group.dst = append(*group.dst, v)
			names[v.Name] = true
		}
	}
	for _, c := range f.clauses {
		e, err := parseExpr(c.line, names)
		if err != nil {
			return nil, err
		}
		spec.Clauses = append(spec.Clauses, Clause{Section: c.sec, Expr: e, Pos: c.line.pos, Text: c.line.text})
	}
	if err := spec.Check(); err != nil {
		return nil, err
	}
	return spec, nil
}

func slugsinVar(l sectionLine) (Var, error) {
	if strings.ContainsAny(l.text, " \t") || !isSlugsinName(l.text) {
		return Var{}, errorf(l.pos, ErrSyntax, "%q is not a variable name", l.text)
	}
	return Var{Name: l.text, Bool: true, Lo: 0, Hi: 1, Pos: l.pos}, nil
}

// isSlugsinName accepts the names Slugs writes: a letter or _ first, then
// letters, digits and _ @ . [ ] :
func isSlugsinName(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		switch {
		case r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z':
		case i > 0 && (r >= '0' && r <= '9' || strings.ContainsRune("@.[]:", r)):
		default:
			return false
		}
	}
	return true
}

// prefixToken is a token of a slugsin formula.
type prefixToken struct {
	text string
	pos  Pos
}

func tokenizePrefix(l sectionLine) []prefixToken {
	var toks []prefixToken
	i := 0
	s := l.text
	for i < len(s) {
		if s[i] == ' ' || s[i] == '\t' {
			i++
			continue
		}
		j := i
		for j < len(s) && s[j] != ' ' && s[j] != '\t' {
			j++
		}
		toks = append(toks, prefixToken{s[i:j], Pos{File: l.pos.File, Line: l.pos.Line, Col: l.pos.Col + i}})
		i = j
	}
	return toks
}

// maxDepth bounds the nesting of every parser (deeper input is an error, not
// a stack overflow).
const maxDepth = 2000

// parsePrefix parses one slugsin formula occupying the whole line.
func parsePrefix(l sectionLine) (*Expr, error) {
	p := &prefixParser{toks: tokenizePrefix(l), line: l}
	e, err := p.expr(0)
	if err != nil {
		return nil, err
	}
	if p.i < len(p.toks) {
		t := p.toks[p.i]
		return nil, errorf(t.pos, ErrSyntax, "unexpected %q after a complete formula (one formula per line)", t.text)
	}
	return e, nil
}

type prefixParser struct {
	toks    []prefixToken
	i       int
	line    sectionLine
	buffers [][]*Expr // memory buffers being filled, innermost last
}

func (p *prefixParser) expr(depth int) (*Expr, error) {
	if depth > maxDepth {
		return nil, errorf(p.line.pos, ErrSyntax, "formula nested more than %d deep", maxDepth)
	}
	if p.i >= len(p.toks) {
		end := Pos{File: p.line.pos.File, Line: p.line.pos.Line, Col: p.line.pos.Col + len(p.line.text)}
		return nil, errorf(end, ErrSyntax, "formula ends early: an operand is missing")
	}
	t := p.toks[p.i]
	p.i++
	switch t.text {
	case "0":
		return mk(ExprFalse, t.pos), nil
	case "1":
		return mk(ExprTrue, t.pos), nil
	case "!":
		a, err := p.expr(depth + 1)
		if err != nil {
			return nil, err
		}
		return mk(ExprNot, t.pos, a), nil
	case "&", "|", "^":
		a, err := p.expr(depth + 1)
		if err != nil {
			return nil, err
		}
		b, err := p.expr(depth + 1)
		if err != nil {
			return nil, err
		}
		op := map[string]ExprOp{"&": ExprAnd, "|": ExprOr, "^": ExprXor}[t.text]
		return mk(op, t.pos, a, b), nil
	case "$":
		n, err := p.count(t)
		if err != nil {
			return nil, err
		}
		if n == 0 {
			return nil, errorf(t.pos, ErrSyntax, "memory buffer $ 0 has no formula")
		}
		p.buffers = append(p.buffers, make([]*Expr, 0, min(n, 1024)))
		for range n {
			e, err := p.expr(depth + 1)
			if err != nil {
				return nil, err
			}
			top := len(p.buffers) - 1
			p.buffers[top] = append(p.buffers[top], e)
		}
		buf := p.buffers[len(p.buffers)-1]
		p.buffers = p.buffers[:len(p.buffers)-1]
		return buf[len(buf)-1], nil
	case "?":
		k, err := p.count(t)
		if err != nil {
			return nil, err
		}
		if len(p.buffers) == 0 {
			return nil, errorf(t.pos, ErrSyntax, "? %d outside a memory buffer $", k)
		}
		buf := p.buffers[len(p.buffers)-1]
		if k >= len(buf) {
			return nil, errorf(t.pos, ErrSyntax, "? %d refers to a formula not yet complete (the buffer has %d)", k, len(buf))
		}
		return buf[k], nil
	}
	name, primed := strings.CutSuffix(t.text, "'")
	if !isSlugsinName(name) {
		return nil, errorf(t.pos, ErrSyntax, "unexpected %q: want an operator (! & | ^ $ ?), 0, 1 or a variable", t.text)
	}
	v := mk(ExprVar, t.pos)
	v.Name = name
	if primed {
		return mk(ExprNext, t.pos, v), nil
	}
	return v, nil
}

// count reads the number after $ or ?.
func (p *prefixParser) count(op prefixToken) (int, error) {
	if p.i >= len(p.toks) {
		return 0, errorf(op.pos, ErrSyntax, "%s needs a number", op.text)
	}
	t := p.toks[p.i]
	p.i++
	n, err := strconv.Atoi(t.text)
	if err != nil || n < 0 || n > 1<<20 {
		return 0, errorf(t.pos, ErrSyntax, "%s needs a number, not %q", op.text, t.text)
	}
	return n, nil
}

// specName derives a spec name from a file name.
func specName(file string) string {
	base := file
	if i := strings.LastIndexAny(base, "/\\"); i >= 0 {
		base = base[i+1:]
	}
	if i := strings.IndexByte(base, '.'); i > 0 {
		base = base[:i]
	}
	return base
}
