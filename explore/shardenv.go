package explore

import (
	"fmt"
	"strconv"
	"strings"
)

// ShardFromEnv reads the shard a test process is to run from the
// environment (lookup is os.LookupEnv, or a map's in tests), by the first
// of these protocols that is set:
//
//   - LTLTEST_SHARD=I/N, counted from 1 (ParseShard): wins over the others;
//   - Bazel: TEST_SHARD_INDEX (from 0) of TEST_TOTAL_SHARDS;
//   - Kubernetes Indexed Jobs: JOB_COMPLETION_INDEX (from 0) of
//     LTLTEST_SHARDS (the Job's completions: Kubernetes does not set it);
//   - CircleCI: CIRCLE_NODE_INDEX (from 0) of CIRCLE_NODE_TOTAL;
//   - Buildkite: BUILDKITE_PARALLEL_JOB (from 0) of BUILDKITE_PARALLEL_JOB_COUNT;
//   - GitLab: CI_NODE_INDEX (from 1) of CI_NODE_TOTAL.
//
// A protocol that says one shard (GitLab's CI_NODE_TOTAL=1 without
// CI_NODE_INDEX on every job that is not parallel, CircleCI's 0 of 1 on
// every job without parallelism) is the whole run and counts as not set.
// It returns the zero Shard and "" when none is set, else the shard and
// the names of the variables it was read from. Half a pair, a value that
// is not an integer, an index out of range, or two protocols (other than
// LTLTEST_SHARD) that disagree are errors naming the variables: never a
// silent run of everything or of nothing.
func ShardFromEnv(lookup func(string) (string, bool)) (Shard, string, error) {
	if v, ok := lookup("LTLTEST_SHARD"); ok && strings.TrimSpace(v) != "" {
		s, err := ParseShard(v)
		if err != nil {
			return Shard{}, "", fmt.Errorf("LTLTEST_SHARD: %w", err)
		}
		return s, "LTLTEST_SHARD", nil
	}
	var found Shard
	var from string
	for _, p := range shardProtocols {
		s, ok, err := p.read(lookup)
		switch {
		case err != nil:
			return Shard{}, "", err
		case !ok:
			continue
		case from == "":
			found, from = s, p.index+"/"+p.total
		case s != found:
			return Shard{}, "", fmt.Errorf("%s says shard %s but %s/%s says %s: set LTLTEST_SHARD to choose", from, found, p.index, p.total, s)
		}
	}
	return found, from, nil
}

// shardProtocol is a pair of variables: the index and the total.
type shardProtocol struct {
	index, total string
	base         int // the first index: 0 or 1
}

var shardProtocols = []shardProtocol{
	{"TEST_SHARD_INDEX", "TEST_TOTAL_SHARDS", 0},
	{"JOB_COMPLETION_INDEX", "LTLTEST_SHARDS", 0},
	{"CIRCLE_NODE_INDEX", "CIRCLE_NODE_TOTAL", 0},
	{"BUILDKITE_PARALLEL_JOB", "BUILDKITE_PARALLEL_JOB_COUNT", 0},
	{"CI_NODE_INDEX", "CI_NODE_TOTAL", 1},
}

// read returns the pair's shard; false if neither variable is set.
func (p shardProtocol) read(lookup func(string) (string, bool)) (Shard, bool, error) {
	iv, iok := lookup(p.index)
	tv, tok := lookup(p.total)
	iv, tv = strings.TrimSpace(iv), strings.TrimSpace(tv)
	iok, tok = iok && iv != "", tok && tv != ""
	switch {
	case !iok && !tok:
		return Shard{}, false, nil
	case !iok && tv == "1":
		// one shard and no index: GitLab sets CI_NODE_TOTAL=1 on every
		// job that is not parallel
		return Shard{}, false, nil
	case !iok:
		return Shard{}, false, fmt.Errorf("%s=%s is set but %s is not: the shard's index is unknown", p.total, tv, p.index)
	case !tok:
		return Shard{}, false, fmt.Errorf("%s=%s is set but %s is not: the number of shards is unknown (set it, or LTLTEST_SHARD=I/N)", p.index, iv, p.total)
	}
	index, err := strconv.Atoi(iv)
	if err != nil {
		return Shard{}, false, fmt.Errorf("%s=%q: not an integer", p.index, iv)
	}
	total, err := strconv.Atoi(tv)
	if err != nil {
		return Shard{}, false, fmt.Errorf("%s=%q: not an integer", p.total, tv)
	}
	if total < 1 {
		return Shard{}, false, fmt.Errorf("%s=%d: want at least 1 shard", p.total, total)
	}
	s := Shard{Index: index - p.base, Total: total}
	if s.Index < 0 || s.Index >= total {
		return Shard{}, false, fmt.Errorf("%s=%d out of range: want %d to %d (%s=%d)", p.index, index, p.base, total-1+p.base, p.total, total)
	}
	if total == 1 {
		// one shard is the whole run: CircleCI sets 0 of 1 on every job
		// without parallelism, which must not disagree with a protocol
		// that does shard
		return Shard{}, false, nil
	}
	return s, true, nil
}
