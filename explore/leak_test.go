package explore

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Goroutines started by package initialization (testdata/initleak's
// worker) are not a test's leaks; the goroutines the test starts are.
func TestInitGoroutinesAreNotLeaks(t *testing.T) {
	r := exploreTestdata(t, "initleak", "TestUsesWorker", Options{})
	assert.Equal(t, "pass", r.Verdict(), "%v", r.Findings)
	assert.True(t, r.Complete)

	r = exploreTestdata(t, "initleak", "TestLeaks", Options{})
	f := findKind(r, KindLeak)
	require.NotNil(t, f, "%v", r.Findings)
	assert.Len(t, r.Findings, 1, "%v", r.Findings)
	assert.Regexp(t, `^1 goroutine\(s\) blocked forever after TestLeaks returned: goroutine \d+ chan send on ch \(chan#\d+\) at initleak_test.go:18$`, f.Message)
	assert.Equal(t, 18, f.Pos.Line, "the test's own goroutine, blocked in its send")
}

// Options.IgnoreLeaks names functions whose blocked goroutines are not
// leaks: the innermost function of the goroutine's stack, as Go names it.
func TestIgnoreLeaks(t *testing.T) {
	for _, tc := range []struct {
		ignore []string
		leak   bool
	}{
		{[]string{testdataPath + "/initleak.TestLeaks.func1"}, false},
		{[]string{testdataPath + "/initleak.TestLeaks"}, true}, // not the goroutine's function
		{[]string{"initleak.TestLeaks.func1"}, true},           // the full import path is needed
	} {
		r := exploreTestdata(t, "initleak", "TestLeaks", Options{IgnoreLeaks: tc.ignore})
		assert.Equal(t, tc.leak, findKind(r, KindLeak) != nil, "IgnoreLeaks %q: %v", tc.ignore, r.Findings)
		if !tc.leak {
			assert.Equal(t, "pass", r.Verdict(), "%v", r.Findings)
		}
	}
}
