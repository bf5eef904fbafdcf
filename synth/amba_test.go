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
// region size (the formats give the same clauses), and equivalent
// controllers: run in lockstep on the same inputs they answer alike, and
// each meets the spec as read from another format.
func TestAMBAFormats(t *testing.T) {
	ns := []int{2}
	if !testing.Short() {
		ns = append(ns, 3, 4)
	}
	ctx := context.Background()
	formats := []string{"slugsin", "structuredslugs", "tlsf"}
	for _, n := range ns {
		t.Run(fmt.Sprintf("amba%d", n), func(t *testing.T) {
			var first *Result
			var specs []*Spec
			var ctrls []*Controller
			for _, ext := range formats {
				spec, err := ParseFile(benchmarkPath(t, ambaDir, fmt.Sprintf("amba%d.%s", n, ext)))
				require.NoError(t, err)
				// Sizes are compared: without reordering they depend only on the game.
				res, err := spec.Realizable(ctx, WithReordering(false))
				require.NoError(t, err)
				require.True(t, res.Realizable, ext)
				if n <= 3 {
					c, err := res.Controller(ctx)
					require.NoError(t, err)
					specs, ctrls = append(specs, spec), append(ctrls, c)
				}
				if first == nil {
					first = res
					continue
				}
				assert.Equal(t, varDecls(first.Spec.Inputs), varDecls(res.Spec.Inputs), ext)
				assert.Equal(t, varDecls(first.Spec.Outputs), varDecls(res.Spec.Outputs), ext)
				assert.Equal(t, first.Stats.OuterIterations, res.Stats.OuterIterations, ext)
				assert.Equal(t, first.Stats.InnerSteps, res.Stats.InnerSteps, ext)
				assert.Equal(t, first.Stats.WinningNodes, res.Stats.WinningNodes, ext)
				assert.Equal(t, len(first.Spec.Clauses), len(res.Spec.Clauses), ext)
			}
			if ctrls == nil {
				return
			}
			lockstep(t, formats, ctrls, 300)
			for i, c := range ctrls {
				other := (i + 1) % len(specs)
				t.Logf("controller from .%s against the spec from .%s", formats[i], formats[other])
				simulateLassos(t, specs[other], c, 20)
			}
		})
	}
}

// varDecls lists variables as declared, without their positions.
func varDecls(vs []Var) []string {
	var out []string
	for _, v := range vs {
		out = append(out, v.String())
	}
	return out
}

// lockstep runs the controllers side by side on the same random legal
// inputs and requires the same outputs at every step; when the environment
// has no legal input left, all restart.
func lockstep(t *testing.T, names []string, ctrls []*Controller, steps int) {
	t.Helper()
	seed := uint64(steps)
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 5))
	runs := make([]*ControllerRun, len(ctrls))
	restart := func() {
		for i, c := range ctrls {
			runs[i] = c.Run()
		}
	}
	restart()
	compared := 0
	for step := range steps {
		var legal [][]int
		runs[0].LegalInputs(func(in []int) bool {
			legal = append(legal, in)
			return len(legal) < 256
		})
		if len(legal) == 0 {
			restart()
			continue
		}
		in := legal[r.IntN(len(legal))]
		var want []int
		for i, run := range runs {
			out, err := run.StepValues(in)
			require.NoError(t, err, "seed %d step %d: .%s controller", seed, step, names[i])
			if i == 0 {
				want = out
				continue
			}
			require.Equal(t, want, out, "seed %d step %d: .%s and .%s controllers answer %v differently", seed, step, names[0], names[i], in)
		}
		compared++
	}
	assert.Greater(t, compared, steps/2, "most steps compare the controllers")
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
