package main

import (
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// lazysharePkg is a test whose goroutine reads, unsynchronized, an int
// that the test writes through a pointer: go test -race reports the race,
// and so must ltl explore with its default flags (no -shared).
const (
	lazysharePkg  = "../../explore/testdata/racecases/lazyshare"
	lazysharePath = "github.com/henceforth-go/henceforth/explore/testdata/racecases/lazyshare."
)

func TestExploreReportsRaceByDefault(t *testing.T) {
	status, out, errOut := runLTL(t, "", "explore", lazysharePkg)
	assert.Equal(t, 1, status, "a race is a failure\n%s\n%s", out, errOut)
	assert.Contains(t, out, "--- "+lazysharePath+"TestOwnerWriteIsInvisible: race\n")
	// The finding's headline names both accesses.
	assert.Regexp(t, `lazyshare/x_test\.go:(13|18):\d+: race: data race: .*x_test\.go:(13|18) .* x_test\.go:(13|18) `, out)
	assert.Contains(t, out, "previous ", "the earlier access's stack is printed")
	assert.Regexp(t, `(?m)^fail +`+regexp.QuoteMeta(lazysharePath+"TestOwnerWriteIsInvisible")+` .*: 1 finding$`, out)
	assert.Regexp(t, `(?m)^pass +`+regexp.QuoteMeta(lazysharePath+"TestOwnerWriteIsInvisibleFixed")+` +\d+ executions? \(dpor, complete\)$`, out)
	assert.Regexp(t, `(?m)^replay: v[12]:\S+$`, out)

	// -json: one race object for the buggy test; its token replays it.
	status, out, errOut = runExplore(t, "-json", lazysharePkg)
	require.Equal(t, 1, status, "%s\n%s", out, errOut)
	lines := jsonLines(t, out)
	require.Len(t, lines, 1, out)
	race := lines[0]
	assert.Equal(t, lazysharePath+"TestOwnerWriteIsInvisible", race["test"])
	assert.Equal(t, "race", race["kind"])
	assert.Regexp(t, `/explore/testdata/racecases/lazyshare/x_test\.go:(13|18):\d+$`, race["position"])
	token, _ := race["replay"].(string)
	require.Regexp(t, `^v[12]:\S+$`, token)

	status, again, errOut := runExplore(t, "-json", "-run", "^TestOwnerWriteIsInvisible$", "-replay", token, lazysharePkg)
	require.Equal(t, 1, status, "%s\n%s", again, errOut)
	replayed := jsonLines(t, again)
	require.Len(t, replayed, 1, again)
	assert.Equal(t, race, replayed[0], "the replay reports the same race")

	// The fixed test alone passes: exit 0.
	status, out, errOut = runExplore(t, "-run", "Fixed$", lazysharePkg)
	assert.Equal(t, 0, status, "%s\n%s", out, errOut)
}

// TestExploreRaceCases: every race case is found by ltl explore with its
// default flags (a race, or the panic Go raises), its token replays it,
// and the fixed version of each passes.
func TestExploreRaceCases(t *testing.T) {
	cases := []struct{ pkg, test, kind, message string }{
		{"lazyshare", "TestOwnerWriteIsInvisible", "race", "data race: "},
		{"atomicmix", "TestAtomicAndPlainAccess", "race", "atomic.Add"},
		{"sleephb", "TestSleepIsNotSynchronization", "race", "ready at x_test.go:13"},
		{"wgaddwait", "TestAddConcurrentWithWaitSleep", "race", "sync.(*WaitGroup).Add from zero at x_test.go:13"},
		{"logafter", "TestLogAfterTestCompleted", "panic", "panic: Log in goroutine after TestLogAfterTestCompleted has completed: late"},
	}
	for _, c := range cases {
		t.Run(c.pkg, func(t *testing.T) {
			pkg := "../../explore/testdata/racecases/" + c.pkg
			status, out, errOut := runExplore(t, "-json", "-run", "^"+c.test+"$", pkg)
			require.Equal(t, 1, status, "%s\n%s", out, errOut)
			lines := jsonLines(t, out)
			require.Len(t, lines, 1, out)
			assert.Equal(t, c.kind, lines[0]["kind"], out)
			assert.Contains(t, lines[0]["message"], c.message)
			token, _ := lines[0]["replay"].(string)
			status, again, errOut := runExplore(t, "-json", "-run", "^"+c.test+"$", "-replay", token, pkg)
			require.Equal(t, 1, status, "%s\n%s", again, errOut)
			assert.Equal(t, lines, jsonLines(t, again), "the replay reports the same finding")

			status, out, errOut = runExplore(t, "-run", "Fixed$", pkg)
			assert.Equal(t, 0, status, "%s\n%s", out, errOut)
			assert.Regexp(t, `(?m)^pass +\S+Fixed +\d+ executions? \(dpor, complete\)$`, out)
		})
	}
}
