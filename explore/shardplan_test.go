package explore

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestShardPlan: sharded DPOR computes a plan (its probes are counted),
// and the plan keeps the largest shard of the philosophers within 2× of
// the mean at 2 and 4 shards (TestShardPartition checks the partition).
// With Options.Shared every goroutine starts with reads of its captured
// variables, choice points that split nothing: the plan must cut below
// them, at the first contended operation, for 2 shards to share the work
// (cut above them, one shard had every class).
func TestShardPlan(t *testing.T) {
	p := loadBench(t)
	e, err := p.Func(benchPath + ".Philosophers4")
	require.NoError(t, err)
	for _, k := range []struct {
		shared bool
		shards []int
		most   float64 // bound on the largest shard's executions over the mean
	}{
		{false, []int{2, 4}, 2.0},
		{true, []int{2}, 1.5},
	} {
		whole, err := p.Explore(context.Background(), e, Options{Strategy: DPOR, Shared: k.shared})
		require.NoError(t, err)
		assert.Zero(t, whole.Probes, "an unsharded run computes no plan")
		for _, n := range k.shards {
			sizes, most := []int{}, 0
			for i := range n {
				o := Options{Strategy: DPOR, Shared: k.shared, Shard: Shard{i, n}}
				r, err := p.Explore(context.Background(), e, o)
				require.NoError(t, err)
				require.True(t, r.Complete)
				assert.Positive(t, r.Probes, "shard %s", o.Shard)
				sizes = append(sizes, r.Executions)
				most = max(most, r.Executions)
			}
			assert.LessOrEqual(t, float64(most*n)/float64(whole.Executions), k.most, "shared %v, %d shards: executions %v (whole %d)", k.shared, n, sizes, whole.Executions)
		}
	}
}
