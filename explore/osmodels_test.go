package explore

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestOSModels explores tests that use temporary files and directories
// (an in-memory file system per execution), crypto/rand (a stream seeded
// by the execution's seed) and os.Executable.
func TestOSModels(t *testing.T) {
	p := loadPatterns(t, "./testdata/osmodels")
	explore := func(t *testing.T, test string) *Report {
		t.Helper()
		e, err := p.Func(testdataPath + "/osmodels." + test)
		require.NoError(t, err)
		r, err := p.Explore(context.Background(), e, Options{})
		require.NoError(t, err)
		require.True(t, r.Complete, "bound %q", r.Bound)
		for _, f := range r.Findings {
			requireReplays(t, p, e, f)
		}
		return r
	}
	for _, test := range []string{
		"TestTempFileRoundTrip",
		"TestTempDirConcurrentWriters",
		"TestIoutilTemp",
		"TestNonce",
		"TestExecutable",
	} {
		t.Run(test, func(t *testing.T) {
			r := explore(t, test)
			require.Equal(t, "pass", r.Verdict(), "%v", r.Findings)
		})
	}
	t.Run("lost write", func(t *testing.T) {
		r := explore(t, "TestTempDirLostWrite")
		require.Equal(t, "fail", r.Verdict(), "%v", r.Findings)
		require.Len(t, r.Findings, 1)
		f := r.Findings[0]
		assert.Equal(t, KindTestFailure, f.Kind)
		assert.Contains(t, f.Message, `contents "1", want "0"`)
	})
	t.Run("nonce length", func(t *testing.T) {
		r := explore(t, "TestNonceLength")
		require.Len(t, r.Findings, 1, "%v", r.Findings)
		assert.Equal(t, KindTestFailure, r.Findings[0].Kind)
		assert.Contains(t, r.Findings[0].Message, "nonce has 12 bytes, want 16")
	})
	t.Run("read before write", func(t *testing.T) {
		// the file system operations are scheduling points: both
		// orders of the write and the read are explored, by DFS and
		// by DPOR
		e, err := p.Func(testdataPath + "/osmodels.TestReadBeforeWrite")
		require.NoError(t, err)
		for _, s := range []Strategy{DPOR, DFS} {
			r, err := p.Explore(context.Background(), e, Options{Strategy: s})
			require.NoError(t, err)
			require.True(t, r.Complete)
			require.Len(t, r.Findings, 1, "%s: %v", s, r.Findings)
			assert.Equal(t, KindTestFailure, r.Findings[0].Kind)
			assert.Contains(t, r.Findings[0].Message, "reader: open /tmp/TestReadBeforeWrite1/001/ready: no such file or directory")
			assert.Contains(t, reportText(r), "os.ReadFile")
			requireReplays(t, p, e, r.Findings[0])
		}
	})
	t.Run("deterministic names", func(t *testing.T) {
		r := explore(t, "TestTempNames")
		require.Len(t, r.Findings, 1, "%v", r.Findings)
		assert.Contains(t, r.Findings[0].Message, "names /tmp /tmp/TestTempNames1/001 /tmp/TestTempNames1/001/2.log")
	})
}
