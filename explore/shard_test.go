package explore

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseShard(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Shard
		err  string
	}{
		{in: "1/1", want: Shard{0, 1}},
		{in: "2/4", want: Shard{1, 4}},
		{in: " 4/4 ", want: Shard{3, 4}},
		{in: "0/4", err: `shard "0/4": index 0 out of range: want 1 to 4`},
		{in: "5/4", err: `shard "5/4": index 5 out of range: want 1 to 4`},
		{in: "1/0", err: `shard "1/0": total 0: want at least 1 shard`},
		{in: "2", err: `shard "2": want I/N`},
		{in: "a/4", err: `shard "a/4": index "a" is not an integer`},
		{in: "1/b", err: `shard "1/b": total "b" is not an integer`},
	} {
		got, err := ParseShard(tc.in)
		if tc.err != "" {
			require.ErrorContains(t, err, tc.err, tc.in)
			continue
		}
		require.NoError(t, err, tc.in)
		assert.Equal(t, tc.want, got, tc.in)
		assert.Equal(t, fmt.Sprintf("%d/%d", got.Index+1, got.Total), got.String())
	}
	assert.Empty(t, Shard{}.String())
	assert.False(t, Shard{0, 1}.Sharded())
}

// shardCase is a program explored whole and in shards; short cases run
// with -short too.
type shardCase struct {
	name  string
	load  func(t testing.TB) *Program
	fn    string
	opts  Options
	short bool
}

func shardCases() []shardCase {
	bench := func(t testing.TB) *Program { return loadBench(t) }
	return []shardCase{
		{"philosophers-3", bench, benchPath + ".Philosophers3", Options{Strategy: DPOR}, true},
		{"philosophers-4", bench, benchPath + ".Philosophers4", Options{Strategy: DPOR}, false},
		{"philosophers-3-shared", bench, benchPath + ".Philosophers3", Options{Strategy: DPOR, Shared: true}, false},
		{"writers-shared-3", bench, testdataPath + "/writers.Shared3", Options{Strategy: DPOR, Shared: true}, true},
		{"writers-independent-3", bench, testdataPath + "/writers.Independent3", Options{Strategy: DPOR, Shared: true}, false},
		{"writers-shared-3-dfs", bench, testdataPath + "/writers.Shared3", Options{Strategy: DFS}, true},
		{"philosophers-3-dfs", bench, benchPath + ".Philosophers3", Options{Strategy: DFS}, false},
		{"philosophers-3-pb", bench, benchPath + ".Philosophers3", Options{Strategy: PB, Preemptions: 1}, false},
		{"diners-dpor", load, testdataPath + "/outcomes.Diners", Options{Strategy: DPOR}, false},
		{"symbolic-absdiff", load, symExamples + "/absdiff.AbsDiffWrap", Options{Strategy: DPOR}, false},
		{"symbolic-transfer", load, symExamples + "/transfer.Withdraw2", Options{Strategy: DPOR}, false},
	}
}

// shardFindingKeys describes a report's findings by kind, position,
// message, steps, the executions that showed them and their variants.
func shardFindingKeys(r *Report) []string {
	var ks []string
	for _, f := range r.Findings {
		ks = append(ks, fmt.Sprintf("%s %s %q steps %d seen %d %q", f.Kind, f.Pos, f.Message, f.Steps, f.Seen, f.Variants))
	}
	slices.Sort(ks)
	return ks
}

// TestShardPartition explores each program whole and in 1, 2, 3 and 7
// shards: the shards' happens-before classes (with the local choices:
// symbolic branches) are disjoint and their union is the whole run's,
// the executions add up to the whole run's, every shard is complete,
// and the findings of the shards are those of the whole run.
func TestShardPartition(t *testing.T) {
	for _, tc := range shardCases() {
		t.Run(tc.name, func(t *testing.T) {
			if testing.Short() && !tc.short {
				t.Skip("-short")
			}
			p := tc.load(t)
			e, err := p.Func(tc.fn)
			require.NoError(t, err)
			o := tc.opts
			o.CountClasses = true
			whole, err := p.Explore(context.Background(), e, o)
			require.NoError(t, err)
			require.True(t, whole.Complete || o.Strategy == PB, "whole run: %s", whole.Bound)
			for _, n := range []int{1, 2, 3, 7} {
				union, paths := map[uint64]bool{}, map[uint64]bool{}
				var rs []*Report
				for i := range n {
					o.Shard = Shard{Index: i, Total: n}
					r, err := p.Explore(context.Background(), e, o)
					require.NoError(t, err)
					require.True(t, r.Complete || r.Bound == whole.Bound, "shard %s: %s (whole: %d executions, shard %d)", o.Shard, r.Bound, whole.Executions, r.Executions)
					assert.Equal(t, o.Shard, r.Shard)
					for h := range r.classSet {
						if o.Strategy == DPOR {
							assert.False(t, union[h], "shard %s explores a class another shard explored", o.Shard)
						}
						union[h] = true
					}
					for h := range r.pathSet {
						assert.False(t, paths[h], "shard %s runs an execution another shard ran", o.Shard)
						paths[h] = true
					}
					rs = append(rs, r)
				}
				m, err := MergeReports(rs...)
				require.NoError(t, err)
				assert.Equal(t, whole.Complete, m.Complete)
				assert.Equal(t, whole.Verdict(), m.Verdict())
				assert.Equal(t, shardFindingKeys(whole), shardFindingKeys(m), "%d shards: findings", n)
				assert.Equal(t, slices.Sorted(maps.Keys(whole.classSet)), slices.Sorted(maps.Keys(union)), "%d shards: classes", n)
				if o.Strategy != DPOR { // (DPOR's executions represent classes: which one depends on the order)
					assert.Equal(t, slices.Sorted(maps.Keys(whole.pathSet)), slices.Sorted(maps.Keys(paths)), "%d shards: executions", n)
				}
				if o.Strategy != PB { // (PB's rounds run the paths of the previous ones again)
					assert.Equal(t, whole.Executions, m.Executions, "%d shards: executions", n)
				}
				sizes := make([]int, n)
				for i, r := range rs {
					sizes[i] = r.Executions
				}
				if n > 1 {
					m, err := MergeReports(rs[1:]...)
					require.NoError(t, err)
					assert.False(t, m.Complete)
					if whole.Complete {
						assert.Equal(t, "shards", m.Bound)
					}
					assert.Contains(t, m.Suggestion, Shard{0, n}.String())
					if len(m.Findings) == 0 {
						assert.Equal(t, "unknown", m.Verdict())
					}
				}
				t.Logf("%d shards: executions %v, skipped %d (whole %d, %d classes)", n, sizes, m.Skipped, whole.Executions, whole.Classes)
			}
		})
	}
}

