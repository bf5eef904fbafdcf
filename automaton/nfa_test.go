package automaton

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/henceforth-go/henceforth/ltl"
	"github.com/henceforth-go/henceforth/monitor"
)

func promelaOf(t *testing.T, a *NFA) string {
	t.Helper()
	var b strings.Builder
	require.NoError(t, a.WritePromela(&b, ""))
	return b.String()
}

// TestNFAThesisFigure10 is the thesis's automaton for <>(a || b) (its
// Figure 10): a non-accepting S0 looping on true, edges on a and
// on b to the accepting S1, which loops on true.
func TestNFAThesisFigure10(t *testing.T) {
	a, err := NFAFromFormula(context.Background(), ltl.MustParse("<>(a || b)"))
	require.NoError(t, err)
	require.Len(t, a.States, 2)
	assert.False(t, a.States[0].Accepting)
	assert.True(t, a.States[1].Accepting)
	assert.Equal(t, []NFAEdge{
		{Guard: nil, To: 0},
		{Guard: []Literal{{Atom: "a"}}, To: 1},
		{Guard: []Literal{{Atom: "b"}}, To: 1},
	}, a.States[0].Edges)
	assert.Equal(t, []NFAEdge{{Guard: nil, To: 1}}, a.States[1].Edges)
	assert.Equal(t, []Obligation{{Formula: ltl.MustParse("F(a || b)"), Strong: true}}, a.States[0].Next)
	assert.Equal(t, "X F(a || b)", a.States[0].Next[0].String())
	assert.Empty(t, a.States[1].Next)

	// Figure 10 spells the true guard (true) and the guard a without
	// parentheses; otherwise it is this text.
	assert.Equal(t, `never {
S0:
    if
    :: (1) -> goto S0
    :: (a) -> goto accept_S1
    :: (b) -> goto accept_S1
    fi;

accept_S1:
    if
    :: (1) -> goto accept_S1
    fi;
}
`, promelaOf(t, a))
}

// TestNFAThesisFigure16 is the symbolic-mode until example of the thesis
// (its Figure 16), with the atoms quoted; printed with
// the thesis's fully qualified atom names the never claim is the figure's
// text verbatim.
func TestNFAThesisFigure16(t *testing.T) {
	a, err := NFAFromFormula(context.Background(), ltl.MustParse(`"field == 0" U "myMethod(int).z > 0"`))
	require.NoError(t, err)
	require.Len(t, a.States, 2)
	assert.False(t, a.States[0].Accepting)
	assert.True(t, a.States[1].Accepting)
	assert.Equal(t, []NFAEdge{
		{Guard: []Literal{{Atom: "field == 0"}}, To: 0},
		{Guard: []Literal{{Atom: "myMethod(int).z > 0"}}, To: 1},
	}, a.States[0].Edges)
	assert.Equal(t, []NFAEdge{{Guard: nil, To: 1}}, a.States[1].Edges)

	q, err := NFAFromFormula(context.Background(), ltl.MustParse(`"finite.symbolic.Until_Sym.field == 0" U "finite.symbolic.Until_Sym.myMethod(int).z > 0"`))
	require.NoError(t, err)
	assert.Equal(t, `never {
S0:
    if
    :: (finite.symbolic.Until_Sym.field == 0) -> goto S0
    :: (finite.symbolic.Until_Sym.myMethod(int).z > 0) -> goto accept_S1
    fi;

accept_S1:
    if
    :: (1) -> goto accept_S1
    fi;
}
`, promelaOf(t, q))
}

// TestNFAThesisDerivedAutomata are the automata of the thesis's other
// specifications, derived by hand from its construction.
func TestNFAThesisDerivedAutomata(t *testing.T) {
	a, err := NFAFromFormula(context.Background(), ltl.MustParse(`[] ("getSingleton()" -> [] !"getSingleton()")`))
	require.NoError(t, err)
	// No edge allows getSingleton(): G(g -> G !g) is G !g.
	assert.Equal(t, `never {
accept_S0:
    if
    :: (!(getSingleton())) -> goto accept_S0
    :: (!(getSingleton())) -> goto accept_S1
    fi;

accept_S1:
    if
    :: (!(getSingleton())) -> goto accept_S1
    fi;
}
`, promelaOf(t, a))

	k, err := NFAFromFormula(context.Background(), ltl.MustParse(`<> "k#1 + 2 == k#2"`))
	require.NoError(t, err)
	assert.Equal(t, `never {
S0:
    if
    :: (1) -> goto S0
    :: (k#1 + 2 == k#2) -> goto accept_S1
    fi;

accept_S1:
    if
    :: (1) -> goto accept_S1
    fi;
}
`, promelaOf(t, k))
}

