package explore

import (
	"context"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// raceCase is a package with a racy test and its fixed version.
const raceCase = "./testdata/racecases/lazyshare"

// TestLoaderConcurrentLoadsShareStd: two loads of one Loader, running at
// the same time, share the standard packages (types and file set) but
// not the user's; explorations of both give the verdicts and findings
// of a program of Load's.
func TestLoaderConcurrentLoadsShareStd(t *testing.T) {
	var l Loader
	cfgs := []LoadConfig{{Patterns: []string{raceCase}}, {Patterns: []string{"./testdata/oldloop"}}}
	progs := make([]*Program, len(cfgs))
	errs := make([]error, len(cfgs))
	var wg sync.WaitGroup
	for i, cfg := range cfgs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			progs[i], errs[i] = l.Load(context.Background(), cfg)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		require.NoError(t, err)
	}
	a, b := progs[0], progs[1]
	assert.Same(t, a.Fset, b.Fset)
	for _, path := range []string{"sync", "testing", "fmt"} {
		pa, pb := a.SSA.ImportedPackage(path), b.SSA.ImportedPackage(path)
		require.NotNil(t, pa, path)
		require.NotNil(t, pb, path)
		assert.Same(t, pa.Pkg, pb.Pkg, "%s is type-checked once", path)
		assert.NotSame(t, pa, pb, "each program has its own SSA package %s", path)
	}
	assert.NotEqual(t, a.Packages[0].Pkg.Path(), b.Packages[0].Pkg.Path())

	// The racy test and its fix explore as in a program of Load's, also
	// with both programs exploring at once.
	fresh, err := Load(context.Background(), cfgs[0])
	require.NoError(t, err)
	assert.NotSame(t, fresh.Fset, a.Fset)
	for _, name := range []string{"TestOwnerWriteIsInvisible", "TestOwnerWriteIsInvisibleFixed"} {
		reports := make([]*Report, 2)
		for i, p := range []*Program{fresh, a} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				e, err := p.Func("github.com/henceforth-go/henceforth/explore/testdata/racecases/lazyshare." + name)
				if err == nil {
					reports[i], err = p.Explore(context.Background(), e, Options{})
				}
				errs[i] = err
			}()
		}
		wg.Wait()
		require.NoError(t, errs[0], name)
		require.NoError(t, errs[1], name)
		want, got := reports[0], reports[1]
		assert.Equal(t, want.Verdict(), got.Verdict(), name)
		assert.Equal(t, want.Executions, got.Executions, name)
		require.Equal(t, len(want.Findings), len(got.Findings), name)
		for i := range want.Findings {
			assert.Equal(t, want.Findings[i].Kind, got.Findings[i].Kind, name)
			assert.Equal(t, want.Findings[i].Message, got.Findings[i].Message, name)
			assert.Equal(t, want.Findings[i].Pos, got.Findings[i].Pos, name)
		}
	}
	assert.Equal(t, "fail", mustExplore(t, a, "TestOwnerWriteIsInvisible").Verdict())
}

// TestLoaderErrors: a Loader reports type errors with their positions and
// a cancelled load as such, and loads well afterwards.
func TestLoaderErrors(t *testing.T) {
	var l Loader
	_, err := l.Load(context.Background(), LoadConfig{Patterns: []string{"../cmd/ltl/testdata/explore/badtype"}})
	require.Error(t, err)
	assert.Regexp(t, `badtype/bad\.go:4:23: cannot use "not an int"`, err.Error())

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = l.Load(ctx, LoadConfig{Patterns: []string{raceCase}})
	assert.ErrorIs(t, err, context.Canceled)

	p, err := l.Load(context.Background(), LoadConfig{Patterns: []string{raceCase}})
	require.NoError(t, err)
	assert.Equal(t, "pass", mustExplore(t, p, "TestOwnerWriteIsInvisibleFixed").Verdict())
}

// mustExplore explores the test name of raceCase in p.
func mustExplore(t *testing.T, p *Program, name string) *Report {
	t.Helper()
	e, err := p.Func("github.com/henceforth-go/henceforth/explore/testdata/racecases/lazyshare." + name)
	require.NoError(t, err)
	r, err := p.Explore(context.Background(), e, Options{})
	require.NoError(t, err)
	return r
}
