package split

import (
	"errors"
	"fmt"
)

// Pos is a position in a program's source: a file name (possibly empty), a
// 1-based line and a 1-based column counted in bytes. The zero Pos is
// unknown (programs built with the Go API).
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

// Error kinds, for errors.Is on the errors the package returns.
var (
	// ErrSyntax: the input text is not well formed.
	ErrSyntax = errors.New("syntax error")
	// ErrType: a name is unknown or declared twice, or an expression is used
	// at the wrong type.
	ErrType = errors.New("type error")
	// ErrUnsupported: a construct this package does not implement.
	ErrUnsupported = errors.New("unsupported")
	// ErrProgram: a program is malformed (a process writes a variable it does
	// not own, an initial condition relates two processes, …).
	ErrProgram = errors.New("malformed program")
)

// Error is a positioned error about a program or a property. Kind is one of
// the Err values above and is what errors.Is matches.
type Error struct {
	Pos  Pos
	Kind error
	Msg  string
}

func (e *Error) Error() string {
	if e.Pos.IsValid() || e.Pos.File != "" {
		return fmt.Sprintf("%s: %v: %s", e.Pos, e.Kind, e.Msg)
	}
	return fmt.Sprintf("split: %v: %s", e.Kind, e.Msg)
}

// Unwrap returns the kind, so errors.Is(err, ErrSyntax) works.
func (e *Error) Unwrap() error { return e.Kind }

func errorf(pos Pos, kind error, format string, args ...any) error {
	return &Error{Pos: pos, Kind: kind, Msg: fmt.Sprintf(format, args...)}
}

// asError is errors.As for *Error.
func asError(err error, target **Error) bool { return errors.As(err, target) }
