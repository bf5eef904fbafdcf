package synth

import (
	"errors"

	"github.com/henceforth-go/henceforth/internal/srcpos"
)

// Pos is a position in the specification's source (file:line:col); the zero
// Pos is unknown.
type Pos = srcpos.Pos

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
	// ErrMemoryBound: a BDD computation reached the bound of
	// WithMemoryLimit; the answer is unknown.
	ErrMemoryBound = errors.New("memory bound")
)

// Error is a positioned error about a specification; its Kind is one of
// the Err values above and is what errors.Is matches.
type Error = srcpos.Error

func errorf(pos Pos, kind error, format string, args ...any) *Error {
	return srcpos.Errorf(pos, kind, format, args...)
}
