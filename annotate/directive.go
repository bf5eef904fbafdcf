package annotate

import (
	"fmt"

	"github.com/henceforth-go/henceforth/ltl"
)

// This file is the syntax of one directive line, independent of where it
// stands:
//
//	ltl:prop NAME EXPR | ltl:prop NAME call|return|go FUNC
//	ltl:event NAME
//	ltl:spec NAME FORMULA
//	ltl:symbolic [PARAM…]
//	ltl:specfile PATH
//	ltl:range NAME LO..HI
//
// A trailing "// comment" ends the directive, unless the // is inside a
// quoted string ("…", `…` or '…'), so formulas and Go expressions may hold
// it.

// The verbs.
const (
	verbProp     = "prop"
	verbEvent    = "event"
	verbSpec     = "spec"
	verbSymbolic = "symbolic"
	verbSpecFile = "specfile"
	verbRange    = "range"
)

// verbs lists the known verbs, for messages.
const verbList = "prop, event, spec, symbolic, specfile or range"

// named reports whether a verb declares a name.
func named(verb string) bool { return verb == verbProp || verb == verbEvent || verb == verbSpec }

func knownVerb(verb string) bool {
	return named(verb) || verb == verbSymbolic || verb == verbSpecFile || verb == verbRange
}

// A directive is one directive split into its parts. Offsets are byte
// offsets into the text it was parsed from (which starts at the verb).
type directive struct {
	verb    string
	name    string // "" for verbs without a name
	nameOff int
	arg     string // what follows the name (or the verb), trimmed, without a trailing comment
	argOff  int    // offset of arg; the end of the text if arg is empty
}

// A directiveError is a problem with a directive's syntax at an offset of
// its text.
type directiveError struct {
	off  int
	verb string // "" if there is no valid verb yet
	name string
	msg  string
}

func (e *directiveError) Error() string { return fmt.Sprintf("offset %d: %s", e.off, e.msg) }

// parseDirective splits text, the directive after "//ltl:" (or a line of a
// spec file), into its parts and checks what can be checked without the
// program: the verb, the name, and that the arguments the verb needs are
// there.
func parseDirective(text string) (directive, *directiveError) {
	end := commentStart(text)
	i := 0
	for i < end && !isSpace(text[i]) {
		i++
	}
	d := directive{verb: text[:i]}
	if d.verb == "" {
		return d, &directiveError{off: 0, msg: "missing directive name after ltl: (want " + verbList + ")"}
	}
	if !knownVerb(d.verb) {
		return d, &directiveError{off: 0, verb: d.verb, msg: "unknown directive (want " + verbList + ")"}
	}
	if named(d.verb) {
		i = skipSpace(text, i, end)
		j := i
		for j < end && !isSpace(text[j]) {
			j++
		}
		d.name, d.nameOff = text[i:j], i
		if d.name == "" {
			return d, &directiveError{off: i, verb: d.verb, msg: "missing name (want " + usage(d.verb) + ")"}
		}
		if !validName(d.name) {
			name := d.name
			d.name = ""
			return d, &directiveError{off: i, verb: d.verb, msg: fmt.Sprintf(
				"invalid name %q: a name is an identifier [A-Za-z_][A-Za-z0-9_]* that is not an LTL keyword", name)}
		}
		i = j
	}
	i = skipSpace(text, i, end)
	k := end
	for k > i && isSpace(text[k-1]) {
		k--
	}
	d.arg, d.argOff = text[i:k], i
	if d.arg == "" {
		switch d.verb {
		case verbProp, verbSpec, verbSpecFile, verbRange:
			return d, &directiveError{off: i, verb: d.verb, name: d.name, msg: "missing " + argName(d.verb) + " (want " + usage(d.verb) + ")"}
		}
	} else if d.verb == verbEvent {
		return d, &directiveError{off: i, verb: d.verb, name: d.name, msg: fmt.Sprintf("unexpected %q after the name (want %s)", d.arg, usage(d.verb))}
	}
	return d, nil
}

// usage is the form of a directive, for messages.
func usage(verb string) string {
	switch verb {
	case verbProp:
		return "//ltl:prop NAME EXPR, or //ltl:prop NAME call|return|go FUNC"
	case verbEvent:
		return "//ltl:event NAME"
	case verbSpec:
		return "//ltl:spec NAME FORMULA"
	case verbSymbolic:
		return "//ltl:symbolic [PARAM...]"
	case verbSpecFile:
		return "//ltl:specfile PATH"
	case verbRange:
		return "//ltl:range NAME LO..HI"
	}
	return "//ltl:VERB with VERB one of " + verbList
}

func argName(verb string) string {
	switch verb {
	case verbProp:
		return "expression"
	case verbSpec:
		return "formula"
	case verbSpecFile:
		return "path"
	case verbRange:
		return "variable and range"
	}
	return "argument"
}

// validName reports whether name can name a prop, event or spec: an ASCII
// identifier that the formula parser reads as that very atom (so not a
// keyword such as G or true).
func validName(name string) bool {
	return isIdent(name) && isAtomWord(name)
}

// isAtomWord reports whether word, an identifier as the formula lexer reads
// it, is an atom rather than a keyword.
func isAtomWord(word string) bool {
	f, err := ltl.Parse(word)
	return err == nil && f == ltl.Atom(word)
}

// commentStart returns the offset of a "//" that starts a trailing comment
// in text, outside quotes (see quotedEnd), or len(text) if there is none.
func commentStart(text string) int {
	for i := 0; i < len(text); {
		switch c := text[i]; {
		case c == '"' || c == '`' || c == '\'':
			i = quotedEnd(text, i)
		case c == '/' && i+1 < len(text) && text[i+1] == '/':
			return i
		default:
			i++
		}
	}
	return len(text)
}

// quotedEnd returns the offset just past the quoted text that opens at
// text[i] with ", ` or '. In "…" and '…' a backslash escapes the next byte,
// and a newline ends an unclosed quote (at the newline). It returns
// len(text) for a quote that is not closed.
func quotedEnd(text string, i int) int {
	q := text[i]
	for j := i + 1; j < len(text); j++ {
		switch c := text[j]; {
		case c == '\\' && q != '`':
			j++
		case c == q:
			return j + 1
		case c == '\n' && q != '`':
			return j
		}
	}
	return len(text)
}

func skipSpace(text string, i, end int) int {
	for i < end && isSpace(text[i]) {
		i++
	}
	return i
}

func isSpace(c byte) bool      { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
func isDigit(c byte) bool      { return c >= '0' && c <= '9' }
func isIdentStart(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' }
