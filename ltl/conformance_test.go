package ltl_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/henceforth-go/henceforth/internal/vectors"
	"github.com/henceforth-go/henceforth/ltl"
)

// TestConformanceVerdicts checks the parser and the reference evaluator
// against 3000 LTLf verdicts computed by an independent implementation of
// docs/semantics.md (testdata/ltlf-verdicts.jsonl: verdicts computed
// independently of this repository).
func TestConformanceVerdicts(t *testing.T) {
	vs, err := vectors.Read[struct {
		Formula string
		Trace   [][]string
		Holds   bool
	}]("testdata/ltlf-verdicts.jsonl")
	require.NoError(t, err)
	require.Len(t, vs, 3000)
	for i, v := range vs {
		f, err := ltl.Parse(v.Formula)
		require.NoError(t, err, "line %d", i+1)
		assert.Equal(t, v.Holds, ltl.Eval(f, ltl.Sets(v.Trace), ltl.LTLf),
			"line %d: %s on %v", i+1, v.Formula, v.Trace)
		// The canonical form means the same formula.
		g, err := ltl.Parse(f.String())
		require.NoError(t, err, "line %d: reparse %s", i+1, f)
		assert.Equal(t, f, g, "line %d: %s", i+1, v.Formula)
	}
}
