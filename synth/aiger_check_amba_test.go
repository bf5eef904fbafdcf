package synth

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// ambaCircuit reads the stored controller circuit for AMBA n
// (testdata/circuit/ambaN.aig, written by Circuit.AIG and WriteAIG from a
// determinized strategy): a fixed circuit, so that the check's cost can be
// compared across runs without the determinization's variance.
func ambaCircuit(t testing.TB, n int) *AIG {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "circuit", fmt.Sprintf("amba%d.aig", n)))
	require.NoError(t, err)
	defer f.Close()
	a, err := ParseAIGER(f.Name(), f)
	require.NoError(t, err)
	return a
}

// TestCheckAIGAMBAStored checks the stored AMBA n = 2 controller, and
// refutes it with one output forced to a constant: a grant that never
// comes (SYS_LIVENESS) and one that always comes (SYS_TRANS: at most one
// grant, or the initial state).
func TestCheckAIGAMBAStored(t *testing.T) {
	ctx := context.Background()
	spec := ambaForTest(t, 2)
	a := ambaCircuit(t, 2)
	require.NoError(t, CheckAIG(ctx, spec, a))
	for o, name := range a.OutputNames {
		if name != "hgrant1" {
			continue
		}
		for _, lit := range []uint32{0, 1} {
			bad := *a
			bad.Outputs = append([]uint32(nil), a.Outputs...)
			bad.Outputs[o] = lit
			err := CheckAIG(ctx, spec, &bad)
			assert.ErrorIs(t, err, ErrRefuted, "%s forced to %d", name, lit)
		}
		return
	}
	t.Fatal("the stored circuit has no output hgrant1")
}

// BenchmarkCheckAIG model-checks the stored AMBA controllers (n = 2…5)
// by CheckAIG's default, and, as baselines in the same run, by the check
// without the circuit's variable order and goal-counter proof (baseline:
// one Emerson–Lei search per guarantee in the spec's order) and with
// dynamic reordering (sifting). check-cpu-s is the process's CPU time for
// the check: the machine is shared, so it is the figure to compare; ands
// is the circuit's size.
//
//	go test -run '^$' -bench CheckAIG -benchtime 1x ./synth
func BenchmarkCheckAIG(b *testing.B) {
	for n := 2; n <= 5; n++ {
		spec := ambaSpec(b, n)
		a := ambaCircuit(b, n)
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) { benchCheckVariants(b, spec, a, true, productImageVariant()) })
	}
}

// BenchmarkCheckAIGSynthesized model-checks the controllers that
// Circuit synthesizes now for AMBA n = 4, 5, … (each synthesized once,
// untimed, then checked as BenchmarkCheckAIG does, the baseline up to
// n = 8; the previous default; the default with the kernel's sifting
// bound (sift-1.20); the default with the reachability over the whole
// closed loop (no-project), without the projected goal searches
// (no-project-goal), with the closed loop's relation conjoined whole
// after the projection (whole-loop), with the goal counter's moves tested
// by the reachable steps (goal-reach-steps), without all three
// (unprojected), with
// one sifting pass instead of two (sift-once), with the spec's sections
// conjoined without dynamic reordering (no-sift-spec), and without the
// multiplexers' order (no-mux); and up
// to n = 9 the default without each
// of its later choices: chain-step, no-sift, reach-steps, and one-search
// with one), until one n's check takes more than 120 s of CPU. Each
// phase's CPU time is reported as a metric of its own (PHASE-cpu-s).
//
//	go test -run '^$' -bench CheckAIGSynthesized -benchtime 1x -timeout 4h ./synth
func BenchmarkCheckAIGSynthesized(b *testing.B) {
	var last time.Duration
	for n := 4; n <= 12 && last <= benchLimit; n++ {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			spec := ambaSpec(b, n)
			a, err := circuitOf(b, spec).AIG()
			require.NoError(b, err)
			// Each variant without one of the default's choices, up to
			// n = 9 (without sifting n = 9 takes 2.5× the default).
			more := []checkVariant{
				// the step relation conjoined in a chain
				variantOf("chain-step", func(m *checkMethod) { m.treeStep = false }),
				variantOf("no-sift", func(m *checkMethod) { m.siftGates = false }),
				// one fair-cycle search for every value of the goal counter
				variantOf("one-search", func(m *checkMethod) { m.goalOneSearch = true }),
				// SYS_TRANS tested by a product with the reachable states
				variantOf("reach-steps", func(m *checkMethod) { m.badStates = false }),
			}
			for i := range more {
				more[i].run = n <= 9
			}
			more = append([]checkVariant{{"baseline", checkMethod{}, nil, n <= 8}, productImageVariant(),
				{"previous", previousCheck(), nil, true},
				// aigOrder's ranking without muxOrder's refinement
				variantOf("no-mux", func(m *checkMethod) { m.muxOrder = false }),
				// one sifting pass, whatever it gained
				variantOf("sift-once", func(m *checkMethod) { m.siftPasses = 0 }),
				// the second sifting pass whatever the first gained
				variantOf("sift-twice", func(m *checkMethod) { m.siftAgainGain = 0 }),
				// the spec's sections conjoined without dynamic reordering
				variantOf("no-sift-spec", func(m *checkMethod) { m.siftSpec = false }),
				// the spec's sections' dynamic reorderings with the kernel's bound
				variantOf("spec-sift-1.20", func(m *checkMethod) { m.specSiftGrowth = 0 }),
				// the spec's sections conjoined before the circuit's functions are built
				variantOf("spec-first", func(m *checkMethod) { m.gatesFirst = false }),
				// the sifting pass with the kernel's bound
				variantOf("sift-1.20", func(m *checkMethod) { m.siftGrowth = 1.2 }),
				// the reachability over the whole closed loop
				variantOf("no-project", func(m *checkMethod) { m.projectReach = false }),
				// the goal counter's fair-cycle searches over it
				variantOf("no-project-goal", func(m *checkMethod) { m.projectGoal = false }),
				// the closed loop's relation conjoined whole after the reachability's projection
				variantOf("whole-loop", func(m *checkMethod) { m.factoredLoop = false }),
				// the goal counter's moves tested by reach ∧ bad against the relation
				variantOf("goal-reach-steps", func(m *checkMethod) { m.goalBadStates = false }),
				// the default before the three above
				variantOf("unprojected", func(m *checkMethod) { m.projectReach, m.projectGoal, m.goalBadStates = false, false, false }),
			}, more...)
			last = benchCheckVariants(b, spec, a, false, more...)
		})
	}
}

