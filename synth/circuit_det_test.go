package synth

import (
	"context"
	"fmt"
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
// variable order, in both Spaces determinization may work in (its own, as
// for large controllers, forced here on small ones, or the controller's):
// on a space that dynamic reordering has already sifted (forced here by
// one explicit pass, as a large fixpoint triggers on its own)
// determinization keeps that order, and on one it never sifted it sifts
// the Space it works in once. Either way the controller's Space is sifted
// at most once in all, its dynamic reordering is off from then on, a
// second call gives the same circuit, and the circuit must pass the
// independent check: the AMBA n = 2 arbiter (whose fixpoint is too small
// to trigger dynamic reordering) and the small specs of circuitSpecs (goal
// by goal where their liveness conditions are state conditions, else from
// the whole relation, always in the controller's Space).
func TestCircuitKeepsDynamicOrder(t *testing.T) {
	ctx := context.Background()
	specs := append([]*Spec{ambaForTest(t, 2)}, circuitSpecs(t)...)
	for _, spec := range specs {
		for _, sifted := range []bool{false, true} {
			for _, own := range []bool{false, true} {
				what := fmt.Sprintf("%s, sifted before %v, own space %v", spec.Name, sifted, own)
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
				if sifted {
					sp.Reorder(ctx)
				}
				c.freezeOrder()
				c.ownSpace = own
				passes := 0 // the controller's Space's
				if sifted || !own || !c.stateGoals() {
					passes = 1
				}
				circ, err := c.Circuit(ctx)
				require.NoError(t, err, what)
				assert.Equal(t, !sifted, c.siftFirst, "%s: determinization sifts first", what)
				assert.Equal(t, passes, sp.Stats().Reorderings, "%s: the controller's passes", what)
				assert.False(t, sp.SetAutoReorder(false), "%s: dynamic reordering left on", what)
				again, err := c.Circuit(ctx)
				require.NoError(t, err, what)
				require.Equal(t, circ, again, "%s: a second call", what)
				assert.Equal(t, passes, sp.Stats().Reorderings, "%s: the controller's passes after a second call", what)
				require.NoError(t, circ.Check(ctx, spec), what)
			}
		}
	}
}
