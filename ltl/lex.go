package ltl

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// This file is the lexer: it turns a formula's source text into tokens. The
// parser (parse.go) reads the whole token slice, so it can look ahead as far
// as it needs to tell `[]` (always) and `X[!]` (strong next) from intervals.
//
// A token is read as long as it can be: `Fa` is the atom Fa, `<->` is one
// token, not `<` `-` `>`. Keywords are never atoms; a quoted atom may have any
// text, with `\"` and `\\` as the only escapes. The word at followed by `(`
// starts a scenario atom at(G, L), read as one token (at.go).

// tokenKind classifies tokens by the role they play in the grammar.
type tokenKind uint8

const (
	tokEOF    tokenKind = iota
	tokAtom             // identifier that is not a keyword; at(G, L)
	tokQuoted           // "double-quoted atom"
	tokConst            // true, false
	tokUnary            // ! ~ ¬ X N WX F <> ◇ G □ ◯ Y Z O H
	tokBinary           // && & ∧ || | ∨ ^ xor ⊕ -> => → <-> <=> ↔ U W R V M S B
	tokCall             // start, end: followed by a parenthesized formula
	tokLParen           // (
	tokRParen           // )
	tokLBrack           // [
	tokRBrack           // ]
	tokComma            // ,
)

// A token is one lexeme. pos and end are byte offsets into the source; text
// is the source text src[pos:end]; val is the name of an atom (unescaped for
// quoted atoms); op is the operator of constants, operators and calls.
type token struct {
	kind     tokenKind
	op       Op
	pos, end int
	text     string
	val      string
}

// keywords maps every keyword to the token it stands for. docs/semantics.md: "X N WX F
// G U W R V M Y Z O H S B true false xor start end".
var keywords = map[string]token{
	"true":  {kind: tokConst, op: OpTrue},
	"false": {kind: tokConst, op: OpFalse},
	"X":     {kind: tokUnary, op: OpNext},
	"N":     {kind: tokUnary, op: OpWeakNext},
	"WX":    {kind: tokUnary, op: OpWeakNext},
	"F":     {kind: tokUnary, op: OpEventually},
	"G":     {kind: tokUnary, op: OpAlways},
	"Y":     {kind: tokUnary, op: OpYesterday},
	"Z":     {kind: tokUnary, op: OpWeakYesterday},
	"O":     {kind: tokUnary, op: OpOnce},
	"H":     {kind: tokUnary, op: OpHistorically},
	"U":     {kind: tokBinary, op: OpUntil},
	"W":     {kind: tokBinary, op: OpWeakUntil},
	"R":     {kind: tokBinary, op: OpRelease},
	"V":     {kind: tokBinary, op: OpRelease},
	"M":     {kind: tokBinary, op: OpStrongRelease},
	"S":     {kind: tokBinary, op: OpSince},
	"B":     {kind: tokBinary, op: OpWeakSince},
	"xor":   {kind: tokBinary, op: OpXor},
	"start": {kind: tokCall, op: OpStart},
	"end":   {kind: tokCall, op: OpEnd},
}

// keyword returns the token of a keyword; ok is false for other words.
func keyword(word string) (tok token, ok bool) {
	if len(word) > len("start") { // no keyword is longer
		return token{}, false
	}
	tok, ok = keywords[word]
	return tok, ok
}

// A symbol is an operator or punctuation token and its text.
type symbol struct {
	text string
	tok  token
}

// symbols are the operator and punctuation tokens, longest first where one
// is a prefix of another, so the first match is the longest.
var symbols = []symbol{
	{"<->", token{kind: tokBinary, op: OpIff}},
	{"<=>", token{kind: tokBinary, op: OpIff}},
	{"<>", token{kind: tokUnary, op: OpEventually}},
	{"->", token{kind: tokBinary, op: OpImplies}},
	{"=>", token{kind: tokBinary, op: OpImplies}},
	{"&&", token{kind: tokBinary, op: OpAnd}},
	{"&", token{kind: tokBinary, op: OpAnd}},
	{"||", token{kind: tokBinary, op: OpOr}},
	{"|", token{kind: tokBinary, op: OpOr}},
	{"^", token{kind: tokBinary, op: OpXor}},
	{"!", token{kind: tokUnary, op: OpNot}},
	{"~", token{kind: tokUnary, op: OpNot}},
	{"(", token{kind: tokLParen}},
	{")", token{kind: tokRParen}},
	{"[", token{kind: tokLBrack}},
	{"]", token{kind: tokRBrack}},
	{",", token{kind: tokComma}},
	{"¬", token{kind: tokUnary, op: OpNot}},
	{"∧", token{kind: tokBinary, op: OpAnd}},
	{"∨", token{kind: tokBinary, op: OpOr}},
	{"⊕", token{kind: tokBinary, op: OpXor}},
	{"→", token{kind: tokBinary, op: OpImplies}},
	{"↔", token{kind: tokBinary, op: OpIff}},
	{"◇", token{kind: tokUnary, op: OpEventually}},
	{"□", token{kind: tokUnary, op: OpAlways}},
	{"◯", token{kind: tokUnary, op: OpNext}},
}

