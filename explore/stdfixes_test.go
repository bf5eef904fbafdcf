package explore

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestStdFixes explores shapes of the standard library's own tests that
// the interpreter once got wrong: panics of native functions are the
// program's (recoverable, with their values), copy of a string into a nil
// slice, and the *fs.PathError of os.Open.
func TestStdFixes(t *testing.T) {
	for _, test := range []string{
		"TestNativePanicRecovered",
		"TestCopyStringIntoNil",
		"TestOpenMissing",
		"TestBuilderCopyPanics",
		"TestNilBuilderResetPanics",
	} {
		t.Run(test, func(t *testing.T) {
			r := exploreTestdata(t, "stdfixes", test, Options{})
			require.Equal(t, "pass", r.Verdict(), "%v", r.Findings)
		})
	}
	t.Run("unrecovered native panic", func(t *testing.T) {
		r := exploreTestdata(t, "stdfixes", "TestNativePanicUnrecovered", Options{})
		require.Len(t, r.Findings, 1)
		f := r.Findings[0]
		assert.Equal(t, KindPanic, f.Kind)
		assert.Contains(t, f.Message, "strings: negative Repeat count")
		assert.Equal(t, 39, f.Pos.Line)
	})
}

// TestSnapshotKeepsGlobals explores tests whose later executions start
// from the snapshot of the initialized packages: a pointer to a package
// variable (time.Local is &time.localLoc) still points to it, so
// executions are deterministic (context's deadline tests once ended with
// "nondeterministic execution").
func TestSnapshotKeepsGlobals(t *testing.T) {
	for _, test := range []string{"TestGlobalIdentity", "TestDeadline"} {
		t.Run(test, func(t *testing.T) {
			r := exploreTestdata(t, "ctxdeadline", test, Options{})
			require.Equal(t, "pass", r.Verdict(), "%v", r.Findings)
			require.Greater(t, r.Executions, 1)
		})
	}
}
