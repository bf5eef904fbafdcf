package main

import (
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
)

const (
	mapOrderPkg  = "./testdata/explore/maporder"
	mapOrderPath = "github.com/henceforth-go/henceforth/cmd/ltl/testdata/explore/maporder."
)

// TestExploreMapOrders: map iteration orders are explored (every start of
// the insertion order by default, every order with -map-orders
// permutations); a bad mode is a usage error.
func TestExploreMapOrders(t *testing.T) {
	status, out, errOut := runExplore(t, "-run", "TestBBeforeA", mapOrderPkg)
	assert.Equal(t, 1, status, errOut)
	assert.Contains(t, out, "test-failure: maporder_test.go:22: order ba")
	assert.Regexp(t, `(?m)^fail +`+regexp.QuoteMeta(mapOrderPath+"TestBBeforeA")+` +2 executions \(dpor, complete\): 1 finding$`, out)

	status, out, errOut = runExplore(t, "-run", "TestNotRotation", mapOrderPkg)
	assert.Equal(t, 0, status, errOut)
	assert.Regexp(t, `(?m)^pass +`+regexp.QuoteMeta(mapOrderPath+"TestNotRotation")+` +3 executions \(dpor, complete\)$`, out)

	status, out, errOut = runExplore(t, "-run", "TestNotRotation", "-map-orders", "permutations", mapOrderPkg)
	assert.Equal(t, 1, status, errOut)
	assert.Contains(t, out, "order acb")
	assert.Regexp(t, `(?m)^fail +`+regexp.QuoteMeta(mapOrderPath+"TestNotRotation")+` +6 executions \(dpor, complete\): 1 finding$`, out)

	status, out, errOut = runExplore(t, "-map-orders", "sorted", mapOrderPkg)
	assert.Equal(t, 2, status)
	assert.Empty(t, out)
	assert.Equal(t, "ltl explore: -map-orders: unknown mode \"sorted\" (want offsets or permutations)\n", errOut)
}
