package srcpos

import (
	"errors"
	"fmt"
	"go/token"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestString(t *testing.T) {
	assert.Equal(t, "-", Pos{}.String())
	assert.Equal(t, "a.smv", Pos{File: "a.smv"}.String())
	assert.Equal(t, "3:7", Pos{Line: 3, Col: 7}.String())
	assert.Equal(t, "a.smv:3:7", Pos{File: "a.smv", Line: 3, Col: 7}.String())
	assert.False(t, Pos{File: "a.smv"}.IsValid())
	assert.True(t, Pos{Line: 1}.IsValid())
}

func TestCompareGo(t *testing.T) {
	at := func(file string, line, col int) token.Position {
		return token.Position{Filename: file, Line: line, Column: col}
	}
	require.Negative(t, CompareGo(at("a.go", 9, 9), at("b.go", 1, 1)))
	require.Negative(t, CompareGo(at("a.go", 2, 9), at("a.go", 10, 1)))
	require.Negative(t, CompareGo(at("a.go", 2, 3), at("a.go", 2, 12)))
	require.Positive(t, CompareGo(at("a.go", 2, 12), at("a.go", 2, 3)))
	require.Zero(t, CompareGo(at("a.go", 2, 3), at("a.go", 2, 3)))
}

func TestError(t *testing.T) {
	syntax := errors.New("syntax error")
	err := Errorf(Pos{File: "a.smv", Line: 3, Col: 7}, syntax, "unexpected %q", ";")
	assert.Equal(t, `a.smv:3:7: syntax error: unexpected ";"`, err.Error())
	assert.ErrorIs(t, err, syntax)
	assert.Equal(t, "a.smv: syntax error: empty", Errorf(Pos{File: "a.smv"}, syntax, "empty").Error())
	assert.Equal(t, "syntax error: empty", Errorf(Pos{}, syntax, "empty").Error())
	// The kind is left out when the message names it.
	assert.Equal(t, "1:2: a syntax error here", Errorf(Pos{Line: 1, Col: 2}, syntax, "a syntax error here").Error())
	var e *Error
	require.ErrorAs(t, fmt.Errorf("wrapped: %w", err), &e)
	assert.Equal(t, 3, e.Pos.Line)
}
