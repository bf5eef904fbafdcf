package synth

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
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
	cases := storedCircuits(t, 20, 5)
	both := defaultCheck()
	both.checkReach = true
	const seed = 20261128
	for _, c := range cases {
		c.eachMutant(seed, 2, func(m int, a *AIG, what string) {
			product := defaultCheck()
			product.unreadFirst = false
			got, want := c.checkTwice(t, a, fmt.Sprintf("mutant %d, seed %d, %s", m, seed, what), both, product)
			require.Equal(t, want == nil, got == nil, "%s mutant %d (seed %d, %s): one product %v, both images %v", c.name, m, seed, what, want, got)
			if m < 0 {
				require.NoError(t, got, "%s as stored", c.name)
			}
		})
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

// withSynthesized is storedCircuits with, second, the AMBA n = 2 circuit
// Circuit synthesizes now, with synthesizedMutants mutants.
func withSynthesized(t *testing.T, arbiterMutants, amba2Mutants, synthesizedMutants int) []mutatedCircuit {
	stored := storedCircuits(t, arbiterMutants, amba2Mutants)
	amba2 := stored[1].spec
	synthesized, err := circuitOf(t, amba2).AIG()
	require.NoError(t, err)
	return slices.Insert(stored, 1, mutatedCircuit{"amba2 synthesized", amba2, synthesized, synthesizedMutants})
}

// checkTwice checks a against c.spec by method first, then by second,
// and returns their verdicts; an error that is not a refutation fails the
// test, named by the mutant.
func (c mutatedCircuit) checkTwice(t *testing.T, a *AIG, what string, first, second checkMethod) (got, want error) {
	t.Helper()
	ctx := context.Background()
	got = checkAIG(ctx, c.spec, a, first)
	want = checkAIG(ctx, c.spec, a, second)
	for _, err := range []error{got, want} {
		if err != nil && !errors.Is(err, ErrRefuted) {
			t.Fatalf("%s (%s): %v", c.name, what, err)
		}
	}
	return got, want
}

// eachMutant calls f with c's circuit as stored (m = -1) and with each of
// its mutants (m = 0, 1, …), drawn by mutateAIG from a generator seeded
// with seed and stream; what says how the circuit was mutated.
func (c mutatedCircuit) eachMutant(seed, stream uint64, f func(m int, a *AIG, what string)) {
	rng := rand.New(rand.NewPCG(seed, stream))
	for m := -1; m < c.mutants; m++ {
		a, what := c.a, "as stored"
		if m >= 0 {
			a, what = mutateAIG(c.a, rng)
		}
		f(m, a, what)
	}
}
