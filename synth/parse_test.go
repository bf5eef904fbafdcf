package synth

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseSlugsinForms(t *testing.T) {
	spec := mustParse(t, "m.slugsin", `# comment
[INPUT]
a
n@0.0.2
n@1

[OUTPUT]
c   # trailing comment

[SYS_TRANS]
$ 3 & a n@1 | ? 0 c' ^ ? 1 ? 0
[SYS_LIVENESS]
1
`)
	assert.Equal(t, []Var{
		{Name: "a", Bool: true, Hi: 1, Pos: Pos{File: "m.slugsin", Line: 3, Col: 1}},
		{Name: "n@0.0.2", Bool: true, Hi: 1, Pos: Pos{File: "m.slugsin", Line: 4, Col: 1}},
		{Name: "n@1", Bool: true, Hi: 1, Pos: Pos{File: "m.slugsin", Line: 5, Col: 1}},
	}, spec.Inputs)
	require.Len(t, spec.Clauses, 2)
	c := spec.Clauses[0]
	assert.Equal(t, SysTrans, c.Section)
	assert.Equal(t, Pos{File: "m.slugsin", Line: 11, Col: 1}, c.Pos)
	// The buffer's value is its last formula, (f1 ^ f0) with f0 = a & n@1
	// and f1 = f0 | c'.
	assert.Equal(t, "a && n@1 || c' ^ a && n@1", c.Expr.String(), "^ binds loosest of the three")
	assert.Equal(t, "TRUE", spec.Clauses[1].Expr.String())
}

func TestParseStructuredForms(t *testing.T) {
	spec := mustParse(t, "m.structuredslugs", `[INPUT]
a
level: 3...10
[OUTPUT]
G
[SYS_TRANS]
a & G -> level' = level + 1
X(a -> !G) <-> G
| ! a G'
[SYS_LIVENESS]
level >= 4 \/ ~a
`)
	assert.Equal(t, Var{Name: "level", Lo: 3, Hi: 10, Pos: Pos{File: "m.structuredslugs", Line: 3, Col: 1}}, spec.Inputs[1])
	var texts []string
	for _, c := range spec.Clauses {
		texts = append(texts, c.Expr.String())
	}
	assert.Equal(t, []string{
		"a && G -> level' = level + 1",
		"X(a -> !G) <-> G",
		"!a || G'",
		"level >= 4 || !a",
	}, texts, "G names the declared variable; prefix lines are accepted")
}

func TestParseTLSFForms(t *testing.T) {
	spec := mustParse(t, "m.tlsf", `INFO {
  TITLE: "tiny"
  SEMANTICS: Mealy
  TARGET: Mealy
}
MAIN {
  INPUTS { r; }
  OUTPUTS { g; }
  INITIALLY { !r; }
  PRESET { !g; }
  REQUIRE { r && !g -> X r; }
  ASSERT { g -> r; }
  /* multi
     line comment */
  ASSUME { G (r && !g -> X r) && G F !r; }
  GUARANTEE { G F g; // a comment
  }
}`)
	assert.Equal(t, "tiny", spec.Name)
	assert.Equal(t, Implication, spec.Semantics)
	var got []string
	for _, c := range spec.Clauses {
		got = append(got, c.Section.String()+" "+c.Expr.String())
	}
	assert.Equal(t, []string{
		"ENV_INIT !r",
		"SYS_INIT !g",
		"ENV_TRANS r && !g -> r'",
		"SYS_TRANS g -> r",
		"ENV_TRANS r && !g -> r'",
		"ENV_LIVENESS !r",
		"SYS_LIVENESS g",
	}, got)
}

