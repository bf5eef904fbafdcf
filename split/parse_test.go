package split

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseMuxSem(t *testing.T) {
	p, err := ParseFile("testdata/muxsem.smv", 3)
	require.NoError(t, err)
	assert.Len(t, p.Processes(), 3)
	assert.Equal(t, "P[2].loc", p.Processes()[1].Locals()[0].Name())
	require.Len(t, p.Properties(), 2)
	inv := p.Properties()[0]
	assert.Equal(t, KindInvariant, inv.Kind)
	assert.Len(t, inv.Conjuncts, 3) // pairs (1,2), (1,3), (2,3)
	assert.Equal(t, "!(P[1].loc = 2 & P[2].loc = 2)", inv.Conjuncts[0].String())
	live := p.Properties()[1]
	assert.Equal(t, KindLTL, live.Kind)
	assert.Equal(t, `G("P[1].loc = 1" -> F "P[1].loc = 2")`, live.Formula.String())
}

// The text and Go API versions of a model have the same split invariant.
func TestParseMatchesGoAPI(t *testing.T) {
	for _, tc := range []struct {
		file string
		api  func(n int) *Program
	}{
		{"testdata/muxsem.smv", func(n int) *Program { return muxSem(n, false, false) }},
		{"testdata/muxsem-last.smv", func(n int) *Program { return muxSem(n, true, false) }},
	} {
		sizes := []int{2, 4}
		if testing.Short() {
			sizes = sizes[:1] // N = 4: TestThesisVerdicts compares the encodings too
		}
		for _, n := range sizes {
			t.Run(fmt.Sprintf("%s/%d", tc.file, n), func(t *testing.T) {
				text, err := ParseFile(tc.file, n)
				require.NoError(t, err)
				api := tc.api(n)
				a, err := ComputeInvariant(context.Background(), text, InvariantOptions{})
				require.NoError(t, err)
				b, err := ComputeInvariant(context.Background(), api, InvariantOptions{})
				require.NoError(t, err)
				for k := range n {
					assert.Equal(t, b.States(k, 1<<20), a.States(k, 1<<20), "θ_%d", k)
				}
			})
		}
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct {
		src, want string
	}{
		{"MODULE main\nVAR x : boolean;\n", "f.smv:1:1: malformed program: MODULE main declares no process"},
		{"MODULE m\n", "f.smv:1:1: type error: no MODULE main"},
		{"MODULE main\nVAR x : 0..N;\n", "f.smv:2:12: type error: N is not set (give the parameter N)"},
		{"MODULE main\nVAR\n  x : boolean;\n  p : process q(y);\nMODULE q(a)\n", "f.smv:4:17: type error: unknown name y"},
		{"MODULE main\nVAR\n  x : boolean;\n  p : process q(x);\nMODULE q(a)\nCOMMANDS\n  go : a -> a := 3;\n", "f.smv:7:18: type error: x := 3: value is integer, variable is boolean"},
		{"MODULE main\nVAR\n  x : boolean;\n  p : process q(x);\nMODULE q(a)\nCOMMANDS\n  go : a & -> a := 3;\n", `f.smv:7:12: syntax error: expected an expression, found "->"`},
		{"MODULE main\nVAR\n  x : boolean\n", `f.smv:4:1: syntax error: expected ";", found end of input`},
		{"MODULE main\nVAR\n  x : boolean;\n  p : process q(x);\nASSIGN\n  next(x) := FALSE;\nMODULE q(a)\n", "f.smv:6:3: malformed program: next(…) in MODULE main: shared variables change only by process commands"},
		{"MODULE main\nVAR\n  x : boolean;\n  p : array 1..2 of process q(x);\nINVARSPEC p[1].v = p[3].v\nMODULE q(a)\nVAR v : 0..1;\n", "f.smv:5:22: type error: index 3 outside 1..2"},
		{"MODULE main\nVAR\n  x : boolean;\n  p : array 1..2 of process q(x);\nMODULE q(a)\nVAR v : 0..1;\nCOMMANDS\n  go : TRUE -> p[2].v := 1;\n", "f.smv:8:16: type error: p names processes: a process reads only shared variables and its own"},
		{"MODULE main\nVAR\n  x : boolean;\n  p : process q(x);\nMODULE q(a)\nTRANS next(a) = a\n", "f.smv:6:1: unsupported: section TRANS is not part of this SMV subset"},
		{"MODULE main\nVAR\n  x : boolean;\n  p : process q(x);\nLTLSPEC G (x -> F (p.v ? x : !x))\nMODULE q(a)\nVAR v : boolean;\n", ""},
	} {
		p, err := Parse("f.smv", tc.src, 0)
		if err == nil && tc.want != "" {
			t.Logf("%s: parsed %d processes", tc.src, len(p.Processes()))
		}
		if tc.want == "" {
			assert.NoError(t, err, tc.src)
			continue
		}
		if assert.Error(t, err, tc.src) {
			assert.Equal(t, tc.want, err.Error(), tc.src)
		}
	}
}
