package explore

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Strategies lists every strategy in the documented order, and
// ParseStrategy reads each name and lists them all when it cannot.
func TestStrategyRegistry(t *testing.T) {
	assert.Equal(t, []Strategy{Auto, DPOR, DFS, PB, Random, PCT}, Strategies())
	for _, s := range Strategies() {
		got, err := ParseStrategy(string(s))
		require.NoError(t, err)
		assert.Equal(t, s, got)
	}
	_, err := ParseStrategy("bfs")
	assert.EqualError(t, err, `unknown strategy "bfs" (want auto, dpor, dfs, pb, random or pct)`)
	_, err = ParseStrategy("")
	assert.Error(t, err)
}

// A PCT change point lowers the running goroutine's priority once, even
// when its step makes several choices (a scheduling choice, then map
// orders inside the transition): the priorities never fall below those
// pick can choose.
func TestPCTChangePointAppliesOnce(t *testing.T) {
	r := newRNG(1)
	ps := newPCT(3, 1, r) // both change points at step 1
	require.Equal(t, []int{1, 1}, ps.changes)
	x := &execution{steps: 1}
	g := &goroutine{key: 7}
	ts := []transition{{g: g}, {g: g, alt: 1}}
	for range 4 {
		i := ps.choose(x, ts, r)
		assert.Contains(t, []int{0, 1}, i)
	}
	assert.Equal(t, 1, ps.prio[g.key], "two changes from d-1 = 2")
}
