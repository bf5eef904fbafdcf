package annotate

import (
	"fmt"
	"go/token"
	"sort"
	"strings"

	"github.com/henceforth-go/henceforth/internal/srcpos"
)

// This file is the error vocabulary: every problem with a directive is an
// *Error at a position, and a load or a lint returns all of them at once as an
// ErrorList.

// Kind classifies problems, so a caller can tell a broken directive (which
// makes the annotations unusable) from a well-formed one that checks nothing.
type Kind uint8

const (
	// KindSyntax: an unknown directive, a malformed directive line, or a syntax
	// error in its formula or Go expression.
	KindSyntax Kind = iota + 1
	// KindPlacement: a directive that stands where it cannot apply (an event
	// not next to a statement, a symbolic directive on nothing).
	KindPlacement
	// KindType: a Go expression that does not type-check, is not boolean, or
	// has side effects.
	KindType
	// KindUnresolved: an atom, function or parameter that names nothing, or
	// names two things at once.
	KindUnresolved
	// KindDuplicate: a name declared twice.
	KindDuplicate
	// KindFile: a spec file that cannot be read.
	KindFile
	// KindMeaning: a well-formed spec that is unsatisfiable, valid, vacuous or
	// equivalent to a simpler formula than it seems to say (see Lint).
	KindMeaning
	// KindUnused: a prop or event no spec uses (see Lint).
	KindUnused
	// KindLoad: the Go package itself could not be loaded or type-checked.
	KindLoad
)

var kindNames = [...]string{
	KindSyntax:     "syntax",
	KindPlacement:  "placement",
	KindType:       "type",
	KindUnresolved: "unresolved",
	KindDuplicate:  "duplicate",
	KindFile:       "file",
	KindMeaning:    "meaning",
	KindUnused:     "unused",
	KindLoad:       "load",
}

// String returns the kind's lower-case name, as used for diagnostic
// categories ("syntax", "meaning", …).
func (k Kind) String() string {
	if int(k) < len(kindNames) && kindNames[k] != "" {
		return kindNames[k]
	}
	return "invalid"
}

// An Error is one problem with a directive. Its text, as Error returns it,
// is
//
//	file.go:LINE:COL: ltl:VERB NAME: message
//
// where the column points at the problem inside the comment (into the
// formula for a syntax error) and NAME is omitted for directives without
// one.
type Error struct {
	// Pos is the problem's position in the package's token.FileSet; it is
	// valid in that FileSet even for problems inside spec files, which
	// are added to it.
	Pos token.Pos
	// Position is Pos resolved: file name, line and column.
	Position token.Position
	// Directive is the directive's verb with its prefix ("ltl:spec"), or
	// "ltl" when there is no verb to name, or "" for a Load error, whose
	// Msg is the loader's whole message.
	Directive string
	// Name is the name the directive declares ("lockPairs"); "" if none.
	Name string
	// Kind classifies the problem.
	Kind Kind
	// Msg is the message proper, without position or directive.
	Msg string
	// Err is the underlying error (a *ltl.SyntaxError, a types.Error, an
	// *os.PathError…), or nil; Unwrap returns it.
	Err error
}

// Message is the error without its position: "ltl:spec NAME: message", as
// go vet prints it after the position.
func (e *Error) Message() string {
	if e.Directive == "" {
		return e.Msg
	}
	if e.Name != "" {
		return e.Directive + " " + e.Name + ": " + e.Msg
	}
	return e.Directive + ": " + e.Msg
}

func (e *Error) Error() string {
	if e.Position.IsValid() {
		return e.Position.String() + ": " + e.Message()
	}
	return e.Message()
}

// Unwrap returns the underlying error, if any.
func (e *Error) Unwrap() error { return e.Err }

// An ErrorList is a list of problems. Its Error method prints one problem
// per line, in the order of the list; Sort orders them by position.
type ErrorList []*Error

func (l ErrorList) Len() int      { return len(l) }
func (l ErrorList) Swap(i, j int) { l[i], l[j] = l[j], l[i] }

// Less orders by file name, line, column, then message.
func (l ErrorList) Less(i, j int) bool {
	if c := srcpos.CompareGo(l[i].Position, l[j].Position); c != 0 {
		return c < 0
	}
	return l[i].Message() < l[j].Message()
}

// Sort orders the list by position (see Less).
func (l ErrorList) Sort() { sort.Stable(l) }

func (l ErrorList) Error() string {
	switch len(l) {
	case 0:
		return "no errors"
	case 1:
		return l[0].Error()
	}
	var b strings.Builder
	for i, e := range l {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

// Err returns l as an error, or nil if l is empty.
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	return l
}

// Unwrap returns the errors of the list, so errors.As finds an *Error (or
// the *ltl.SyntaxError behind one) in it.
func (l ErrorList) Unwrap() []error {
	errs := make([]error, len(l))
	for i, e := range l {
		errs[i] = e
	}
	return errs
}

// reporter accumulates errors; positions are resolved with fset.
type reporter struct {
	fset *token.FileSet
	errs ErrorList
}

// errorf records a problem at pos for the directive (verb without prefix,
// "" for none) and name.
func (r *reporter) errorf(pos token.Pos, verb, name string, kind Kind, err error, format string, args ...any) {
	dir := "ltl"
	if verb != "" {
		dir = "ltl:" + verb
	}
	r.errs = append(r.errs, &Error{
		Pos:       pos,
		Position:  r.fset.Position(pos),
		Directive: dir,
		Name:      name,
		Kind:      kind,
		Msg:       fmt.Sprintf(format, args...),
		Err:       err,
	})
}