func TestParseErrors(t *testing.T) {
	cases := []struct {
		name, text string
		kind       error
		msg        string
	}{
		{"a.slugsin", "[INPUT]\na\n[FOO]\n", ErrUnsupported, "a.slugsin:3:1: unsupported: unknown section [FOO]"},
		{"a.slugsin", "a\n", ErrSyntax, "a.slugsin:1:1: syntax error: text before the first [SECTION]"},
		{"a.slugsin", "[INPUT]\na\n[SYS_TRANS]\n& a\n", ErrSyntax, "a.slugsin:4:4: syntax error: formula ends early"},
		{"a.slugsin", "[INPUT]\na\n[SYS_TRANS]\n  & a a a\n", ErrSyntax, `a.slugsin:4:9: syntax error: unexpected "a" after a complete formula`},
		{"a.slugsin", "[INPUT]\na\n[SYS_TRANS]\n? 0\n", ErrSyntax, "a.slugsin:4:1: syntax error: ? 0 outside a memory buffer"},
		{"a.slugsin", "[INPUT]\na\n[SYS_TRANS]\n$ 2 a ? 1\n", ErrSyntax, "a.slugsin:4:7: syntax error: ? 1 refers to a formula not yet complete"},
		{"a.slugsin", "[INPUT]\na\n[SYS_TRANS]\n& a b\n", ErrType, "a.slugsin:4:5: type error: unknown variable b"},
		{"a.slugsin", "[INPUT]\na\n[OUTPUT]\nc\n[ENV_TRANS]\nc'\n", ErrNotGR1, "a.slugsin:6:1: not GR(1): ENV_TRANS cannot refer to the next value of output c"},
		{"a.slugsin", "[INPUT]\na\n[OUTPUT]\nc\n[ENV_INIT]\nc\n", ErrNotGR1, "a.slugsin:6:1: not GR(1): ENV_INIT may only mention inputs; c is an output"},
		{"a.slugsin", "[INPUT]\na\n[SYS_INIT]\n! a'\n", ErrNotGR1, "a.slugsin:4:3: not GR(1): SYS_INIT: an initial condition cannot refer to next values"},
		{"a.slugsin", "[INPUT]\na\na\n", ErrType, "a.slugsin:3:1: type error: variable a declared twice"},
		{"a.structuredslugs", "[INPUT]\nn: 5...2\n", ErrType, "a.structuredslugs:2:3: type error: variable n has the empty range 5...2"},
		{"a.structuredslugs", "[INPUT]\nn: 1..2\n", ErrSyntax, "a.structuredslugs:2:3: syntax error: variable n: expected a range lo...hi"},
		{"a.structuredslugs", "[INPUT]\na\n[SYS_TRANS]\na & (a | a\n", ErrSyntax, `a.structuredslugs:4:11: syntax error: expected ) to close the ( at 4:5, found the end of the expression`},
		{"a.structuredslugs", "[INPUT]\na\n[SYS_TRANS]\nG(a -> F a)\n", ErrNotGR1, "a.structuredslugs:4:1: not GR(1): SYS_TRANS: temporal operator G inside a clause is outside GR(1)"},
		{"a.structuredslugs", "[INPUT]\nn: 0...3\n[SYS_TRANS]\nn & n = 2\n", ErrType, "a.structuredslugs:4:1: type error: n is an integer where a condition is expected"},
		{"a.structuredslugs", "[INPUT]\nn: 0...3\n[SYS_TRANS]\nn = 1 = 2\n", ErrSyntax, "a.structuredslugs:4:7: syntax error: comparisons cannot be chained"},
		{"a.structuredslugs", "[INPUT]\na\n[SYS_TRANS]\na''\n", ErrNotGR1, "a.structuredslugs:4:3: not GR(1): nested next"},
		{"a.structuredslugs", "[INPUT]\na\n[SYS_TRANS]\nX(X a)\n", ErrNotGR1, "a.structuredslugs:4:3: not GR(1): SYS_TRANS: nested next is outside GR(1)"},
		{"a.structuredslugs", "[INPUT]\na\n[SYS_TRANS]\na $ a\n", ErrSyntax, `a.structuredslugs:4:3: syntax error: unexpected character '$'`},
		{"a.tlsf", "MAIN {}", ErrSyntax, `a.tlsf:1:1: syntax error: a TLSF file starts with INFO, found "MAIN"`},
		{"a.tlsf", "INFO { SEMANTICS: Moore TARGET: Mealy } MAIN {}", ErrUnsupported, "a.tlsf:1:19: unsupported: Moore semantics is not supported"},
		{"a.tlsf", "INFO { SEMANTICS: Mealy TARGET: Moore } MAIN {}", ErrUnsupported, "a.tlsf:1:33: unsupported: TARGET Moore is not supported"},
		{"a.tlsf", "INFO { SEMANTICS: Mealy }\nGLOBAL { }", ErrUnsupported, "a.tlsf:2:1: unsupported: parametric TLSF (GLOBAL section) is not supported"},
		{"a.tlsf", "INFO { TARGET: Mealy }\nMAIN { }", ErrSyntax, "a.tlsf:1:22: syntax error: INFO lacks SEMANTICS"},
		{"a.tlsf", "INFO { SEMANTICS: Mealy }\nMAIN {\n INPUTS { r; }\n OUTPUTS { g; }\n GUARANTEE {\n  G(r -> F g);\n }\n}", ErrNotGR1, "a.tlsf:6:10: not GR(1): a safety condition G ψ needs ψ with at most one next, found F"},
		{"a.tlsf", "INFO { SEMANTICS: Mealy }\nMAIN {\n INPUTS { r; }\n GUARANTEE {\n  F G r;\n }\n}", ErrNotGR1, "a.tlsf:5:3: not GR(1): an initial condition (a conjunct outside G) cannot contain F"},
		{"a.tlsf", "INFO { SEMANTICS: Mealy }\nMAIN {\n INPUTS { r[3]; }\n}", ErrUnsupported, "a.tlsf:3:11: unsupported: bus signals (r[3]) are not supported"},
		{"a.tlsf", "INFO { SEMANTICS: Mealy }\nMAIN {\n INPUTS { r; }\n ASSERT { r\n}", ErrSyntax, "a.tlsf:4:11: syntax error: formula does not end with ;"},
		{"a.tlsf", "INFO { SEMANTICS: Mealy } /* open", ErrSyntax, "a.tlsf:1:27: syntax error: comment /* is not closed"},
		{"a.txt", "", ErrUnsupported, "a.txt: unsupported: unknown specification format"},
	}
	for _, c := range cases {
		t.Run(c.msg, func(t *testing.T) {
			_, err := Parse(c.name, FormatOf(c.name), strings.NewReader(c.text))
			require.Error(t, err)
			assert.ErrorIs(t, err, c.kind)
			assert.Contains(t, err.Error(), c.msg)
			var se *Error
			require.ErrorAs(t, err, &se)
		})
	}
}

