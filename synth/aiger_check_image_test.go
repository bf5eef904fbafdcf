package synth

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/henceforth-go/henceforth/internal/fds"
	"github.com/stretchr/testify/require"
)

// TestCheckAIGImagesSameReach computes the reachable states of the
// stored controllers (the arbiter, AMBA n = 2…4) and of mutants of the
// smaller ones both with the unread current bits quantified first and by
// one relational product, in one check: the two sets must be the same
// BDD (checkReach fails the check otherwise), and the verdict the same as
// by the relational product alone.
func TestCheckAIGImagesSameReach(t *testing.T) {
	ctx := context.Background()
	cases := storedCircuits(t, 20, 5)
	both := defaultCheck()
	both.checkReach = true
	const seed = 20261128
	for _, c := range cases {
		rng := rand.New(rand.NewPCG(seed, 2))
		for m := -1; m < c.mutants; m++ {
			a, what := c.a, "as stored"
			if m >= 0 {
				a, what = mutateAIG(c.a, rng)
			}
			got := checkAIG(ctx, c.spec, a, both)
			if got != nil && !errors.Is(got, ErrRefuted) {
				t.Fatalf("%s mutant %d (seed %d, %s): %v", c.name, m, seed, what, got)
			}
			product := defaultCheck()
			product.unreadFirst = false
			want := checkAIG(ctx, c.spec, a, product)
			require.Equal(t, want == nil, got == nil, "%s mutant %d (seed %d, %s): one product %v, both images %v", c.name, m, seed, what, want, got)
			if m < 0 {
				require.NoError(t, got, "%s as stored", c.name)
			}
		}
	}
}

// arbiterCircuit reads the arbiter spec and its stored controller
// (testdata/circuit/arbiter.aag).
func arbiterCircuit(t *testing.T) (*Spec, *AIG) {
	t.Helper()
	spec, err := ParseFile(filepath.Join("testdata", "specs", "arbiter.structuredslugs"))
	require.NoError(t, err)
	f, err := os.Open(filepath.Join("testdata", "circuit", "arbiter.aag"))
	require.NoError(t, err)
	defer f.Close()
	a, err := ParseAIGER(f.Name(), f)
	require.NoError(t, err)
	return spec, a
}

// TestConjoinTreeIsTheConjunction conjoins random clauses over a few
// variables in a balanced tree and in a chain, for every count from none
// to 9: the two must be the same BDD. The seed is fixed and printed on
// failure.
func TestConjoinTreeIsTheConjunction(t *testing.T) {
	sp := fds.NewSpace()
	var vars []*fds.Var
	for i := range 6 {
		v, err := sp.Bool(fmt.Sprintf("v%d", i))
		require.NoError(t, err)
		vars = append(vars, v)
	}
	const seed = 20261128
	rng := rand.New(rand.NewPCG(seed, 3))
	for n := range 10 {
		var parts []fds.BDD
		chain := sp.True()
		for range n {
			c := sp.False()
			for _, v := range vars {
				switch rng.IntN(3) {
				case 0:
					c = c.Or(v.True(false))
				case 1:
					c = c.Or(v.True(false).Not())
				}
			}
			parts = append(parts, c)
			chain = chain.And(c)
		}
		require.True(t, conjoinTree(sp, parts).Equal(chain), "%d clauses (seed %d)", n, seed)
	}
}

// mutatedCircuit is a circuit a test checks as stored and in mutants
// (mutateAIG).
type mutatedCircuit struct {
	name    string
	spec    *Spec
	a       *AIG
	mutants int
}

// storedCircuits is the arbiter's circuit with arbiterMutants mutants, the
// stored AMBA n = 2 circuit with amba2Mutants, and the stored AMBA n = 3
// and 4 circuits without mutants.
func storedCircuits(t *testing.T, arbiterMutants, amba2Mutants int) []mutatedCircuit {
	arbiter, arbiterAIG := arbiterCircuit(t)
	cases := []mutatedCircuit{{"arbiter", arbiter, arbiterAIG, arbiterMutants}, {"amba2", ambaForTest(t, 2), ambaCircuit(t, 2), amba2Mutants}}
	for n := 3; n <= 4; n++ {
		cases = append(cases, mutatedCircuit{fmt.Sprintf("amba%d", n), ambaForTest(t, n), ambaCircuit(t, n), 0})
	}
	return cases
}
