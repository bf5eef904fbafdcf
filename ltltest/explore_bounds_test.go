package ltltest_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/henceforth-go/henceforth/ltltest"
	"github.com/henceforth-go/henceforth/ltltest/testdata/explorebodies"
)

// TestExploreMemoryBound: WithMaxMemory bounds the explorer's heap; a body
// that grows memory fails as unknown with the memory bound and says what
// would help.
func TestExploreMemoryBound(t *testing.T) {
	ft := &fakeT{}
	require.False(t, ltltest.Explore(ft, explorebodies.GrowForever, bodiesPkg, ltltest.WithMaxMemory(1)))
	out := ft.output()
	assert.Contains(t, out, "ltltest: the exploration was cut by a bound (unknown)")
	assert.Contains(t, out, "incomplete: memory bound reached")
	assert.Contains(t, out, "suggestion: the memory bound (1B) was reached after 1 execution")
	assert.Contains(t, out, "-max-memory, ltltest.WithMaxMemory")
}

// TestExploreStepsSuggestion: the failure message of a steps bound names
// it and the option that raises it; WithBounded logs the suggestion.
func TestExploreStepsSuggestion(t *testing.T) {
	ft := &fakeT{}
	require.False(t, ltltest.Explore(ft, explorebodies.LongRun, bodiesPkg, ltltest.WithMaxSteps(100)))
	assert.Contains(t, ft.output(), "suggestion: the steps bound (100) was reached: an execution ran 100 scheduling steps without ending; raise it (-max-steps, ltltest.WithMaxSteps)")

	lt := &loggingT{}
	require.True(t, ltltest.Explore(lt, explorebodies.LongRun, bodiesPkg, ltltest.WithMaxSteps(100), ltltest.WithBounded()))
	assert.Contains(t, strings.Join(lt.logs, "\n"), "ltltest: suggestion: the steps bound (100) was reached")

	ft = &fakeT{}
	require.True(t, ltltest.Explore(ft, explorebodies.LongRun, bodiesPkg), "2000 steps fit the default bound")
}

// TestExploreAutoSamples: the default strategy samples with PCT when
// DPOR's executions run out, finds the deadlock, and says what ran. The
// generous deadline gives each phase half of it, so that the executions
// bound, not a phase's time share, ends each phase on a loaded machine.
func TestExploreAutoSamples(t *testing.T) {
	ft := &fakeT{}
	require.False(t, ltltest.Explore(ft, explorebodies.LockHandOver, bodiesPkg, ltltest.WithMaxExecutions(30), ltltest.WithTimeout(30*time.Minute)))
	out := ft.output()
	assert.Contains(t, out, "ltltest: the exploration found 1 problem (deadlock)")
	assert.Regexp(t, `explored: \d+ executions with dpor, then pct: \d+ \+ 30 executions, incomplete: executions bound reached`, out)
}

// loggingT is a fakeT that keeps what the test logs.
type loggingT struct {
	fakeT
	logs []string
}

func (l *loggingT) Logf(format string, args ...any) {
	l.logs = append(l.logs, fmt.Sprintf(format, args...))
}
