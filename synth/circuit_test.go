package synth

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// circuitOf realizes spec and determinizes its controller.
func circuitOf(t testing.TB, spec *Spec) *Circuit {
	t.Helper()
	circ, err := controllerOf(t, spec).Circuit(context.Background())
	require.NoError(t, err)
	require.NoError(t, circ.Validate())
	return circ
}

// controllerOf returns the controller of a realizable spec.
func controllerOf(t testing.TB, spec *Spec, opts ...Option) *Controller {
	t.Helper()
	ctx := context.Background()
	res, err := spec.Realizable(ctx, opts...)
	require.NoError(t, err)
	require.True(t, res.Realizable, spec.Name)
	c, err := res.Controller(ctx)
	require.NoError(t, err)
	return c
}

// circuitSpecs are the realizable specs the circuit tests use: Strict and
// Implication semantics, Boolean and integer variables, justice on states
// and on transitions.
func circuitSpecs(t testing.TB) []*Spec {
	var specs []*Spec
	for _, name := range []string{"arbiter.structuredslugs", "counter.structuredslugs", "e1_implication.tlsf", "handshake.tlsf"} {
		spec, err := ParseFile(filepath.Join("testdata", "specs", name))
		require.NoError(t, err)
		specs = append(specs, spec)
	}
	for _, name := range []string{"simple_safety_example.slugsin", "firefighting.slugsin", "water_reservoir.structuredslugs"} {
		spec, err := ParseFile(filepath.Join("testdata", "bench", "slugs", name))
		require.NoError(t, err)
		specs = append(specs, spec)
	}
	return append(specs, trafficLight(t, false), liftSpec(t, 3))
}

// TestCircuitConforms runs every circuit against its spec with Conforms,
// which interprets the clauses without BDDs: the circuit's steps keep the
// guarantees, accept every legal input, and (its state identified by its
// latches) meet the liveness guarantees on every loop explored.
func TestCircuitConforms(t *testing.T) {
	ctx := context.Background()
	for _, spec := range circuitSpecs(t) {
		if spec.Semantics == Implication {
			continue // Conforms checks Strict semantics only
		}
		t.Run(spec.Name, func(t *testing.T) {
			circ := circuitOf(t, spec)
			cr, err := Conforms(ctx, spec, func() Stepper {
				r, err := circ.Run()
				require.NoError(t, err)
				return r
			}, ConformOptions{MaxDepth: 8, State: func(s Stepper) any {
				r := s.(*CircuitRun)
				return fmt.Sprint(r.started, r.latches)
			}})
			require.NoError(t, err)
			assert.Nil(t, cr.Violation, "%+v", cr.Violation)
		})
	}
}

// TestCircuitCheck model-checks every circuit, through its AIG, and
// refutes circuits broken on purpose: an output forced to a constant, or
// the goal counter stuck, must be caught by the check.
func TestCircuitCheck(t *testing.T) {
	ctx := context.Background()
	for _, spec := range circuitSpecs(t) {
		t.Run(spec.Name, func(t *testing.T) {
			circ := circuitOf(t, spec)
			require.NoError(t, circ.Check(ctx, spec))
			// Each broken variant that passes must be a circuit that still
			// realizes the spec (the bit did not matter); stop after two
			// refutations in -short.
			refuted := 0
			for k := range circ.ComputedBits {
				if testing.Short() && refuted >= 2 {
					break
				}
				for _, val := range []int32{0, 1} {
					bad := *circ
					bad.Step.Computed = append([]int32(nil), circ.Step.Computed...)
					bad.Step.Computed[k] = val
					err := bad.Check(ctx, spec)
					if err != nil {
						require.ErrorIs(t, err, ErrRefuted)
						refuted++
					}
				}
			}
			assert.Positive(t, refuted, "no broken variant of %s was refuted", spec.Name)
		})
	}
}

