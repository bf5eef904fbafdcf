package explore

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestFailureVariants: a failing call is one finding whatever its message
// says, with the executions that showed it and their messages.
func TestFailureVariants(t *testing.T) {
	p := loadPatterns(t, "./testdata/failvariants")
	e, err := p.Func(testdataPath + "/failvariants.TestOrder")
	require.NoError(t, err)
	for _, s := range []Strategy{DPOR, DFS} {
		t.Run(string(s), func(t *testing.T) {
			r, err := p.Explore(context.Background(), e, Options{Strategy: s})
			require.NoError(t, err)
			require.True(t, r.Complete)
			require.Len(t, r.Findings, 2, "one finding per failing call: %v", outcomes(r))
			first, last := r.Findings[0], r.Findings[1]
			if first.Pos.Line > last.Pos.Line {
				first, last = last, first
			}
			assert.Equal(t, KindTestFailure, first.Kind)
			assert.Equal(t, 31, first.Pos.Line)
			assert.Equal(t, []string{
				"failvariants_test.go:31: first is 1, order [1 0 2]",
				"failvariants_test.go:31: first is 1, order [1 2 0]",
				"failvariants_test.go:31: first is 2, order [2 0 1]",
				"failvariants_test.go:31: first is 2, order [2 1 0]",
			}, first.Variants)
			assert.Contains(t, first.Variants, first.Message)
			assert.Contains(t, first.String(), fmt.Sprintf("the same failure in %d executions, with 4 messages: failvariants_test.go:31: first is 1, order [1 0 2]; ", first.Seen))
			assert.Greater(t, first.Seen, 4, "every execution of each order")

			assert.Equal(t, 33, last.Pos.Line)
			assert.Equal(t, "failvariants_test.go:33: 2 before 1", last.Message)
			assert.Nil(t, last.Variants)
			assert.Positive(t, last.Seen)
			assert.NotContains(t, last.String(), "the same failure")
			assert.LessOrEqual(t, first.Seen+last.Seen, r.Executions)
			if s == DPOR {
				// deterministic with one worker
				assert.Equal(t, 20, first.Seen)
				assert.Equal(t, 7, last.Seen)
			}
		})
	}
}
