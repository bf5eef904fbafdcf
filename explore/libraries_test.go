package explore

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A library the explorer is built on (golang.org/x/sync/errgroup) is
// interpreted when the user's code imports it: its goroutines are explored
// and its Wait orders them like any WaitGroup.
func TestUserCopyOfExplorerLibrary(t *testing.T) {
	explore := func(test string) *Report { return exploreTestdata(t, "errgroup", test, Options{}) }

	r := explore("TestSum")
	assert.Equal(t, "fail", r.Verdict(), "%v", r.Findings)
	assert.Nil(t, findKind(r, KindUnsupported), "%v", r.Findings)
	f := findKind(r, KindRace)
	require.NotNil(t, f, "%v", r.Findings)
	assert.Equal(t, 18, f.Pos.Line, "total += x")

	r = explore("TestSumLocked")
	assert.Equal(t, "pass", r.Verdict(), "%v", r.Findings)
	assert.True(t, r.Complete)
}

// The standard library's external test packages (sync_test) are user code:
// their tests run against the models of the packages they test.
func TestStdExternalTests(t *testing.T) {
	p := loadPatterns(t, "sync")
	e, err := p.Func("sync_test.TestOncePanic")
	require.NoError(t, err)
	r, err := p.Explore(context.Background(), e, Options{})
	require.NoError(t, err)
	assert.Equal(t, "pass", r.Verdict(), "%v", r.Findings)
	assert.True(t, r.Complete)
}

// The packages a load names are the user's even when they belong to a
// library the explorer is built on: exploring golang.org/x/sync's own
// tests runs them, where a call into the package would otherwise be
// unsupported as the explorer's own.
func TestExplorerLibraryNamedByPattern(t *testing.T) {
	p := loadPatterns(t, "golang.org/x/sync/singleflight")
	e, err := p.Func("golang.org/x/sync/singleflight.TestForget")
	require.NoError(t, err)
	r, err := p.Explore(context.Background(), e, Options{})
	require.NoError(t, err)
	assert.Equal(t, "pass", r.Verdict(), "%v", r.Findings)
	assert.True(t, r.Complete)
}
