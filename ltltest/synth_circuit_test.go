package ltltest_test

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/henceforth-go/henceforth/ltltest"
	"github.com/henceforth-go/henceforth/synth"
)

func TestSynthesizeCircuit(t *testing.T) {
	// The AMBA arbiter with two masters: its explicit controller exceeds a
	// small state bound, its checked circuit does not.
	spec, err := synth.ParseFile(filepath.Join("testdata", "synth", "amba2.slugsin"))
	require.NoError(t, err)
	ft := &fakeT{}
	assert.Nil(t, ltltest.Synthesize(ft, spec, ltltest.WithMaxControllerStates(100)))
	assert.Contains(t, ft.output(), "ltltest: cannot enumerate the controller")
	ft = &fakeT{}
	circ := ltltest.SynthesizeCircuit(ft, spec)
	require.NotNil(t, circ, ft.output())
	assert.Empty(t, ft.errors)
	// A few steps: requests from both masters are answered with grants
	// that never overlap.
	run, err := circ.Run()
	require.NoError(t, err)
	in := map[string]int{"hready": 0, "hbusreq0": 0, "hlock0": 0, "hbusreq1": 0, "hlock1": 0, "hburst0": 0, "hburst1": 0}
	for step := range 6 {
		out, err := run.Step(in)
		in["hready"], in["hbusreq0"], in["hbusreq1"] = 1, 1, 1
		require.NoError(t, err, "step %d", step)
		assert.False(t, out["hgrant0"] == 1 && out["hgrant1"] == 1, "step %d: two grants", step)
	}

	traffic := trafficSpec(t, false)
	ft = &fakeT{}
	require.NotNil(t, ltltest.RequireSynthesizeCircuit(ft, traffic), ft.output())

	ft = &fakeT{}
	assert.Nil(t, ltltest.RequireSynthesizeCircuit(ft, trafficSpec(t, true)))
	assert.Contains(t, ft.output(), "ltltest: specification is unrealizable: no controller to synthesize")
	assert.True(t, ft.stopped)

	ft = &fakeT{}
	assert.Nil(t, ltltest.SynthesizeCircuit(ft, spec, ltltest.WithSynthOptions(synth.WithMemoryLimit(32<<10))))
	assert.Contains(t, ft.output(), "memory bound")
}
