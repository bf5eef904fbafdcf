package synth

import (
	"io"
	"strconv"
	"strings"
)

// ParseStructuredSlugs reads a specification in Slugs' structured format
// (.structuredslugs): variables in [INPUT] and [OUTPUT], either Boolean
// (name) or integer (name: lo...hi); one infix formula per line in the six
// sections, with x' or X(...) for next values and + - = != < <= > >= over
// integers. Arithmetic is exact (no wrap-around). As in Slugs, a line that
// is not an infix formula but one in .slugsin prefix notation (| a b) is
// accepted. name is used in positions.
func ParseStructuredSlugs(name string, r io.Reader) (*Spec, error) {
	f, err := readSlugsSections(name, r)
	if err != nil {
		return nil, err
	}
	return f.build(name, structuredVar, parseStructuredLine)
}

// parseStructuredLine parses one formula line: infix, or as Slugs' compiler
// allows, a line already in .slugsin prefix notation.
func parseStructuredLine(l sectionLine, names map[string]bool) (*Expr, error) {
	e, err := parseInfix(l.text, l.pos, names)
	if err != nil && strings.ContainsRune("|&^$!", rune(l.text[0])) {
		if pe, perr := parsePrefix(l); perr == nil {
			return pe, nil
		}
	}
	return e, err
}

// structuredVar parses "name" or "name: lo...hi".
func structuredVar(l sectionLine) (Var, error) {
	name, rng, hasRange := strings.Cut(l.text, ":")
	name = strings.TrimSpace(name)
	if !isIdentifier(name) {
		return Var{}, errorf(l.pos, ErrSyntax, "%q is not a variable name", name)
	}
	if !hasRange {
		return Var{Name: name, Bool: true, Lo: 0, Hi: 1, Pos: l.pos}, nil
	}
	rangePos := Pos{File: l.pos.File, Line: l.pos.Line, Col: l.pos.Col + strings.Index(l.text, ":") + 1}
	loText, hiText, ok := strings.Cut(strings.TrimSpace(rng), "...")
	if !ok {
		return Var{}, errorf(rangePos, ErrSyntax, "variable %s: expected a range lo...hi, found %q", name, strings.TrimSpace(rng))
	}
	lo, err1 := strconv.Atoi(strings.TrimSpace(loText))
	hi, err2 := strconv.Atoi(strings.TrimSpace(hiText))
	if err1 != nil || err2 != nil {
		return Var{}, errorf(rangePos, ErrSyntax, "variable %s: the bounds of %q are not integers", name, strings.TrimSpace(rng))
	}
	if lo > hi {
		return Var{}, errorf(rangePos, ErrType, "variable %s has the empty range %d...%d", name, lo, hi)
	}
	if lo < -(1<<29) || hi > 1<<29 {
		return Var{}, errorf(rangePos, ErrType, "variable %s: range %d...%d is too large", name, lo, hi)
	}
	return Var{Name: name, Lo: lo, Hi: hi, Pos: l.pos}, nil
}

func isIdentifier(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		switch {
		case r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z':
		case i > 0 && (r >= '0' && r <= '9' || r == '@' || r == '.'):
		default:
			return false
		}
	}
	return true
}
