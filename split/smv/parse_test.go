package smv

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/henceforth-go/henceforth/split"
)

func TestParseMuxSem(t *testing.T) {
	p, err := ParseFile("testdata/muxsem.smv", 3)
	require.NoError(t, err)
	assert.Len(t, p.Processes(), 3)
	assert.Equal(t, "P[2].loc", p.Processes()[1].Locals()[0].Name())
	require.Len(t, p.Properties(), 2)
	inv := p.Properties()[0]
	assert.Equal(t, split.KindInvariant, inv.Kind)
	assert.Len(t, inv.Conjuncts, 3) // pairs (1,2), (1,3), (2,3)
	assert.Equal(t, "!(P[1].loc = 2 & P[2].loc = 2)", inv.Conjuncts[0].String())
	live := p.Properties()[1]
	assert.Equal(t, split.KindLTL, live.Kind)
	assert.Equal(t, `G("P[1].loc = 1" -> F "P[1].loc = 2")`, live.Formula.String())
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

// ParseProperty resolves the names of a parsed program's main module: N,
// DEFINEs (of main and of processes), process parameters, arrays with
// variable indices, arrays of processes, enumeration values; and the same names for a program built with the Go API.
func TestParsePropertyNames(t *testing.T) {
	src := `MODULE main
VAR
  a : array 1..2 of 0..3;
  i : 1..2;
  c : {red, green};
  P : array 1..N of process m(a, a[1]);
DEFINE
  zero := a[1] = 0;
MODULE m(a, first)
VAR
  v : boolean;
  q : array 0..1 of boolean;
DEFINE
  low := !v;
COMMANDS
  go : !v -> v := TRUE;
`
	p, err := Parse("f.smv", src, 2)
	require.NoError(t, err)
	for text, want := range map[string]string{
		"forall j in 1..N : P[j].v":   "P[1].v & P[2].v",
		"a[i] = 0":                    "(i = 1 ? a[1] : a[2]) = 0",
		"zero & c = green":            "a[1] = 0 & c = green",
		"P[1].low & P[2].first = 0":   "!P[1].v & a[1] = 0",
		"forall j in 1..N : P[j].low": "!P[1].v & !P[2].v",
		"P[2].q[i - 1]":               "(i - 1 = 0 ? P[2].q[0] : P[2].q[1])",
	} {
		prop, err := ParseProperty(p, text)
		require.NoError(t, err, text)
		assert.Equal(t, want, split.And(prop.Conjuncts...).String(), text)
	}
	single, err := Parse("g.smv", "MODULE main\nVAR\n  x : boolean;\n  p : process m(x);\nMODULE m(y)\nDEFINE\n  set := y;\nCOMMANDS\n  go : !y -> y := TRUE;\n", 0)
	require.NoError(t, err)
	prop, err := ParseProperty(single, "p.set")
	require.NoError(t, err)
	assert.Equal(t, "x", split.And(prop.Conjuncts...).String())
	live, err := ParseProperty(p, "LTLSPEC G (P[1].v -> F !c = red)")
	require.NoError(t, err)
	assert.Equal(t, split.KindLTL, live.Kind)
	_, err = ParseProperty(p, "P[i].v")
	assert.ErrorContains(t, err, "arrays of processes or of arrays need constant indices")

	g := split.NewProgram("api")
	g.Bool("flag[1]")
	g.Bool("flag[2]")
	g.Int("k", 1, 2)
	g.Process("P[1]").Int("loc", 0, 2)
	g.Define("N", split.Int(1))
	prop, err = ParseProperty(g, "flag[k] & (forall j in 1..N : P[j].loc = 0)")
	require.NoError(t, err)
	assert.Equal(t, "(k = 1 ? flag[1] : flag[2]) & P[1].loc = 0", split.And(prop.Conjuncts...).String())
}