func TestLTLSpec(t *testing.T) {
	spec := &Spec{Name: "ltl", Inputs: []Var{Bool("req"), Int("n", 0, 3)}, Outputs: Bools("grant")}
	require.NoError(t, spec.Assume(`!req && "n = 0"`))
	require.NoError(t, spec.Assume(`G(req && !grant -> X req) && G F !req`))
	require.NoError(t, spec.Assume(`G("n' = n" || "n' = n + 1")`))
	require.NoError(t, spec.Guarantee(`G F(grant || !req)`))
	require.NoError(t, spec.Guarantee(`G(grant -> req)`))
	var got []string
	for _, c := range spec.Clauses {
		got = append(got, c.Pos.File+" "+c.Section.String()+" "+c.Expr.String())
	}
	assert.Equal(t, []string{
		"assumption 1 ENV_INIT !req",
		"assumption 1 ENV_INIT n = 0",
		"assumption 2 ENV_TRANS req && !grant -> req'",
		"assumption 2 ENV_LIVENESS !req",
		"assumption 3 ENV_TRANS n' = n || n' = n + 1",
		"guarantee 1 SYS_LIVENESS grant || !req",
		"guarantee 2 SYS_TRANS grant -> req",
	}, got)
	res, err := spec.Realizable(context.Background())
	require.NoError(t, err)
	assert.True(t, res.Realizable)

	errs := []struct {
		f    string
		kind error
		msg  string
	}{
		{"G(req -> F grant)", ErrNotGR1, "guarantee 3:1:1: not GR(1): a safety condition G ψ needs ψ with at most one next, found F"},
		{"req U grant", ErrNotGR1, "guarantee 3:1:1: not GR(1): an initial condition (a conjunct outside G) cannot contain U"},
		{"G(req -> X X grant)", ErrNotGR1, "found X"},
		{"G(req &&)", ErrSyntax, "guarantee 3:1:9: syntax error: expected"},
		{"G(nope)", ErrType, "unknown variable nope"},
		{`G("n >" -> grant)`, ErrSyntax, "guarantee 3:1:7: syntax error: expected an operand"},
		{"G(O req)", ErrNotGR1, "found O"},
		{"G F G grant", ErrNotGR1, "persistence"},
	}
	for _, e := range errs {
		err := spec.Guarantee(e.f)
		require.Error(t, err, e.f)
		assert.ErrorIs(t, err, e.kind, e.f)
		assert.Contains(t, err.Error(), e.msg, e.f)
	}
	assert.Len(t, spec.Clauses, 7, "failed formulas add nothing")

	_, err = FromLTL("bad", Bools("a"), Bools("b"), []string{"G a"}, []string{"G(b -> F a)"})
	require.ErrorIs(t, err, ErrNotGR1)
}

