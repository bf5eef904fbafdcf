package ltl_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/henceforth-go/henceforth/ltl"
)

var (
	p, q, r, s = ltl.Atom("p"), ltl.Atom("q"), ltl.Atom("r"), ltl.Atom("s")
	a, b, c    = ltl.Atom("a"), ltl.Atom("b"), ltl.Atom("c")
)

// TestParseForms checks the formula every syntactic form stands for, and
// its canonical printed form.
func TestParseForms(t *testing.T) {
	atGL := func(g, l string) ltl.Formula { return ltl.Atom("at(" + g + "," + l + ")") }
	tests := []struct {
		src   string
		want  ltl.Formula
		print string // canonical form; "" means src itself
	}{
		// constants and atoms
		{"true", ltl.True(), ""},
		{"false", ltl.False(), ""},
		{"p", p, ""},
		{"_x.y_1", ltl.Atom("_x.y_1"), ""},
		{"Fa", ltl.Atom("Fa"), ""}, // longest token: an atom, not F a
		{"WXa", ltl.Atom("WXa"), ""},
		{"Xtrue", ltl.Atom("Xtrue"), ""},
		{"starts", ltl.Atom("starts"), ""},
		{"ending", ltl.Atom("ending"), ""},
		{"x1.done", ltl.Atom("x1.done"), ""},
		{`"balance >= 0"`, ltl.QuotedAtom("balance >= 0"), ""},
		{`"p"`, ltl.QuotedAtom("p"), ""},
		{`"X"`, ltl.Atom("X"), ""}, // a keyword can only be an atom when quoted
		{`"say \"hi\" \\ bye"`, ltl.Atom(`say "hi" \ bye`), ""},
		{`"δ ≥ 0"`, ltl.Atom("δ ≥ 0"), ""},
		{`"1x"`, ltl.Atom("1x"), ""},
		// Boolean, every spelling
		{"!p", ltl.Not(p), ""},
		{"~p", ltl.Not(p), "!p"},
		{"¬p", ltl.Not(p), "!p"},
		{"p && q", ltl.And(p, q), ""},
		{"p & q", ltl.And(p, q), "p && q"},
		{"p ∧ q", ltl.And(p, q), "p && q"},
		{"p || q", ltl.Or(p, q), ""},
		{"p | q", ltl.Or(p, q), "p || q"},
		{"p ∨ q", ltl.Or(p, q), "p || q"},
		{"p ^ q", ltl.Xor(p, q), ""},
		{"p xor q", ltl.Xor(p, q), "p ^ q"},
		{"p ⊕ q", ltl.Xor(p, q), "p ^ q"},
		{"p -> q", ltl.Implies(p, q), ""},
		{"p => q", ltl.Implies(p, q), "p -> q"},
		{"p → q", ltl.Implies(p, q), "p -> q"},
		{"p <-> q", ltl.Iff(p, q), ""},
		{"p <=> q", ltl.Iff(p, q), "p <-> q"},
		{"p ↔ q", ltl.Iff(p, q), "p <-> q"},
		// future
		{"X p", ltl.Next(p), ""},
		{"X[!] p", ltl.Next(p), "X p"},
		{"X [!] p", ltl.Next(p), "X p"},
		{"◯p", ltl.Next(p), "X p"},
		{"N p", ltl.WeakNext(p), ""},
		{"WX p", ltl.WeakNext(p), "N p"},
		{"F p", ltl.Eventually(p), ""},
		{"<> p", ltl.Eventually(p), "F p"},
		{"<>p", ltl.Eventually(p), "F p"},
		{"◇p", ltl.Eventually(p), "F p"},
		{"G p", ltl.Always(p), ""},
		{"[] p", ltl.Always(p), "G p"},
		{"[]p", ltl.Always(p), "G p"},
		{"[ ] p", ltl.Always(p), "G p"},
		{"□p", ltl.Always(p), "G p"},
		{"p U q", ltl.Until(p, q), ""},
		{"p W q", ltl.WeakUntil(p, q), ""},
		{"p R q", ltl.Release(p, q), ""},
		{"p V q", ltl.Release(p, q), "p R q"},
		{"p M q", ltl.StrongRelease(p, q), ""},
		// past
		{"Y p", ltl.Yesterday(p), ""},
		{"Z p", ltl.WeakYesterday(p), ""},
		{"O p", ltl.Once(p), ""},
		{"H p", ltl.Historically(p), ""},
		{"p S q", ltl.Since(p, q), ""},
		{"p B q", ltl.WeakSince(p, q), ""},
		// monitoring operators
		{"start(p)", ltl.Start(p), ""},
		{"start (p)", ltl.Start(p), "start(p)"},
		{"end(p || q)", ltl.End(ltl.Or(p, q)), ""},
		{"[p, q)", ltl.IntervalStrong(p, q), "[p, q)s"},
		{"[p, q)s", ltl.IntervalStrong(p, q), ""},
		{"[p,q)w", ltl.IntervalWeak(p, q), "[p, q)w"},
		{"start(p) -> [q, end(r | s))", ltl.Implies(ltl.Start(p), ltl.IntervalStrong(q, ltl.End(ltl.Or(r, s)))),
			"start(p) -> [q, end(r || s))s"},
		{"[[p, q)w, [] p)", ltl.IntervalStrong(ltl.IntervalWeak(p, q), ltl.Always(p)), "[[p, q)w, G p)s"},
		{"X[!p, q)", ltl.Next(ltl.IntervalStrong(ltl.Not(p), q)), "X [!p, q)s"},
		{"X[!][]!p", ltl.Next(ltl.Always(ltl.Not(p))), "X G !p"}, // X[!] then [] then !p
		// precedence, loosest first: <->, ->, xor, ||, &&, temporal, unary
		{"a <-> b -> c", ltl.Iff(a, ltl.Implies(b, c)), ""},
		{"a -> b <-> c", ltl.Iff(ltl.Implies(a, b), c), ""},
		{"a -> b ^ c", ltl.Implies(a, ltl.Xor(b, c)), ""},
		{"a ^ b || c", ltl.Xor(a, ltl.Or(b, c)), ""},
		{"a || b && c", ltl.Or(a, ltl.And(b, c)), ""},
		{"a && b || c", ltl.Or(ltl.And(a, b), c), ""},
		{"a && b U c", ltl.And(a, ltl.Until(b, c)), ""},
		{"a U b && c", ltl.And(ltl.Until(a, b), c), ""},
		{"!a U b", ltl.Until(ltl.Not(a), b), ""},
		{"F a U G b", ltl.Until(ltl.Eventually(a), ltl.Always(b)), ""},
		{"X a S Y b", ltl.Since(ltl.Next(a), ltl.Yesterday(b)), ""},
		{"!(a U b)", ltl.Not(ltl.Until(a, b)), ""},
		{"G(p -> F q)", ltl.Always(ltl.Implies(p, ltl.Eventually(q))), ""},
		{"G (p -> F q)", ltl.Always(ltl.Implies(p, ltl.Eventually(q))), "G(p -> F q)"},
		{"!!p", ltl.Not(ltl.Not(p)), ""},
		{"!X !p", ltl.Not(ltl.Next(ltl.Not(p))), ""},
		{"G F !p", ltl.Always(ltl.Eventually(ltl.Not(p))), ""},
		// associativity
		{"a -> b -> c", ltl.Implies(a, ltl.Implies(b, c)), ""},
		{"(a -> b) -> c", ltl.Implies(ltl.Implies(a, b), c), ""},
		{"a <-> b <-> c", ltl.Iff(ltl.Iff(a, b), c), ""},
		{"a <-> (b <-> c)", ltl.Iff(a, ltl.Iff(b, c)), ""},
		{"a && b && c", ltl.And(ltl.And(a, b), c), ""},
		{"a && (b && c)", ltl.And(a, ltl.And(b, c)), ""},
		{"a || b || c", ltl.Or(ltl.Or(a, b), c), ""},
		{"a ^ b ^ c", ltl.Xor(ltl.Xor(a, b), c), ""},
		{"a U b U c", ltl.Until(a, ltl.Until(b, c)), ""},
		{"(a U b) U c", ltl.Until(ltl.Until(a, b), c), ""},
		{"a U b S c W p", ltl.Until(a, ltl.Since(b, ltl.WeakUntil(c, p))), ""},
		{"a R b M c B p", ltl.Release(a, ltl.StrongRelease(b, ltl.WeakSince(c, p))), ""},
		// Unicode, mixed
		{"□(p → ◇q)", ltl.Always(ltl.Implies(p, ltl.Eventually(q))), "G(p -> F q)"},
		{"¬◯p ∧ □¬q ∨ r ↔ s", ltl.Iff(ltl.Or(ltl.And(ltl.Not(ltl.Next(p)), ltl.Always(ltl.Not(q))), r), s), "!X p && G !q || r <-> s"},
		// spacing and redundant parentheses
		{"  ((p))\n&&\t(q)  ", ltl.And(p, q), "p && q"},
		{"(p)U(q)", ltl.Until(p, q), "p U q"},
		{"p&&q||!r", ltl.Or(ltl.And(p, q), ltl.Not(r)), "p && q || !r"},
		// scenario atoms at(G, L): an atom named by the canonical text at(G,L)
		{"at(P0,m2)", atGL("P0", "m2"), ""},
		{"at(P0, m2)", atGL("P0", "m2"), "at(P0,m2)"},
		{"at ( 1 ,\tn8 )", atGL("1", "n8"), "at(1,n8)"},
		{"at(pkg.P0,m.2)", atGL("pkg.P0", "m.2"), ""},
		{"at(F.func1#2,_x)", atGL("F.func1#2", "_x"), ""},
		{"at(1,2)", atGL("1", "2"), ""},
		{"F(at(P0, m2) && at(P1, n2))", ltl.Eventually(ltl.And(atGL("P0", "m2"), atGL("P1", "n2"))), "F(at(P0,m2) && at(P1,n2))"},
		{"!at(P0,m8) U at(P1,n8)", ltl.Until(ltl.Not(atGL("P0", "m8")), atGL("P1", "n8")), ""},
		{"G at(P1, n1)", ltl.Always(atGL("P1", "n1")), "G at(P1,n1)"},
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
			assert.Equal(t, tt.want.String(), f.String())
			assert.True(t, f == tt.want, "parsed %v, want %v", f, tt.want)
			print := tt.print
			if print == "" {
				print = tt.src
			}
			assert.Equal(t, print, f.String())
			g, err := ltl.Parse(f.String())
			require.NoError(t, err)
			assert.True(t, g == f, "reparse of %q gives %v", f.String(), g)
		})
	}
}

