package annotate

import (
	"errors"
	"go/types"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/henceforth-go/henceforth/ltl"
)

func TestErrorList(t *testing.T) {
	_, errs := fromSource(t, map[string]string{
		"b.go": `package p

var n int

//ltl:prop small n < "x"
`,
		"a.go": `package p

//ltl:spec later G(x &&)
//ltl:spec first G(nope)
`,
	})
	require.Len(t, errs, 3)
	// Sorted by file, then line and column.
	assert.Equal(t, []string{
		`a.go:3:24: ltl:spec later: syntax error: expected formula, found ")"`,
		`a.go:4:20: ltl:spec first: unknown proposition "nope"`,
		`b.go:5:22: ltl:prop small: invalid operation: n < "x" (mismatched types int and untyped string)`,
	}, messages(errs))
	assert.True(t, sort.IsSorted(errs))

	// Error prints every problem, one per line, with full positions.
	lines := strings.Split(errs.Error(), "\n")
	require.Len(t, lines, 3)
	for i, line := range lines {
		assert.Equal(t, errs[i].Error(), line)
		assert.True(t, strings.HasSuffix(line, errs[i].Message()))
	}

	// The parts of an Error.
	e := errs[0]
	assert.Equal(t, "ltl:spec", e.Directive)
	assert.Equal(t, "later", e.Name)
	assert.Equal(t, KindSyntax, e.Kind)
	assert.Equal(t, `syntax error: expected formula, found ")"`, e.Msg)
	assert.Equal(t, 3, e.Position.Line)
	assert.Equal(t, 24, e.Position.Column)

	// The underlying errors are reachable with errors.As.
	var se *ltl.SyntaxError
	require.True(t, errors.As(errs, &se))
	assert.Equal(t, 6, se.Offset, "offset into the formula G(x &&)")
	var te types.Error
	require.True(t, errors.As(errs, &te))
	assert.Contains(t, te.Msg, "mismatched types")
	var one *Error
	require.True(t, errors.As(error(errs), &one))
	assert.Same(t, errs[0], one)

	assert.Equal(t, "syntax", KindSyntax.String())
	assert.Equal(t, "meaning", KindMeaning.String())
	assert.Equal(t, "invalid", Kind(0).String())
}

func TestErrorListEmpty(t *testing.T) {
	var l ErrorList
	assert.NoError(t, l.Err())
	assert.Equal(t, "no errors", l.Error())
	pkg, errs := fromSource(t, map[string]string{"a.go": "package p\n"})
	assert.Empty(t, errs)
	assert.Empty(t, pkg.Specs)
}
