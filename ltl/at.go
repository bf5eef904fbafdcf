package ltl

import "unicode/utf8"

// This file reads scenario atoms. at(G, L) says that goroutine G is at label
// L; explore.Find gives it its meaning. For the rest of the package it is an
// ordinary atom whose name is the canonical text at(G,L), without spaces:
// Parse("at(P0, m2)") == Atom("at(P0,m2)"), and it prints as at(P0,m2).
//
// G is a goroutine number or a function name, made of [A-Za-z0-9_.#]; L is
// a label, made of [A-Za-z0-9_.]. Spaces are allowed around both. The word
// at is an ordinary atom where it is not followed by `(`.

// atWord is the word that starts a scenario atom when a `(` follows it.
const atWord = "at"

// SplitAt reports whether name is the name of a scenario atom at(G,L) in
// its canonical form (as Parse produces it from at(G, L)), and returns G
// and L.
func SplitAt(name string) (goroutine, label string, ok bool) {
	const open = atWord + "("
	if len(name) < len(open)+len("a,b)") || name[:len(open)] != open || name[len(name)-1] != ')' {
		return "", "", false
	}
	i := len(open)
	j := scanRun(name, i, isGoroutineByte)
	if j == i || j == len(name) || name[j] != ',' {
		return "", "", false
	}
	k := scanRun(name, j+1, isLabelByte)
	if k == j+1 || k != len(name)-1 {
		return "", "", false
	}
	return name[i:j], name[j+1 : k], true
}

// isAtName reports whether name is the canonical name of a scenario atom.
func isAtName(name string) bool {
	_, _, ok := SplitAt(name)
	return ok
}

// startsAt reports whether the word src[i:j] begins a scenario atom: it is
// at and the next byte that is not a space is `(`.
func startsAt(src string, i, j int) bool {
	if src[i:j] != atWord {
		return false
	}
	j = skipSpace(src, j)
	return j < len(src) && src[j] == '('
}

// lexAt reads the scenario atom at(G, L) that starts at src[i]; startsAt
// holds. The token's val is the canonical name at(G,L).
func lexAt(src string, i int) (token, error) {
	open := skipSpace(src, i+len(atWord)) // the `(`
	g0, g1, next, err := atPart(src, open+1, isGoroutineByte, "goroutine number or function name in at(G, L)", ',', `"," in at(G, L)`)
	if err != nil {
		return token{}, err
	}
	l0, l1, end, err := atPart(src, next, isLabelByte, "label in at(G, L)", ')', `")" closing at(G, L)`)
	if err != nil {
		return token{}, err
	}
	name := atWord + "(" + src[g0:g1] + "," + src[l0:l1] + ")"
	return token{kind: tokAtom, pos: i, end: end, text: src[i:end], val: name}, nil
}

// atPart reads one argument of at(G, L) from src[i]: optional spaces, a
// non-empty run of bytes for which ok holds, optional spaces and the byte
// sep. It returns the run's bounds and the offset after sep. Errors say
// that what, or sepWhat, was expected.
func atPart(src string, i int, ok func(byte) bool, what string, sep byte, sepWhat string) (start, end, next int, err error) {
	start = skipSpace(src, i)
	end = scanRun(src, start, ok)
	if end == start {
		return 0, 0, 0, atError(src, start, what)
	}
	j := skipSpace(src, end)
	if j == len(src) || src[j] != sep {
		return 0, 0, 0, atError(src, j, sepWhat)
	}
	return start, end, j + 1, nil
}

// atError is a *SyntaxError at src[i] (the end of input if i == len(src)).
func atError(src string, i int, expected string) error {
	found := ""
	if i < len(src) {
		_, size := utf8.DecodeRuneInString(src[i:]) // one byte if not UTF-8
		found = src[i : i+size]
	}
	return &SyntaxError{Offset: i, Found: found, Expected: expected}
}

// scanRun returns the end of the run of bytes of s, from i, for which ok
// holds.
func scanRun(s string, i int, ok func(byte) bool) int {
	for i < len(s) && ok(s[i]) {
		i++
	}
	return i
}

func skipSpace(s string, i int) int { return scanRun(s, i, isSpace) }

// isLabelByte reports whether c may appear in the label L of at(G, L).
func isLabelByte(c byte) bool { return isIdentPart(c) }

// isGoroutineByte reports whether c may appear in the goroutine G of
// at(G, L).
func isGoroutineByte(c byte) bool { return isIdentPart(c) || c == '#' }
