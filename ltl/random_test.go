package ltl_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	. "github.com/henceforth-go/henceforth/ltl"
)

func TestRandomDeterministic(t *testing.T) {
	gen := func(seed uint64) []string {
		rng := rand.New(rand.NewPCG(seed, 0))
		var out []string
		for range 50 {
			out = append(out, Random(rng, RandomConfig{}).String())
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
	for _, class := range []Class{Propositional, PurePast, PureFuture, Mixed} {
		seen := map[Op]bool{}
		cfg := RandomConfig{Atoms: []string{"a", "b c"}, MaxDepth: 5, Ops: OpsOf(class)}
		for range 2000 {
			f := Random(rng, cfg)
			require.LessOrEqual(t, f.Depth(), 5)
			for _, atom := range f.Atoms() {
				require.Contains(t, cfg.Atoms, atom)
			}
			got := f.Classify()
			switch class {
			case Propositional:
				require.Equal(t, Propositional, got, "%v", f)
			case PurePast, PureFuture:
				require.Contains(t, []Class{Propositional, class}, got, "%v", f)
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
	assert.Equal(t, []Op{OpNot, OpAnd, OpOr, OpXor, OpImplies, OpIff}, OpsOf(Propositional))
	assert.Contains(t, OpsOf(PurePast), OpIntervalWeak)
	assert.NotContains(t, OpsOf(PurePast), OpUntil)
	assert.Contains(t, OpsOf(PureFuture), OpUntil)
	assert.NotContains(t, OpsOf(PureFuture), OpStart)
	assert.Equal(t, AllOps(), OpsOf(Mixed))
	assert.Len(t, AllOps(), 24)
}

func TestRandomTrace(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 0))
	lengths := map[int]bool{}
	for range 500 {
		tr := RandomTrace(rng, []string{"p", "q"}, 4)
		require.LessOrEqual(t, tr.Len(), 4)
		lengths[tr.Len()] = true
		for _, st := range tr {
			require.True(t, slices.IsSorted(st) && len(st) <= 2, "%v", st)
		}
	}
	assert.Len(t, lengths, 5, "lengths 0…4 all occur")
	assert.Empty(t, RandomTrace(rng, []string{"p"}, 0))
}
