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
// gate, either polarity). Half of the changes hit the goal counter's
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
	switch k := rng.IntN(4); {
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
// and without the goal-counter proof (and each in its own variable order): the verdicts must agree (both pass,
// or both refute), and the mutants must include circuits of each verdict,
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
		{"amba2", ambaForTest(t, 2), ambaCircuit(t, 2), 5},
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
			byGoal := checkAIG(ctx, c.spec, b, defaultCheck())
			perJ := checkAIG(ctx, c.spec, b, checkMethod{})
			for _, err := range []error{byGoal, perJ} {
				if err != nil && !errors.Is(err, ErrRefuted) {
					t.Fatalf("%s mutant %d (seed %d, %s): check failed without a verdict: %v", c.name, m, seed, what, err)
				}
			}
			if (byGoal == nil) != (perJ == nil) {
				t.Fatalf("%s mutant %d (seed %d, %s): by goal: %v; per guarantee: %v", c.name, m, seed, what, byGoal, perJ)
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
