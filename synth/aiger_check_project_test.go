package synth

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestCheckAIGProjectedReach checks the stored controllers (the arbiter,
// AMBA n = 2…4) and mutants of the smaller ones with the reachability over
// the closed loop without its unread outputs (checkMethod.projectReach),
// with the reachable states also computed by the closed loop's own
// breadth-first search in the same check (checkReach fails the check if
// the two sets differ), and without the projection: the verdicts must
// agree, and the projection must drop outputs on the AMBA circuits (else
// the comparison would test nothing). The seed is fixed; a failure names
// it and the mutation.
func TestCheckAIGProjectedReach(t *testing.T) {
	ctx := context.Background()
	arbiter, arbiterAIG := arbiterCircuit(t)
	type circuit struct {
		name    string
		spec    *Spec
		a       *AIG
		mutants int
	}
	cases := []circuit{{"arbiter", arbiter, arbiterAIG, 20}, {"amba2", ambaForTest(t, 2), ambaCircuit(t, 2), 8}}
	for n := 3; n <= 4; n++ {
		cases = append(cases, circuit{fmt.Sprintf("amba%d", n), ambaForTest(t, n), ambaCircuit(t, n), 0})
	}
	if !testing.Short() {
		cases[0].mutants, cases[1].mutants = 60, 30
	}
	const seed = 20261128
	var pass, refuted int
	for _, c := range cases {
		rng := rand.New(rand.NewPCG(seed, 4))
		dropped := 0
		both := defaultCheck()
		both.projectReach, both.checkReach = true, true
		both.projected = func(n int) { dropped += n }
		without := defaultCheck()
		without.projectReach = false
		for m := -1; m < c.mutants; m++ {
			a, what := c.a, "as stored"
			if m >= 0 {
				a, what = mutateAIG(c.a, rng)
			}
			got := checkAIG(ctx, c.spec, a, both)
			if got != nil && !errors.Is(got, ErrRefuted) {
				t.Fatalf("%s mutant %d (seed %d, %s): %v", c.name, m, seed, what, got)
			}
			want := checkAIG(ctx, c.spec, a, without)
			require.Equal(t, want == nil, got == nil, "%s mutant %d (seed %d, %s): without the projection %v, with it %v", c.name, m, seed, what, want, got)
			if m < 0 {
				require.NoError(t, got, "%s as stored", c.name)
				continue
			}
			if got == nil {
				pass++
			} else {
				refuted++
			}
		}
		t.Logf("%s: %d outputs dropped in all", c.name, dropped)
		if c.name != "arbiter" {
			require.Positive(t, dropped, "%s: no output dropped", c.name)
		}
	}
	require.Positive(t, pass, "no mutant passes")
	require.Positive(t, refuted, "no mutant is refuted")
}