// symbolsByFirstByte indexes symbols by their first byte, keeping their
// longest-first order. It is computed once and never modified.
var symbolsByFirstByte = func() (index [256][]symbol) {
	for _, s := range symbols {
		index[s.text[0]] = append(index[s.text[0]], s)
	}
	return index
}()

// lex splits src into tokens, ending with a tokEOF token at len(src).
func lex(src string) ([]token, error) {
	toks := make([]token, 0, len(src)/2+1)
	i := 0
	for {
		for i < len(src) && isSpace(src[i]) {
			i++
		}
		if i == len(src) {
			return append(toks, token{kind: tokEOF, pos: i, end: i}), nil
		}
		tok, err := lexOne(src, i)
		if err != nil {
			return nil, err
		}
		toks = append(toks, tok)
		i = tok.end
	}
}

// lexOne reads the token that starts at src[i], which is not a space.
func lexOne(src string, i int) (token, error) {
	c := src[i]
	switch {
	case isIdentStart(c):
		j := i + 1
		for j < len(src) && isIdentPart(src[j]) {
			j++
		}
		if startsAt(src, i, j) {
			return lexAt(src, i)
		}
		word := src[i:j]
		if kw, ok := keyword(word); ok {
			kw.pos, kw.end, kw.text = i, j, word
			return kw, nil
		}
		return token{kind: tokAtom, pos: i, end: j, text: word, val: word}, nil
	case c == '"':
		return lexQuoted(src, i)
	}
	for _, s := range symbolsByFirstByte[c] {
		if strings.HasPrefix(src[i:], s.text) {
			tok := s.tok
			tok.pos, tok.end, tok.text = i, i+len(s.text), s.text
			return tok, nil
		}
	}
	_, size := utf8.DecodeRuneInString(src[i:]) // one byte if not UTF-8
	return token{}, &SyntaxError{Offset: i, Found: src[i : i+size], Expected: "formula"}
}

// lexQuoted reads the quoted atom that starts at the double quote src[i].
func lexQuoted(src string, i int) (token, error) {
	end := strings.IndexByte(src[i+1:], '"')
	if end > 0 && strings.IndexByte(src[i+1:i+1+end], '\\') < 0 {
		// No escapes: the name is the text between the quotes.
		j := i + 1 + end
		return token{kind: tokQuoted, pos: i, end: j + 1, text: src[i : j+1], val: src[i+1 : j]}, nil
	}
	var b strings.Builder
	j := i + 1
	for j < len(src) {
		switch src[j] {
		case '"':
			if j == i+1 {
				return token{}, &SyntaxError{Offset: i, Found: `""`, Expected: "atom text between the quotes"}
			}
			return token{kind: tokQuoted, pos: i, end: j + 1, text: src[i : j+1], val: b.String()}, nil
		case '\\':
			if j+1 < len(src) && (src[j+1] == '"' || src[j+1] == '\\') {
				b.WriteByte(src[j+1])
				j += 2
				continue
			}
			found := `\`
			if j+1 < len(src) {
				_, size := utf8.DecodeRuneInString(src[j+1:])
				found = src[j : j+1+size]
			}
			return token{}, &SyntaxError{Offset: j, Found: found, Expected: `escape \" or \\`}
		default:
			b.WriteByte(src[j])
			j++
		}
	}
	return token{}, &SyntaxError{Offset: len(src), Found: "", Expected: `closing " of the atom at offset ` + strconv.Itoa(i)}
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func isIdentStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_'
}

func isIdentPart(c byte) bool {
	return isIdentStart(c) || c >= '0' && c <= '9' || c == '.'
}

// isPlainAtom reports whether name can be written without quotes: it is an
// identifier [A-Za-z_][A-Za-z0-9_.]* and not a keyword, or the canonical name
// of a scenario atom at(G,L).
func isPlainAtom(name string) bool {
	if isAtName(name) {
		return true
	}
	if name == "" || !isIdentStart(name[0]) {
		return false
	}
	for i := 1; i < len(name); i++ {
		if !isIdentPart(name[i]) {
			return false
		}
	}
	_, kw := keyword(name)
	return !kw
}

// quote returns name in double quotes, escaping `"` and `\`.
func quote(name string) string {
	var b strings.Builder
	b.Grow(len(name) + 2)
	b.WriteByte('"')
	for i := 0; i < len(name); i++ {
		if name[i] == '"' || name[i] == '\\' {
			b.WriteByte('\\')
		}
		b.WriteByte(name[i])
	}
	b.WriteByte('"')
	return b.String()
}
