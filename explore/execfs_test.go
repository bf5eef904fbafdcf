package explore

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestExecFS explores tests that use file metadata, directories,
// os.OpenFile, renames, walks and file errors of the in-memory file
// system, and tests that run subprocesses natively.
func TestExecFS(t *testing.T) {
	for _, test := range []string{
		"TestStatReadDir",
		"TestOpenFileFlags",
		"TestRenameChmod",
		"TestWalkDir",
		"TestDirHandle",
		"TestNotExist",
	} {
		t.Run(test, func(t *testing.T) {
			r := exploreTestdata(t, "execfs", test, Options{})
			require.True(t, r.Complete, "bound %q", r.Bound)
			require.Equal(t, "pass", r.Verdict(), "%v", r.Findings)
		})
	}
	for test, msg := range map[string]string{
		"wrongStatSize": "size 5, want 4",
		"wrongWalkDir":  "walk visited 2 entries, want 3",
		"wrongNotExist": "stat: stat /tmp/wrongNotExist1/001/missing: no such file or directory",
	} {
		t.Run(test, func(t *testing.T) {
			r := exploreTestdata(t, "execfs", test, Options{})
			require.True(t, r.Complete, "bound %q", r.Bound)
			require.Len(t, r.Findings, 1, "%v", r.Findings)
			assert.Equal(t, KindTestFailure, r.Findings[0].Kind)
			assert.Contains(t, r.Findings[0].Message, msg)
		})
	}
}
