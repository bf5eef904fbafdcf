package synth

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAMBAFormats reads the AMBA arbiter in the three formats: the same
// answer, the same number of fixpoint iterations and the same winning
// region size (the formats give the same clauses).
func TestAMBAFormats(t *testing.T) {
	ns := []int{2}
	if !testing.Short() {
		ns = append(ns, 3, 4)
	}
	ctx := context.Background()
	for _, n := range ns {
		t.Run(fmt.Sprintf("amba%d", n), func(t *testing.T) {
			var first *Result
			for _, ext := range []string{"slugsin", "structuredslugs", "tlsf"} {
				spec, err := ParseFile(benchmarkPath(t, ambaDir, fmt.Sprintf("amba%d.%s", n, ext)))
				require.NoError(t, err)
				res, err := spec.Realizable(ctx)
				require.NoError(t, err)
				require.True(t, res.Realizable, ext)
				if first == nil {
					first = res
					if n <= 3 {
						c, err := res.Controller(ctx)
						require.NoError(t, err)
						simulateLassos(t, spec, c, 20)
					}
					continue
				}
				assert.Equal(t, first.Stats.OuterIterations, res.Stats.OuterIterations, ext)
				assert.Equal(t, first.Stats.InnerSteps, res.Stats.InnerSteps, ext)
				assert.Equal(t, len(first.Spec.Clauses), len(res.Spec.Clauses), ext)
			}
		})
	}
}

// simulateLassos runs the symbolic controller against lasso-shaped
// environments: each repeats a random cycle of inputs (falling back to the
// first legal input when the chosen one is not allowed), so that the joint
// run is eventually periodic. Every step is checked against the guarantees
// with the interpreter, and on the periodic part, if every liveness
// assumption holds somewhere, every liveness guarantee must hold somewhere.
func simulateLassos(t *testing.T, spec *Spec, c *Controller, runs int) {
	t.Helper()
	seed := uint64(len(spec.Clauses))
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 11))
	ch := newChecker(spec)
	envJ, sysJ := ch.justice(EnvLiveness), ch.justice(SysLiveness)
	nIn := len(spec.Inputs)
	deadEnds, fairLoops := 0, 0
	defer func() {
		t.Logf("%d runs: %d fair loops checked, %d environment dead ends", runs, fairLoops, deadEnds)
		assert.Less(t, deadEnds, runs/2, "most runs reach a lasso")
		assert.Positive(t, fairLoops, "some loop meets every assumption")
	}()
	for run := range runs {
		period := 1 + r.IntN(4)
		cycle := make([][]int, period)
		for i := range cycle {
			// Prefer inputs that meet the transition assumptions read as
			// state conditions, so that the environment rarely paints
			// itself into a corner.
			for try := 0; try < 50; try++ {
				cycle[i] = make([]int, nIn)
				for k, v := range spec.Inputs {
					cycle[i][k] = v.Lo + r.IntN(v.Hi-v.Lo+1)
				}
				v := ch.valuation(append(append([]int(nil), cycle[i]...), make([]int, len(spec.Outputs))...))
				if ch.fails(EnvTrans, v, v) < 0 {
					break
				}
			}
		}
		sim := c.Run()
		seen := map[string]int{}
		var trace []valuation
		for step := 0; ; step++ {
			require.Less(t, step, 100000, "no lasso after 100000 steps")
			want := cycle[step%period]
			var in []int
			sim.LegalInputs(func(l []int) bool {
				if in == nil || equalInts(l, want) {
					in = l
				}
				return !equalInts(l, want)
			})
			if in == nil {
				deadEnds++ // the environment violated its assumptions: the run ends
				break
			}
			out, err := sim.StepValues(in)
			require.NoError(t, err, "run %d step %d", run, step)
			cur := ch.valuation(append(append([]int(nil), in...), out...))
			if step == 0 {
				require.Negative(t, ch.fails(SysInit, cur, nil), "run %d: initial state", run)
			} else {
				bad := ch.fails(SysTrans, trace[step-1], cur)
				require.Negative(t, bad, "run %d step %d violates a guarantee", run, step)
			}
			trace = append(trace, cur)
			key := fmt.Sprint(sim.st.vals, sim.st.mem, step%period)
			if start, ok := seen[key]; ok {
				holds := func(js []*Expr, i int) bool {
					for k := start; k < step; k++ {
						if evalExpr(js[i], trace[k], trace[k+1]) == 1 {
							return true
						}
					}
					return false
				}
				fair := true
				for i := range envJ {
					fair = fair && holds(envJ, i)
				}
				if fair {
					fairLoops++
					for j := range sysJ {
						assert.True(t, holds(sysJ, j), "run %d: loop %d..%d keeps the assumptions but never meets %s", run, start, step, ch.livenessName(SysLiveness, j))
					}
				}
				break
			}
			seen[key] = step
		}
	}
}
