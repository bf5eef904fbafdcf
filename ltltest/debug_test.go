package ltltest_test

import (
	"testing"

	"github.com/henceforth-go/henceforth/examples/explore/dekker"
	"github.com/henceforth-go/henceforth/explore"
	"github.com/henceforth-go/henceforth/ltltest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDebugDekker is the second half of the paper's Dekker session
// (D4–D9) through the test surface, each assertion passing; then each
// assertion failing, with its message.
func TestDebugDekker(t *testing.T) {
	// Dekker never ends: a low steps bound keeps short the executions
	// that record a step's replay token.
	short := explore.Options{MaxSteps: 300}
	d := ltltest.RequireDebug(t, dekker.Run, dekkerPkg, short)
	d4 := d.RequireStep("F(at(P0, m2) && at(P1, n2))")
	assert.Equal(t, 6, d4.Steps)
	d.Holds("c0 == 0 && c1 == 0 && turn == 0")
	d.NoStep("G at(P1, n2) && F at(P0, m8)") // D5
	d6 := d.RequireStep("G at(P1, n2)", explore.StepOptions{Size: explore.Maximal})
	assert.Subset(t, d6.Labels(d6.Goroutine("P0")), []string{"m6", "m7"})
	d.Pop()
	d7 := d.RequireStep("F at(P0, m8)") // P1 relinquishes: n7, n6, n3
	assert.Equal(t, []string{"n2", "n7", "n6", "n3"}, d7.Labels(d7.Goroutine("P1")))
	d.At("P0", "m8")
	// Backtracking gives another step to m8.
	alt := d.Next()
	require.NotNil(t, alt)
	assert.Equal(t, 2, alt.Alternative)
	assert.NotEqual(t, d7.Trace, alt.Trace)
	d.At("P0", "m8")
	d.Pop()
	d.At("P0", "m2")
	d.NoStep("!at(P0, m8) U at(P1, n8)") // D8
	d.RequireStep("!at(P1, n8) U at(P0, m8)")
	d.At("P0", "m8")
	d.Single("P1")
	d.Clear()
	d.At("P0", "")

	// Failures.
	ft := &fakeT{}
	f := ltltest.Debug(ft, dekker.Run, dekkerPkg, short)
	require.NotNil(t, f)
	assert.Nil(t, f.Step("at(P0, m8) && at(P1, n8)", "checking %s", "mutex"))
	assert.Contains(t, ft.output(), "ltltest: no temporal step satisfies the formula from the current state")
	assert.Contains(t, ft.output(), "message: checking mutex")
	ft = &fakeT{}
	f = ltltest.Debug(ft, dekker.Run, dekkerPkg, short)
	assert.False(t, f.NoStep("F at(P0, m8)"))
	assert.Contains(t, ft.output(), "ltltest: a temporal step satisfies the formula")
	assert.Empty(t, f.Session().Steps(), "NoStep pushes nothing")
	ft = &fakeT{}
	f = ltltest.Debug(ft, dekker.Run, dekkerPkg, short)
	assert.Nil(t, f.Step("F at(P0, m8)", explore.StepOptions{MaxNodes: 3}))
	assert.Contains(t, ft.output(), "cut by a bound (unknown)")
	assert.Contains(t, ft.output(), "bound:   nodes")
	ft = &fakeT{}
	f = ltltest.Debug(ft, dekker.Run, dekkerPkg, short)
	assert.False(t, f.Holds("turn == 1"))
	assert.False(t, f.At("P0", "m8"))
	assert.False(t, f.Pop())
	assert.Nil(t, f.Single("P9"))
	out := ft.output()
	assert.Contains(t, out, "ltltest: the expression does not hold in the current state")
	assert.Contains(t, out, "ltltest: goroutine P0 is not at m8")
	assert.Contains(t, out, "ltltest: cannot pop")
	assert.Contains(t, out, `no goroutine "P9"`)
	ft = &fakeT{}
	assert.Nil(t, ltltest.Debug(ft, 42))
	assert.Contains(t, ft.output(), "ltltest: cannot debug the body")
}
