package automaton

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/henceforth-go/henceforth/internal/vectors"
	"github.com/henceforth-go/henceforth/ltl"
	"github.com/henceforth-go/henceforth/monitor"
)

// TestConformanceMinimalDFASizes checks all 200 minimal complete DFA sizes
// computed independently of the project.
func TestConformanceMinimalDFASizes(t *testing.T) {
	type vector struct {
		Formula string   `json:"formula"`
		Atoms   []string `json:"atoms"`
		States  int      `json:"min_dfa_states"`
	}
	vs, err := vectors.Read[vector]("testdata/ltlf-min-dfa.jsonl")
	require.NoError(t, err)
	require.Len(t, vs, 200)
	for i, v := range vs {
		f, err := ltl.Parse(v.Formula)
		require.NoError(t, err, "line %d", i+1)
		d, err := FromFormula(t.Context(), f, Options{Atoms: v.Atoms})
		require.NoError(t, err, "line %d: %s", i+1, v.Formula)
		assert.Equal(t, v.States, d.NumStates(), "line %d: %s", i+1, v.Formula)
	}
}

// TestConformanceVerdicts checks the 3000 LTLf verdicts computed by an
// independent implementation of docs/semantics.md (mixed formulas
// included): the online monitor, with past subformulas computed by the
// past-time monitor and with the past translated exactly, and Check with
// every engine.
func TestConformanceVerdicts(t *testing.T) {
	type vector struct {
		Formula string     `json:"formula"`
		Trace   [][]string `json:"trace"`
		Holds   bool       `json:"holds"`
	}
	vs, err := vectors.Read[vector]("../ltl/testdata/ltlf-verdicts.jsonl")
	require.NoError(t, err)
	require.Len(t, vs, 3000)
	for _, exact := range []bool{false, true} {
		for i, v := range vs {
			f, err := ltl.Parse(v.Formula)
			require.NoError(t, err, "line %d", i+1)
			d, err := FromFormula(t.Context(), f, Options{ExactPast: exact})
			require.NoError(t, err, "line %d: %s", i+1, v.Formula)
			m := d.Monitor()
			for _, ev := range v.Trace {
				m.StepAtoms(ev...)
			}
			assert.Equal(t, v.Holds, m.Verdict().Holds(), "line %d (exact past %v): %s on %v", i+1, exact, v.Formula, v.Trace)
		}
	}
	for _, engine := range []monitor.Engine{monitor.EngineDP, monitor.EngineNaive, monitor.EngineAutomaton} {
		for i, v := range vs {
			f, err := ltl.Parse(v.Formula)
			require.NoError(t, err, "line %d", i+1)
			tr := monitor.NewTrace()
			for _, ev := range v.Trace {
				tr.Append(ev...)
			}
			res, err := Check(t.Context(), f, tr, monitor.Options{Engine: engine})
			require.NoError(t, err, "line %d (%s): %s", i+1, engine, v.Formula)
			assert.Equal(t, v.Holds, res.Holds, "line %d (%s): %s on %v", i+1, engine, v.Formula, v.Trace)
		}
	}
}
