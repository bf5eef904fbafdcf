package ltltest_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/henceforth-go/henceforth/ltltest"
)

// The mutex example, a Go mutex-based protocol, is proved for 64
// goroutines; a misspelled spec, a missing function and a malformed
// PACKAGE.FUNC fail with what is wrong.
func TestSplitNMutexProved(t *testing.T) {
	assert.True(t, ltltest.SplitN(t, "../examples/split/mutex.worker", 64, "mutex"))
	assert.True(t, ltltest.SplitN(t, "../examples/split/mutex.worker", 64, `G "count(crit) <= 1"`))

	f := &fakeT{}
	assert.False(t, ltltest.SplitN(f, "../examples/split/mutex.nope", 2, "mutex"))
	assert.Contains(t, f.output(), "no function nope")
	f = &fakeT{}
	assert.False(t, ltltest.SplitN(f, "../examples/split/mutex.worker", 2, `G "count(crt) <= 1"`))
	assert.Contains(t, f.output(), "count(crt): want the name of an event or prop")
	f = &fakeT{}
	assert.False(t, ltltest.SplitN(f, "../examples/split/mutex", 2, "mutex"))
	assert.Contains(t, f.output(), "want PACKAGE.FUNC")
}

// The racy example's counterexample is reported in Go terms and confirmed
// by the explorer on the real code (Demo runs two workers).
func TestSplitNRacyConfirmed(t *testing.T) {
	f := &fakeT{}
	require.False(t, ltltest.SplitN(f, "../examples/split/racy.worker", 16, "mutex"))
	out := f.output()
	t.Log(out)
	assert.Contains(t, out, `SplitN(../examples/split/racy.worker, 16, "mutex"): violated`)
	assert.Regexp(t, `goroutine \d+ at racy\.go:19:\d+: if !busy`, out)
	assert.Regexp(t, `goroutine \d+ at racy\.go:20:\d+: busy = true`, out)
	assert.Contains(t, out, "found with 2 of the 16 goroutines")
	assert.Contains(t, out, "confirmed by the explorer on the real code")
	assert.NotContains(t, out, "not confirmed")
}
