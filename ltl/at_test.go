package ltl_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/henceforth-go/henceforth/ltl"
)

// TestParseAtAtom checks that a scenario atom at(G, L) is an atom named by
// its canonical text at(G,L), unquoted (TestParseForms has the forms).
func TestParseAtAtom(t *testing.T) {
	f := ltl.MustParse("at(P0, m2)")
	assert.Equal(t, ltl.OpAtom, f.Op())
	assert.Equal(t, "at(P0,m2)", f.Name())
	assert.False(t, f.Quoted())
	assert.Equal(t, []string{"at(P0,m2)"}, f.Atoms())
}

// TestParseAtErrors checks that errors in a malformed at( name the byte
// offset in the formula's own text.
func TestParseAtErrors(t *testing.T) {
	tests := []struct {
		src string
		err ltl.SyntaxError
	}{
		{"at(", ltl.SyntaxError{Offset: 3, Found: "", Expected: "goroutine number or function name in at(G, L)"}},
		{"F at()", ltl.SyntaxError{Offset: 5, Found: ")", Expected: "goroutine number or function name in at(G, L)"}},
		{"at(P0", ltl.SyntaxError{Offset: 5, Found: "", Expected: `"," in at(G, L)`}},
		{"p && at(P0 m2)", ltl.SyntaxError{Offset: 11, Found: "m", Expected: `"," in at(G, L)`}},
		{"at(P0,", ltl.SyntaxError{Offset: 6, Found: "", Expected: "label in at(G, L)"}},
		{"at(P0, #m)", ltl.SyntaxError{Offset: 7, Found: "#", Expected: "label in at(G, L)"}},
		{"at(P0, m2", ltl.SyntaxError{Offset: 9, Found: "", Expected: `")" closing at(G, L)`}},
		{"at(P0, m2, x)", ltl.SyntaxError{Offset: 9, Found: ",", Expected: `")" closing at(G, L)`}},
		{"at(P0, m2 x)", ltl.SyntaxError{Offset: 10, Found: "x", Expected: `")" closing at(G, L)`}},
		{"at(\"P0\", m2)", ltl.SyntaxError{Offset: 3, Found: `"`, Expected: "goroutine number or function name in at(G, L)"}},
		{"G at (p || q)", ltl.SyntaxError{Offset: 8, Found: "|", Expected: `"," in at(G, L)`}},
		{"at(δ, m2)", ltl.SyntaxError{Offset: 3, Found: "δ", Expected: "goroutine number or function name in at(G, L)"}},
		{"at(P0, m2) at(P1, n2)", ltl.SyntaxError{Offset: 11, Found: "at(P1, n2)", Expected: "binary operator or end of input"}},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			f, err := ltl.Parse(tt.src)
			assert.True(t, f.IsZero())
			var se *ltl.SyntaxError
			require.ErrorAs(t, err, &se)
			assert.Equal(t, tt.err, *se)
		})
	}
}

// TestSplitAt checks that SplitAt accepts exactly the canonical names that
// Parse gives scenario atoms.
func TestSplitAt(t *testing.T) {
	for _, tt := range []struct {
		name, g, l string
	}{
		{"at(P0,m2)", "P0", "m2"},
		{"at(1,n8)", "1", "n8"},
		{"at(pkg.F.func1#2,a.b)", "pkg.F.func1#2", "a.b"},
	} {
		g, l, ok := ltl.SplitAt(tt.name)
		assert.True(t, ok, tt.name)
		assert.Equal(t, tt.g, g, tt.name)
		assert.Equal(t, tt.l, l, tt.name)
		assert.Equal(t, tt.name, ltl.MustParse(tt.name).Name())
	}
	for _, name := range []string{
		"", "at", "at(", "at()", "at(,)", "at(P0,)", "at(,m2)", "at(P0, m2)", " at(P0,m2)",
		"at(P0,m2) ", "at(P0,m2,x)", "at(P0,m#2)", "at(P0;m2)", "ax(P0,m2)", "at(P0,m2",
	} {
		_, _, ok := ltl.SplitAt(name)
		assert.False(t, ok, name)
	}
}
