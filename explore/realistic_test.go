package explore

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestRealisticKernels: code shaped like real projects' runs unmodified
// and passes exhaustive exploration (no unsupported construct, no false
// finding).
func TestRealisticKernels(t *testing.T) {
	for _, name := range []string{"WorkerPool", "Ticker", "ContextTree", "Pipeline", "CacheFill", "Semaphore", "OnceValues", "Logging", "SyncAPIs", "Regexps", "Files"} {
		t.Run(name, func(t *testing.T) {
			r := runFunc(t, "realistic", name, Options{Strategy: DPOR, MaxExecutions: 20000})
			for _, f := range r.Findings {
				t.Errorf("%s", f)
			}
			t.Logf("%s: %d executions", name, r.Executions)
			if name == "Logging" {
				require.Equal(t, 1, r.Executions)
			}
			require.Equal(t, "pass", r.Verdict(), "bound %q", r.Bound)
		})
	}
}

// TestInitSnapshotIsolation: package state initialized once and restored
// for every execution; changes by one execution never leak into the next.
func TestInitSnapshotIsolation(t *testing.T) {
	r := runFunc(t, "realistic", "GlobalState", Options{Strategy: DFS})
	require.Greater(t, r.Executions, 2)
	for _, f := range r.Findings {
		t.Errorf("%s", f)
	}
	require.Equal(t, "pass", r.Verdict())
}

func TestInitSnapshotIsTaken(t *testing.T) {
	p := load(t)
	e, err := p.Func(testdataPath + "/realistic.GlobalState")
	require.NoError(t, err)
	o := Options{Strategy: DFS}
	m := newMachine(p, &o)
	x := newExecution(m, e, &o, &dfsChooser{bound: -1}, 1, 0)
	x.run()
	require.Empty(t, x.findings)
	require.NotNil(t, m.snaps[e.Fn.Pkg], "initialization of realistic should be snapshotted")
	x.release()
	x = newExecution(m, e, &o, &dfsChooser{bound: -1}, 2, 0)
	x.run()
	require.Empty(t, x.findings)
}

func TestUniqueMake(t *testing.T) {
	r := runFunc(t, "uniq", "Interning", Options{})
	for _, f := range r.Findings {
		t.Errorf("%s", f)
	}
	require.Equal(t, "pass", r.Verdict())
}

// TestTestifyAssertions: tests written with testify run under the
// explorer; a failing assertion is a test failure with testify's message
// at the assertion's line.
func TestTestifyAssertions(t *testing.T) {
	r := runFunc(t, "testify", "Passing", Options{})
	for _, f := range r.Findings {
		t.Errorf("%s", f)
	}
	require.Equal(t, "pass", r.Verdict())

	r = runFunc(t, "testify", "Failing", Options{})
	f := findKind(r, KindTestFailure)
	require.NotNil(t, f, "%v", r.Findings)
	require.Contains(t, f.Message, "Not equal:")
	require.Contains(t, f.Message, "the goroutine ran first")
	require.Equal(t, 54, f.Pos.Line)
	require.True(t, strings.HasSuffix(f.Pos.Filename, "testify.go"))
}
