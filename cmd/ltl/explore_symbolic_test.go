package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestExploreSymbolicJSONAndEmitTest: a test using ltltest.Symbolic gets
// its inputs, path condition and regression test in the -json object,
// and the regression test in the text output with -emit-test.
func TestExploreSymbolicJSONAndEmitTest(t *testing.T) {
	if testing.Short() {
		t.Skip("loads and interprets package ltltest")
	}
	const pkg = "../../examples/symbolic/scale"
	status, out, errOut := runExplore(t, "-json", "-emit-test", pkg)
	require.Equal(t, 1, status, errOut)
	lines := jsonLines(t, out)
	require.Len(t, lines, 1, out)
	f := lines[0]
	assert.Equal(t, "panic", f["kind"])
	in, ok := f["inputs"].(map[string]any)
	require.True(t, ok, "inputs: %v", f["inputs"])
	n, limit := in["n"].(float64), in["limit"].(float64)
	assert.Equal(t, n*3, limit+7, "the inputs divide by zero")
	assert.Contains(t, f["path_condition"], "n*3-limit-7 == 0")
	assert.Contains(t, f["regression_test"], `t.Setenv("LTLTEST_INPUTS", `)

	status, out, errOut = runExplore(t, "-emit-test", pkg)
	require.Equal(t, 1, status, errOut)
	assert.Contains(t, out, "inputs: n = ")
	i := strings.Index(out, "regression test:\n")
	require.GreaterOrEqual(t, i, 0, out)
	assert.Contains(t, out[i:], "func TestScale_panic(t *testing.T) {\n")
}