// TestParseQuotedAtoms checks that quoted atoms keep their text and whether
// they print quoted.
func TestParseQuotedAtoms(t *testing.T) {
	f := ltl.MustParse(`"a.b > 0" && "ok" && ok`)
	atoms := []ltl.Formula{f.Left().Left(), f.Left().Right(), f.Right()}
	assert.Equal(t, "a.b > 0", atoms[0].Name())
	assert.True(t, atoms[0].Quoted())
	assert.Equal(t, "ok", atoms[1].Name())
	assert.True(t, atoms[1].Quoted())
	assert.Equal(t, "ok", atoms[2].Name())
	assert.False(t, atoms[2].Quoted())
	assert.NotEqual(t, atoms[1], atoms[2], `"ok" and ok are different formulas (they print differently)`)
	assert.Equal(t, []string{"a.b > 0", "ok"}, f.Atoms())
	assert.Equal(t, `"a.b > 0" && "ok" && ok`, f.String())

	// Atom of a name that cannot be written bare is the quoted atom.
	assert.Equal(t, ltl.QuotedAtom("x y"), ltl.Atom("x y"))
	assert.Equal(t, ltl.QuotedAtom("G"), ltl.Atom("G"))
	assert.Equal(t, ltl.QuotedAtom(""), ltl.Atom(""))
	assert.Equal(t, `"G"`, ltl.Atom("G").String())
	assert.Equal(t, `""`, ltl.Atom("").String())
}

