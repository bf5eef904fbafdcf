package synth

import (
	"context"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCircuitDeterministic synthesizes AMBA n = 2's circuit three times,
// the Go runtime's garbage collector made to run at different moments
// each time, and requires the same circuit: with dynamic reordering (on by
// default) the variable order, and so the circuit, must depend only on
// the spec, not on when the runtime notices that BDD handles are garbage.
func TestCircuitDeterministic(t *testing.T) {
	spec := ambaForTest(t, 2)
	var first *Circuit
	for run := range 3 {
		stop := make(chan struct{})
		done := make(chan struct{})
		go func() { // collects at moments the scheduler decides
			defer close(done)
			for {
				select {
				case <-stop:
					return
				default:
					runtime.GC()
				}
			}
		}()
		circ := circuitOf(t, spec)
		close(stop)
		<-done
		if first == nil {
			first = circ
			continue
		}
		require.Equal(t, len(first.Nodes), len(circ.Nodes), "run %d: decision nodes", run)
		require.Equal(t, first, circ, "run %d", run)
	}
}

// TestCircuitKeepsDynamicOrder covers both ways freezeOrder fixes the
// variable order: on a space that dynamic reordering has already sifted
// (forced here by one explicit pass, as a large fixpoint triggers on its
// own) determinization keeps that order, and on one it never sifted it
// sifts its own copy of its inputs once (or, determinizing the whole
// relation, the controller's Space). Either way the order is not sifted again, its dynamic reordering is off from then on, a
// second call gives the same circuit, and the circuit must pass the
// independent check: the AMBA n = 2 arbiter (whose fixpoint is too small
// to trigger dynamic reordering) and the small specs of circuitSpecs whose
// liveness conditions are state conditions (determinized goal by goal).
func TestCircuitKeepsDynamicOrder(t *testing.T) {
	ctx := context.Background()
	specs := append([]*Spec{ambaForTest(t, 2)}, circuitSpecs(t)...)
	for _, spec := range specs {
		for _, sifted := range []bool{false, true} {
			res, err := spec.Realizable(ctx)
			require.NoError(t, err)
			require.True(t, res.Realizable)
			c, err := res.Controller(ctx)
			require.NoError(t, err)
			sp := c.g.sp
			if !sp.SetAutoReorder(true) {
				t.Skipf("%s: dynamic reordering is off by default", spec.Name)
			}
			require.Zero(t, sp.Stats().Reorderings, "%s: the fixpoint triggered dynamic reordering", spec.Name)
			passes := 0
			if sifted {
				sp.Reorder(ctx)
				passes = 1
			}
			if !sifted && !c.stateGoals() {
				passes = 1 // from the whole relation: in the controller's Space
			}
			circ, err := c.Circuit(ctx)
			require.NoError(t, err)
			assert.Equal(t, !sifted, c.siftFirst, "%s, sifted before %v: determinization sifts first", spec.Name, sifted)
			assert.Equal(t, passes, sp.Stats().Reorderings, "%s, sifted before %v: the controller's passes", spec.Name, sifted)
			assert.False(t, sp.SetAutoReorder(false), "%s, sifted before %v: dynamic reordering left on", spec.Name, sifted)
			again, err := c.Circuit(ctx)
			require.NoError(t, err)
			require.Equal(t, circ, again, "%s, sifted before %v: a second call", spec.Name, sifted)
			require.NoError(t, circ.Check(ctx, spec), "%s, sifted before %v", spec.Name, sifted)
		}
	}
}
