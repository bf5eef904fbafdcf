package explore

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestQuickBig explores tests of testing/quick properties (Check,
// CheckEqual, Value, Config), math/big arithmetic and crypto/rand.Int and
// Prime (testdata/quickbig).
func TestQuickBig(t *testing.T) {
	p := loadPatterns(t, "./testdata/quickbig")
	explore := func(t *testing.T, fn string, opts Options) (*Entry, *Report) {
		t.Helper()
		e, err := p.Func(testdataPath + "/quickbig." + fn)
		require.NoError(t, err)
		r, err := p.Explore(context.Background(), e, opts)
		require.NoError(t, err)
		require.True(t, r.Complete, "bound %q", r.Bound)
		return e, r
	}
	for _, test := range []string{
		"TestQuickReverse",
		"TestQuickCommutes",
		"TestQuickCheckEqual",
		"TestQuickConcurrent",
		"TestQuickValue",
		"TestQuickConfigValues",
		"TestQuickSetupErrors",
		"TestQuickValueFunc",
		"TestQuickGenerator",
		"TestBigFactorial",
		"TestBigArith",
		"TestBigPrint",
		"TestCryptoRandInt",
	} {
		t.Run(test, func(t *testing.T) {
			_, r := explore(t, test, Options{})
			require.Equal(t, "pass", r.Verdict(), "%s", reportText(r))
		})
	}
	t.Run("concurrent property", func(t *testing.T) {
		// every schedule of every iteration's goroutines is explored
		_, r := explore(t, "TestQuickConcurrent", Options{})
		assert.Greater(t, r.Executions, 1)
	})
	t.Run("Formatter", func(t *testing.T) {
		// %x of a *big.Int needs its Format method: unsupported, not
		// the hex of its decimal digits
		_, r := explore(t, "HexBig", Options{})
		require.Len(t, r.Findings, 1, "%s", reportText(r))
		assert.Equal(t, KindUnsupported, r.Findings[0].Kind)
		assert.Contains(t, r.Findings[0].Message, "fmt: %x of a *big.Int: its Format method (fmt.Formatter) is not modelled")
	})
	t.Run("false property", func(t *testing.T) {
		e, r := explore(t, "FailQuickSmall", Options{})
		require.Len(t, r.Findings, 1, "%s", reportText(r))
		f := r.Findings[0]
		assert.Equal(t, KindTestFailure, f.Kind)
		// quick's message: the 1-based count and the input as %#v
		assert.Regexp(t, `quickbig_test.go:\d+: #\d+: failed on input 0x[c-f][0-9a-f]$`, f.Message)
		requireReplays(t, p, e, f)
		// the inputs are the seed's: the same again
		_, again := explore(t, "FailQuickSmall", Options{})
		require.Len(t, again.Findings, 1)
		assert.Equal(t, f.Message, again.Findings[0].Message)
	})
	t.Run("CheckEqual difference", func(t *testing.T) {
		e, r := explore(t, "FailQuickCheckEqual", Options{})
		require.Len(t, r.Findings, 1, "%s", reportText(r))
		f := r.Findings[0]
		assert.Equal(t, KindTestFailure, f.Kind)
		assert.Regexp(t, `#\d+: failed on input 0x[0-9a-f]+\. Output 1: 0x[0-9a-f]+\. Output 2: 0x[0-9a-f]+$`, f.Message)
		requireReplays(t, p, e, f)
	})
	t.Run("schedule-dependent property", func(t *testing.T) {
		e, r := explore(t, "FailQuickOrder", Options{})
		require.Len(t, r.Findings, 1, "%s", reportText(r))
		f := r.Findings[0]
		assert.Equal(t, KindTestFailure, f.Kind)
		assert.Regexp(t, `#\d+: failed on input -?\d+, -?\d+ \(count \d+, 2 inputs\)`, f.Message)
		requireReplays(t, p, e, f)
	})
}