func TestWriteSlugsinRoundTrip(t *testing.T) {
	files := []string{
		filepath.Join("testdata", "specs", "arbiter.structuredslugs"),
		filepath.Join("testdata", "specs", "counter.structuredslugs"),
		filepath.Join("testdata", "specs", "conflict.slugsin"),
		filepath.Join("testdata", "specs", "starve.structuredslugs"),
		benchmarkPath(t, slugsDir, "water_reservoir.structuredslugs"),
		benchmarkPath(t, slugsDir, "firefighting.slugsin"),
		benchmarkPath(t, ambaDir, "amba2.tlsf"),
	}
	ctx := context.Background()
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			spec, err := ParseFile(f)
			require.NoError(t, err)
			var b strings.Builder
			require.NoError(t, WriteSlugsin(&b, spec))
			back, err := ParseSlugsin("back.slugsin", strings.NewReader(b.String()))
			require.NoError(t, err, b.String())
			want, err := spec.Realizable(ctx)
			require.NoError(t, err)
			got, err := back.Realizable(ctx)
			require.NoError(t, err)
			assert.Equal(t, want.Realizable, got.Realizable)
			if spec.Semantics == Strict && allBool(spec) {
				// Writing the written spec again gives the same text.
				var again strings.Builder
				require.NoError(t, WriteSlugsin(&again, back))
				assert.Equal(t, strings.SplitN(b.String(), "\n", 2)[1], strings.SplitN(again.String(), "\n", 2)[1])
			}
		})
	}
}

func TestFormats(t *testing.T) {
	for _, f := range []Format{FormatSlugsin, FormatStructuredSlugs, FormatTLSF} {
		got, err := ParseFormat(f.String())
		require.NoError(t, err)
		assert.Equal(t, f, got)
	}
	_, err := ParseFormat("smv")
	assert.Error(t, err)
	assert.Equal(t, FormatTLSF, FormatOf("x/y/amba.TLSF"))
	_, err = ParseFile("testdata/specs/missing.slugsin")
	assert.Error(t, err)
}

func allBool(s *Spec) bool {
	for _, v := range append(append([]Var(nil), s.Inputs...), s.Outputs...) {
		if !v.Bool {
			return false
		}
	}
	return true
}

func TestCheckRejectsMalformedExpressions(t *testing.T) {
	spec := &Spec{Inputs: Bools("a")}
	spec.Clauses = []Clause{{Section: SysTrans, Expr: &Expr{Op: ExprAnd, Args: []*Expr{{Op: ExprVar, Name: "a"}}}}}
	assert.ErrorIs(t, spec.Check(), ErrType)
	spec.Clauses = []Clause{{Section: SysTrans, Expr: &Expr{Op: ExprNot, Args: []*Expr{nil}}}}
	assert.ErrorIs(t, spec.Check(), ErrType)
	spec.Clauses = []Clause{{Section: SysTrans}}
	assert.ErrorIs(t, spec.Check(), ErrSyntax)
	spec.Clauses = []Clause{{Section: Section(9), Expr: &Expr{Op: ExprTrue}}}
	assert.ErrorIs(t, spec.Check(), ErrType)
	spec.Clauses = nil
	spec.Outputs = []Var{{Name: "#x", Bool: true, Hi: 1}}
	assert.ErrorIs(t, spec.Check(), ErrType)
}