// TestAcceptanceTablesOfTheDigest runs a table of words for the thesis's
// specifications on the NFA (the thesis's two ways to fail: stuck at a step, or
// non-accepting at the end) and on the online DFA monitor, which must say
// Violated at the step where the NFA gets stuck, and end with the NFA's
// verdict.
func TestAcceptanceTablesOfTheDigest(t *testing.T) {
	tests := []struct {
		formula string
		word    ltl.Sets
		accept  bool
		stuck   int // -1: not stuck
	}{
		{"<>(a || b)", ltl.Sets{{}, {"a"}}, true, -1},
		{"<>(a || b)", ltl.Sets{{}, {}}, false, -1},
		{"<>(a || b)", ltl.Sets{}, false, -1},
		{"a U b", ltl.Sets{{"a"}, {"a"}}, false, -1},
		{"a U b", ltl.Sets{{"a"}, {"b"}}, true, -1},
		{"a U b", ltl.Sets{{}}, false, 0},
		{"a W b", ltl.Sets{{"a"}, {"a"}}, true, -1},
		{"a W b", ltl.Sets{{"a"}, {}}, false, 1},
		{"[]a", ltl.Sets{{"a"}, {}}, false, 1},
		{"[]<>a", ltl.Sets{{"a"}, {}}, false, -1},
		{"[]<>a", ltl.Sets{{}, {"a"}}, true, -1},
		{"<>a && <>b", ltl.Sets{{"a"}, {"b"}}, true, -1},
		{"<>a && <>b", ltl.Sets{{"a"}}, false, -1},
		{"[](g -> []!g)", ltl.Sets{{}, {"g"}}, false, 1},
		{"[](g -> (g U []!g))", ltl.Sets{{"g"}, {}, {}}, true, -1},
		{"[](g -> (g U []!g))", ltl.Sets{{"g"}, {}, {"g"}}, false, 2},
	}
	for _, tc := range tests {
		f := ltl.MustParse(tc.formula)
		a, err := NFAFromFormula(context.Background(), f)
		require.NoError(t, err)
		ok, stuck := a.Accepts(tc.word)
		assert.Equal(t, tc.accept, ok, "%s on %v", tc.formula, tc.word)
		assert.Equal(t, tc.stuck, stuck, "%s on %v: stuck at", tc.formula, tc.word)

		d, err := FromFormula(t.Context(), f, Options{})
		require.NoError(t, err)
		m := d.Monitor()
		violatedAt := -1
		for i, ev := range tc.word {
			if m.StepAtoms(ev...) == monitor.Violated && violatedAt < 0 {
				violatedAt = i
			}
		}
		assert.Equal(t, tc.accept, m.Verdict().Holds(), "%s on %v", tc.formula, tc.word)
		assert.Equal(t, tc.stuck, violatedAt, "%s on %v: monitor violated at", tc.formula, tc.word)
	}
}

// TestNFAAcceptsTheDFALanguage checks, on random pure future formulas,
// that the explicit tableau and the DFA accept the same language: the NFA
// is determinized by an explicit subset construction over all letters,
// minimized, and compared with the DFA by product.
func TestNFAAcceptsTheDFALanguage(t *testing.T) {
	const seed = 7
	n := 600
	if testing.Short() {
		n = 200
	}
	t.Logf("seed %d, %d formulas", seed, n)
	for _, f := range randomFormulas(seed, n, ltl.PureFuture) {
		a, err := NFAFromFormula(context.Background(), f)
		require.NoError(t, err, "%s", f)
		d, err := FromFormula(t.Context(), f, Options{Atoms: []string{"p", "q", "r"}})
		require.NoError(t, err)
		fromNFA := determinize(t, a, d)
		p, err := product(t.Context(), fromNFA, d, func(x, y bool) bool { return x != y }, Options{}.limits())
		require.NoError(t, err)
		w, differ := p.ShortestAccepted()
		require.False(t, differ, "seed %d: %s: the NFA and the DFA differ on %v", seed, f, w)
		assert.Equal(t, d.NumStates(), fromNFA.NumStates(), "seed %d: %s", seed, f)
	}
}

// determinize builds the minimal DFA of a's language by explicit subset
// construction, over like's alphabet and level order.
func determinize(t *testing.T, a *NFA, like *DFA) *DFA {
	t.Helper()
	k := len(like.atoms)
	type set = string // sorted state list as bytes
	key := func(states map[int]bool) set {
		b := make([]byte, len(a.States))
		for s := range states {
			b[s] = 1
		}
		return string(b)
	}
	sets := newInterner[set]()
	member := map[set]map[int]bool{}
	intern := func(s map[int]bool) int32 {
		k := key(s)
		member[k] = s
		return sets.id(k)
	}
	intern(map[int]bool{0: true})
	var table [][]int32
	var accept []bool
	for i := 0; i < len(sets.keys); i++ {
		cur := member[sets.keys[i]]
		row := make([]int32, 1<<k)
		for l := range row {
			nxt := map[int]bool{}
			for s := range cur {
				for _, e := range a.States[s].Edges {
					if guardHoldsLetter(e.Guard, like.atoms, monitor.Letter(l)) {
						nxt[e.To] = true
					}
				}
			}
			row[l] = intern(nxt)
		}
		table = append(table, row)
		acc := false
		for s := range cur {
			acc = acc || a.States[s].Accepting
		}
		accept = append(accept, acc)
	}
	return minimize(tableDFA(like, table, accept))
}

func guardHoldsLetter(g []Literal, atoms []string, l monitor.Letter) bool {
	for _, lit := range g {
		i := -1
		for j, a := range atoms {
			if a == lit.Atom {
				i = j
			}
		}
		if l.Has(i) == lit.Negated {
			return false
		}
	}
	return true
}
