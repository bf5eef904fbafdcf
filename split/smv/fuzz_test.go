package smv

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzParse: the parser never panics, and what it accepts is a valid
// program whose properties print.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.smv")
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err == nil {
			f.Add(string(src), 3)
		}
	}
	f.Add("MODULE main\nVAR x : boolean; p : process q(x);\nMODULE q(a)\nCOMMANDS go : a -> a := !a;\n", 2)
	f.Add("MODULE main VAR a : array 1..N of 0..3; P : array 1..N of process m(a); MODULE m(a) COMMANDS [j in 1..N] : a[j] < 3 -> a[j] := a[j] + 1, a[self] := {0, 1};", 2)
	f.Add("MODULE main VAR x: {a, b}; p : process q(x); LTLSPEC G(x = a -> F x = b) MODULE q(x) ASSIGN next(x) := case x = a : b; TRUE : {a, b}; esac;", 1)
	f.Fuzz(func(t *testing.T, src string, n int) {
		if n < 0 || n > 8 {
			n = 3
		}
		p, err := Parse("fuzz.smv", src, n)
		if err != nil {
			if p != nil {
				t.Fatalf("program and error: %v", err)
			}
			return
		}
		if err := p.Validate(); err != nil {
			t.Fatalf("accepted an invalid program: %v", err)
		}
		for _, prop := range p.Properties() {
			_ = prop.String()
		}
	})
}
