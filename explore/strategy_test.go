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
