package explore

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestFindShards searches Dekker's algorithm whole and in 2, 3 and 7
// shards (the complete search in 2 only with -short): merged, the shards give the whole search's verdict (a shortest
// witness of the same length; "none" only with every shard present and
// complete), a shard of a complete search searches less than the whole
// search (it is split, although states reached from several parts are
// searched by each of them), and a missing shard makes "none" unknown.
func TestFindShards(t *testing.T) {
	p := loadSpecs(t)
	for _, formula := range []string{
		"F(at(P0, m2) && at(P1, n2))", // both want to enter: found, 6 steps
		"F(at(P0, m8) && at(P1, n8))", // mutual exclusion: none
	} {
		whole := find(t, p, dekkerRun, formula, FindOptions{})
		require.NotEqual(t, "unknown", whole.Verdict())
		ns := []int{2, 3, 7}
		if testing.Short() && whole.Witness == nil {
			ns = []int{2} // (each shard of a complete search takes nearly the whole search's time)
		}
		for _, n := range ns {
			var rs []*FindResult
			smaller := false
			for i := range n {
				r := find(t, p, dekkerRun, formula, FindOptions{Options: Options{Shard: Shard{i, n}}})
				assert.Equal(t, Shard{i, n}, r.Shard)
				if whole.Verdict() == "none" {
					assert.Equal(t, "none", r.Verdict(), "%s: shard %d/%d", formula, i+1, n)
				}
				smaller = smaller || r.Nodes < whole.Nodes
				rs = append(rs, r)
			}
			assert.True(t, smaller || whole.Witness != nil, "%s: %d shards: no shard searches less than the whole search (%d nodes)", formula, n, whole.Nodes)
			m, err := MergeFindResults(rs...)
			require.NoError(t, err)
			assert.Equal(t, whole.Verdict(), m.Verdict(), "%s: %d shards", formula, n)
			if whole.Witness != nil {
				require.NotNil(t, m.Witness)
				assert.Equal(t, whole.Witness.Steps, m.Witness.Steps, "%s: %d shards: a shortest witness", formula, n)
			}
			if whole.Verdict() == "none" {
				part, err := MergeFindResults(rs[1:]...)
				require.NoError(t, err)
				assert.Equal(t, "unknown", part.Verdict())
				assert.Equal(t, "shards", part.Bound)
			}
		}
	}
	_, err := MergeFindResults(&FindResult{Shard: Shard{0, 2}}, &FindResult{Shard: Shard{0, 2}})
	assert.ErrorContains(t, err, "shard 1/2 twice")
}
