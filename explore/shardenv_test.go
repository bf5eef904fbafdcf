package explore

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestShardFromEnv(t *testing.T) {
	for _, tc := range []struct {
		name string
		env  map[string]string
		want Shard
		from string
		err  string
	}{
		{name: "none", env: map[string]string{}},
		{name: "explicit", env: map[string]string{"LTLTEST_SHARD": "2/4"}, want: Shard{1, 4}, from: "LTLTEST_SHARD"},
		{name: "explicit wins", env: map[string]string{"LTLTEST_SHARD": "1/2", "TEST_SHARD_INDEX": "3", "TEST_TOTAL_SHARDS": "4"}, want: Shard{0, 2}, from: "LTLTEST_SHARD"},
		{name: "bazel", env: map[string]string{"TEST_SHARD_INDEX": "3", "TEST_TOTAL_SHARDS": "4"}, want: Shard{3, 4}, from: "TEST_SHARD_INDEX/TEST_TOTAL_SHARDS"},
		{name: "kubernetes", env: map[string]string{"JOB_COMPLETION_INDEX": "0", "LTLTEST_SHARDS": "8"}, want: Shard{0, 8}, from: "JOB_COMPLETION_INDEX/LTLTEST_SHARDS"},
		{name: "circleci", env: map[string]string{"CIRCLE_NODE_INDEX": "1", "CIRCLE_NODE_TOTAL": "3"}, want: Shard{1, 3}, from: "CIRCLE_NODE_INDEX/CIRCLE_NODE_TOTAL"},
		{name: "buildkite", env: map[string]string{"BUILDKITE_PARALLEL_JOB": "2", "BUILDKITE_PARALLEL_JOB_COUNT": "3"}, want: Shard{2, 3}, from: "BUILDKITE_PARALLEL_JOB/BUILDKITE_PARALLEL_JOB_COUNT"},
		{name: "gitlab from 1", env: map[string]string{"CI_NODE_INDEX": "3", "CI_NODE_TOTAL": "3"}, want: Shard{2, 3}, from: "CI_NODE_INDEX/CI_NODE_TOTAL"},
		{name: "agreeing protocols", env: map[string]string{"CI_NODE_INDEX": "1", "CI_NODE_TOTAL": "2", "CIRCLE_NODE_INDEX": "0", "CIRCLE_NODE_TOTAL": "2"}, want: Shard{0, 2}, from: "CIRCLE_NODE_INDEX/CIRCLE_NODE_TOTAL"},
		{name: "gitlab job not parallel", env: map[string]string{"CI_NODE_TOTAL": "1"}},
		{name: "circleci without parallelism", env: map[string]string{"CIRCLE_NODE_INDEX": "0", "CIRCLE_NODE_TOTAL": "1"}},
		{name: "one shard does not disagree", env: map[string]string{"CI_NODE_TOTAL": "1", "CIRCLE_NODE_INDEX": "0", "CIRCLE_NODE_TOTAL": "1", "TEST_SHARD_INDEX": "1", "TEST_TOTAL_SHARDS": "2"}, want: Shard{1, 2}, from: "TEST_SHARD_INDEX/TEST_TOTAL_SHARDS"},
		{name: "one shard out of range", env: map[string]string{"CI_NODE_INDEX": "2", "CI_NODE_TOTAL": "1"}, err: "CI_NODE_INDEX=2 out of range: want 1 to 1"},
		{name: "bad explicit", env: map[string]string{"LTLTEST_SHARD": "5/4"}, err: `LTLTEST_SHARD: shard "5/4": index 5 out of range: want 1 to 4`},
		{name: "index without total", env: map[string]string{"JOB_COMPLETION_INDEX": "2"}, err: "JOB_COMPLETION_INDEX=2 is set but LTLTEST_SHARDS is not: the number of shards is unknown"},
		{name: "total without index", env: map[string]string{"TEST_TOTAL_SHARDS": "4"}, err: "TEST_TOTAL_SHARDS=4 is set but TEST_SHARD_INDEX is not"},
		{name: "not an integer", env: map[string]string{"TEST_SHARD_INDEX": "x", "TEST_TOTAL_SHARDS": "4"}, err: `TEST_SHARD_INDEX="x": not an integer`},
		{name: "bad total", env: map[string]string{"TEST_SHARD_INDEX": "0", "TEST_TOTAL_SHARDS": "0"}, err: "TEST_TOTAL_SHARDS=0: want at least 1 shard"},
		{name: "gitlab 0", env: map[string]string{"CI_NODE_INDEX": "0", "CI_NODE_TOTAL": "2"}, err: "CI_NODE_INDEX=0 out of range: want 1 to 2 (CI_NODE_TOTAL=2)"},
		{name: "bazel out of range", env: map[string]string{"TEST_SHARD_INDEX": "4", "TEST_TOTAL_SHARDS": "4"}, err: "TEST_SHARD_INDEX=4 out of range: want 0 to 3"},
		{name: "disagreeing protocols", env: map[string]string{"CI_NODE_INDEX": "1", "CI_NODE_TOTAL": "2", "CIRCLE_NODE_INDEX": "1", "CIRCLE_NODE_TOTAL": "2"}, err: "CIRCLE_NODE_INDEX/CIRCLE_NODE_TOTAL says shard 2/2 but CI_NODE_INDEX/CI_NODE_TOTAL says 1/2: set LTLTEST_SHARD to choose"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, from, err := ShardFromEnv(func(k string) (string, bool) { v, ok := tc.env[k]; return v, ok })
			if tc.err != "" {
				require.ErrorContains(t, err, tc.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, s)
			assert.Equal(t, tc.from, from)
		})
	}
}
