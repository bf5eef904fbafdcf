package synth

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// circuitOf realizes spec and determinizes its controller.
func circuitOf(t testing.TB, spec *Spec) *Circuit {
	t.Helper()
	ctx := context.Background()
	res, err := spec.Realizable(ctx)
	require.NoError(t, err)
	require.True(t, res.Realizable, spec.Name)
	c, err := res.Controller(ctx)
	require.NoError(t, err)
	circ, err := c.Circuit(ctx)
	require.NoError(t, err)
	require.NoError(t, circ.Validate())
	return circ
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
			refuted := 0
			for k := range circ.ComputedBits {
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
