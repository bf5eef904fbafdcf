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
func TestShardPlan(t *testing.T) {
	p := loadBench(t)
	e, err := p.Func(benchPath + ".Philosophers4")
	require.NoError(t, err)
	whole, err := p.Explore(context.Background(), e, Options{Strategy: DPOR})
	require.NoError(t, err)
	assert.Zero(t, whole.Probes, "an unsharded run computes no plan")
	for _, n := range []int{2, 4} {
		sizes, most := []int{}, 0
		for i := range n {
			o := Options{Strategy: DPOR, Shard: Shard{i, n}}
			r, err := p.Explore(context.Background(), e, o)
			require.NoError(t, err)
			require.True(t, r.Complete)
			assert.Positive(t, r.Probes, "shard %s", o.Shard)
			sizes = append(sizes, r.Executions)
			most = max(most, r.Executions)
		}
		assert.LessOrEqual(t, float64(most*n)/float64(whole.Executions), 2.0, "%d shards: executions %v (whole %d)", n, sizes, whole.Executions)
	}
}
