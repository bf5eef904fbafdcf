package explore

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const mapOrderPath = testdataPath + "/maporder"

// loadMapOrder loads the map-order test programs (once per test binary).
func loadMapOrder(t testing.TB) *Program {
	t.Helper()
	return loadPatterns(t, "./testdata/maporder")
}

func exploreMapOrder(t testing.TB, name string, opts Options) (*Entry, *Report) {
	t.Helper()
	p := loadMapOrder(t)
	e, err := p.Func(mapOrderPath + "." + name)
	require.NoError(t, err)
	r, err := p.Explore(context.Background(), e, opts)
	require.NoError(t, err)
	return e, r
}

// TestMapOrderBug: a test that fails only when "b" is visited before "a"
// (insertion order is a, b) is found by every strategy, and its replay
// token reproduces it.
func TestMapOrderBug(t *testing.T) {
	for _, opts := range []Options{
		{Strategy: DPOR},
		{Strategy: DFS},
		{Strategy: PB},
		{Strategy: DPOR, Workers: 2},
		{Strategy: DFS, Workers: 2},
		{Strategy: Random, Seed: 1, MaxExecutions: 50},
		{Strategy: PCT, Seed: 1, MaxExecutions: 50},
		{Strategy: DPOR, MapOrders: MapPermutations},
	} {
		t.Run(fmt.Sprintf("%s-w%d-%s", opts.Strategy, opts.Workers, opts.MapOrders), func(t *testing.T) {
			e, r := exploreMapOrder(t, "BBeforeA", opts)
			f := findKind(r, KindTestFailure)
			require.NotNil(t, f, "not found: %d executions", r.Executions)
			assert.Contains(t, f.Message, "visited b before a: [b a]")
			if opts.MapOrders == MapPermutations {
				assert.Contains(t, f.String(), `visits entry 2 of the 2 left (key "b")`, "the trace says which order")
			} else {
				assert.Contains(t, f.String(), `starts at entry 2 of 2 (key "b")`, "the trace says which order")
			}
			if opts.Strategy != Random && opts.Strategy != PCT {
				assert.True(t, r.Complete)
				assert.Equal(t, 2, r.Executions, "one execution per order")
			}

			ro := opts
			ro.Replay = f.Replay
			rr, err := loadMapOrder(t).Explore(context.Background(), e, ro)
			require.NoError(t, err)
			g := findKind(rr, KindTestFailure)
			require.NotNil(t, g, "the replay does not reproduce it")
			assert.Equal(t, f.Message, g.Message)
			assert.Equal(t, f.Trace, g.Trace)
			assert.Equal(t, 1, rr.Executions)
		})
	}
}

// TestMapOrderPermutations: an order no rotation produces (a, c, b) is
// found with MapPermutations only; a rotation (c, a, b) with both.
func TestMapOrderPermutations(t *testing.T) {
	_, r := exploreMapOrder(t, "NotRotation", Options{})
	assert.Equal(t, "pass", r.Verdict(), "offsets: rotations of a, b, c only")
	assert.Equal(t, 3, r.Executions)

	for _, s := range []Strategy{DPOR, DFS} {
		e, r := exploreMapOrder(t, "NotRotation", Options{Strategy: s, MapOrders: MapPermutations})
		f := findKind(r, KindTestFailure)
		require.NotNil(t, f, "%s: not found", s)
		assert.Contains(t, f.Message, "order acb")
		assert.Equal(t, 6, r.Executions, "3! orders")
		assert.True(t, r.Complete)
		rr, err := loadMapOrder(t).Explore(context.Background(), e, Options{Strategy: s, MapOrders: MapPermutations, Replay: f.Replay})
		require.NoError(t, err)
		require.NotNil(t, findKind(rr, KindTestFailure))
	}

	for _, mode := range []MapOrder{MapOffsets, MapPermutations} {
		_, r := exploreMapOrder(t, "Rotation", Options{MapOrders: mode})
		f := findKind(r, KindTestFailure)
		require.NotNil(t, f, "%s: not found", mode)
		assert.Contains(t, f.Message, "order cab")
	}

	_, err := loadMapOrder(t).Explore(context.Background(), mustFunc(t, "NotRotation"), Options{MapOrders: "sorted"})
	assert.ErrorContains(t, err, `unknown map order mode "sorted"`)
}

func mustFunc(t *testing.T, name string) *Entry {
	t.Helper()
	e, err := loadMapOrder(t).Func(mapOrderPath + "." + name)
	require.NoError(t, err)
	return e
}

