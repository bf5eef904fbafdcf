package ltltest_test

import (
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/henceforth-go/henceforth/examples/symbolic/absdiff"
	"github.com/henceforth-go/henceforth/ltltest"
)

// absDiffBody is the symbolic example absdiff with its inputs from
// ltltest.Symbolic: it panics for x == y.
func absDiffBody(t *testing.T) {
	absdiff.AbsDiff(ltltest.Symbolic[int16](t, "x"), ltltest.Symbolic[int16](t, "y"))
}

// TestSymbolicWritesReport: the report of a finding on symbolic inputs
// shows the inputs that reach it and the path condition. (cmd/ltl's
// TestExampleReports opens the same report of ltl explore in a browser.)
func TestSymbolicWritesReport(t *testing.T) {
	at := newArtifactT(t)
	require.False(t, ltltest.Explore(at, absDiffBody))
	page := reportOf(t, at.output())
	pageHas(t, page, `"kind":"panic"`)
	pageHas(t, page, `"message":"panic: assertion failed: result \u003e 0 [goroutine 1]"`)
	m := regexp.MustCompile(`"inputs":\[\{"name":"x","type":"int16","value":"(-?\d+)"\},\{"name":"y","type":"int16","value":"(-?\d+)"\}\]`).FindStringSubmatch(page)
	require.NotNil(t, m, "the page shows the inputs x and y")
	assert.Equal(t, m[1], m[2], "the inputs that reach the panic: x == y")
	pageHas(t, page, `"pathCondition":"`)
}
