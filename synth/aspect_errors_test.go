package synth

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const errBase = `MODULE B
VARENV in : {x, y};
       go : boolean;
VAR    s : {a, b, c};
       n : 0..3;
INIT s=a;
TRANS s=a -> next(s)=b;
`

// TestAspectLTLErrors checks that malformed and ill-typed inputs are
// positioned errors of the right kind, parsing and weaving.
func TestAspectLTLErrors(t *testing.T) {
	for _, tc := range []struct {
		name, src, pos, msg string
		kind                error
	}{
		{"garbage", "hello", "1:1", `unexpected "hello", expected MODULE or ASPECT`, ErrSyntax},
		{"missing semicolon", "MODULE M\nVAR a : boolean b : boolean;", "2:17", `expected ';' after the declaration of a`, ErrSyntax},
		{"bad type", "MODULE M\nVAR a : real;", "2:9", "expected a type", ErrSyntax},
		{"ext in base", "MODULE M\nVAR ext a : boolean;", "2:5", `"ext" declarations belong in an ASPECT`, ErrSyntax},
		{"aspect without ext/new", "ASPECT A\nVAR a : boolean;", "2:5", "expected ext or new", ErrSyntax},
		{"unclosed paren", "MODULE M\nVAR a : boolean;\nINIT (a & a;", "3:12", `unexpected ";", expected ")"`, ErrSyntax},
		{"dangling operator", "MODULE M\nVAR a : boolean;\nTRANS a & ;", "3:11", "expected an operand", ErrSyntax},
		{"bad character", "MODULE M\nVAR a : boolean;\nINIT a # a;", "3:8", `unexpected character '#'`, ErrSyntax},
		{"chained comparison", "MODULE M\nVAR n : 0..3;\nINIT 0 < n < 3;", "3:12", "comparisons do not chain", ErrSyntax},
		{"duplicate value", "MODULE M\nVAR s : {a, a};", "2:13", "value a listed twice", ErrType},
		{"mixed set", "MODULE M\nVAR s : {a, 1};", "2:13", "integer 1 in an enumeration", ErrType},
		{"empty range", "MODULE M\nVAR n : 3..1;", "2:10", "range 3..1 is empty", ErrType},
		{"declared twice", "MODULE M\nVAR a : boolean;\nVARENV a : boolean;", "3:8", "variable a is declared twice in M (first at m.altl:2:5)", ErrType},
		{"eof in section", "MODULE M\nVAR a :", "2:8", "unexpected end of input, expected a type", ErrSyntax},
		{"deep nesting", "MODULE M\nVAR a : boolean;\nINIT " + strings.Repeat("(", 2000) + "a", "3:", "nested too deeply", ErrSyntax},

		{"unknown ext", errBase + "ASPECT A\nVAR ext t : boolean;", "9:5", "ext variable t is not declared by the base B", ErrType},
		{"ext on other side", errBase + "ASPECT A\nVAR ext go : boolean;", "9:5", "ext variable go is declared in VAR but the base B declares it in VARENV", ErrType},
		{"ext not a subdomain", errBase + "ASPECT A\nVAR ext s : {a, d};", "9:5", "ext variable s has domain {a, d}, which is not a sub-domain of {a, b, c}", ErrType},
		{"ext type mismatch", errBase + "ASPECT A\nVAR ext n : boolean;", "9:5", "ext variable n has domain boolean", ErrType},
		{"ext int subdomain", errBase + "ASPECT A\nVAR ext n : {2, 5};", "9:5", "{2, 5}, which is not a sub-domain of {0, 1, 2, 3}", ErrType},
		{"new twice", errBase + "ASPECT A\nVAR new q : boolean;\nASPECT C\nVAR new q : boolean;", "11:5", "C: variable q is already declared by A at m.altl:9:5", ErrType},
		{"new shadows base", errBase + "ASPECT A\nVAR new s : boolean;", "9:5", "A: variable s is already declared by B", ErrType},
		{"undeclared in aspect", errBase + "ASPECT A\nVAR new q : boolean;\nLTLSPEC [] (q -> go);", "10:18", `aspect A uses go, a variable of the base, without declaring it (add "ext go : …")`, ErrType},
		{"unknown name", errBase + "ASPECT A\nVAR ext s : {a};\nLTLSPEC [] (s = zz);", "10:17", "A: zz is not a value of s, whose domain here is {a}", ErrType},
		{"value outside subdomain", errBase + "ASPECT A\nVAR ext s : {a, b};\nTRANS s = c;", "10:11", "c is not a value of s, whose domain here is {a, b}", ErrType},
		{"enum vs int", errBase + "ASPECT A\nVAR ext s : {a};\n ext n : 0..3;\nINIT s = n;", "11:6", "compares a value of s with an integer", ErrType},
		{"bool as int", errBase + "ASPECT A\nVARENV ext go : boolean;\nINIT go < 1;", "10:6", "go is a condition where an integer is expected", ErrType},
		{"int as condition", errBase + "ASPECT A\nVAR ext n : 0..3;\nINIT n;", "10:6", "n is an integer where a condition is expected", ErrType},
		{"unknown in base", "MODULE M\nVAR a : boolean;\nINIT b;", "3:6", "M: unknown variable b", ErrType},
		{"woven twice", errBase + "ASPECT A\nASPECT A", "9:1", "module A is woven twice", ErrType},
		{"no base", "ASPECT A\nVAR new q : boolean;", "", "no base system", ErrType},
		{"two bases", errBase + "MODULE C", "8:1", "a second base system C", ErrType},

		{"nested next", errBase + "INIT TRUE;\nTRANS next(next(s)) = a;", "9:12", "nested next is outside GR(1)", ErrNotGR1},
		{"temporal in TRANS", errBase + "TRANS [] go;", "8:7", "TRANS must relate a state to the next one", ErrNotGR1},
		{"next in INIT", errBase + "INIT next(s) = a;", "8:6", "INIT must be a condition on the first state", ErrNotGR1},
		{"persistence", errBase + "ASPECT A\nVAR ext s : {a};\nLTLSPEC <> [] (s = a);", "10:9", "A: F(G(s = 0)) is outside GR(1)", ErrNotGR1},
		{"until", errBase + "ASPECT A\nVAR ext s : {a, b};\nLTLSPEC [] (s = a U s = b);", "10:9", "outside GR(1)", ErrNotGR1},
		{"response with next", errBase + "ASPECT A\nVAR ext s : {a, b};\nLTLSPEC [] (next(s) = a -> <> s = b);", "10:9", "response G(p -> F q) with next inside p or q", ErrNotGR1},
		{"next in past", errBase + "ASPECT A\nVAR ext s : {a, b};\nLTLSPEC [] (Y next(s) = a);", "10:13", "next inside the past operator Y", ErrNotGR1},
		{"nested G", errBase + "ASPECT A\nVAR ext s : {a, b};\nLTLSPEC [] (s = a -> [] s = b);", "10:9", "outside GR(1)", ErrNotGR1},
		{"next initially", errBase + "ASPECT A\nVAR ext s : {a, b};\nLTLSPEC next(s) = a;", "10:9", "an initial condition cannot refer to the next state", ErrNotGR1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			spec, err := ParseAspectLTL("m.altl", strings.NewReader(tc.src))
			if err == nil {
				_, err = spec.Weave()
			}
			require.Error(t, err)
			var se *Error
			require.True(t, errors.As(err, &se), "%T is not an *Error: %v", err, err)
			assert.ErrorIs(t, err, tc.kind)
			if tc.pos != "" {
				assert.Contains(t, err.Error(), "m.altl:"+tc.pos, err.Error())
			}
			assert.Contains(t, err.Error(), tc.msg)
		})
	}
}