// TestShardOverlap: on a program whose races reach the other
// alternatives of the shard plan's free states (LateWriters with Shared:
// the first read of x is uncontended in the plan's dive, contended in
// other schedules), two shards whose executions show the same race both
// explore that alternative's subtree: a class can be in two shards. The
// union must still be the whole run: every class, every finding (by
// kind, position, message and steps; their Seen counts, like the
// executions, count the overlap twice), the same verdict. At 3 shards
// the shards ran 192 executions for the whole run's 180 classes (306
// before the plan made free nodes whose dives show races fixed states,
// planNode.settle).
func TestShardOverlap(t *testing.T) {
	p := loadBench(t)
	e, err := p.Func(benchPath + ".LateWriters")
	require.NoError(t, err)
	o := Options{Strategy: DPOR, Shared: true, CountClasses: true}
	whole, err := p.Explore(context.Background(), e, o)
	require.NoError(t, err)
	require.True(t, whole.Complete)
	unseen := func(r *Report) []string {
		var ks []string
		for _, f := range r.Findings {
			ks = append(ks, fmt.Sprintf("%s %s %q steps %d", f.Kind, f.Pos, f.Message, f.Steps))
		}
		slices.Sort(ks)
		return ks
	}
	for _, n := range []int{2, 3, 7} {
		union, twice := map[uint64]bool{}, 0
		rs := exploreShards(t, p, e, o, n)
		for _, r := range rs {
			for h := range r.classSet {
				if union[h] {
					twice++
				}
				union[h] = true
			}
		}
		m, err := MergeReports(rs...)
		require.NoError(t, err)
		assert.True(t, m.Complete)
		assert.Equal(t, whole.Verdict(), m.Verdict())
		assert.Equal(t, unseen(whole), unseen(m), "%d shards: findings", n)
		assert.Equal(t, slices.Sorted(maps.Keys(whole.classSet)), slices.Sorted(maps.Keys(union)), "%d shards: classes", n)
		assert.Equal(t, whole.Executions+twice, m.Executions, "%d shards: executions (whole %d, classes in two shards %d)", n, whole.Executions, twice)
		t.Logf("%d shards: %d executions for %d classes (%d explored twice)", n, m.Executions, whole.Classes, twice)
	}
}

// TestShardSampling: n shards of m Random (and PCT) samples run the
// executions of the first n·m samples of one run (disjoint seed streams).
func TestShardSampling(t *testing.T) {
	p := loadBench(t)
	e, err := p.Func(benchPath + ".Philosophers3")
	require.NoError(t, err)
	for _, s := range []Strategy{Random, PCT} {
		const seed, n, m = 7, 3, 10
		whole, err := p.Explore(context.Background(), e, Options{Strategy: s, Seed: seed, MaxExecutions: n * m, CountClasses: true})
		require.NoError(t, err)
		paths := map[uint64]bool{}
		for i := range n {
			r, err := p.Explore(context.Background(), e, Options{Strategy: s, Seed: seed, MaxExecutions: m, CountClasses: true, Shard: Shard{i, n}})
			require.NoError(t, err)
			assert.Equal(t, m, r.Executions)
			for h := range r.pathSet {
				paths[h] = true
			}
		}
		assert.Equal(t, slices.Sorted(maps.Keys(whole.pathSet)), slices.Sorted(maps.Keys(paths)), "%s, seed %d", s, seed)
	}
}

// FuzzParseShard: ParseShard never panics, and what it accepts is valid
// and prints back to an equal shard.
func FuzzParseShard(f *testing.F) {
	for _, s := range []string{"1/1", "2/4", "0/4", "5/4", "1/0", "x/y", "/", "-1/-2", "9999999999999999999/2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sh, err := ParseShard(s)
		if err != nil {
			return
		}
		require.NoError(t, sh.Validate())
		back, err := ParseShard(sh.String())
		require.NoError(t, err)
		require.Equal(t, sh, back)
	})
}
