package explore

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// unsafe.Add by whole elements of the pointer's element type indexes the
// object as Go's does (the bounds-check-free idiom of lock-free maps):
// values read back, races between an indexed and an unsafe access are
// found, and arithmetic the cell memory cannot represent is unsupported,
// never silently wrong.
func TestUnsafeAddIndexes(t *testing.T) {
	p := loadPatterns(t, "./testdata/unsafeptr")
	run := func(name string) *Report {
		t.Helper()
		e, err := p.Func(testdataPath + "/unsafeptr." + name)
		require.NoError(t, err)
		r, err := p.Explore(context.Background(), e, Options{})
		require.NoError(t, err)
		return r
	}

	r := run("Indexing")
	require.Equal(t, "pass", r.Verdict(), "%v", r.Findings)

	r = run("GenericSizeof")
	require.Equal(t, "pass", r.Verdict(), "%v", r.Findings)

	r = run("Race")
	f := findKind(r, KindRace)
	require.NotNil(t, f, "%v", r.Findings)
	assert.Contains(t, f.Message, "meta")

	r = run("NoRace")
	assert.Equal(t, "pass", r.Verdict(), "%v", r.Findings)
	assert.True(t, r.Complete)

	r = run("Beyond")
	f = findKind(r, KindUnsupported)
	require.NotNil(t, f, "%v", r.Findings)
	assert.Contains(t, f.Message, "unsafe.Add beyond the pointed-to object")

	r = run("Unaligned")
	f = findKind(r, KindUnsupported)
	require.NotNil(t, f, "%v", r.Findings)
	assert.Contains(t, f.Message, "whole elements")
}
