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
	spec := &Spec{Name: specName(name)}
	names := map[string]bool{}
	for _, group := range []struct {
		lines []sectionLine
		dst   *[]Var
	}{{f.inputs, &spec.Inputs}, {f.outputs, &spec.Outputs}} {
		for _, l := range group.lines {
			v, err := structuredVar(l)
			if err != nil {
				return nil, err
			}
			*group.dst = append(*group.dst, v)
			names[v.Name] = true
		}
	}
	for _, c := range f.clauses {
		e, err := parseInfix(c.line.text, c.line.pos, names)
		if err != nil && strings.ContainsRune("|&^$!", rune(c.line.text[0])) {
			// Slugs' compiler passes lines already in slugsin prefix
			// notation through (its own examples use them).
			if pe, perr := parsePrefix(c.line); perr == nil {
				e, err = pe, nil
			}
		}
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
	rangePos := Pos{l.pos.File, l.pos.Line, l.pos.Col + strings.Index(l.text, ":") + 1}
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
