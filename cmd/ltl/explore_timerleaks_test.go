package main

import (
	"flag"
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

	var f exploreFlags
	fs := flag.NewFlagSet("explore", flag.ContinueOnError)
	f.register(fs)
	require.NoError(t, fs.Parse(nil))
	o, err := f.options()
	require.NoError(t, err)
	assert.False(t, o.ReportTimerLeaks, "off by default")
	require.NoError(t, fs.Parse([]string{"-timer-leaks"}))
	o, err = f.options()
	require.NoError(t, err)
	assert.True(t, o.ReportTimerLeaks)
}
