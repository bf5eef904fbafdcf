package ltltest_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/henceforth-go/henceforth/explore"
	"github.com/henceforth-go/henceforth/explore/testdata/xtestspec"
	"github.com/henceforth-go/henceforth/ltltest"
)

const xtestspecPath = "github.com/henceforth-go/henceforth/explore/testdata/xtestspec"

var xtestspecPkg = explore.LoadConfig{Patterns: []string{xtestspecPath}}

// TestExploreNamesSpecPackages: Explore says whose //ltl:spec annotations
// it checked — the body's package and the packages it imports — in the
// log of a pass and in the failure text.
func TestExploreNamesSpecPackages(t *testing.T) {
	checked := "specs checked: " + xtestspecPath + ", " + xtestspecPath + "/dep, " + xtestspecPath + "/session"

	lt := &logT{}
	require.True(t, ltltest.Explore(lt, xtestspec.VisitAndClose, xtestspecPkg), lt.output())
	assert.Contains(t, strings.Join(lt.logs, "\n"), "ltltest: "+checked)

	// A dependency's spec, violated where its code runs.
	ft := &fakeT{}
	require.False(t, ltltest.Explore(ft, xtestspec.Visit, xtestspecPkg))
	out := ft.output()
	assert.Contains(t, out, "ltl:spec closes violated: F closed")
	assert.Contains(t, out, checked)
}
