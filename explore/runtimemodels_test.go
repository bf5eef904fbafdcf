package explore

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// hash/maphash and the runtime's random numbers pulled in by
// //go:linkname run under the explorer: hashes agree however they were
// computed, and a sharded set keyed by them works on every schedule.
func TestMaphash(t *testing.T) {
	for _, test := range []string{"TestHashesAgree", "TestShardedSet", "TestLinkname"} {
		t.Run(test, func(t *testing.T) {
			r := exploreTestdata(t, "maphash", test, Options{})
			assert.Equal(t, "pass", r.Verdict(), "%v", r.Findings)
			assert.True(t, r.Complete)
		})
	}
}

// runtime.ReadMemStats, which pool tests call to log memory usage, runs
// (it reports zeros).
func TestReadMemStats(t *testing.T) {
	r := exploreTestdata(t, "memstats", "TestLogsMemory", Options{})
	assert.Equal(t, "pass", r.Verdict(), "%v", r.Findings)
	assert.True(t, r.Complete)
}
