package synth

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestMuxOrderStored checks muxOrder on the stored AMBA circuits (written
// by Circuit.AIG from decision graphs in one order): their multiplexers'
// edges form no cycle, the result is a permutation of aigOrder's ranking,
// and it keeps every edge: ranked by it, muxOrder returns it unchanged.
func TestMuxOrderStored(t *testing.T) {
	for _, n := range []int{2, 3, 4} {
		spec, a := ambaForTest(t, n), ambaCircuit(t, n)
		in, err := aigBitsOf(spec.Inputs, a.InputNames, "input")
		require.NoError(t, err)
		all := append(append([]Var(nil), spec.Inputs...), spec.Outputs...)
		latchVar := aigLatchVars(all, a)
		base := make([]int, len(all))
		for i := range base {
			base[i] = i
		}
		ranked := aigOrder(a, in, base, latchVar)
		got, cut := muxOrder(a, in, latchVar, ranked)
		require.Zero(t, cut, "amba%d: the multiplexers' edges form a cycle", n)
		require.ElementsMatch(t, ranked, got, "amba%d", n)
		// The same order again: the first result keeps every edge, so
		// ranking by it leaves it as it is.
		again, cut := muxOrder(a, in, latchVar, got)
		require.Zero(t, cut)
		require.Equal(t, got, again, "amba%d", n)
	}
}
