package synth

import (
	"context"
	"testing"

	"github.com/henceforth-go/henceforth/internal/fds"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCircuitSift copies x1∧y1 ∨ x2∧y2 ∨ x3∧y3, built in the order x1 x2 x3
// y1 y2 y3 (exponential), and its negation into a circuit's graph, and
// requires Circuit.sift to find a smaller graph (the interleaved order's)
// with the same functions on every valuation of the signals.
func TestCircuitSift(t *testing.T) {
	sp := fds.NewSpace()
	names := []string{"x1", "x2", "x3", "y1", "y2", "y3"}
	vs := make([]*fds.Var, len(names))
	for i, n := range names {
		var err error
		vs[i], err = sp.Bool(n)
		require.NoError(t, err)
	}
	require.NoError(t, sp.Build())
	f := sp.False()
	for i := range 3 {
		f = f.Or(vs[i].Eq(1, false).And(vs[i+3].Eq(1, false)))
	}
	signal := map[int]int32{}
	for i, v := range vs {
		signal[v.Levels(false)[0]] = int32(i)
	}
	b := newGraphBuilder(sp.Backend())
	circ := &Circuit{Name: "sift"}
	circ.Step.Legal = b.add([]fds.BDD{f}, signal)[0]
	circ.Init.Legal = 1
	circ.Init.Computed = b.add([]fds.BDD{f.Not()}, signal)
	require.NoError(t, b.err)
	circ.Nodes = b.nodes
	before := *circ
	before.Nodes = append([]CircuitNode(nil), circ.Nodes...)
	before.Init.Computed = append([]int32(nil), circ.Init.Computed...)

	pos := []int{0, 1, 2, 3, 4, 5} // the graph's order: signals as declared
	require.NoError(t, circ.sift(context.Background(), pos))
	t.Logf("decision nodes: %d before sifting, %d after", len(before.Nodes), len(circ.Nodes))
	assert.Less(t, len(circ.Nodes), len(before.Nodes), "sifting shrinks the graph")
	for a := range 1 << len(names) {
		sig := make([]bool, len(names))
		for i := range sig {
			sig[i] = a>>i&1 == 1
		}
		require.Equal(t, before.eval(sig, before.Step.Legal), circ.eval(sig, circ.Step.Legal), "step legality at %06b", a)
		require.Equal(t, before.eval(sig, before.Init.Computed[0]), circ.eval(sig, circ.Init.Computed[0]), "computed bit at %06b", a)
	}
}
