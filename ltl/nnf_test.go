package ltl_test

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/henceforth-go/henceforth/internal/vectors"
	"github.com/henceforth-go/henceforth/ltl"
)

var semantics = []ltl.Semantics{ltl.LTLf, ltl.RosuHavelund}

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
		for _, f := range everyOperator([]ltl.Formula{p, ltl.Not(q), ltl.Eventually(q), ltl.Yesterday(p)}) {
			for _, g := range []ltl.Formula{f, ltl.Not(f)} {
				n := ltl.NNF(g, sem)
				require.True(t, ltl.IsNNF(n), "%v: NNF(%v) = %v", sem, g, n)
				tr, pos, differ := firstDifference(g, n, traces, sem)
				require.False(t, differ, "%v: NNF(%v) = %v differs on %v at %d", sem, g, n, tr, pos)
			}
		}
	}
}

// TestNNFRandom checks NNF on random formulas and traces.
func TestNNFRandom(t *testing.T) {
	forRandomFormulas(t, 7, 3000, ltl.RandomConfig{MaxDepth: 6}, func(f ltl.Formula, sem ltl.Semantics, rng *rand.Rand) {
		g := ltl.NNF(f, sem)
		require.True(t, ltl.IsNNF(g), "%v: NNF(%v) = %v", sem, f, g)
		assert.Equal(t, g, ltl.NNF(g, sem), "NNF is idempotent")
		for range 8 {
			tr := ltl.RandomTrace(rng, []string{"p", "q", "r"}, 7)
			require.Equal(t, -1, difference(f, g, tr, sem), "%v: %v vs NNF %v on %v", sem, f, g, tr)
		}
	})
}

// TestNNFForms checks the shape of NNF on examples.
func TestNNFForms(t *testing.T) {
	tests := []struct {
		sem  ltl.Semantics
		src  string
		want string
	}{
		{ltl.LTLf, "!G(p -> F q)", "F(p && G !q)"},
		{ltl.LTLf, "!(p U q)", "!p R !q"},
		{ltl.LTLf, "!(p W q)", "!p M !q"},
		{ltl.LTLf, "!(p R q)", "!p U !q"},
		{ltl.LTLf, "!(p M q)", "!p W !q"},
		{ltl.LTLf, "!X p", "N !p"},
		{ltl.LTLf, "!N p", "X !p"},
		{ltl.LTLf, "!Y p", "Z !p"},
		{ltl.LTLf, "!Z p", "Y !p"},
		{ltl.LTLf, "!O p", "H !p"},
		{ltl.LTLf, "!H p", "O !p"},
		{ltl.LTLf, "!(p S q)", "!q B (!p && !q)"},
		{ltl.LTLf, "!(p B q)", "!q S (!p && !q)"},
		{ltl.LTLf, "start(p)", "p && Y !p"},
		{ltl.LTLf, "!start(p)", "!p || Z p"},
		{ltl.LTLf, "end(p)", "!p && Y p"},
		{ltl.LTLf, "!end(p)", "p || Z !p"},
		{ltl.LTLf, "[p, q)s", "!q S (p && !q)"},
		{ltl.LTLf, "[p, q)w", "!q B (p && !q)"},
		{ltl.LTLf, "![p, q)s", "(!p || q) B q"},
		{ltl.LTLf, "![p, q)w", "(!p || q) S q"},
		{ltl.LTLf, "p <-> q", "p && q || !p && !q"},
		{ltl.LTLf, "!(p <-> q)", "p && !q || !p && q"},
		{ltl.LTLf, "p ^ q", "p && !q || !p && q"},
		{ltl.LTLf, "!!!p", "!p"},
		{ltl.LTLf, "!true", "false"},
		{ltl.RosuHavelund, "!F p", "!p U (!p && N false)"},
		{ltl.RosuHavelund, "!G p", "F(!p && X true)"},
		{ltl.RosuHavelund, "!(p U q)", "!q U (!q && (!p || N false))"},
		{ltl.RosuHavelund, "!(p R q)", "!p U (!q && X true)"},
		{ltl.RosuHavelund, "!X p", "N !p"},
		{ltl.RosuHavelund, "!Y p", "Z !p"},
	}
	for _, tt := range tests {
		t.Run(tt.sem.String()+" "+tt.src, func(t *testing.T) {
			assert.Equal(t, tt.want, ltl.NNF(ltl.MustParse(tt.src), tt.sem).String())
		})
	}
}

// TestNNFDualityNeedsSemantics shows why NNF takes the semantics: under
// RosuHavelund F reaches the empty suffix and G does not, so !F !p is not
// G p (the future-time paper's own example).
func TestNNFDualityNeedsSemantics(t *testing.T) {
	notFnotP := ltl.MustParse("!F !p")
	tr := vectors.ParseEvents("p p")
	assert.False(t, ltl.Eval(notFnotP, tr, ltl.RosuHavelund))
	assert.True(t, ltl.Eval(ltl.MustParse("G p"), tr, ltl.RosuHavelund))
	assert.False(t, ltl.Eval(ltl.NNF(notFnotP, ltl.RosuHavelund), tr, ltl.RosuHavelund))
	assert.Equal(t, "G p", ltl.NNF(notFnotP, ltl.LTLf).String())
	assert.True(t, ltl.Eval(ltl.NNF(notFnotP, ltl.LTLf), tr, ltl.LTLf))
}

// TestNNFSharing checks that NNF keeps shared subformulas shared: a chain
// of n nested iffs stays linear in size, not exponential.
func TestNNFSharing(t *testing.T) {
	f := p
	for range 40 {
		f = ltl.Iff(f, q)
	}
	g := ltl.NNF(f, ltl.LTLf)
	assert.True(t, ltl.IsNNF(g))
	assert.Less(t, g.Size(), 10*f.Size())
}

func TestIsNNF(t *testing.T) {
	assert.True(t, ltl.IsNNF(ltl.MustParse("G(!p || F q) && !r U Y !s")))
	assert.False(t, ltl.IsNNF(ltl.MustParse("!G p")))
	assert.False(t, ltl.IsNNF(ltl.MustParse("p -> q")))
	assert.False(t, ltl.IsNNF(ltl.MustParse("start(p)")))
	assert.False(t, ltl.IsNNF(ltl.MustParse("[p, q)w")))
	assert.False(t, ltl.IsNNF(ltl.Formula{}))
}
