package synth

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestCheckAIGProjectedReach checks the stored controllers (the arbiter,
// AMBA n = 2…4) and mutants of the smaller ones with the reachability and
// the goal counter's fair-cycle searches over the closed loop without its
// unread outputs (checkMethod.projectReach, projectGoal), with the
// reachable states also computed by the closed loop's own breadth-first
// search in the same check (checkReach fails the check if the two sets
// differ) and the goal proof computed also with one fair-cycle search for
// every counter value, which does not project (checkGoal fails the check
// if the two proofs disagree), and without the projection: the verdicts must agree, and on
// the arbiter and the AMBA n = 2 circuit synthesized now the projection
// must drop outputs and the goal proof search over it (else the
// comparison would test nothing; the stored AMBA circuits, written by an
// older determinization, drop none as stored). The seed is fixed; a
// failure names it and the mutation.
func TestCheckAIGProjectedReach(t *testing.T) {
	cases := withSynthesized(t, 20, 4, 8)
	if !testing.Short() {
		cases[0].mutants, cases[1].mutants, cases[2].mutants = 60, 40, 20
	}
	const seed = 20261128
	var pass, refuted int
	for _, c := range cases {
		dropped, goal := 0, 0
		both := defaultCheck()
		both.projectReach, both.projectGoal, both.checkReach, both.checkGoal = true, true, true, true
		both.projected = func(n int) { dropped += n }
		both.goalProjected = func() { goal++ }
		without := defaultCheck()
		without.projectReach = false
		c.eachMutant(seed, 4, func(m int, a *AIG, what string) {
			got, want := c.checkTwice(t, a, fmt.Sprintf("mutant %d, seed %d, %s", m, seed, what), both, without)
			require.Equal(t, want == nil, got == nil, "%s mutant %d (seed %d, %s): without the projection %v, with it %v", c.name, m, seed, what, want, got)
			if m < 0 {
				require.NoError(t, got, "%s as stored", c.name)
				return
			}
			if got == nil {
				pass++
			} else {
				refuted++
			}
		})
		t.Logf("%s: %d outputs dropped in all, %d projected goal searches", c.name, dropped, goal)
		if c.name == "arbiter" || c.name == "amba2 synthesized" {
			require.Positive(t, dropped, "%s: no output dropped", c.name)
			require.Positive(t, goal, "%s: no projected goal search", c.name)
		}
	}
	require.Positive(t, pass, "no mutant passes")
	require.Positive(t, refuted, "no mutant is refuted")
}
