package synth

import (
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// mutateAIG returns a copy of a with one random change: an and-gate's
// operand, an output or a latch's next value replaced by another literal
// the graph may read there (a constant, an input, a latch or an earlier
// gate, either polarity), a goal latch made to flip on every step, or the
// names of a goal latch and another latch swapped (the same circuit, with
// a false goal-counter hint). Most of the changes hit the goal counter's
// latches or the gates just below the outputs, where the liveness
// guarantees are decided.
func mutateAIG(a *AIG, rng *rand.Rand) (*AIG, string) {
	b := *a
	b.Ands = append([]AIGAnd(nil), a.Ands...)
	b.Latches = append([]AIGNext(nil), a.Latches...)
	b.Outputs = append([]uint32(nil), a.Outputs...)
	lit := func(below int) uint32 { return uint32(rng.IntN(2 * below)) } // a literal of a variable < below
	prim := a.Inputs + len(a.Latches) + 1
	var goal []int
	for l, n := range a.LatchNames {
		if strings.HasPrefix(n, goalLatchPrefix) {
			goal = append(goal, l)
		}
	}
	switch k := rng.IntN(6); {
	case k == 5 && len(goal) > 0:
		// A counter bit that flips on every step: the controller keeps
		// its safety (each goal's moves are safe wherever it is won) but
		// may leave a guarantee before meeting it.
		l := goal[rng.IntN(len(goal))]
		b.Latches[l].Next = uint32(2*(a.Inputs+1+l)) | 1
		return &b, "goal latch " + a.LatchNames[l] + " flips"
	case k == 4 && len(goal) > 0 && len(a.Latches) > 1:
		// The same circuit with a false hint: a goal latch's name
		// swapped with another latch's.
		b.LatchNames = append([]string(nil), a.LatchNames...)
		g, l := goal[rng.IntN(len(goal))], rng.IntN(len(a.Latches))
		b.LatchNames[g], b.LatchNames[l] = b.LatchNames[l], b.LatchNames[g]
		return &b, "latch names " + a.LatchNames[g] + " and " + a.LatchNames[l] + " swapped"
	case k == 0 && len(goal) > 0:
		l := goal[rng.IntN(len(goal))]
		b.Latches[l].Next = lit(a.MaxVar + 1)
		return &b, "goal latch " + a.LatchNames[l]
	case k == 1:
		o := rng.IntN(len(a.Outputs))
		b.Outputs[o] = lit(a.MaxVar + 1)
		return &b, "output " + a.OutputNames[o]
	default:
		i := rng.IntN(len(a.Ands))
		if k == 2 && len(a.Ands) > 8 {
			i = len(a.Ands) - 1 - rng.IntN(8)
		}
		x := lit(prim + i)
		if rng.IntN(2) == 0 {
			b.Ands[i].A = x
		} else {
			b.Ands[i].B = x
		}
		return &b, "gate"
	}
}

// TestCheckAIGGoalProofAgrees checks mutants of stored controllers with
// and without the goal-counter proof (and each in its own variable order),
// and by the default before its one-product test of the goal counter,
// balanced step relation and test of SYS_TRANS by the states with a bad
// step (with the goal proof also computed with the
// counter's moves tested and its fair cycles searched the other way, in
// one check that fails if the two disagree): the verdicts must agree (all pass, or all
// refute), and the mutants must include circuits of each verdict,
// some refuted for a liveness guarantee. The seed is fixed; a failure
// names it and the mutation.
func TestCheckAIGGoalProofAgrees(t *testing.T) {
	ctx := context.Background()
	arbiter, arbiterAIG := arbiterCircuit(t)
	cases := []struct {
		name    string
		spec    *Spec
		a       *AIG
		mutants int
	}{
		{"arbiter", arbiter, arbiterAIG, 40},
		{"amba2", ambaForTest(t, 2), ambaCircuit(t, 2), 8},
	}
	if !testing.Short() {
		cases[0].mutants, cases[1].mutants = 200, 60
	}
	const seed = 20261128
	var liveness int
	for _, c := range cases {
		rng := rand.New(rand.NewPCG(seed, 1))
		var pass, refuted int
		for m := range c.mutants {
			b, what := mutateAIG(c.a, rng)
			// The default, its goal proof computed both ways
			// (checkGoal fails the check if they disagree), and the
			// default before goalOneTest, treeStep and badStates.
			both := defaultCheck()
			both.checkGoal = true
			byGoal := checkAIG(ctx, c.spec, b, both)
			previous := checkAIG(ctx, c.spec, b, previousCheck())
			perJ := checkAIG(ctx, c.spec, b, checkMethod{})
			for _, err := range []error{byGoal, previous, perJ} {
				if err != nil && !errors.Is(err, ErrRefuted) {
					t.Fatalf("%s mutant %d (seed %d, %s): check failed without a verdict: %v", c.name, m, seed, what, err)
				}
			}
			if (byGoal == nil) != (perJ == nil) || (previous == nil) != (perJ == nil) {
				t.Fatalf("%s mutant %d (seed %d, %s): by goal: %v; previous default: %v; per guarantee: %v", c.name, m, seed, what, byGoal, previous, perJ)
			}
			switch {
			case perJ == nil:
				pass++
			case strings.Contains(perJ.Error(), "starves"):
				liveness++
				refuted++
			default:
				refuted++
			}
		}
		t.Logf("%s: %d mutants pass, %d refuted (%d for liveness so far)", c.name, pass, refuted, liveness)
		assert.Positive(t, pass, "%s: no mutant passes", c.name)
		assert.Positive(t, refuted, "%s: no mutant is refuted", c.name)
	}
	assert.Positive(t, liveness, "no mutant is refuted for liveness")
}
