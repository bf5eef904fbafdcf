package explore

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The standard library's external tests of the models' semantics pass:
// sync.OnceFunc, OnceValue and OnceValues re-panic with f's panic value
// on every later call (a *runtime.PanicNilError for panic(nil)), and a
// deferred call that recovers sees the panicking function in
// runtime/debug.Stack; writing to a copy of a written strings.Builder
// panics. bytes_test initializes (its variables call testenv.Builder) and
// its tests run: bytealg.MakeNoZero panics past the runtime's bound,
// utf8.EncodeRune writes into its argument and bytealg.MaxLen is
// modelled.
func TestStdModelSemantics(t *testing.T) {
	for _, tc := range []struct{ pkg, test string }{
		{"sync", "sync_test.TestOnceFuncPanic"},
		{"sync", "sync_test.TestOnceValuePanic"},
		{"sync", "sync_test.TestOnceValuesPanic"},
		{"sync", "sync_test.TestOnceFuncPanicNil"},
		{"sync", "sync_test.TestOnceFuncGoexit"},
		{"sync", "sync_test.TestOnceFuncPanicTraceback"},
		{"strings", "strings_test.TestBuilderCopyPanic"},
		{"bytes", "bytes_test.TestRepeatCatchesOverflow"},
		{"bytes", "bytes_test.TestRuneIO"},
		{"bytes", "bytes_test.TestIndexAny"},
	} {
		t.Run(tc.test, func(t *testing.T) {
			if testing.Short() && tc.pkg == "strings" {
				// loading strings_test takes long under -race; the
				// Builder's copy check is in TestStdFixes
				// (TestBuilderCopyPanics)
				t.Skip("strings_test in -short mode")
			}
			p := loadPatterns(t, tc.pkg)
			e, err := p.Func(tc.test)
			require.NoError(t, err)
			r, err := p.Explore(context.Background(), e, Options{})
			require.NoError(t, err)
			assert.Equal(t, "pass", r.Verdict(), "%v", r.Findings)
			assert.True(t, r.Complete)
		})
	}
}
