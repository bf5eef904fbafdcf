package synth

import (
	"errors"
	"fmt"
)

// Pos is a position in a specification's source: a file name (possibly
// empty), a 1-based line and a 1-based column counted in bytes. The zero Pos
// is unknown.
type Pos struct {
	File string
	Line int
	Col  int
}

// IsValid reports whether p names a line.
func (p Pos) IsValid() bool { return p.Line > 0 }

// String formats p as file:line:col, omitting what is unknown.
func (p Pos) String() string {
	switch {
	case p.Line == 0 && p.File == "":
		return "-"
	case p.Line == 0:
		return p.File
	case p.File == "":
		return fmt.Sprintf("%d:%d", p.Line, p.Col)
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}

// Error kinds, for errors.Is on the *Error values the package returns.
var (
	// ErrSyntax: the input is not well formed.
	ErrSyntax = errors.New("syntax error")
	// ErrNotGR1: a formula is outside the GR(1) fragment.
	ErrNotGR1 = errors.New("not GR(1)")
	// ErrUnsupported: a construct of the input format this package does not
	// implement.
	ErrUnsupported = errors.New("unsupported")
	// ErrType: a variable is unknown, declared twice, or used at the wrong
	// type.
	ErrType = errors.New("type error")
	// ErrUnrealizable: a controller was asked of an unrealizable spec.
	ErrUnrealizable = errors.New("specification is unrealizable")
	// ErrRealizable: a counterstrategy or core was asked of a realizable spec.
	ErrRealizable = errors.New("specification is realizable")
	// ErrTooLarge: an explicit machine would exceed the requested limit.
	ErrTooLarge = errors.New("too large")
)

// Error is a positioned error about a specification. Kind is one of the Err
// values above and is what errors.Is matches.
type Error struct {
	Pos  Pos
	Kind error
	Msg  string
}

func (e *Error) Error() string {
	if !e.Pos.IsValid() && e.Pos.File == "" {
		return e.Msg
	}
	return e.Pos.String() + ": " + e.Msg
}

// Unwrap returns the error's kind.
func (e *Error) Unwrap() error { return e.Kind }

func errorf(pos Pos, kind error, format string, args ...any) *Error {
	return &Error{Pos: pos, Kind: kind, Msg: fmt.Sprintf(format, args...)}
}
