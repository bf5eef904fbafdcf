package split

import (
	"errors"
	"fmt"

	"github.com/henceforth-go/henceforth/internal/srcpos"
)

// Pos is a position in the program's source (file:line:col); the zero
// Pos is unknown.
type Pos = srcpos.Pos

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