// TestParseErrors checks the offset, the found text and the expectation of
// parse errors, and the message they make.
func TestParseErrors(t *testing.T) {
	tests := []struct {
		src string
		msg string
	}{
		{"", `offset 0: expected formula, found end of input`},
		{"   ", `offset 3: expected formula, found end of input`},
		{"p &&", `offset 4: expected formula, found end of input`},
		{"p q", `offset 2: expected binary operator or end of input, found "q"`},
		{"(p", `offset 2: expected binary operator or ")", found end of input`},
		{"(p q)", `offset 3: expected binary operator or ")", found "q"`},
		{"p)", `offset 1: expected binary operator or end of input, found ")"`},
		{"U p", `offset 0: expected formula, found "U"`},
		{"p U", `offset 3: expected formula, found end of input`},
		{"p U U q", `offset 4: expected formula, found "U"`},
		{"X", `offset 1: expected formula, found end of input`},
		{"G G", `offset 3: expected formula, found end of input`},
		{"!", `offset 1: expected formula, found end of input`},
		{"p $ q", `offset 2: expected formula, found "$"`},
		{"p < q", `offset 2: expected formula, found "<"`},
		{"p - q", `offset 2: expected formula, found "-"`},
		{"p = q", `offset 2: expected formula, found "="`},
		{"p ≥ q", `offset 2: expected formula, found "≥"`},
		{"p \xff", `offset 2: expected formula, found "\xff"`},
		{"1", `offset 0: expected formula, found "1"`},
		{`"abc`, `offset 4: expected closing " of the atom at offset 0, found end of input`},
		{`p && "abc`, `offset 9: expected closing " of the atom at offset 5, found end of input`},
		{`"a\nb"`, `offset 2: expected escape \" or \\, found "\\n"`},
		{`"a\`, `offset 2: expected escape \" or \\, found "\\"`},
		{`""`, `offset 0: expected atom text between the quotes, found "\"\""`},
		{"start p", `offset 6: expected "(" after start, found "p"`},
		{"end", `offset 3: expected "(" after end, found end of input`},
		{"start(p", `offset 7: expected binary operator or ")", found end of input`},
		{"start()", `offset 6: expected formula, found ")"`},
		{"[p]", `offset 2: expected binary operator or "," in interval [f, g), found "]"`},
		{"[p, q]", `offset 5: expected binary operator or ")" closing interval [f, g), found "]"`},
		{"[p, q", `offset 5: expected binary operator or ")" closing interval [f, g), found end of input`},
		{"[p, q)x", `offset 6: expected binary operator or end of input, found "x"`},
		{"[p, q) s", `offset 7: expected binary operator or end of input, found "s"`},
		{"[p, q)sw", `offset 6: expected binary operator or end of input, found "sw"`},
		{"[, q)", `offset 1: expected formula, found ","`},
		{"X[!]", `offset 4: expected formula, found end of input`},
		{"X[!", `offset 3: expected formula, found end of input`},
		{"p,q", `offset 1: expected binary operator or end of input, found ","`},
		{"true false", `offset 5: expected binary operator or end of input, found "false"`},
		{"p && (q || )", `offset 11: expected formula, found ")"`},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			f, err := ltl.Parse(tt.src)
			require.Error(t, err)
			assert.True(t, f.IsZero())
			assert.Equal(t, tt.msg, err.Error())
			var se *ltl.SyntaxError
			require.True(t, errors.As(fmt.Errorf("spec x: %w", err), &se), "a *SyntaxError survives wrapping")
			assert.LessOrEqual(t, se.Offset, len(tt.src))
		})
	}
}