// TestAspectLTLListings checks that every listing of the thesis parses,
// including ExamCounter without the ';' the printed listing lacks.
func TestAspectLTLListings(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "aspectltl", "*.altl"))
	require.NoError(t, err)
	require.Len(t, files, 8)
	spec, err := ParseAspectLTLFiles(files...)
	require.NoError(t, err)
	assert.Len(t, spec.Bases, 1)
	assert.Len(t, spec.Aspects, 7)
	counter := spec.Aspect("ExamCounter")
	require.NotNil(t, counter)
	assert.Equal(t, []int{0, 1, 2, 3}, counter.Vars[2].Domain.Ints)
	src, err := os.ReadFile(filepath.Join("testdata", "aspectltl", "examcounter.altl"))
	require.NoError(t, err)
	assert.Contains(t, string(src), "new counter : {0, 1, 2, 3}\nTRANS", "the listing is not the thesis's")

	// The same listings in henceforth's operators weave to the same game.
	alt := `ASPECT FailuresLogging
VAR ext state : {failed, exit};
    new logFail : boolean;
LTLSPEC !logFail && G ((Y (state=failed) && state=exit) <-> logFail);
`
	a, err := ParseAspectLTL("alt.altl", strings.NewReader(alt))
	require.NoError(t, err)
	w1 := weaveExam(t, "FailuresLogging")
	w2, err := Weave(w1.Base, a.Aspects...)
	require.NoError(t, err)
	require.Equal(t, len(w1.Spec.Clauses), len(w2.Spec.Clauses))
	for i := range w1.Spec.Clauses {
		assert.Equal(t, w1.Spec.Clauses[i].Expr.String(), w2.Spec.Clauses[i].Expr.String())
	}
	_, err = ParseAspectLTLFiles(files[0], files[0])
	assert.ErrorContains(t, err, "is declared twice")
}

// FuzzParseAspectLTL checks that the parser and the weaver never panic and
// that every error is an *Error with a kind.
func FuzzParseAspectLTL(f *testing.F) {
	addSeeds(f, filepath.Join("testdata", "aspectltl", "*.altl"))
	f.Add(errBase + "ASPECT A\nVAR ext s : {a};\n new p : boolean;\nLTLSPEC [] (p -> <> s = a) & (p S s=a) & O p & H p;\nLTLSPECENV [] <> go;")
	f.Fuzz(func(t *testing.T, src string) {
		spec, err := ParseAspectLTL("fuzz.altl", strings.NewReader(src))
		if err == nil {
			bases := spec.Bases
			if len(bases) == 0 {
				bases = []*Module{{Name: "Empty"}}
			}
			_, err = Weave(bases[0], spec.Aspects...)
		}
		if err != nil {
			var se *Error
			if !errors.As(err, &se) || se.Kind == nil {
				t.Fatalf("error is not an *Error with a kind: %v", err)
			}
		}
	})
}
