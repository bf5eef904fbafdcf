package synth

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCircuitParallelSame determinizes every circuit spec and AMBA n = 2…4
// (n = 4 without -short) with one, two and three workers: the circuits
// must be identical, node for node and root for root.
func TestCircuitParallelSame(t *testing.T) {
	ctx := context.Background()
	specs := circuitSpecs(t)
	for n := 2; n <= 4; n++ {
		if n > 3 && testing.Short() {
			break
		}
		specs = append(specs, ambaForTest(t, n))
	}
	parallel := 0
	for _, spec := range specs {
		res, err := spec.Realizable(ctx)
		require.NoError(t, err)
		c, err := res.Controller(ctx)
		require.NoError(t, err)
		var want *Circuit
		for _, w := range []int{1, 2, 3} {
			c.g.parallel = w
			start := time.Now()
			circ, err := c.Circuit(ctx)
			require.NoError(t, err, "%s, %d workers", spec.Name, w)
			t.Logf("%s: %d workers: %v", spec.Name, w, time.Since(start))
			if w == 1 {
				want = circ
				continue
			}
			require.Equal(t, want, circ, "%s: %d workers", spec.Name, w)
		}
		if c.stateGoals() && len(c.g.sysJ) > 1 {
			parallel++
		}
	}
	assert.Positive(t, parallel, "no spec determinized in parallel")
}
