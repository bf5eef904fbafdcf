package fds

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestIntersects compares Intersects with the conjunction on every pair of
// random functions (and their complements), asked twice so that the second
// answer comes from the cache.
func TestIntersects(t *testing.T) {
	seed := uint64(20261128)
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 3))
	s, vs := tinySpace(t, 4, 3)
	pool := randomPool(r, s, vs, 3, 40)
	for _, f := range append([]BDD(nil), pool...) {
		pool = append(pool, f.Not())
	}
	seen := [2]int{}
	for round := range 2 {
		for i, f := range pool {
			for j, g := range pool {
				want := !f.And(g).IsFalse()
				require.Equal(t, want, f.Intersects(g), "round %d: functions %d and %d", round, i, j)
				if want {
					seen[1]++
				} else {
					seen[0]++
				}
			}
		}
	}
	require.Positive(t, seen[0], "no disjoint pair")
	require.Positive(t, seen[1], "no intersecting pair")
	require.NoError(t, s.Err())
}
