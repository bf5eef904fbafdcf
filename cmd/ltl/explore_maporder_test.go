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

// TestExploreConcretizedIsUnknown: a symbolic value fixed to one of many
// values makes the test unknown (exit 1), never a pass; the JSON
// "unknown" object and stderr say what was fixed.
func TestExploreConcretizedIsUnknown(t *testing.T) {
	const pkg = "../../explore/testdata/symsplit"
	status, out, errOut := runExplore(t, "-func", "MakeBig", pkg)
	assert.Equal(t, 1, status, "%s\n%s", out, errOut)
	assert.Regexp(t, `(?m)^unknown +\S+MakeBig +\d+ executions \(dpor, concretized bound reached\): incomplete: 1 symbolic value fixed to one of many values`, out)
	assert.Contains(t, errOut, "symsplit.go:182: n concretized to 0 (makeslice size): not covered")

	status, out, errOut = runExplore(t, "-json", "-func", "MakeBig", pkg)
	assert.Equal(t, 1, status, errOut)
	lines := jsonLines(t, out)
	if assert.Len(t, lines, 1) {
		assert.Equal(t, "unknown", lines[0]["kind"])
		assert.Contains(t, lines[0]["message"], "n concretized to 0 (makeslice size)")
	}
}
