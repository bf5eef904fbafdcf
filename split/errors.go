package split

import (
	"errors"

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

// Error is a positioned error about a program or a property; its Kind is
// one of the Err values above and is what errors.Is matches. The front ends
// (split/smv, split/gosplit) report their errors with the same type.
type Error = srcpos.Error

func errorf(pos Pos, kind error, format string, args ...any) error {
	return srcpos.Errorf(pos, kind, format, args...)
}
