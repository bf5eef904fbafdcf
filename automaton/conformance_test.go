package automaton

import (
	"bufio"
	"encoding/json"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/henceforth-go/henceforth/ltl"
)

// readJSONL decodes every line of a JSON Lines file into a new T.
func readJSONL[T any](t *testing.T, path string) []T {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	var out []T
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for line := 1; sc.Scan(); line++ {
		var v T
		require.NoError(t, json.Unmarshal(sc.Bytes(), &v), "%s:%d", path, line)
		out = append(out, v)
	}
	require.NoError(t, sc.Err())
	return out
}

// TestConformanceMinimalDFASizes checks all 200 minimal complete DFA sizes
// computed independently of the project.
func TestConformanceMinimalDFASizes(t *testing.T) {
	type vector struct {
		Formula string   `json:"formula"`
		Atoms   []string `json:"atoms"`
		States  int      `json:"min_dfa_states"`
	}
	vs := readJSONL[vector](t, "testdata/ltlf-min-dfa.jsonl")
	require.Len(t, vs, 200)
	for i, v := range vs {
		f, err := ltl.Parse(v.Formula)
		require.NoError(t, err, "line %d", i+1)
		d, err := FromFormula(t.Context(), f, Options{Atoms: v.Atoms})
		require.NoError(t, err, "line %d: %s", i+1, v.Formula)
		assert.Equal(t, v.States, d.NumStates(), "line %d: %s", i+1, v.Formula)
	}
}

// TestConformanceVerdicts runs the online monitor over the 3000 verdict
// vectors (mixed formulas included), with past subformulas computed by the
// past-time monitor and with the past translated exactly, and compares the
// final verdicts.
func TestConformanceVerdicts(t *testing.T) {
	type vector struct {
		Formula string     `json:"formula"`
		Trace   [][]string `json:"trace"`
		Holds   bool       `json:"holds"`
	}
	vs := readJSONL[vector](t, "testdata/ltlf-verdicts.jsonl")
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
}
