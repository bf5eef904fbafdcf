package ltltest_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/henceforth-go/henceforth/ltl"
	"github.com/henceforth-go/henceforth/ltltest"
)

func TestSpecsReportsEveryProblemWithPosition(t *testing.T) {
	ft := &fakeT{}
	ltltest.Specs(ft, "testdata/badspecs")
	require.True(t, ft.failed)
	out := ft.output()
	assert.Contains(t, out, "ltltest: annotations of testdata/badspecs have problems")
	assert.Contains(t, out, `bank.go:5:30: ltl:spec neverOverdrawn: unknown proposition "overdrwn" (did you mean "overdrawn"?)`)
	assert.Contains(t, out, "bank.go:6:33: ltl:spec broken: syntax error: expected formula, found end of formula", "the second problem is reported too, at the end of the formula")
}

func TestHoldsAcceptsSpecNames(t *testing.T) {
	ft := &fakeT{}
	specs := ltltest.Specs(ft, "testdata/goodspecs")
	require.False(t, ft.failed, ft.output())
	require.NotNil(t, specs.Spec("neverOverdrawn"))

	assert.True(t, ltltest.Holds(ft, "neverOverdrawn", ltl.Sets{{"withdraw"}, {}}, specs))
	assert.True(t, ltltest.Holds(ft, "withdrawFirst", ltl.Sets{{}, {"withdraw"}, {"overdrawn"}}, specs))
	assert.False(t, ft.failed, ft.output())

	assert.False(t, ltltest.Holds(ft, "neverOverdrawn", ltl.Sets{{"withdraw"}, {"overdrawn"}}, specs))
	assert.Contains(t, ft.output(), "formula: G !overdrawn")
	assert.Contains(t, ft.output(), "violated at event 1")

	// Without the annotations the name is just an atom.
	ft = &fakeT{}
	assert.False(t, ltltest.Holds(ft, "neverOverdrawn", ltl.Sets{{}}))

	ft = &fakeT{}
	m := ltltest.NewMonitor(ft, "neverOverdrawn", specs)
	m.Step("withdraw")
	m.Step("overdrawn")
	assert.Contains(t, ft.output(), "violated at event 1")
}