// checkVariant is one way of checking a circuit in a benchmark.
type checkVariant struct {
	name   string
	method checkMethod
	opts   []Option
	run    bool
}

// benchCheckVariants checks a against spec by the default method and the
// variants given (with sifting too if sift), one sub-benchmark each, and
// returns the default's CPU time.
func benchCheckVariants(b *testing.B, spec *Spec, a *AIG, sift bool, more ...checkVariant) time.Duration {
	ctx := context.Background()
	vs := []checkVariant{{"default", defaultCheck(), nil, true}}
	if sift {
		vs = append(vs, checkVariant{"baseline", checkMethod{}, nil, true}, checkVariant{"sifting", defaultCheck(), []Option{WithReordering(true)}, true})
	}
	vs = append(vs, more...)
	var def time.Duration
	for _, v := range vs {
		if !v.run {
			continue
		}
		b.Run(v.name, func(b *testing.B) {
			var cpu time.Duration
			// The CPU time of each phase of the check (checkMethod.phase),
			// reported as its own metric.
			phases := map[string]time.Duration{}
			var prev time.Duration
			m := v.method
			m.phase = func(name string) {
				now := cpuTime()
				phases[name] += now - prev
				prev = now
			}
			for b.Loop() {
				c0 := cpuTime()
				prev = c0
				if err := checkAIG(ctx, spec, a, m, v.opts...); err != nil {
					b.Fatal(err)
				}
				cpu += cpuTime() - c0
			}
			for name, d := range phases {
				b.ReportMetric(d.Seconds()/float64(b.N), name+"-cpu-s")
			}
			if v.name == "default" {
				def = cpu / time.Duration(b.N)
			}
			b.ReportMetric(cpu.Seconds()/float64(b.N), "check-cpu-s")
			b.ReportMetric(float64(a.NumAnds()), "ands")
		})
	}
	return def
}

// variantOf is the default check with change applied, named name.
func variantOf(name string, change func(m *checkMethod)) checkVariant {
	m := defaultCheck()
	change(&m)
	return checkVariant{name, m, nil, true}
}

// productImageVariant is the default check with each image of the
// reachability one relational product over every current bit (without
// checkMethod.unreadFirst).
func productImageVariant() checkVariant {
	return variantOf("product-image", func(m *checkMethod) { m.unreadFirst = false })
}

// previousCheck is the default check without the one-product test of the
// goal counter's moves, the balanced step relation, the test of SYS_TRANS
// by the states with a bad step and the sifting pass's bound
// (checkMethod.goalOneTest, treeStep, badStates, siftGrowth) and without
// the projected reachability and the second sifting pass (projectReach,
// projectGoal, goalBadStates, siftPasses, added later): CheckAIG before
// the first four were added (and before muxOrder, siftSpec and
// gatesFirst).
func previousCheck() checkMethod {
	m := defaultCheck()
	m.goalOneTest, m.treeStep, m.badStates, m.siftGrowth, m.projectReach, m.projectGoal, m.goalBadStates = false, false, false, 0, false, false, false
	m.siftPasses, m.muxOrder, m.siftSpec, m.gatesFirst = 0, false, false, false
	return m
}
