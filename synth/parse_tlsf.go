package synth

import (
	"io"
	"strings"
	"unicode/utf8"
)

// maxSpecBytes bounds the size of a specification file.
const maxSpecBytes = 64 << 20

// ParseTLSF reads a specification in the basic (non-parametric) form of
// SYNTCOMP's Temporal Logic Synthesis Format, when it has GR(1) shape:
//
//	INFO { TITLE: "…" DESCRIPTION: "…" SEMANTICS: Mealy,Strict TARGET: Mealy }
//	MAIN {
//	  INPUTS { a; b; }  OUTPUTS { c; }
//	  INITIALLY { … }   // ENV_INIT
//	  PRESET { … }      // SYS_INIT
//	  REQUIRE { … }     // ENV_TRANS (each formula under an implicit G)
//	  ASSERT { … }      // SYS_TRANS (likewise; INVARIANTS is accepted too)
//	  ASSUME { … }      // assumptions: φ, G ψ or G F φ (ASSUMPTIONS too)
//	  GUARANTEE { … }   // guarantees, likewise (GUARANTEES too)
//	}
//
// Each formula ends with ';'. SEMANTICS Mealy,Strict gives Strict semantics
// and Mealy gives Implication; Moore semantics and targets, the GLOBAL
// section and buses are unsupported. As in syfco's translation to Slugs,
// safety conjuncts (G ψ) of ASSUME and GUARANTEE join REQUIRE and ASSERT.
// Comments are // and /* */.
func ParseTLSF(name string, r io.Reader) (*Spec, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxSpecBytes+1))
	if err != nil {
		return nil, errorf(Pos{File: name}, ErrSyntax, "reading: %v", err)
	}
	if len(data) > maxSpecBytes {
		return nil, errorf(Pos{File: name}, ErrUnsupported, "file larger than %d bytes", maxSpecBytes)
	}
	if !utf8.Valid(data) {
		return nil, errorf(Pos{File: name, Line: 1, Col: 1}, ErrSyntax, "file is not valid UTF-8")
	}
	src, err := stripComments(string(data), name)
	if err != nil {
		return nil, err
	}
	t := &tlsfScanner{cursor{src: src, line: 1, col: 1, file: name}}
	spec := &Spec{Name: specName(name)}
	p := &tlsfParser{t: t, spec: spec, names: map[string]bool{}}
	if err := p.file(); err != nil {
		return nil, err
	}
	if err := spec.Check(); err != nil {
		return nil, err
	}
	return spec, nil
}

// stripComments replaces // and /* */ comments by spaces, keeping newlines so
// that positions stay right.
func stripComments(s, file string) (string, error) {
	b := []byte(s)
	line, col := 1, 1
	for i := 0; i < len(b); i++ {
		switch {
		case b[i] == '"':
			// skip strings
			j := i + 1
			for j < len(b) && b[j] != '"' && b[j] != '\n' {
				j++
			}
			col += j - i
			i = j
			continue
		case b[i] == '/' && i+1 < len(b) && b[i+1] == '/':
			for i < len(b) && b[i] != '\n' {
				b[i] = ' '
				i++
			}
			line++
			col = 1
			continue
		case b[i] == '/' && i+1 < len(b) && b[i+1] == '*':
			start := Pos{File: file, Line: line, Col: col}
			j := i + 2
			for j+1 < len(b) && !(b[j] == '*' && b[j+1] == '/') {
				j++
			}
			if j+1 >= len(b) {
				return "", errorf(start, ErrSyntax, "comment /* is not closed")
			}
			for k := i; k <= j+1; k++ {
				if b[k] == '\n' {
					line++
					col = 1
				} else {
					b[k] = ' '
					col++
				}
			}
			i = j + 1
			continue
		}
		if b[i] == '\n' {
			line++
			col = 1
		} else {
			col++
		}
	}
	return string(b), nil
}

// tlsfScanner reads the structural tokens of TLSF: words, strings and the
// punctuation { } : ; ,
type tlsfScanner struct{ cursor }

type tlsfToken struct {
	text string // "" at the end of input
	pos  Pos
	str  bool // a "string"
}

func (t *tlsfScanner) skipSpace() {
	for t.i < len(t.src) && strings.ContainsRune(" \t\r\n", rune(t.src[t.i])) {
		t.advance(1)
	}
}

