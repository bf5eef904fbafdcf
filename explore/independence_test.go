package explore

import (
	"context"
	"fmt"
	"sort"
	"testing"

	"github.com/stretchr/testify/require"
)

const indepPath = testdataPath + "/indep"

// exploreIndep explores indep.name; conservative selects the dependency
// relation without commute.
func exploreIndep(t testing.TB, name string, opts Options, conservative bool) *Report {
	p := loadPatterns(t, "./testdata/indep")
	e, err := p.Func(indepPath + "." + name)
	require.NoError(t, err)
	conservativeDependence.Store(conservative)
	defer conservativeDependence.Store(false)
	r, err := p.Explore(context.Background(), e, opts)
	require.NoError(t, err)
	return r
}

// indepFindings is the set of findings by kind, message and position (the
// steps of a finding's kept trace depend on which executions ran).
func indepFindings(r *Report) []string {
	seen := map[string]bool{}
	var out []string
	for _, f := range r.Findings {
		k := fmt.Sprintf("%s|%s|%s", f.Kind, f.Message, f.Pos)
		if !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// indepLong are the programs of TestIndependenceAgainstDFS whose DFS
// enumeration is the longest under -race; -short skips them.
var indepLong = map[string]bool{"Increments": true, "Readers": true, "PipeTwo": true}

// TestIndependenceAgainstDFS: on programs exercising each pair commute
// makes independent (and pairs it must not), DPOR reaches every finding
// and every happens-before class DFS reaches, with one execution per
// class, and with the refinement no more executions than without it
// (fewer where a refined pair occurs).
func TestIndependenceAgainstDFS(t *testing.T) {
	for _, tc := range []struct {
		name  string
		fewer bool // a refined pair occurs: fewer executions than without
		// known: DPOR misses classes (and IncDec's race findings, named
		// in the other order) with and without the refinement: a Wait
		// reached after the counter went to zero is not raced with the
		// Add that brought it there (intr_sync.go). Compared with DPOR
		// without the refinement instead.
		known bool
	}{
		{"DoneThenLog", true, false},
		{"DoneRace", true, false},
		{"IncDec", false, true},
		{"Increments", true, false},
		{"Reuse", false, true},
		{"Pipe", true, false},
		{"PipeTwo", true, false},
		{"FullPipe", false, false},
		{"CloseDrain", true, false},
		{"Loads", true, false},
		{"Readers", true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if testing.Short() && indepLong[tc.name] {
				t.Skip("DFS takes long under -race; runs without -short")
			}
			dfs := exploreIndep(t, tc.name, Options{Strategy: DFS, CountClasses: true}, false)
			dpor := exploreIndep(t, tc.name, Options{Strategy: DPOR, CountClasses: true}, false)
			old := exploreIndep(t, tc.name, Options{Strategy: DPOR, CountClasses: true}, true)
			t.Logf("DFS: %d executions, %d classes; DPOR: %d executions, %d classes, %d pruned; without commute: %d executions, %d pruned; findings %v",
				dfs.Executions, dfs.Classes, dpor.Executions, dpor.Classes, dpor.Pruned, old.Executions, old.Pruned, indepFindings(dfs))
			require.True(t, dfs.Complete)
			require.True(t, dpor.Complete)
			require.True(t, old.Complete)
			require.NotEmpty(t, indepFindings(dfs))
			require.Equal(t, dpor.Classes, dpor.Executions, "one execution per class")
			require.Equal(t, indepFindings(old), indepFindings(dpor))
			if tc.known {
				require.Equal(t, old.Executions, dpor.Executions)
				return
			}
			require.Equal(t, indepFindings(dfs), indepFindings(dpor))
			require.Equal(t, dfs.Classes, dpor.Classes, "DPOR must cover every happens-before class")
			if tc.fewer {
				require.Less(t, dpor.Executions, old.Executions)
			} else {
				require.Equal(t, old.Executions, dpor.Executions)
			}
		})
	}
}

// TestIndependenceSixDone: six goroutines that only call Done after
// Add(6): one execution per Done that reaches zero (the order of the
// others does not matter), 720 without the refinement (every order of
// the six Done calls).
func TestIndependenceSixDone(t *testing.T) {
	r := exploreIndep(t, "SixDone", Options{Strategy: DPOR, CountClasses: true}, false)
	require.True(t, r.Complete)
	require.Empty(t, r.Findings)
	require.Equal(t, 6, r.Executions)
	require.Equal(t, 6, r.Classes)
	old := exploreIndep(t, "SixDone", Options{Strategy: DPOR}, true)
	require.True(t, old.Complete)
	require.Equal(t, 720, old.Executions)
}

// TestDepIndexLabels: depIndex's classes tell commute's labels apart. On
// a buffered channel of capacity 2, the sends to slots 0 and 1 are
// ordered, and the receive from slot 0 depends on the first send only: in
// one class, the second send would hide the first from the receive.
func TestDepIndexLabels(t *testing.T) {
	ch := evKey{id: 7, off: -1}
	evs := []event{
		{g: 1, obj: ch, kind: opSend, write: true, spawner: -1, ind: indep{kind: indChan, slot: 0}},
		{g: 2, obj: ch, kind: opSend, write: true, spawner: -1, ind: indep{kind: indChan, slot: 1}},
		{g: 3, obj: ch, kind: opRecv, write: true, spawner: -1, ind: indep{kind: indChan, slot: 0}},
	}
	require.True(t, dependent(&evs[0], &evs[1]))
	require.False(t, dependent(&evs[1], &evs[2]))
	require.True(t, dependent(&evs[0], &evs[2]))
	want, got := newHBWith(evs, dependent), newHBIndexed(evs)
	require.Equal(t, want.vc, got.vc)
	require.True(t, got.before(0, 2))
}
