package ltl_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/henceforth-go/henceforth/ltl"
)

// TestParseAt checks that scenario atoms at(G, L) parse to the atom named by
// their canonical text at(G,L), print bare, and leave at usable as an
// ordinary atom.
func TestParseAt(t *testing.T) {
	at := func(g, l string) ltl.Formula { return ltl.Atom("at(" + g + "," + l + ")") }
	tests := []struct {
		src   string
		want  ltl.Formula
		print string // canonical form; "" means src itself
	}{
		{"at(P0,m2)", at("P0", "m2"), ""},
		{"at(P0, m2)", at("P0", "m2"), "at(P0,m2)"},
		{"at ( 1 ,\tn8 )", at("1", "n8"), "at(1,n8)"},
		{"at(pkg.P0,m.2)", at("pkg.P0", "m.2"), ""},
		{"at(F.func1#2,_x)", at("F.func1#2", "_x"), ""},
		{"at(1,2)", at("1", "2"), ""},
		{"F(at(P0, m2) && at(P1, n2))", ltl.Eventually(ltl.And(at("P0", "m2"), at("P1", "n2"))), "F(at(P0,m2) && at(P1,n2))"},
		{"!at(P0,m8) U at(P1,n8)", ltl.Until(ltl.Not(at("P0", "m8")), at("P1", "n8")), ""},
		{"G at(P1, n1)", ltl.Always(at("P1", "n1")), "G at(P1,n1)"},
		// at is an ordinary atom where no ( follows it.
		{"at", ltl.Atom("at"), ""},
		{"at && p", ltl.And(ltl.Atom("at"), ltl.Atom("p")), ""},
		{"G at", ltl.Always(ltl.Atom("at")), ""},
		{"at.x", ltl.Atom("at.x"), ""},
		{"atx", ltl.Atom("atx"), ""},
		{"flat", ltl.Atom("flat"), ""},
		// A quoted at(G,L) is an atom of the same name, written in quotes.
		{`"at(P0,m2)"`, ltl.QuotedAtom("at(P0,m2)"), ""},
		{`"at(P0, m2)"`, ltl.Atom("at(P0, m2)"), ""},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			f, err := ltl.Parse(tt.src)
			require.NoError(t, err)
			assert.Equal(t, tt.want, f)
			print := tt.print
			if print == "" {
				print = tt.src
			}
			assert.Equal(t, print, f.String())
			g, err := ltl.Parse(f.String())
			require.NoError(t, err)
			assert.Equal(t, f, g, "round trip")
		})
	}
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
