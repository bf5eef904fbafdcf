package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The subtests package is package explore's (explore/testdata/subtests):
// the command is tested on the programs the library is.
const (
	subtestsPkg  = "../../explore/testdata/subtests"
	subtestsPath = "github.com/henceforth-go/henceforth/explore/testdata/subtests."
)

// Each subtest is a test of its own: its own result line, under the name
// go test -v gives it.
func TestExploreSubtestsOutput(t *testing.T) {
	status, out, errOut := runExplore(t, "-run", "TestTable", subtestsPkg)
	require.Equal(t, 0, status, errOut)
	assert.Regexp(t, `(?m)^pass +`+subtestsPath+`TestTable/mutex_counter +\d+ executions \(dpor, complete\)$`, out)
	assert.Regexp(t, `(?m)^pass +`+subtestsPath+`TestTable/channel_sum +\d+ executions`, out)
	assert.Regexp(t, `(?m)^pass +`+subtestsPath+`TestTable/mutex_counter#01 +\d+ executions`, out)
	assert.NotRegexp(t, `(?m)TestTable +`, out)
}

// -run selects subtests level by level, as go test -run does.
func TestExploreSubtestsRun(t *testing.T) {
	status, out, errOut := runExplore(t, "-run", "TestTable/^mutex", subtestsPkg)
	require.Equal(t, 0, status, errOut)
	assert.Contains(t, out, "TestTable/mutex_counter ")
	assert.Contains(t, out, "TestTable/mutex_counter#01 ")
	assert.NotContains(t, out, "channel_sum")

	status, out, errOut = runExplore(t, "-run", "/^ok$", subtestsPkg)
	require.Equal(t, 0, status, errOut)
	assert.Contains(t, out, "TestDeadlock/ok ")
	assert.NotContains(t, out, "TestTable")
	assert.NotContains(t, out, "lock_order")

	status, _, errOut = runExplore(t, "-run", "TestTable/nothing", subtestsPkg)
	assert.Equal(t, 2, status)
	assert.Contains(t, errOut, `matches -run "TestTable/nothing"`)
}

// A subtest's finding is reported under its name, in the JSON output
// too; its token replays it with -run selecting the subtest.
func TestExploreSubtestsReplay(t *testing.T) {
	status, out, errOut := runExplore(t, "-json", "-run", "TestDeadlock", subtestsPkg)
	require.Equal(t, 1, status, errOut)
	lines := jsonLines(t, out)
	require.Len(t, lines, 1)
	assert.Equal(t, subtestsPath+"TestDeadlock/lock_order", lines[0]["test"])
	assert.Equal(t, "deadlock", lines[0]["kind"])
	token := lines[0]["replay"].(string)

	status, out, errOut = runExplore(t, "-json", "-run", "^TestDeadlock$/^lock_order$", "-replay", token, subtestsPkg)
	require.Equal(t, 1, status, errOut)
	replayed := jsonLines(t, out)
	require.Len(t, replayed, 1)
	assert.Equal(t, lines[0], replayed[0], "the replay reproduces the finding exactly")

	status, out, errOut = runExplore(t, "-run", "TestDeadlock/lock", subtestsPkg)
	require.Equal(t, 1, status, errOut)
	assert.Contains(t, out, "--- "+subtestsPath+"TestDeadlock/lock_order: deadlock\n")
	assert.Contains(t, out, "replay: "+token+"\n")
	assert.Contains(t, out, "replay with: ltl explore -run '^TestDeadlock$/^lock_order$' -replay "+token+"\n")
	assert.Regexp(t, `(?m)^fail +`+subtestsPath+`TestDeadlock/lock_order +\d+ executions \(dpor, complete\): 1 finding$`, out)

	status, _, errOut = runExplore(t, "-run", "TestDeadlock", "-replay", token, subtestsPkg)
	assert.Equal(t, 2, status)
	assert.Contains(t, errOut, "-replay: -run must select exactly one test, 2 match (TestDeadlock/ok, TestDeadlock/lock_order)")
	status, _, errOut = runExplore(t, "-run", "TestDeadlock/^ok$", "-replay", token, subtestsPkg)
	assert.Equal(t, 2, status)
	assert.Contains(t, errOut, "the replay token does not match this program")
}
