package explore

import (
	"context"
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
		"TestTempInMissingDir",
		"TestReadOnlyFile",
		"TestNotFound",
		"TestStdinPipe",
		"TestStartErrors",
	} {
		t.Run(test, func(t *testing.T) {
			r := exploreTestdata(t, "execfs", test, Options{})
			require.True(t, r.Complete, "bound %q", r.Bound)
			require.Equal(t, "pass", r.Verdict(), "%v", r.Findings)
		})
	}
	for test, msg := range map[string]string{
		"wrongStatSize":     "size 5, want 4",
		"wrongWalkDir":      "walk visited 2 entries, want 3",
		"wrongNotExist":     "stat: stat /tmp/wrongNotExist1/001/missing: no such file or directory",
		"wrongEcho":         `output "hi\n", want "hello\n"`,
		"wrongHelperExit":   "fail: exit status 3",
		"wrongCommandOrder": "commands finished in the order [1 0]",
	} {
		t.Run(test, func(t *testing.T) {
			r := exploreTestdata(t, "execfs", test, Options{})
			require.True(t, r.Complete, "bound %q", r.Bound)
			require.Len(t, r.Findings, 1, "%v", r.Findings)
			assert.Equal(t, KindTestFailure, r.Findings[0].Kind)
			assert.Contains(t, r.Findings[0].Message, msg)
		})
	}
	t.Run("echo", func(t *testing.T) {
		r := exploreTestdata(t, "execfs", "TestEcho", Options{})
		require.True(t, r.Complete, "bound %q", r.Bound)
		require.Equal(t, "pass", r.Verdict(), "%v", r.Findings)
		assert.Contains(t, r.Warnings, `subprocess "/bin/echo hi" ran natively, not explored`)
	})
	t.Run("go version", func(t *testing.T) {
		r := exploreTestdata(t, "execfs", "TestGoVersion", Options{})
		require.True(t, r.Complete, "bound %q", r.Bound)
		require.Equal(t, "pass", r.Verdict(), "%v", r.Findings)
		assert.Contains(t, r.Warnings, `subprocess "go version" ran natively, not explored`)
	})
	t.Run("helper process", func(t *testing.T) {
		r := exploreTestdata(t, "execfs", "TestHelper", Options{})
		require.True(t, r.Complete, "bound %q", r.Bound)
		require.Equal(t, "pass", r.Verdict(), "%v", r.Findings)
		assert.Contains(t, r.Warnings, `subprocess "/tmp/go-build/b001/execfs.test -test.run=TestHelperProcess -- echo a b" ran natively (the test binary, built with go test -c), not explored`)
	})
	t.Run("concurrent", func(t *testing.T) {
		// each run is a scheduling point: both orders are explored, and
		// every execution sees the same output (one native run each)
		r := exploreTestdata(t, "execfs", "TestConcurrentCommands", Options{})
		require.True(t, r.Complete, "bound %q", r.Bound)
		require.Equal(t, "pass", r.Verdict(), "%v", r.Findings)
		assert.GreaterOrEqual(t, r.Executions, 2)
		assert.Contains(t, r.Warnings, `subprocess "/bin/echo 0" ran natively, not explored`)
		assert.Contains(t, r.Warnings, `subprocess "/bin/echo 1" ran natively, not explored`)
	})
}

// TestProcCache checks that a command runs once per cache: every
// execution of an exploration sees the first run's result.
func TestProcCache(t *testing.T) {
	pc := &procCache{}
	run := func() *procResult {
		return pc.run(context.Background(), "/bin/sh", []string{"sh", "-c", "echo $$"}, nil, "", nil, false, "w")
	}
	r1 := run()
	require.NoError(t, r1.startErr)
	assert.Same(t, r1, run())
	assert.Equal(t, []string{"w"}, pc.warningList())
}

// TestExecFSPermissions checks that a write that permissions deny is
// unsupported (whether Go's fails depends on the user).
func TestExecFSPermissions(t *testing.T) {
	r := exploreTestdata(t, "execfs", "readOnlyWrite", Options{})
	require.Len(t, r.Findings, 1, "%v", r.Findings)
	assert.Equal(t, KindUnsupported, r.Findings[0].Kind)
	assert.Contains(t, r.Findings[0].Message, `os.WriteFile("/tmp/readOnlyWrite1/001/ro"): changing a file its permissions (or its directory's) deny`)
	assert.Equal(t, "unknown", r.Verdict())
}
