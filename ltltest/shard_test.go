package ltltest_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/henceforth-go/henceforth/explore"
	"github.com/henceforth-go/henceforth/ltltest"
	"github.com/henceforth-go/henceforth/ltltest/testdata/explorebodies"
)

// shardVars are the variables of every protocol explore.ShardFromEnv
// reads; clearShardEnv empties them (the CI running these tests may set
// some).
var shardVars = []string{"LTLTEST_SHARD", "LTLTEST_SHARDS", "TEST_SHARD_INDEX", "TEST_TOTAL_SHARDS", "TEST_SHARD_STATUS_FILE",
	"JOB_COMPLETION_INDEX", "CIRCLE_NODE_INDEX", "CIRCLE_NODE_TOTAL", "BUILDKITE_PARALLEL_JOB", "BUILDKITE_PARALLEL_JOB_COUNT",
	"CI_NODE_INDEX", "CI_NODE_TOTAL"}

func clearShardEnv(t *testing.T) {
	for _, v := range shardVars {
		t.Setenv(v, "")
	}
}

// TestExploreShardsFromEnv runs the same Explore calls as 3 shards under
// each protocol's variables: each shard logs its part and the variables,
// the fixed body passes in every shard, the deadlock is found by a shard
// (the failures of all shards are the unsharded run's), and Bazel's status
// file is touched.
func TestExploreShardsFromEnv(t *testing.T) {
	protocols := []struct {
		name string
		vars func(i int) map[string]string // shard i of 3, from 0
		from string
	}{
		{"explicit", func(i int) map[string]string { return map[string]string{"LTLTEST_SHARD": fmt.Sprintf("%d/3", i+1)} }, "LTLTEST_SHARD"},
		{"bazel", func(i int) map[string]string {
			return map[string]string{"TEST_SHARD_INDEX": fmt.Sprint(i), "TEST_TOTAL_SHARDS": "3"}
		}, "TEST_SHARD_INDEX/TEST_TOTAL_SHARDS"},
		{"kubernetes", func(i int) map[string]string {
			return map[string]string{"JOB_COMPLETION_INDEX": fmt.Sprint(i), "LTLTEST_SHARDS": "3"}
		}, "JOB_COMPLETION_INDEX/LTLTEST_SHARDS"},
		{"circleci", func(i int) map[string]string {
			return map[string]string{"CIRCLE_NODE_INDEX": fmt.Sprint(i), "CIRCLE_NODE_TOTAL": "3"}
		}, "CIRCLE_NODE_INDEX/CIRCLE_NODE_TOTAL"},
		{"buildkite", func(i int) map[string]string {
			return map[string]string{"BUILDKITE_PARALLEL_JOB": fmt.Sprint(i), "BUILDKITE_PARALLEL_JOB_COUNT": "3"}
		}, "BUILDKITE_PARALLEL_JOB/BUILDKITE_PARALLEL_JOB_COUNT"},
		{"gitlab", func(i int) map[string]string {
			return map[string]string{"CI_NODE_INDEX": fmt.Sprint(i + 1), "CI_NODE_TOTAL": "3"}
		}, "CI_NODE_INDEX/CI_NODE_TOTAL"},
	}
	for _, p := range protocols {
		t.Run(p.name, func(t *testing.T) {
			deadlocks := 0
			for i := range 3 {
				clearShardEnv(t)
				for k, v := range p.vars(i) {
					t.Setenv(k, v)
				}
				status := filepath.Join(t.TempDir(), "status")
				if p.name == "bazel" {
					t.Setenv("TEST_SHARD_STATUS_FILE", status)
				}
				lt := &logT{}
				require.True(t, ltltest.Explore(lt, explorebodies.Fixed, bodiesPkg), lt.output())
				assert.Contains(t, strings.Join(lt.logs, "\n"), fmt.Sprintf("ltltest: shard %d/3 (%s): this run explores only its part", i+1, p.from))
				if p.name == "bazel" {
					assert.FileExists(t, status, "the status file tells Bazel the test shards")
				}
				ft := &fakeT{}
				if !ltltest.Explore(ft, explorebodies.Deadlock, bodiesPkg) {
					assert.Contains(t, ft.output(), "deadlock: all goroutines are asleep")
					deadlocks++
				}
			}
			assert.Positive(t, deadlocks, "some shard finds the deadlock")
		})
	}
}

// TestExploreShardSettingErrors: a bad setting fails the test, naming the
// variable; WithShard wins over the environment.
func TestExploreShardSettingErrors(t *testing.T) {
	for _, tc := range []struct {
		vars map[string]string
		want string
	}{
		{map[string]string{"LTLTEST_SHARD": "4/3"}, `LTLTEST_SHARD: shard "4/3": index 4 out of range: want 1 to 3`},
		{map[string]string{"JOB_COMPLETION_INDEX": "1"}, "JOB_COMPLETION_INDEX=1 is set but LTLTEST_SHARDS is not"},
		{map[string]string{"TEST_SHARD_INDEX": "3", "TEST_TOTAL_SHARDS": "3"}, "TEST_SHARD_INDEX=3 out of range: want 0 to 2"},
	} {
		clearShardEnv(t)
		for k, v := range tc.vars {
			t.Setenv(k, v)
		}
		ft := &fakeT{}
		assert.False(t, ltltest.Explore(ft, explorebodies.Fixed, bodiesPkg))
		assert.Contains(t, ft.output(), "ltltest: cannot shard the exploration")
		assert.Contains(t, ft.output(), tc.want)
		ft = &fakeT{}
		assert.False(t, ltltest.Never(ft, explorebodies.Fixed, "F false", bodiesPkg))
		assert.Contains(t, ft.output(), tc.want)
	}
	clearShardEnv(t)
	t.Setenv("LTLTEST_SHARD", "2/3")
	lt := &logT{}
	require.True(t, ltltest.Explore(lt, explorebodies.Fixed, bodiesPkg, ltltest.WithShard(explore.Shard{Index: 0, Total: 2})), lt.output())
	assert.Contains(t, strings.Join(lt.logs, "\n"), "ltltest: shard 1/2 (WithShard)")
}

// TestNeverShards: a search is not split; in a sharded run exactly one
// shard runs it whole, the others log which one does.
func TestNeverShards(t *testing.T) {
	ran := 0
	for i := range 3 {
		clearShardEnv(t)
		t.Setenv("LTLTEST_SHARD", fmt.Sprintf("%d/3", i+1))
		lt := &logT{}
		require.True(t, ltltest.Never(lt, explorebodies.Fixed, "F false", bodiesPkg), lt.output())
		if !strings.Contains(strings.Join(lt.logs, "\n"), "runs whole in shard") {
			ran++
		}
	}
	assert.Equal(t, 1, ran)
}
