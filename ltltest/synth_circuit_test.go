package ltltest_test

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/henceforth-go/henceforth/internal/testproc"
	"github.com/henceforth-go/henceforth/ltltest"
	"github.com/henceforth-go/henceforth/synth"
)

// ambaSpec is the AMBA arbiter with two masters (SYNTCOMP's amba2).
func ambaSpec(t *testing.T) *synth.Spec {
	t.Helper()
	spec, err := synth.ParseFile(filepath.Join("testdata", "synth", "amba2.slugsin"))
	require.NoError(t, err)
	return spec
}

// TestSynthesizeAMBA: the AMBA arbiter's explicit controller exceeds a
// small state bound; Synthesize returns its checked circuit, whose steps
// keep the spec's guarantees and whose AIGER form passes the independent
// check.
func TestSynthesizeAMBA(t *testing.T) {
	if testproc.Alone(t) { // its BDD collections would scan the heap the other tests cached
		return
	}
	spec := ambaSpec(t)
	ft := &fakeT{}
	assert.Nil(t, ltltest.SynthesizeExplicit(ft, spec, ltltest.WithMaxControllerStates(100)))
	assert.Contains(t, ft.output(), "ltltest: cannot enumerate the controller")
	assert.Contains(t, ft.output(), "use ltltest.Synthesize for a symbolic controller")

	ft = &fakeT{}
	circ := ltltest.Synthesize(ft, spec)
	require.NotNil(t, circ, ft.output())
	assert.Empty(t, ft.errors)
	// Both masters keep requesting: the grants never overlap, hmaster
	// follows the grant of the previous ready step, and both masters are
	// served.
	run, err := circ.Run()
	require.NoError(t, err)
	in := map[string]int{"hready": 0, "hbusreq0": 0, "hlock0": 0, "hbusreq1": 0, "hlock1": 0, "hburst0": 0, "hburst1": 0}
	granted := map[string]bool{}
	var prev map[string]int
	prevReady := 0
	for step := range 24 {
		out, err := run.Step(in)
		require.NoError(t, err, "step %d", step)
		assert.False(t, out["hgrant0"] == 1 && out["hgrant1"] == 1, "step %d: two grants", step)
		if prevReady == 1 {
			// G(hready -> (hgrant1 <-> X hmaster0)): after a ready step,
			// hmaster names the master granted in it.
			assert.Equal(t, prev["hgrant1"], out["hmaster0"], "step %d: hmaster0 after a ready step", step)
		}
		prevReady = in["hready"]
		for _, g := range []string{"hgrant0", "hgrant1"} {
			if out[g] == 1 {
				granted[g] = true
			}
		}
		prev = out
		in["hready"], in["hbusreq0"], in["hbusreq1"] = 1, 1, 1
	}
	assert.Equal(t, map[string]bool{"hgrant0": true, "hgrant1": true}, granted)
	a, err := circ.AIG()
	require.NoError(t, err)
	require.NoError(t, synth.CheckAIG(t.Context(), spec, a))

	traffic := trafficSpec(t, false)
	ft = &fakeT{}
	require.NotNil(t, ltltest.RequireSynthesize(ft, traffic), ft.output())
	assert.False(t, ft.stopped)
}