// TestCircuitGoMatchesRun compiles the Go source of circuits and runs it
// beside CircuitRun on the same pseudo-random input sequences (legal or
// not): every step must agree, outputs and acceptance. The seed is fixed
// and printed on failure.
func TestCircuitGoMatchesRun(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles Go programs")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go tool")
	}
	const seed, steps = 7, 200
	for _, spec := range []*Spec{arbiterSpecForGo(t), liftSpec(t, 3)} {
		t.Run(spec.Name, func(t *testing.T) {
			circ := circuitOf(t, spec)
			dir := t.TempDir()
			var src bytes.Buffer
			require.NoError(t, circ.WriteGo(&src, "main", "Controller"))
			require.NoError(t, os.WriteFile(filepath.Join(dir, "controller.go"), src.Bytes(), 0o644))
			require.NoError(t, os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module gentest\n\ngo 1.22\n"), 0o644))
			// The driver reads the input values, one step per line, and prints
			// the outputs (or "reject").
			var drv strings.Builder
			drv.WriteString("package main\n\nimport (\n\t\"bufio\"\n\t\"fmt\"\n\t\"os\"\n)\n\nfunc main() {\n\tvar c Controller\n\tsc := bufio.NewScanner(os.Stdin)\n\tfor sc.Scan() {\n\t\tvar in ControllerInputs\n\t\tvar v [" + fmt.Sprint(len(spec.Inputs)) + "]int\n\t\tp := make([]any, len(v))\n\t\tfor i := range v {\n\t\t\tp[i] = &v[i]\n\t\t}\n\t\tfmt.Sscan(sc.Text(), p...)\n")
			used := map[string]bool{}
			for i, v := range spec.Inputs {
				f := fieldName(v.Name, used)
				if v.Bool {
					fmt.Fprintf(&drv, "\t\tin.%s = v[%d] == 1\n", f, i)
				} else {
					fmt.Fprintf(&drv, "\t\tin.%s = v[%d]\n", f, i)
				}
			}
			drv.WriteString("\t\tout, ok := c.Step(in)\n\t\tif !ok {\n\t\t\tfmt.Println(\"reject\")\n\t\t\tcontinue\n\t\t}\n\t\tfmt.Println(")
			for i, v := range spec.Outputs {
				if i > 0 {
					drv.WriteString(", ")
				}
				f := fieldName(v.Name, used)
				if v.Bool {
					fmt.Fprintf(&drv, "%sBit(out.%s)", "controller", f)
				} else {
					fmt.Fprintf(&drv, "out.%s", f)
				}
			}
			drv.WriteString(")\n\t}\n}\n")
			require.NoError(t, os.WriteFile(filepath.Join(dir, "main.go"), []byte(drv.String()), 0o644))

			r := rand.New(rand.NewPCG(seed, 0))
			run, err := circ.Run()
			require.NoError(t, err)
			var input, want strings.Builder
			for range steps {
				vals := make([]int, len(spec.Inputs))
				for i, v := range spec.Inputs {
					vals[i] = v.Lo + r.IntN(v.Hi-v.Lo+1)
				}
				input.WriteString(strings.Trim(fmt.Sprint(vals), "[]") + "\n")
				out, err := run.StepValues(vals)
				if err != nil {
					require.ErrorIs(t, err, errIllegalInput)
					want.WriteString("reject\n")
					continue
				}
				want.WriteString(strings.Trim(fmt.Sprint(out), "[]") + "\n")
			}
			cmd := exec.Command(goTool, "run", ".")
			cmd.Dir = dir
			cmd.Stdin = strings.NewReader(input.String())
			cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
			got, err := cmd.CombinedOutput()
			require.NoError(t, err, "%s", got)
			assert.Equal(t, want.String(), string(got), "seed %d", seed)
			assert.Contains(t, want.String(), "reject", "the sequence never tried an illegal input")
		})
	}
}

// arbiterSpecForGo is the test arbiter (an integer output and Booleans).
func arbiterSpecForGo(t testing.TB) *Spec {
	spec, err := ParseFile(filepath.Join("testdata", "specs", "arbiter.structuredslugs"))
	require.NoError(t, err)
	return spec
}

// TestCircuitByGoalAndByRelation determinizes each spec whose liveness
// conditions are state conditions both ways, goal by goal (what Circuit
// does for them) and from the controller's whole relation (what it does
// for the others): both circuits must pass the model check, and both ways
// must be exercised by the specs.
func TestCircuitByGoalAndByRelation(t *testing.T) {
	ctx := context.Background()
	var byGoal, byRelation int
	for _, spec := range circuitSpecs(t) {
		res, err := spec.Realizable(ctx)
		require.NoError(t, err)
		c, err := res.Controller(ctx)
		require.NoError(t, err)
		if !c.stateGoals() {
			byRelation++
			continue
		}
		byGoal++
		for _, goal := range []bool{true, false} {
			in, err := c.detInputs(ctx, goal)
			require.NoError(t, err)
			circ, err := c.circuit(ctx, in, goal)
			require.NoError(t, err, "%s, by goal %v", spec.Name, goal)
			require.NoError(t, circ.Validate())
			assert.NoError(t, circ.Check(ctx, spec), "%s, by goal %v", spec.Name, goal)
		}
	}
	assert.Positive(t, byGoal, "no spec with state liveness conditions")
	assert.Positive(t, byRelation, "no spec with liveness conditions on transitions")
}

// TestCircuitAMBA synthesizes the AMBA arbiter's circuit (n = 2, and n = 3
// without -short), writes it as binary AIGER, reads it back and
// model-checks what was read: the file, not the Go value, realizes the
// spec.
func TestCircuitAMBA(t *testing.T) {
	ctx := context.Background()
	for _, n := range []int{2, 3} {
		if n > 2 && testing.Short() {
			break
		}
		spec := ambaForTest(t, n)
		circ := circuitOf(t, spec)
		a, err := circ.AIG()
		require.NoError(t, err)
		var buf bytes.Buffer
		require.NoError(t, a.WriteAIG(&buf))
		back, err := ParseAIGER("amba.aig", &buf)
		require.NoError(t, err, "AMBA %d", n)
		require.NoError(t, CheckAIG(ctx, spec, back), "AMBA %d", n)
	}
}

// TestCheckAIGTransitionLiveness checks circuits against a liveness
// guarantee on transitions, GF(x ∧ x′): the circuit that holds x passes,
// the one whose latch makes x alternate (0, 1, 0, …: never twice in a row)
// starves it and must be refuted.
func TestCheckAIGTransitionLiveness(t *testing.T) {
	ctx := context.Background()
	spec, err := Parse("twice.structuredslugs", FormatStructuredSlugs, strings.NewReader("[INPUT]\ni\n\n[OUTPUT]\nx\n\n[SYS_LIVENESS]\nx & x'\n"))
	require.NoError(t, err)
	hold, err := ParseAIGER("hold.aag", strings.NewReader("aag 1 1 0 1 0\n2\n1\ni0 i\no0 x\n"))
	require.NoError(t, err)
	require.NoError(t, CheckAIG(ctx, spec, hold))
	alternate, err := ParseAIGER("alternate.aag", strings.NewReader("aag 2 1 1 1 0\n2\n4 5\n4\ni0 i\nl0 m\no0 x\n"))
	require.NoError(t, err)
	require.ErrorIs(t, CheckAIG(ctx, spec, alternate), ErrRefuted)
}
