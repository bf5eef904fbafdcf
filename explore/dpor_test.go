package explore

import (
	"sort"
	"testing"

	"github.com/stretchr/testify/require"
)

// outcomes returns the distinct messages of test-failure findings.
func outcomes(r *Report) []string {
	var out []string
	for _, f := range r.Findings {
		out = append(out, f.Message)
	}
	sort.Strings(out)
	return out
}

// TestDPORReachesEveryOutcome checks partial-order reduction against
// plain DFS: every outcome DFS observes, DPOR observes too, with no more
// executions, and exactly one execution per happens-before class.
func TestDPORReachesEveryOutcome(t *testing.T) {
	for _, name := range []string{"MutexOrder", "FanIn", "Buffered", "RWMutex", "CAS", "SelectMany", "Partners", "Once", "Broadcast", "CloseRace"} {
		t.Run(name, func(t *testing.T) {
			if testing.Short() && name == "RWMutex" {
				t.Skip("plain DFS explores 5864 schedules")
			}
			dfs := runFunc(t, "outcomes", name, Options{Strategy: DFS, CountClasses: true})
			dpor := runFunc(t, "outcomes", name, Options{Strategy: DPOR, CountClasses: true})
			t.Logf("DFS: %d executions, %d classes; DPOR: %d executions, %d classes, %d pruned; outcomes %v",
				dfs.Executions, dfs.Classes, dpor.Executions, dpor.Classes, dpor.Pruned, outcomes(dfs))
			require.True(t, dfs.Complete)
			require.True(t, dpor.Complete)
			require.Equal(t, outcomes(dfs), outcomes(dpor))
			require.LessOrEqual(t, dpor.Executions, dfs.Executions)
			require.Equal(t, dfs.Classes, dpor.Classes, "DPOR must cover every happens-before class")
			require.Equal(t, dpor.Classes, dpor.Executions, "one execution per class")
		})
	}
}

// TestParallelDFSExploresTheSameTree: with two workers DFS explores the
// same executions and finds the same outcomes as with one.
func TestParallelDFSExploresTheSameTree(t *testing.T) {
	for _, name := range []string{"MutexOrder", "Partners", "CAS"} {
		t.Run(name, func(t *testing.T) {
			one := runFunc(t, "outcomes", name, Options{Strategy: DFS})
			two := runFunc(t, "outcomes", name, Options{Strategy: DFS, Workers: 2})
			require.True(t, two.Complete)
			require.Equal(t, one.Executions, two.Executions)
			require.Equal(t, outcomes(one), outcomes(two))
		})
	}
	// Bounds still hold.
	r := runFunc(t, "outcomes", "MutexOrder", Options{Strategy: DFS, Workers: 2, MaxExecutions: 10})
	require.Equal(t, 10, r.Executions)
	require.Equal(t, "executions", r.Bound)
}
