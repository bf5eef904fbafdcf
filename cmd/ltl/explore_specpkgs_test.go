package main

import (
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
)

// The external tests of explore/testdata/xtestspec check the specs of the
// package they test and of its dependencies; the summary says which
// packages' specs were checked.
func TestExploreSpecPackages(t *testing.T) {
	const pkg = "../../explore/testdata/xtestspec"
	const path = "github.com/henceforth-go/henceforth/explore/testdata/xtestspec"
	status, out, errOut := runExplore(t, "-run", "^TestPutGet$", pkg)
	assert.Equal(t, 1, status, "%s\n%s", out, errOut)
	assert.Contains(t, out, "ltl:spec putFirst violated: !get W put")
	assert.Regexp(t, `(?m)^fail +`+regexp.QuoteMeta(path+"_test.TestPutGet")+` .*: 1 finding\n +specs checked: `+
		regexp.QuoteMeta(path+", "+path+"/dep, "+path+"/session")+`$`, out)

	status, out, errOut = runExplore(t, "-run", "^TestPutThenGet$", pkg)
	assert.Equal(t, 0, status, "%s\n%s", out, errOut)
	assert.Regexp(t, `(?m)^ +specs checked: `+regexp.QuoteMeta(path)+`, `, out)
}