// TestSyntaxErrorFields checks the structured error that callers map to
// file positions.
func TestSyntaxErrorFields(t *testing.T) {
	_, err := ltl.Parse("G(p -> F)")
	var se *ltl.SyntaxError
	require.ErrorAs(t, err, &se)
	assert.Equal(t, ltl.SyntaxError{Offset: 8, Found: ")", Expected: "formula"}, *se)

	_, err = ltl.Parse("p &&")
	require.ErrorAs(t, err, &se)
	assert.Equal(t, ltl.SyntaxError{Offset: 4, Found: "", Expected: "formula"}, *se)
}

// TestParseNestingLimit checks that deep nesting is an error, not a stack
// overflow, for every way of nesting, and that MaxNesting levels are fine.
func TestParseNestingLimit(t *testing.T) {
	const deep = 100_000
	tests := map[string]string{
		"parentheses": strings.Repeat("(", deep) + "p" + strings.Repeat(")", deep),
		"negations":   strings.Repeat("!", deep) + "p",
		"next":        strings.Repeat("X ", deep) + "p",
		"always":      strings.Repeat("[]", deep) + "p",
		"start":       strings.Repeat("start(", deep) + "p" + strings.Repeat(")", deep),
		"intervals":   strings.Repeat("[p, ", deep) + "p" + strings.Repeat(")", deep),
		"unclosed":    strings.Repeat("(", deep),
		"right-until": strings.Repeat("p U (", deep) + "p" + strings.Repeat(")", deep),
	}
	for name, src := range tests {
		t.Run(name, func(t *testing.T) {
			_, err := ltl.Parse(src)
			var se *ltl.SyntaxError
			require.ErrorAs(t, err, &se)
			assert.Equal(t, fmt.Sprintf("at most %d nested operators and parentheses", ltl.MaxNesting), se.Expected)
		})
	}

	ok := strings.Repeat("(", ltl.MaxNesting-1) + strings.Repeat("!", 1) + "p" + strings.Repeat(")", ltl.MaxNesting-1)
	f, err := ltl.Parse(ok)
	require.NoError(t, err)
	assert.Equal(t, 2, f.Depth())

	_, err = ltl.Parse(strings.Repeat("(", ltl.MaxNesting) + "!p" + strings.Repeat(")", ltl.MaxNesting))
	require.Error(t, err)
	var se *ltl.SyntaxError
	require.ErrorAs(t, err, &se)
	assert.Equal(t, ltl.MaxNesting, se.Offset, "the first token past the limit")
}

