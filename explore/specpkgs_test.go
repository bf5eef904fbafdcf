package explore

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// An exploration checks the specs of the entry's package and of every
// user package it imports, each with its own props: an external test
// package sees the specs of the package it tests, and a dependency's
// specs are checked where its code runs (testdata/xtestspec: the package,
// its external tests, dependencies dep and session).

const xtestspecPath = testdataPath + "/xtestspec"

func loadXTestSpec(t *testing.T) *Program {
	t.Helper()
	return loadPatterns(t, "./testdata/xtestspec")
}

func TestExternalTestChecksPackageSpecs(t *testing.T) {
	p := loadXTestSpec(t)
	all := []string{xtestspecPath, xtestspecPath + "/dep", xtestspecPath + "/session"}

	// The spec of the package under test, violated from its external
	// test package.
	r := exploreFunc(t, p, xtestspecPath+"_test.TestPutGet", Options{})
	f := findKind(r, KindLTL)
	require.NotNil(t, f, "%v", r.Findings)
	assert.Equal(t, "ltl:spec putFirst violated: !get W put", f.Message)
	assert.Contains(t, f.Explanation, "call (*xtestspec.Store).Get")
	assert.Len(t, r.Findings, 1, "%v", r.Findings)
	assert.Equal(t, all, r.SpecPackages)
	rr := exploreFunc(t, p, xtestspecPath+"_test.TestPutGet", Options{Replay: f.Replay})
	g := findKind(rr, KindLTL)
	require.NotNil(t, g)
	assert.Equal(t, f.Explanation, g.Explanation)

	// Put before Get: every spec holds; session's events do not happen,
	// so its "F closed" is not judged.
	r = exploreFunc(t, p, xtestspecPath+"_test.TestPutThenGet", Options{})
	assert.Empty(t, r.Findings)
	assert.Equal(t, "pass", r.Verdict())
	assert.Equal(t, all, r.SpecPackages)

	// The internal test: its own package's specs and the dependencies'.
	r = exploreFunc(t, p, xtestspecPath+".TestZero", Options{})
	assert.Equal(t, "pass", r.Verdict(), "%v", r.Findings)
	assert.Equal(t, all, r.SpecPackages)
}

func TestDependencySpecs(t *testing.T) {
	p := loadXTestSpec(t)
	for _, tc := range []struct{ test, msg string }{
		// an //ltl:event statement of dep and a call event of dep
		{"TestReadBeforeReset", "ltl:spec resetFirst violated: !read W reset"},
		// a state predicate over dep's variable
		{"TestOverspend", "ltl:spec neverNegative violated: G !negative"},
		// an event-only spec judged at the end of a path that used session
		{"TestVisit", "ltl:spec closes violated: F closed"},
	} {
		t.Run(tc.test, func(t *testing.T) {
			r := exploreFunc(t, p, xtestspecPath+"_test."+tc.test, Options{})
			require.Len(t, r.Findings, 1, "%v", r.Findings)
			f := r.Findings[0]
			assert.Equal(t, KindLTL, f.Kind)
			assert.Equal(t, tc.msg, f.Message)
			rr := exploreFunc(t, p, xtestspecPath+"_test."+tc.test, Options{Replay: f.Replay})
			g := findKind(rr, KindLTL)
			require.NotNil(t, g)
			assert.Equal(t, f.Message, g.Message)
		})
	}
	r := exploreFunc(t, p, xtestspecPath+"_test.TestVisitAndClose", Options{})
	assert.Equal(t, "pass", r.Verdict(), "%v", r.Findings)

	// Specs selected by name, in whichever package declares them.
	r = exploreFunc(t, p, xtestspecPath+"_test.TestPutGet", Options{Specs: []string{"closes"}})
	assert.Empty(t, r.Findings)
	assert.Equal(t, []string{xtestspecPath + "/session"}, r.SpecPackages)
	r = exploreFunc(t, p, xtestspecPath+"_test.TestReadBeforeReset", Options{Specs: []string{"resetFirst", "putFirst"}})
	require.NotNil(t, findKind(r, KindLTL))
	assert.Equal(t, []string{xtestspecPath, xtestspecPath + "/dep"}, r.SpecPackages)
	e, err := p.Func(xtestspecPath + "_test.TestPutGet")
	require.NoError(t, err)
	_, err = p.Explore(context.Background(), e, Options{Specs: []string{"nosuch"}})
	require.ErrorContains(t, err, `no //ltl:spec named "nosuch"`)

	// NoSpecs: nothing is checked or listed.
	r = exploreFunc(t, p, xtestspecPath+"_test.TestPutGet", Options{NoSpecs: true})
	assert.Empty(t, r.Findings)
	assert.Empty(t, r.SpecPackages)
}