func (t *tlsfScanner) next() (tlsfToken, error) {
	t.skipSpace()
	pos := t.pos()
	if t.i >= len(t.src) {
		return tlsfToken{pos: pos}, nil
	}
	c := t.src[t.i]
	switch {
	case strings.IndexByte("{}:;,", c) >= 0:
		t.advance(1)
		return tlsfToken{text: string(c), pos: pos}, nil
	case c == '"':
		j := t.i + 1
		for j < len(t.src) && t.src[j] != '"' && t.src[j] != '\n' {
			j++
		}
		if j >= len(t.src) || t.src[j] != '"' {
			return tlsfToken{}, errorf(pos, ErrSyntax, "string is not closed on its line")
		}
		text := t.src[t.i+1 : j]
		t.advance(j + 1 - t.i)
		return tlsfToken{text: text, pos: pos, str: true}, nil
	}
	j := t.i
	for j < len(t.src) && !strings.ContainsRune(" \t\r\n{}:;,\"", rune(t.src[j])) {
		j++
	}
	text := t.src[t.i:j]
	t.advance(j - t.i)
	return tlsfToken{text: text, pos: pos}, nil
}

// upTo returns the raw text up to (not including) the next stop byte, its
// starting position, and consumes the stop byte.
func (t *tlsfScanner) upTo(stop byte) (string, Pos, bool) {
	t.skipSpace()
	pos := t.pos()
	j := strings.IndexByte(t.src[t.i:], stop)
	if j < 0 {
		return "", pos, false
	}
	text := t.src[t.i : t.i+j]
	t.advance(j + 1)
	return text, pos, true
}

type tlsfParser struct {
	t        *tlsfScanner
	spec     *Spec
	names    map[string]bool
	strict   bool
	semantic bool // SEMANTICS seen
}

func (p *tlsfParser) expect(want string) (tlsfToken, error) {
	tok, err := p.t.next()
	if err != nil {
		return tok, err
	}
	if tok.text != want || tok.str {
		return tok, errorf(tok.pos, ErrSyntax, "expected %q, found %s", want, tlsfDescribe(tok))
	}
	return tok, nil
}

func tlsfDescribe(tok tlsfToken) string {
	if tok.text == "" && !tok.str {
		return "the end of the file"
	}
	return "\"" + tok.text + "\""
}

func (p *tlsfParser) file() error {
	tok, err := p.t.next()
	if err != nil {
		return err
	}
	if tok.text != "INFO" {
		return errorf(tok.pos, ErrSyntax, "a TLSF file starts with INFO, found %s", tlsfDescribe(tok))
	}
	if err := p.info(); err != nil {
		return err
	}
	tok, err = p.t.next()
	if err != nil {
		return err
	}
	switch tok.text {
	case "GLOBAL":
		return errorf(tok.pos, ErrUnsupported, "parametric TLSF (GLOBAL section) is not supported; convert it to basic TLSF first (syfco -f basic)")
	case "MAIN":
	default:
		return errorf(tok.pos, ErrSyntax, "expected MAIN, found %s", tlsfDescribe(tok))
	}
	if err := p.main(); err != nil {
		return err
	}
	tok, err = p.t.next()
	if err != nil {
		return err
	}
	if tok.text != "" {
		return errorf(tok.pos, ErrSyntax, "unexpected %s after MAIN", tlsfDescribe(tok))
	}
	return nil
}

// block reads "{", then calls fn with each token until the matching "}",
// which it returns; fn also gets the scanner as it was before the token.
func (p *tlsfParser) block(what string, fn func(tok tlsfToken, before tlsfScanner) error) (tlsfToken, error) {
	if _, err := p.expect("{"); err != nil {
		return tlsfToken{}, err
	}
	for {
		before := *p.t
		tok, err := p.t.next()
		switch {
		case err != nil:
			return tok, err
		case tok.text == "}" && !tok.str:
			return tok, nil
		case tok.text == "" && !tok.str:
			return tok, errorf(tok.pos, ErrSyntax, "%s is not closed", what)
		}
		if err := fn(tok, before); err != nil {
			return tok, err
		}
	}
}

func (p *tlsfParser) info() error {
	end, err := p.block("INFO", p.infoField)
	if err != nil {
		return err
	}
	if !p.semantic {
		return errorf(end.pos, ErrSyntax, "INFO lacks SEMANTICS")
	}
	return nil
}

func (p *tlsfParser) infoField(key tlsfToken, _ tlsfScanner) error {
	if _, err := p.expect(":"); err != nil {
		return err
	}
	switch key.text {
	case "TITLE", "DESCRIPTION":
		v, err := p.t.next()
		if err != nil {
			return err
		}
		if !v.str {
			return errorf(v.pos, ErrSyntax, "%s needs a \"string\"", key.text)
		}
		if key.text == "TITLE" && v.text != "" {
			p.spec.Name = v.text
		}
	case "SEMANTICS", "TARGET", "TAGS":
		words, pos, err := p.wordList()
		if err != nil {
			return err
		}
		if err := p.infoWords(key.text, words, pos); err != nil {
			return err
		}
	default:
		return errorf(key.pos, ErrSyntax, "unknown INFO field %s", tlsfDescribe(key))
	}
	return nil
}

