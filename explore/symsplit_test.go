package explore

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const symSplitPath = testdataPath + "/symsplit"

func loadSymSplit(t testing.TB) *Program {
	t.Helper()
	return loadPatterns(t, "./testdata/symsplit")
}

// TestSymbolicSplit: at every place where the interpreter needs a
// concrete value from a symbolic one, the exploration either covers
// every input (the bug, which needs a value other than the solver's
// first pick, is found on its side of the split) or says it fixed a
// value (verdict unknown, Bound "concretized", a warning naming it);
// never a pass. (Each of these passed before: the value was fixed to one
// model and the report said "pass … complete".)
func TestSymbolicSplit(t *testing.T) {
	cases := []struct {
		entry   string
		message string // the panic (verdict fail); "" for unknown
		fixed   string // unknown: what the warning names
		paths   int    // executions (0: not checked)
	}{
		// map keys: forks over the keys present and "none"
		{entry: "MapLookup", message: "found three", paths: 4},
		{entry: "MapCommaOk", message: "absent", paths: 4},
		{entry: "MapUpdate", message: "seven", paths: 2},
		{entry: "MapDistinct", message: "same key", paths: 2},
		{entry: "MapDelete", message: "deleted 2", paths: 3},
		{entry: "MapRange", message: "k is 9"},
		// indexes: the panic forks, the in-range index is split
		{entry: "Index", message: "seven"},
		{entry: "IndexWrite", message: "one"},
		{entry: "IndexWide", fixed: "i concretized to"},
		// slice bounds: the panic forks, the bounds are split
		{entry: "SliceOut", message: "slice bounds out of range"},
		{entry: "SliceIn", message: "three"},
		{entry: "StringSlice", message: "lo"},
		// sizes
		{entry: "MakeSize", message: "five"},
		{entry: "MakeNegative", message: "makeslice: len out of range"},
		{entry: "MakeBig", fixed: "n concretized to"},
		{entry: "ChanSize", message: "two"},
		// interfaces, conversions, library functions
		{entry: "Iface", message: "three"},
		{entry: "IfaceWide", fixed: "n concretized to"},
		{entry: "Sprint", message: "seven"},
		{entry: "Itoa", message: "seven"},
		{entry: "ToFloat", message: "1.5"},
		{entry: "ToString", message: "b"},
		// builtins: min and max build terms, println fixes nothing
		{entry: "MinMax", message: "a 2, b 5"},
		{entry: "Println", message: "three", paths: 2},
		// structs with symbolic fields, memory read natively
		{entry: "StructEq", message: "3,2", paths: 2},
		{entry: "StructKey", message: "3,2"},
		{entry: "StructSprint", message: "3,2"},
		{entry: "PointerSprint", message: "&{2 3}"},
		{entry: "Bytes", message: "ax"},
		// a panic's index recovered: fixed, not covered
		{entry: "Recovered", fixed: "the panic was recovered"},
	}
	p := loadSymSplit(t)
	for _, tc := range cases {
		t.Run(tc.entry, func(t *testing.T) {
			t.Parallel() // each exploration has its own machine and solver
			e, err := p.Func(symSplitPath + "." + tc.entry)
			require.NoError(t, err)
			r, err := p.Explore(context.Background(), e, Options{})
			require.NoError(t, err)
			t.Logf("%d executions, verdict %s, bound %q, warnings %q", r.Executions, r.Verdict(), r.Bound, r.Warnings)
			require.NotEqual(t, "pass", r.Verdict(), "a value was fixed and the report says pass")
			if tc.message == "" {
				assert.Equal(t, "unknown", r.Verdict())
				assert.Equal(t, "concretized", r.Bound)
				assert.False(t, r.Complete)
				assert.Contains(t, strings.Join(r.Warnings, "\n"), tc.fixed)
				require.NotEmpty(t, r.Concretized)
				assert.Contains(t, r.Concretized[0], tc.fixed)
				assert.Contains(t, r.Concretized[0], "symsplit.go:")
				return
			}
			f := findKind(r, KindPanic)
			require.NotNil(t, f, "no panic: %v", r.Findings)
			assert.Contains(t, f.Message, tc.message)
			assert.True(t, r.Complete, "bound %q", r.Bound)
			assert.Empty(t, r.Concretized)
			if tc.paths > 0 {
				assert.Equal(t, tc.paths, r.Executions)
			}
			// the replay token reproduces the finding and its inputs
			// (each exploration starts a solver: -short replays the
			// map, index, size and struct cases only)
			switch tc.entry {
			case "MapUpdate", "MapRange", "IndexWrite", "SliceIn", "MakeSize", "StructEq", "PointerSprint":
			default:
				if testing.Short() {
					return
				}
			}
			rr, err := p.Explore(context.Background(), e, Options{Replay: f.Replay})
			require.NoError(t, err)
			g := findKind(rr, KindPanic)
			require.NotNil(t, g, "the replay does not reproduce it")
			assert.Equal(t, f.Message, g.Message)
			assert.Equal(t, f.Inputs, g.Inputs)
		})
	}
}

// TestSymbolicSplitStrategies: the split is a choice like a branch: DFS,
// random and two DPOR workers find a bug behind one, and MaxSplit bounds
// it (below the number of values: unknown).
func TestSymbolicSplitStrategies(t *testing.T) {
	p := loadSymSplit(t)
	e, err := p.Func(symSplitPath + ".MakeSize")
	require.NoError(t, err)
	for _, opts := range []Options{{Strategy: DFS}, {Strategy: DPOR, Workers: 2}, {Strategy: Random, Seed: 3, MaxExecutions: 200}} {
		r, err := p.Explore(context.Background(), e, opts)
		require.NoError(t, err)
		f := findKind(r, KindPanic)
		require.NotNil(t, f, "%s: not found", opts.Strategy)
		assert.Contains(t, f.Message, "five")
		assert.Contains(t, f.String(), "n split into its 9 possible values (makeslice size): 5 here")
	}
	r, err := p.Explore(context.Background(), e, Options{MaxSplit: 4})
	require.NoError(t, err)
	assert.Equal(t, "concretized", r.Bound)
	assert.NotEqual(t, "pass", r.Verdict())
	assert.Contains(t, strings.Join(r.Warnings, "\n"), "more than 4 values (Options.MaxSplit)")
}
