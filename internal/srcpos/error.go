package srcpos

import (
	"fmt"
	"strings"
)

// Error is a positioned error about an input: what is wrong (Msg), where
// (Pos, possibly zero), and its kind, an error value of the reporting
// package (such as a syntax or type error sentinel) that Unwrap returns, so
// that errors.Is matches it.
//
// Error() prints "pos: kind: msg", leaving out the position when it is
// unknown and the kind when the message already names it.
type Error struct {
	Pos  Pos
	Kind error
	Msg  string
}

// Errorf returns an *Error with the message fmt.Sprintf(format, args...).
func Errorf(pos Pos, kind error, format string, args ...any) *Error {
	return &Error{Pos: pos, Kind: kind, Msg: fmt.Sprintf(format, args...)}
}

func (e *Error) Error() string {
	var b strings.Builder
	if e.Pos.IsValid() || e.Pos.File != "" {
		b.WriteString(e.Pos.String())
		b.WriteString(": ")
	}
	if e.Kind != nil && !strings.Contains(e.Msg, e.Kind.Error()) {
		b.WriteString(e.Kind.Error())
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// Unwrap returns the error's kind.
func (e *Error) Unwrap() error { return e.Kind }