// wordList reads word(, word)* where the next field or } follows.
func (p *tlsfParser) wordList() ([]string, Pos, error) {
	var words []string
	var first Pos
	for {
		w, err := p.t.next()
		if err != nil {
			return nil, first, err
		}
		if w.str || w.text == "" || strings.ContainsAny(w.text, "{}:;,") {
			return nil, w.pos, errorf(w.pos, ErrSyntax, "expected a word, found %s", tlsfDescribe(w))
		}
		if len(words) == 0 {
			first = w.pos
		}
		words = append(words, w.text)
		save := *p.t
		sep, err := p.t.next()
		if err != nil {
			return nil, first, err
		}
		if sep.text != "," {
			*p.t = save
			return words, first, nil
		}
	}
}

func (p *tlsfParser) infoWords(key string, words []string, pos Pos) error {
	switch key {
	case "TAGS":
		return nil
	case "TARGET":
		if len(words) != 1 || !strings.EqualFold(words[0], "Mealy") {
			return errorf(pos, ErrUnsupported, "TARGET %s is not supported (only Mealy)", strings.Join(words, ","))
		}
	case "SEMANTICS":
		p.semantic = true
		mealy, strict := false, false
		for _, w := range words {
			switch strings.ToLower(w) {
			case "mealy":
				mealy = true
			case "strict":
				strict = true
			case "moore":
				return errorf(pos, ErrUnsupported, "Moore semantics is not supported (only Mealy and Mealy,Strict)")
			default:
				return errorf(pos, ErrUnsupported, "unknown semantics %q", w)
			}
		}
		if !mealy {
			return errorf(pos, ErrUnsupported, "SEMANTICS must include Mealy")
		}
		p.strict = strict
		if strict {
			p.spec.Semantics = Strict
		} else {
			p.spec.Semantics = Implication
		}
	}
	return nil
}

func (p *tlsfParser) main() error {
	_, err := p.block("MAIN", func(tok tlsfToken, _ tlsfScanner) error {
		switch tok.text {
		case "INPUTS", "OUTPUTS":
			return p.signals(tok.text == "INPUTS")
		case "INITIALLY", "PRESET", "REQUIRE", "ASSERT", "INVARIANTS", "ASSUME", "ASSUMPTIONS", "GUARANTEE", "GUARANTEES":
			return p.formulas(tok.text)
		}
		return errorf(tok.pos, ErrSyntax, "unknown MAIN section %s", tlsfDescribe(tok))
	})
	return err
}

func (p *tlsfParser) signals(inputs bool) error {
	_, err := p.block("the signal list", func(tok tlsfToken, _ tlsfScanner) error {
		if strings.Contains(tok.text, "[") {
			return errorf(tok.pos, ErrUnsupported, "bus signals (%s) are not supported in basic TLSF", tok.text)
		}
		if tok.str || !isIdentifier(tok.text) {
			return errorf(tok.pos, ErrSyntax, "%s is not a signal name", tlsfDescribe(tok))
		}
		if _, err := p.expect(";"); err != nil {
			return err
		}
		v := Var{Name: tok.text, Bool: true, Lo: 0, Hi: 1, Pos: tok.pos}
		if inputs {
			p.spec.Inputs = append(p.spec.Inputs, v)
		} else {
			p.spec.Outputs = append(p.spec.Outputs, v)
		}
		p.names[v.Name] = true
		return nil
	})
	return err
}

func (p *tlsfParser) formulas(section string) error {
	_, err := p.block("section "+section, func(_ tlsfToken, before tlsfScanner) error {
		*p.t = before
		text, pos, ok := p.t.upTo(';')
		if !ok {
			return errorf(pos, ErrSyntax, "formula does not end with ;")
		}
		if i := strings.IndexByte(text, '}'); i >= 0 {
			return errorf(pos, ErrSyntax, "formula does not end with ; before }")
		}
		if strings.TrimSpace(text) == "" {
			return nil
		}
		e, err := parseInfix(text, pos, p.names)
		if err != nil {
			return err
		}
		text = strings.Join(strings.Fields(text), " ")
		var clauses []Clause
		switch section {
		case "INITIALLY", "PRESET":
			if bad := firstTemporal(e, true); bad != nil {
				return notGR1(bad, "%s formulas are initial conditions and cannot contain %s", section, opName(bad))
			}
			sec := EnvInit
			if section == "PRESET" {
				sec = SysInit
			}
			clauses = []Clause{{Section: sec, Expr: e, Pos: pos, Text: text}}
		case "REQUIRE", "ASSERT", "INVARIANTS":
			clauses, err = classify(mk(ExprAlways, pos, e), section == "REQUIRE", text, pos)
		default:
			clauses, err = classify(e, section == "ASSUME" || section == "ASSUMPTIONS", text, pos)
		}
		if err != nil {
			return err
		}
		if len(clauses) == 1 && clauses[0].Expr == e {
			clauses[0].Pos, clauses[0].Text = pos, text
		}
		p.spec.Clauses = append(p.spec.Clauses, clauses...)
		return nil
	})
	return err
}
