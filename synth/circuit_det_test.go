package synth

import (
	"runtime"
	"testing"

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
