package explore

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// testing.AllocsPerRun calls its function as Go does (once, then runs
// times; runs 0 divides by zero) and returns 0 with a warning, since the
// explorer cannot count Go's allocations; os.Getpagesize and
// syscall.Getpagesize are the host's.
func TestAllocsPerRunAndPagesize(t *testing.T) {
	for _, tc := range []struct {
		test string
		warn string // the warning's end, "" for none
	}{
		{"TestAllocsRunsF", "allocpage_test.go:16:27: testing.AllocsPerRun returned 0: the explorer does not count Go's allocations, so the test's checks of the count were not tested (a check that it is exactly a positive number fails)"},
		{"TestAllocsBlockingF", "allocpage_test.go:29:22: testing.AllocsPerRun returned 0"},
		{"TestAllocsZeroRuns", ""},
		{"TestPagesize", ""},
	} {
		t.Run(tc.test, func(t *testing.T) {
			r := exploreTestdata(t, "allocpage", tc.test, Options{})
			assert.Equal(t, "pass", r.Verdict(), "%v", r.Findings)
			assert.True(t, r.Complete, "bound %q", r.Bound)
			if tc.warn == "" {
				assert.Empty(t, r.Warnings)
				return
			}
			require.Len(t, r.Warnings, 1)
			assert.Contains(t, r.Warnings[0], tc.warn)
		})
	}
}
