package synth

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// addSeeds adds the files matching pattern under dirs to the corpus.
func addSeeds(f *testing.F, patterns ...string) {
	for _, p := range patterns {
		files, _ := filepath.Glob(p)
		for _, file := range files {
			if data, err := os.ReadFile(file); err == nil {
				f.Add(string(data))
			}
		}
	}
}

// checkParseResult asserts what every parser promises: an *Error with a
// kind, or a spec that passes Check and can be written as .slugsin.
func checkParseResult(t *testing.T, spec *Spec, err error) {
	if err != nil {
		var se *Error
		if !errors.As(err, &se) {
			t.Fatalf("error is not an *Error: %v", err)
		}
		if se.Kind == nil {
			t.Fatalf("error without a kind: %v", err)
		}
		return
	}
	if err := spec.Check(); err != nil {
		t.Fatalf("parsed spec fails Check: %v", err)
	}
	if len(spec.Clauses) < 8 && len(spec.Inputs)+len(spec.Outputs) < 8 {
		var b strings.Builder
		if err := WriteSlugsin(&b, spec); err != nil {
			t.Fatalf("WriteSlugsin: %v", err)
		}
	}
}

func FuzzParseSlugsin(f *testing.F) {
	f.Add("[INPUT]\na\n[OUTPUT]\nb\n[SYS_TRANS]\n$ 2 & a b' | ? 0 ! a\n")
	f.Add("[INPUT]\na\n[SYS_LIVENESS]\n? 3\n")
	addSeeds(f, "testdata/specs/*.slugsin", slugsDir+"/*.slugsin", ambaDir+"/amba2.slugsin")
	f.Fuzz(func(t *testing.T, src string) {
		spec, err := ParseSlugsin("fuzz.slugsin", strings.NewReader(src))
		checkParseResult(t, spec, err)
	})
}

func FuzzParseStructuredSlugs(f *testing.F) {
	f.Add("[INPUT]\nn: 0...3\n[OUTPUT]\nb\n[SYS_TRANS]\nn' = n + 1 -> X(b)\n")
	f.Add("[INPUT]\nn: -2...3\n[SYS_TRANS]\n-n < 2 - n\n")
	addSeeds(f, "testdata/specs/*.structuredslugs", slugsDir+"/*.structuredslugs", ambaDir+"/amba2.structuredslugs")
	f.Fuzz(func(t *testing.T, src string) {
		spec, err := ParseStructuredSlugs("fuzz.structuredslugs", strings.NewReader(src))
		checkParseResult(t, spec, err)
	})
}

func FuzzParseTLSF(f *testing.F) {
	f.Add("INFO { SEMANTICS: Mealy,Strict TARGET: Mealy }\nMAIN { INPUTS { r; } OUTPUTS { g; } GUARANTEE { G F g; G(r -> X g); } }")
	f.Add("INFO { SEMANTICS: Mealy } MAIN { /* c */ }")
	addSeeds(f, "testdata/specs/*.tlsf", ambaDir+"/amba2.tlsf")
	f.Fuzz(func(t *testing.T, src string) {
		spec, err := ParseTLSF("fuzz.tlsf", strings.NewReader(src))
		checkParseResult(t, spec, err)
	})
}

func FuzzAssume(f *testing.F) {
	for _, s := range []string{`G(req && !grant -> X req) && G F !req`, `"n = 0" && G("n' = n + 1")`, `G(a U b)`, `X X a`, `G F G a`, `"("`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, formula string) {
		spec := &Spec{Inputs: []Var{Bool("req"), Int("n", 0, 3)}, Outputs: Bools("grant")}
		before := len(spec.Clauses)
		err := spec.Assume(formula)
		if err != nil {
			var se *Error
			if !errors.As(err, &se) {
				t.Fatalf("error is not an *Error: %v", err)
			}
			if len(spec.Clauses) != before {
				t.Fatal("a failed Assume added clauses")
			}
			return
		}
		if err := spec.Check(); err != nil {
			t.Fatalf("accepted formula fails Check: %v", err)
		}
	})
}

// FuzzParseAIGER: ParseAIGER never panics, fails with a positioned *Error,
// and what it accepts is a valid graph that prints and reads back the same
// in both encodings and can be checked (here against the test arbiter)
// without panicking.
func FuzzParseAIGER(f *testing.F) {
	f.Add("aag 3 2 0 1 1\n2\n4\n6\n6 2 4\ni0 a\ni1 b\no0 c\n")
	f.Add("aig 1 0 1 0 0 1\n2\n")
	f.Add("aag 0 0 0 0 0\nc\ncomment\n")
	addSeeds(f, "testdata/circuit/*.aag", "testdata/circuit/*.aig")
	arbiter, err := ParseFile(filepath.Join("testdata", "specs", "arbiter.structuredslugs"))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, src string) {
		a, err := ParseAIGER("fuzz.aag", strings.NewReader(src))
		if err != nil {
			var se *Error
			if !errors.As(err, &se) || se.Kind == nil {
				t.Fatalf("error is not an *Error with a kind: %v", err)
			}
			return
		}
		if err := a.validate(); err != nil {
			t.Fatalf("accepted graph is invalid: %v", err)
		}
		for _, write := range []func(*AIG, io.Writer) error{(*AIG).WriteAAG, (*AIG).WriteAIG} {
			var b bytes.Buffer
			if err := write(a, &b); err != nil {
				t.Fatal(err)
			}
			back, err := ParseAIGER("back", &b)
			if err != nil {
				t.Fatalf("printed graph does not parse: %v\n%s", err, b.String())
			}
			if !reflect.DeepEqual(a.Ands, back.Ands) || !reflect.DeepEqual(a.Latches, back.Latches) || !reflect.DeepEqual(a.Outputs, back.Outputs) {
				t.Fatalf("round trip changed the graph:\n%s", b.String())
			}
		}
		if a.MaxVar < 64 {
			err := CheckAIG(context.Background(), arbiter, a)
			if err != nil && !errors.Is(err, ErrRefuted) {
				t.Fatalf("check failed without refuting: %v", err)
			}
		}
	})
}
