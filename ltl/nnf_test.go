package ltl_test

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	. "github.com/henceforth-go/henceforth/ltl"
)

var semantics = []Semantics{LTLf, RosuHavelund}

// TestNNFEveryOperator checks NNF of every operator and of its negation, over
// operands that are themselves negated and temporal, on every trace of
// length 0…5 (0…3 with -short) over two atoms, under both semantics.
func TestNNFEveryOperator(t *testing.T) {
	maxLen := 5
	if testing.Short() {
		maxLen = 3
	}
	traces := allTraces([]string{"p", "q"}, 0, maxLen)
	for _, sem := range semantics {
		for _, f := range everyOperator([]Formula{p, Not(q), Eventually(q), Yesterday(p)}) {
			for _, g := range []Formula{f, Not(f)} {
				n := NNF(g, sem)
				require.True(t, IsNNF(n), "%v: NNF(%v) = %v", sem, g, n)
				tr, pos, differ := firstDifference(g, n, traces, sem)
				require.False(t, differ, "%v: NNF(%v) = %v differs on %v at %d", sem, g, n, tr, pos)
			}
		}
	}
}

// TestNNFRandom checks NNF on random formulas and traces.
func TestNNFRandom(t *testing.T) {
	forRandomFormulas(t, 7, 3000, RandomConfig{MaxDepth: 6}, func(f Formula, sem Semantics, rng *rand.Rand) {
		g := NNF(f, sem)
		require.True(t, IsNNF(g), "%v: NNF(%v) = %v", sem, f, g)
		assert.Equal(t, g, NNF(g, sem), "NNF is idempotent")
		for range 8 {
			tr := RandomTrace(rng, []string{"p", "q", "r"}, 7)
			require.Equal(t, -1, difference(f, g, tr, sem), "%v: %v vs NNF %v on %v", sem, f, g, tr)
		}
	})
}

// TestNNFForms checks the shape of NNF on examples.
func TestNNFForms(t *testing.T) {
	tests := []struct {
		sem  Semantics
		src  string
		want string
	}{
		{LTLf, "!G(p -> F q)", "F(p && G !q)"},
		{LTLf, "!(p U q)", "!p R !q"},
		{LTLf, "!(p W q)", "!p M !q"},
		{LTLf, "!(p R q)", "!p U !q"},
		{LTLf, "!(p M q)", "!p W !q"},
		{LTLf, "!X p", "N !p"},
		{LTLf, "!N p", "X !p"},
		{LTLf, "!Y p", "Z !p"},
		{LTLf, "!Z p", "Y !p"},
		{LTLf, "!O p", "H !p"},
		{LTLf, "!H p", "O !p"},
		{LTLf, "!(p S q)", "!q B (!p && !q)"},
		{LTLf, "!(p B q)", "!q S (!p && !q)"},
		{LTLf, "start(p)", "p && Y !p"},
		{LTLf, "!start(p)", "!p || Z p"},
		{LTLf, "end(p)", "!p && Y p"},
		{LTLf, "!end(p)", "p || Z !p"},
		{LTLf, "[p, q)s", "!q S (p && !q)"},
		{LTLf, "[p, q)w", "!q B (p && !q)"},
		{LTLf, "![p, q)s", "(!p || q) B q"},
		{LTLf, "![p, q)w", "(!p || q) S q"},
		{LTLf, "p <-> q", "p && q || !p && !q"},
		{LTLf, "!(p <-> q)", "p && !q || !p && q"},
		{LTLf, "p ^ q", "p && !q || !p && q"},
		{LTLf, "!!!p", "!p"},
		{LTLf, "!true", "false"},
		{RosuHavelund, "!F p", "!p U (!p && N false)"},
		{RosuHavelund, "!G p", "F(!p && X true)"},
		{RosuHavelund, "!(p U q)", "!q U (!q && (!p || N false))"},
		{RosuHavelund, "!(p R q)", "!p U (!q && X true)"},
		{RosuHavelund, "!X p", "N !p"},
		{RosuHavelund, "!Y p", "Z !p"},
	}
	for _, tt := range tests {
		t.Run(tt.sem.String()+" "+tt.src, func(t *testing.T) {
			assert.Equal(t, tt.want, NNF(MustParse(tt.src), tt.sem).String())
		})
	}
}

// TestNNFDualityNeedsSemantics shows why NNF takes the semantics: under
// RosuHavelund F reaches the empty suffix and G does not, so !F !p is not
// G p (the future-time paper's own example).
func TestNNFDualityNeedsSemantics(t *testing.T) {
	notFnotP := MustParse("!F !p")
	tr := events("p p")
	assert.False(t, Eval(notFnotP, tr, RosuHavelund))
	assert.True(t, Eval(MustParse("G p"), tr, RosuHavelund))
	assert.False(t, Eval(NNF(notFnotP, RosuHavelund), tr, RosuHavelund))
	assert.Equal(t, "G p", NNF(notFnotP, LTLf).String())
	assert.True(t, Eval(NNF(notFnotP, LTLf), tr, LTLf))
}

// TestNNFSharing checks that NNF keeps shared subformulas shared: a chain
// of n nested iffs stays linear in size, not exponential.
func TestNNFSharing(t *testing.T) {
	f := p
	for range 40 {
		f = Iff(f, q)
	}
	g := NNF(f, LTLf)
	assert.True(t, IsNNF(g))
	assert.Less(t, g.Size(), 10*f.Size())
}

func TestIsNNF(t *testing.T) {
	assert.True(t, IsNNF(MustParse("G(!p || F q) && !r U Y !s")))
	assert.False(t, IsNNF(MustParse("!G p")))
	assert.False(t, IsNNF(MustParse("p -> q")))
	assert.False(t, IsNNF(MustParse("start(p)")))
	assert.False(t, IsNNF(MustParse("[p, q)w")))
	assert.False(t, IsNNF(Formula{}))
}