// TestMapOrderCounts: a 4-entry map has 4 orders by offsets and 24 by
// permutations, all distinct; a 1-entry map costs no choice.
func TestMapOrderCounts(t *testing.T) {
	for _, tc := range []struct {
		mode MapOrder
		n    int
	}{{MapOffsets, 4}, {MapPermutations, 24}} {
		_, r := exploreMapOrder(t, "Orders", Options{Strategy: DFS, MapOrders: tc.mode, StopAtFirst: false})
		assert.Equal(t, tc.n, r.Executions, "%s", tc.mode)
		assert.True(t, r.Complete)
	}
	_, r := exploreMapOrder(t, "One", Options{Strategy: DFS})
	assert.Equal(t, "pass", r.Verdict())
	assert.Equal(t, 1, r.Executions)
	_, r = exploreMapOrder(t, "Sorted", Options{})
	assert.Equal(t, "pass", r.Verdict())
	assert.Equal(t, 3, r.Executions, "every order is explored, even if the program sorts")
}

// TestMapOrderOutputs: the orders explored are the rotations of the
// insertion order (offsets) or all permutations, each once.
func TestMapOrderOutputs(t *testing.T) {
	rotations := []string{"1234", "2341", "3412", "4123"}
	var perms []string
	var permute func(prefix, rest string)
	permute = func(prefix, rest string) {
		if rest == "" {
			perms = append(perms, prefix)
		}
		for i := range rest {
			permute(prefix+rest[i:i+1], rest[:i]+rest[i+1:])
		}
	}
	permute("", "1234")
	for _, tc := range []struct {
		mode MapOrder
		want []string
	}{{MapOffsets, rotations}, {MapPermutations, perms}} {
		p := loadMapOrder(t)
		e := mustFunc(t, "Orders")
		opts := &Options{MapOrders: tc.mode}
		m := newMachine(p, opts)
		d := &dfsChooser{bound: -1}
		var got []string
		for n := 1; ; n++ {
			x := p.runOne(m, e, opts, d, n, 0)
			got = append(got, strings.TrimSpace(x.out.String()))
			x.release()
			if !d.next() {
				break
			}
		}
		assert.ElementsMatch(t, tc.want, got, "%s", tc.mode)
	}
}

// TestMapOrderModification: entries deleted before they are reached are
// not visited in any order; entries added during the range are visited
// (after the others) and the report warns.
func TestMapOrderModification(t *testing.T) {
	for _, mode := range []MapOrder{MapOffsets, MapPermutations} {
		_, r := exploreMapOrder(t, "DeleteAhead", Options{Strategy: DFS, MapOrders: mode})
		assert.Equal(t, "pass", r.Verdict(), "%s: %v", mode, r.Findings)
		assert.Equal(t, 2, r.Executions)
		assert.Empty(t, r.Warnings)

		_, r = exploreMapOrder(t, "AddDuring", Options{Strategy: DFS, MapOrders: mode})
		assert.Equal(t, "pass", r.Verdict(), "%s: %v", mode, r.Findings)
		assert.Equal(t, 2, r.Executions)
		require.Len(t, r.Warnings, 1)
		assert.Contains(t, r.Warnings[0], "maporder.go:")
		assert.Contains(t, r.Warnings[0], "visited entries added during the range")
	}
}

// TestMapOrderWithSchedules: a bug that needs both an order (the first
// goroutine's map yields "b" first) and a schedule (it locks first) is
// found by DPOR, which explores the orders of each goroutine as its local
// choices; DPOR runs fewer executions than DFS and reaches the same
// outcomes.
func TestMapOrderWithSchedules(t *testing.T) {
	_, dfs := exploreMapOrder(t, "FirstWins", Options{Strategy: DFS})
	_, dpor := exploreMapOrder(t, "FirstWins", Options{Strategy: DPOR})
	for _, r := range []*Report{dfs, dpor} {
		f := findKind(r, KindTestFailure)
		require.NotNil(t, f)
		assert.Contains(t, f.Message, "b won")
		assert.True(t, r.Complete)
	}
	t.Logf("FirstWins: DFS %d executions, DPOR %d (%d pruned)", dfs.Executions, dpor.Executions, dpor.Pruned)
	assert.Less(t, dpor.Executions, dfs.Executions)

	// Orders × happens-before classes, no more: each goroutine's map has
	// 3 orders; the schedules of 2 workers (mutex and WaitGroup) have 5
	// classes, of 3 workers 39 (as OneEntryWorkers, whose maps have one
	// entry, shows: no choice; 57 when the Done calls that do not reach
	// zero were ordered, independence.go); SharedRange has 2 classes.
	for _, tc := range []struct {
		name    string
		classes int
	}{{"Workers2", 5 * 3 * 3}, {"OneEntryWorkers", 39}, {"SharedRange", 2 * 3}} {
		_, r := exploreMapOrder(t, tc.name, Options{Strategy: DPOR, CountClasses: true})
		assert.Equal(t, "pass", r.Verdict(), "%s: %v", tc.name, r.Findings)
		assert.Equal(t, tc.classes, r.Executions, "%s: DPOR executions (%d pruned)", tc.name, r.Pruned)
		assert.Equal(t, tc.classes, r.Classes, "%s: classes", tc.name)
	}
}
