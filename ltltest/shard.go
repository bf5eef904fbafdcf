package ltltest

import (
	"fmt"
	"hash/fnv"
	"os"
	"time"

	"github.com/henceforth-go/henceforth/explore"
)

// Sharding: Explore explores one part of the schedules when the
// environment selects a shard (explore.ShardFromEnv: LTLTEST_SHARD=I/N,
// Bazel's TEST_SHARD_INDEX/TEST_TOTAL_SHARDS, a Kubernetes Indexed Job's
// JOB_COMPLETION_INDEX with LTLTEST_SHARDS, CircleCI, Buildkite, GitLab)
// or WithShard does: the same test code, run once per shard, explores
// every schedule, each class in one shard. A shard passes when its part
// is complete without findings; the run passes when every shard does.
// A malformed or inconsistent setting fails the test, naming the
// variable. Under Bazel, the file TEST_SHARD_STATUS_FILE names is
// touched, so that Bazel knows the test shards.

// WithShard explores only shard s of the schedules (s.Index from 0),
// whatever the environment says.
func WithShard(s explore.Shard) Option {
	return exploreOption(func(o *explore.Options) { o.Shard = s })
}

// envShard reads the shard of the environment (the zero Shard if none)
// with the variables it came from, and touches Bazel's shard status file.
func envShard() (explore.Shard, string, error) {
	if f := os.Getenv("TEST_SHARD_STATUS_FILE"); f != "" {
		if err := touch(f); err != nil {
			return explore.Shard{}, "", fmt.Errorf("TEST_SHARD_STATUS_FILE: %w", err)
		}
	}
	return explore.ShardFromEnv(os.LookupEnv)
}

// touch creates the file name or updates its modification time.
func touch(name string) error {
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	now := time.Now()
	return os.Chtimes(name, now, now)
}

// shardExploration sets opts.Shard from the environment unless an option
// set it or opts replays a token; it logs the shard. The error names the
// variable.
func shardExploration(t TestingT, opts *explore.Options) error {
	t.Helper()
	s, from, err := envShard()
	if err != nil {
		return err
	}
	if opts.Shard == (explore.Shard{}) && opts.Replay == "" && replayToken() == "" {
		opts.Shard = s
	} else {
		from = "WithShard"
	}
	if opts.Shard.Sharded() && opts.Replay == "" {
		logf(t, "ltltest: shard %s (%s): this run explores only its part of the schedules; the test passes when every part does", opts.Shard, from)
	}
	return nil
}

// searchShard says whether this process runs the scenario search of
// formula: in a sharded run it runs whole in one shard, chosen by the
// test's name and formula, and the others pass it. A search matches
// states, and most states are reached from every part of the schedule
// tree, so split searches (explore.FindOptions.Shard) would each search
// nearly the whole state space: one shard running it whole costs the run
// N times less, in the same wall time. The merged verdict is the owning
// shard's, the run's only when every shard runs, as a CI's sharding does.
// ok is false after a failure (a bad setting) was reported.
func searchShard(t TestingT, formula string, msg []any) (run, ok bool) {
	t.Helper()
	s, from, err := envShard()
	if err != nil {
		fail(t, "ltltest: cannot shard the search", err.Error(), msg)
		return false, false
	}
	if !s.Sharded() {
		return true, true
	}
	h := fnv.New32a()
	h.Write([]byte(testName(t) + "\x00" + formula))
	owner := explore.Shard{Index: int(h.Sum32() % uint32(s.Total)), Total: s.Total}
	if owner != s {
		logf(t, "ltltest: shard %s (%s): the search of %q runs whole in shard %s, not in this one", s, from, formula, owner)
		return false, true
	}
	return true, true
}
