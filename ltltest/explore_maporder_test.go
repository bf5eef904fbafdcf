package ltltest_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/henceforth-go/henceforth/explore"
	"github.com/henceforth-go/henceforth/ltltest"
	"github.com/henceforth-go/henceforth/ltltest/testdata/maporderbodies"
)

var mapOrderBodies = explore.LoadConfig{Patterns: []string{"github.com/henceforth-go/henceforth/ltltest/testdata/maporderbodies"}}

// TestExploreMapOrders: WithMapOrders(MapPermutations) finds a bug that
// needs an order no rotation of the insertion order gives; the default
// explores the rotations only.
func TestExploreMapOrders(t *testing.T) {
	ft := &fakeT{}
	assert.True(t, ltltest.Explore(ft, maporderbodies.NotRotation, mapOrderBodies), ft.output())
	ft = &fakeT{}
	assert.False(t, ltltest.Explore(ft, maporderbodies.NotRotation, mapOrderBodies, ltltest.WithMapOrders(explore.MapPermutations)))
	assert.Contains(t, ft.output(), "order acb")
	assert.Contains(t, ft.output(), "with dpor, complete")
}
