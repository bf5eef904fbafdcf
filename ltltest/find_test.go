package ltltest_test

import (
	"testing"

	"github.com/henceforth-go/henceforth/examples/explore/dekker"
	"github.com/henceforth-go/henceforth/explore"
	"github.com/henceforth-go/henceforth/ltltest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// dekkerPkg loads only the Dekker example (the body is dekker.Run).
var dekkerPkg = explore.LoadConfig{Patterns: []string{"github.com/henceforth-go/henceforth/examples/explore/dekker"}, NoTests: true}

func TestFindWitness(t *testing.T) {
	ft := &fakeT{}
	w := ltltest.Find(ft, dekker.Run, "F(at(P0, m2) && at(P1, n2))", dekkerPkg)
	require.False(t, ft.failed, ft.output())
	require.NotNil(t, w)
	assert.Equal(t, 6, w.Steps, "shortest: three labelled steps of each process")
	assert.NotEmpty(t, w.Replay)
	t.Log(w)

	// From there, P0 enters first (the paper's D9) but P1 cannot (D8).
	ft = &fakeT{}
	w9 := ltltest.Find(ft, dekker.Run, "!at(P1, n8) U at(P0, m8)", dekkerPkg, explore.FindOptions{After: w})
	require.False(t, ft.failed, ft.output())
	require.NotNil(t, w9)
	assert.Equal(t, 6, w9.Start)
	ft = &fakeT{}
	assert.True(t, ltltest.Never(ft, dekker.Run, "!at(P0, m8) U at(P1, n8)", dekkerPkg, explore.FindOptions{After: w}))
	assert.False(t, ft.failed, ft.output())
}

func TestFindFailures(t *testing.T) {
	// Mutual exclusion: no witness, so Find fails and Never passes.
	ft := &fakeT{}
	assert.Nil(t, ltltest.Find(ft, dekker.Run, "F(at(P0, m8) && at(P1, n8))", dekkerPkg, "checking %s", "mutex"))
	assert.Contains(t, ft.output(), "ltltest: no interleaving satisfies the formula")
	assert.Contains(t, ft.output(), "search:  none after")
	assert.Contains(t, ft.output(), "message: checking mutex")

	ft = &fakeT{}
	assert.True(t, ltltest.Never(ft, dekker.Run, "F(at(P0, m8) && at(P1, n8))", dekkerPkg))
	assert.False(t, ft.failed, ft.output())

	// A witness makes Never fail, showing it.
	ft = &fakeT{}
	assert.False(t, ltltest.Never(ft, dekker.Run, "F at(P0, m8)", dekkerPkg))
	assert.Contains(t, ft.output(), "ltltest: an interleaving satisfies the formula")
	assert.Contains(t, ft.output(), "interleaving:")
	assert.Contains(t, ft.output(), "event m8")

	// A bound is unknown, never a pass.
	ft = &fakeT{}
	assert.False(t, ltltest.Never(ft, dekker.Run, "F at(P0, m8)", dekkerPkg, explore.FindOptions{MaxDepth: 3}))
	assert.Contains(t, ft.output(), "cut by a bound (unknown)")

	// Bad formulas and bodies are reported.
	ft = &fakeT{}
	assert.Nil(t, ltltest.Find(ft, dekker.Run, "F at(P0, m99)", dekkerPkg))
	assert.Contains(t, ft.output(), "no //ltl:event m99")
	ft = &fakeT{}
	assert.Nil(t, ltltest.Find(ft, 42, "F deadlock", dekkerPkg))
	assert.Contains(t, ft.output(), "the body must be a func(*testing.T) or a func(), not int")

	ft = &fakeT{}
	ltltest.RequireNever(ft, dekker.Run, "F at(P0, m8)", dekkerPkg)
	assert.True(t, ft.stopped)
}

// TestFindTestBody: a func(*testing.T) literal of the test itself is the
// body; the test's own package is loaded (slow: the whole module is
// interpreted code from here).
func TestFindTestBody(t *testing.T) {
	if testing.Short() {
		t.Skip("loads the ltltest package and its dependencies")
	}
	ft := &fakeT{}
	w := ltltest.Find(ft, func(t *testing.T) { dekker.Run() }, "F at(P0, m8)")
	require.False(t, ft.failed, ft.output())
	require.NotNil(t, w)
	assert.Equal(t, 6, w.Steps, "P1: n1; P0: m1, m11, m2, m7, m8")
}
