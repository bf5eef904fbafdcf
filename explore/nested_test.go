package explore

import (
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// inlineWarnings returns the warnings about operations performed inside
// nested calls without a scheduling choice.
func inlineWarnings(r *Report) []string {
	var ws []string
	for _, w := range r.Warnings {
		if strings.Contains(w, "without a scheduling choice") {
			ws = append(ws, w)
		}
	}
	return ws
}

// TestNestedOpsWarn: a Lock and an Unlock inside a String method called
// by fmt.Sprintf run without a choice; every strategy, with one or two
// workers, and a replay report each once, at its position, in position
// order. The exploration stays complete.
func TestNestedOpsWarn(t *testing.T) {
	const suffix = " inside a method called by fmt.Sprintf ran without a scheduling choice: interleavings around it were not explored"
	for _, tc := range []struct {
		name string
		opts Options
	}{
		{"dfs", Options{Strategy: DFS}},
		{"dfs-2", Options{Strategy: DFS, Workers: 2}},
		{"dpor", Options{Strategy: DPOR}},
		{"dpor-2", Options{Strategy: DPOR, Workers: 2}},
		{"dpor-shared", Options{Strategy: DPOR, Shared: true}},
		{"pb", Options{Strategy: PB}},
		{"random", Options{Strategy: Random, Seed: 3, MaxExecutions: 20}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := runFunc(t, "outcomes", "NestedLock", tc.opts)
			ws := inlineWarnings(r)
			if tc.opts.Shared {
				// and the shared read of *g.n
				require.Len(t, ws, 3, "%q", r.Warnings)
				assert.Regexp(t, `^/\S*/outcomes\.go:335:20: read `, ws[2])
			} else {
				require.Len(t, ws, 2, "%q", r.Warnings)
			}
			assert.Regexp(t, `^/\S*/outcomes\.go:333:11: sync\.\(\*Mutex\)\.Lock`+regexpQuote(suffix)+`$`, ws[0])
			assert.Regexp(t, `^/\S*/outcomes\.go:334:2: sync\.\(\*Mutex\)\.Unlock`+regexpQuote(suffix)+`$`, ws[1])
			if tc.opts.Strategy != Random {
				assert.True(t, r.Complete, "every choice point was explored")
			}
			// The gap the warning reports: Go may also print "1".
			assert.Equal(t, []string{"outcomes.go:354: 0"}, outcomes(r))

			if tc.name == "dfs" {
				require.NotEmpty(t, r.Findings)
				rr := runFunc(t, "outcomes", "NestedLock", Options{Replay: r.Findings[0].Replay})
				assert.Equal(t, ws, inlineWarnings(rr), "a replay reports them too")
			}
		})
	}

	// No warning without synchronization inside nested calls (MutexOrder
	// formats a slice with t.Errorf).
	for _, s := range []Strategy{DFS, DPOR} {
		r := runFunc(t, "outcomes", "MutexOrder", Options{Strategy: s, Workers: 2})
		assert.Empty(t, inlineWarnings(r), "%q", r.Warnings)
	}
}

func regexpQuote(s string) string { return regexp.QuoteMeta(s) }
