package smv

import (
	"fmt"
	"strconv"

	"github.com/henceforth-go/henceforth/internal/srcpos"
	"github.com/henceforth-go/henceforth/split"
)

// tokKind is the kind of a token of the text format.
type tokKind uint8

const (
	tEOF tokKind = iota
	tIdent
	tNum
	tOp // punctuation and operators; text says which
)

// token is one lexical token with its position.
type token struct {
	kind tokKind
	text string
	num  int
	pos  split.Pos
}

func (t token) String() string {
	switch t.kind {
	case tEOF:
		return "end of input"
	case tNum:
		return strconv.Itoa(t.num)
	}
	return fmt.Sprintf("%q", t.text)
}

// operators, longest first.
var operators = []string{
	"<->", ":=", "..", "->", "!=", "<=", ">=", "[]", "<>",
	"=", "<", ">", "&", "|", "!", "(", ")", "[", "]", "{", "}", ",", ";", ":", ".", "+", "-", "*", "/", "?",
}

// lex splits src into tokens. Comments run from "--" or "//" to the end of
// the line.
func lex(file, src string) ([]token, error) {
	var toks []token
	line, col := 1, 1
	i := 0
	advance := func(n int) {
		for k := 0; k < n; k++ {
			if src[i] == '\n' {
				line++
				col = 1
			} else {
				col++
			}
			i++
		}
	}
	for i < len(src) {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\r' || c == '\n':
			advance(1)
			continue
		case (c == '-' && i+1 < len(src) && src[i+1] == '-') || (c == '/' && i+1 < len(src) && src[i+1] == '/'):
			for i < len(src) && src[i] != '\n' {
				advance(1)
			}
			continue
		}
		pos := split.Pos{File: file, Line: line, Col: col}
		switch {
		case isLetter(c):
			j := i
			for j < len(src) && (isLetter(src[j]) || isDigit(src[j]) || src[j] == '$' || src[j] == '#') {
				j++
			}
			toks = append(toks, token{kind: tIdent, text: src[i:j], pos: pos})
			advance(j - i)
			continue
		case isDigit(c):
			j := i
			for j < len(src) && isDigit(src[j]) {
				j++
			}
			n, err := strconv.Atoi(src[i:j])
			if err != nil || n > 1<<30 {
				return nil, srcpos.Errorf(pos, split.ErrSyntax, "number %s too large", src[i:j])
			}
			toks = append(toks, token{kind: tNum, text: src[i:j], num: n, pos: pos})
			advance(j - i)
			continue
		}
		matched := ""
		for _, op := range operators {
			if len(src)-i >= len(op) && src[i:i+len(op)] == op {
				matched = op
				break
			}
		}
		if matched == "" {
			return nil, srcpos.Errorf(pos, split.ErrSyntax, "unexpected character %q", rune(c))
		}
		toks = append(toks, token{kind: tOp, text: matched, pos: pos})
		advance(len(matched))
	}
	toks = append(toks, token{kind: tEOF, pos: split.Pos{File: file, Line: line, Col: col}})
	return toks, nil
}

func isLetter(c byte) bool { return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') }
func isDigit(c byte) bool  { return c >= '0' && c <= '9' }
