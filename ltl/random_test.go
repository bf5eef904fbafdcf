package ltl_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/henceforth-go/henceforth/ltl"
)

func TestRandomDeterministic(t *testing.T) {
	gen := func(seed uint64) []string {
		rng := rand.New(rand.NewPCG(seed, 0))
		var out []string
		for range 50 {
			out = append(out, ltl.Random(rng, ltl.RandomConfig{}).String())
		}
		return out
	}
	assert.Equal(t, gen(1), gen(1))
	assert.NotEqual(t, gen(1), gen(2))
}

// TestRandomConfig checks that Random respects the atoms, depth and
// operator class it is given, and reaches every operator.
func TestRandomConfig(t *testing.T) {
	seed := uint64(3)
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 0))
	for _, class := range []ltl.Class{ltl.Propositional, ltl.PurePast, ltl.PureFuture, ltl.Mixed} {
		seen := map[ltl.Op]bool{}
		cfg := ltl.RandomConfig{Atoms: []string{"a", "b c"}, MaxDepth: 5, Ops: ltl.OpsOf(class)}
		for range 2000 {
			f := ltl.Random(rng, cfg)
			require.LessOrEqual(t, f.Depth(), 5)
			for _, atom := range f.Atoms() {
				require.Contains(t, cfg.Atoms, atom)
			}
			got := f.Classify()
			switch class {
			case ltl.Propositional:
				require.Equal(t, ltl.Propositional, got, "%v", f)
			case ltl.PurePast, ltl.PureFuture:
				require.Contains(t, []ltl.Class{ltl.Propositional, class}, got, "%v", f)
			}
			for _, g := range f.Subformulas() {
				seen[g.Op()] = true
			}
		}
		for _, op := range cfg.Ops {
			assert.True(t, seen[op], "%v: %v never generated", class, op)
		}
	}
}

func TestOpsOf(t *testing.T) {
	assert.Equal(t, []ltl.Op{ltl.OpNot, ltl.OpAnd, ltl.OpOr, ltl.OpXor, ltl.OpImplies, ltl.OpIff}, ltl.OpsOf(ltl.Propositional))
	assert.Contains(t, ltl.OpsOf(ltl.PurePast), ltl.OpIntervalWeak)
	assert.NotContains(t, ltl.OpsOf(ltl.PurePast), ltl.OpUntil)
	assert.Contains(t, ltl.OpsOf(ltl.PureFuture), ltl.OpUntil)
	assert.NotContains(t, ltl.OpsOf(ltl.PureFuture), ltl.OpStart)
	assert.Equal(t, ltl.AllOps(), ltl.OpsOf(ltl.Mixed))
	assert.Len(t, ltl.AllOps(), 24)
}

func TestRandomTrace(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 0))
	lengths := map[int]bool{}
	for range 500 {
		tr := ltl.RandomTrace(rng, []string{"p", "q"}, 4)
		require.LessOrEqual(t, tr.Len(), 4)
		lengths[tr.Len()] = true
		for _, st := range tr {
			require.True(t, slices.IsSorted(st) && len(st) <= 2, "%v", st)
		}
	}
	assert.Len(t, lengths, 5, "lengths 0…4 all occur")
	assert.Empty(t, ltl.RandomTrace(rng, []string{"p"}, 0))
}
