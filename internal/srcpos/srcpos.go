// Package srcpos owns the source position and the positioned error shared
// by the packages that read their own input languages (synth's
// specification formats, split's SMV subset and Go front end): a Pos is a
// file name, a line and a column, printed as file:line:col; an Error is a
// message at a Pos with a kind the reporting package defines. It also owns
// the order in which the packages that report on Go source list positions.
//
// # Limits
//
//   - Columns count bytes, not runes or display columns (as go/token does).
//   - An Error carries one position; an error that concerns two places
//     (a name declared twice) names the other in its message.
package srcpos

import (
	"cmp"
	"fmt"
	"go/token"
	"strings"
)

// CompareGo orders Go source positions by file name, line, then column
// (negative when a comes first).
func CompareGo(a, b token.Position) int {
	return cmp.Or(strings.Compare(a.Filename, b.Filename), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Column, b.Column))
}

// Pos is a position in an input's source: a file name (possibly empty), a
// 1-based line and a 1-based column counted in bytes. The zero Pos is
// unknown (for example, a value built with a Go API rather than parsed).
type Pos struct {
	File string
	Line int
	Col  int
}

// IsValid reports whether p names a line.
func (p Pos) IsValid() bool { return p.Line > 0 }

// String formats p as file:line:col, omitting what is unknown: "-" for the
// zero Pos, the file alone when the line is unknown, line:col when the file
// is.
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