// TestLongChains checks that long chains of one operator, which need no
// nesting, parse and print in constant stack depth and round-trip.
func TestLongChains(t *testing.T) {
	const n = 100_000
	atoms := make([]ltl.Formula, n)
	for i := range atoms {
		atoms[i] = ltl.Atom(fmt.Sprintf("a%d", i))
	}
	for _, tc := range []struct {
		name  string
		build func() ltl.Formula
		sep   string
	}{
		{"and", func() ltl.Formula { return ltl.AndAll(atoms...) }, " && "},
		{"or", func() ltl.Formula { return ltl.OrAll(atoms...) }, " || "},
		{"until", func() ltl.Formula { return foldRight(ltl.Until, atoms) }, " U "},
		{"implies", func() ltl.Formula { return foldRight(ltl.Implies, atoms) }, " -> "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if testing.Short() && tc.name != "and" {
				t.Skip("short: only the AndAll chain")
			}
			f := tc.build()
			src := f.String()
			assert.Equal(t, n-1, strings.Count(src, tc.sep))
			assert.NotContains(t, src, "(")
			g, err := ltl.Parse(src)
			require.NoError(t, err)
			assert.True(t, g == f)
		})
	}
	// A left-nested chain of a right-associative operator needs
	// parentheses; it prints, and parses back up to MaxNesting.
	left := ltl.Atom("a")
	for range ltl.MaxNesting {
		left = ltl.Until(left, ltl.Atom("b"))
	}
	src := left.String()
	assert.Equal(t, ltl.MaxNesting-1, strings.Count(src, "("))
	g, err := ltl.Parse(src)
	require.NoError(t, err)
	assert.True(t, g == left)
}

func foldRight(op func(f, g ltl.Formula) ltl.Formula, fs []ltl.Formula) ltl.Formula {
	acc := fs[len(fs)-1]
	for i := len(fs) - 2; i >= 0; i-- {
		acc = op(fs[i], acc)
	}
	return acc
}

// TestRoundTripRandom checks Parse(f.String()) == f on random formulas of
// every operator, including atoms that need quotes.
func TestRoundTripRandom(t *testing.T) {
	seed := uint64(20240601)
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, seed))
	cfg := ltl.RandomConfig{
		Atoms:    []string{"p", "q", "Fa", "x.y", "G", "a b", `say "x"`, `back\slash`, "start", "s", "w"},
		MaxDepth: 7,
	}
	n := 20000
	if testing.Short() {
		n = 5000
	}
	for range n {
		f := ltl.Random(rng, cfg)
		src := f.String()
		g, err := ltl.Parse(src)
		require.NoError(t, err, "%s", src)
		require.True(t, g == f, "%s reparsed as %s", src, g)
		require.Equal(t, src, g.String())
	}
}

// TestStringInvalid checks the printed form of the zero Formula.
func TestStringInvalid(t *testing.T) {
	assert.Equal(t, "<invalid>", ltl.Formula{}.String())
	assert.Equal(t, "<invalid>", ltl.And(p, ltl.Formula{}).String())
}

func TestMustParsePanics(t *testing.T) {
	assert.PanicsWithValue(t, `ltl.MustParse("p &&"): offset 4: expected formula, found end of input`,
		func() { ltl.MustParse("p &&") })
}

// FuzzParse checks that Parse never panics and that whatever it accepts
// prints to a canonical form that parses back to the same formula.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"G(p -> F q)", "start(p) -> [q, end(r | s))", "[a, b)w", "X[!] a", "[] a", "<> a", "a <-> b <=> c",
		`"x \" y" && !"\\"`, "□(p → ◇q) ∧ ¬◯r ⊕ s", "(((a)))", "a U b W c R d V e M f S g B h",
		"Y Z O H a", "N WX a", "p ^ q xor r", "p => q", "~p & q | r", "[p, q)s", "X [!p, q)", "Fa",
		"F(at(P0, m2) && at(1,n8))", "at", "at && at.x", `"at(P0,m2)"`, "at(", "at(P0 m2)", "at(P0,", "at(a#1,b",
		"", "(", "[", "[p", "[p,", "\"", "start", "X[!", "p )", "\xff", "a..b", "_",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		g, err := ltl.Parse(src)
		if err != nil {
			var se *ltl.SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("Parse(%q): error %v is not a *SyntaxError", src, err)
			}
			if se.Offset < 0 || se.Offset > len(src) {
				t.Fatalf("Parse(%q): offset %d out of range", src, se.Offset)
			}
			return
		}
		out := g.String()
		h, err := ltl.Parse(out)
		if err != nil {
			t.Fatalf("Parse(%q) = %s, which does not parse: %v", src, out, err)
		}
		if h != g {
			t.Fatalf("Parse(%q) = %s, which parses as %s", src, out, h)
		}
	})
}
