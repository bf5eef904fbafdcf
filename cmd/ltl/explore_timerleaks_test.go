package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A cache's janitor the test leaves ticking is a background loop: the test
// passes; -timer-leaks reports it as a leak.
func TestExploreTimerLeaks(t *testing.T) {
	const bgloops = "../../explore/testdata/bgloops"
	status, out, errOut := runExplore(t, "-run", "^TestJanitor$", bgloops)
	assert.Equal(t, 0, status, "%s\n%s", out, errOut)
	assert.Regexp(t, `(?m)^pass +\S+TestJanitor +\d+ executions? \(dpor, complete\)$`, out)

	status, out, errOut = runExplore(t, "-json", "-timer-leaks", "-run", "^TestJanitor$", bgloops)
	require.Equal(t, 1, status, "%s\n%s", out, errOut)
	lines := jsonLines(t, out)
	require.Len(t, lines, 1, out)
	assert.Equal(t, "leak", lines[0]["kind"], out)
	assert.Contains(t, lines[0]["message"], "1 goroutine(s) still waiting for timers (ReportTimerLeaks) after TestJanitor returned: goroutine 2 select at bgloops.go:41", out)

	assert.False(t, exploreOptions(t).ReportTimerLeaks, "off by default")
	assert.True(t, exploreOptions(t, "-timer-leaks").ReportTimerLeaks)
}
