package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestExploreTimeCases: a tick that arrives while a lock is held and a
// poller that never blocks are found by default; -early-fire 0 gives the
// clock of testing/synctest (timers expire only when nothing can move).
func TestExploreTimeCases(t *testing.T) {
	const tickquiet = "../../explore/testdata/timecases/tickquiet2"
	status, out, errOut := runExplore(t, "-json", "-run", "^TestTickWhileProducerHoldsLockTwice$", tickquiet)
	require.Equal(t, 1, status, "%s\n%s", out, errOut)
	lines := jsonLines(t, out)
	require.Len(t, lines, 1, out)
	assert.Equal(t, "deadlock", lines[0]["kind"], out)
	token, _ := lines[0]["replay"].(string)
	status, again, errOut := runExplore(t, "-json", "-run", "^TestTickWhileProducerHoldsLockTwice$", "-replay", token, tickquiet)
	require.Equal(t, 1, status, "%s\n%s", again, errOut)
	replayed := jsonLines(t, again)
	require.Len(t, replayed, 1, again)
	assert.EqualValues(t, 1, replayed[0]["seen"], "a replay is one execution")
	delete(lines[0], "seen")
	delete(replayed[0], "seen")
	assert.Equal(t, lines, replayed, "the replay reports the same finding")

	status, out, errOut = runExplore(t, "-early-fire", "0", "-run", "^TestTickWhileProducerHoldsLockTwice$", tickquiet)
	assert.Equal(t, 0, status, "%s\n%s", out, errOut)
	assert.Regexp(t, `(?m)^pass +\S+ +\d+ executions? \(dpor, complete\)$`, out)

	status, out, errOut = runExplore(t, "-json", "../../explore/testdata/timecases/poller")
	require.Equal(t, 1, status, "%s\n%s", out, errOut)
	lines = jsonLines(t, out)
	require.Len(t, lines, 1, out)
	assert.Equal(t, "deadlock", lines[0]["kind"], out)

	status, _, errOut = runExplore(t, "-early-fire", "-1s", tickquiet)
	assert.Equal(t, 2, status)
	assert.Contains(t, errOut, "-early-fire: must not be negative, got -1s")
}
