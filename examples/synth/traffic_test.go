package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/henceforth-go/henceforth/examples/synth/trafficcircuit"
	"github.com/henceforth-go/henceforth/examples/synth/trafficctl"
	"github.com/henceforth-go/henceforth/ltltest"
	"github.com/henceforth-go/henceforth/synth"
)

// TestTrafficLight is the test a user writes: the spec is realizable, the
// synthesized controller runs, and the hand-written Light meets the spec.
func TestTrafficLight(t *testing.T) {
	spec, err := synth.ParseFile("traffic.structuredslugs")
	require.NoError(t, err)
	ltltest.RequireRealizable(t, spec)

	ctrl := ltltest.RequireSynthesize(t, spec) // a checked circuit
	run, err := ctrl.Run()
	require.NoError(t, err)
	out, err := run.Step(map[string]int{"carNS": 0, "carEW": 0})
	require.NoError(t, err)
	assert.Equal(t, map[string]int{"greenNS": 0, "greenEW": 0}, out)
	out, err = run.Step(map[string]int{"carNS": 1, "carEW": 1})
	require.NoError(t, err)
	assert.False(t, out["greenNS"] == 1 && out["greenEW"] == 1, "never green both ways")

	// The hand-written controller, over every environment behaviour.
	ltltest.Conforms(t, spec, &Light{})
}

// TestStrictTrafficLight: green at once for every car cannot be met; the
// failure of Realizable would show the three conflicting guarantees.
func TestStrictTrafficLight(t *testing.T) {
	spec, err := synth.ParseFile("traffic_strict.structuredslugs")
	require.NoError(t, err)
	ltltest.Unrealizable(t, spec)
}

// TestSpecsAgree: the spec in Go (main.go) and in the file have the same
// answers, and the Light meets both.
func TestSpecsAgree(t *testing.T) {
	for _, strict := range []bool{false, true} {
		spec, err := trafficSpec(strict)
		require.NoError(t, err)
		if strict {
			ltltest.Unrealizable(t, spec)
			continue
		}
		ltltest.Realizable(t, spec)
		ltltest.Conforms(t, spec, &Light{})
	}
}

// TestGeneratedController checks the controllers that ltl synth generated
// (package trafficctl, an explicit machine, and package trafficcircuit, a
// circuit) against the spec, like hand-written ones.
func TestGeneratedController(t *testing.T) {
	spec, err := synth.ParseFile("traffic.structuredslugs")
	require.NoError(t, err)
	ltltest.Conforms(t, spec, &trafficctl.Controller{})
	ltltest.Conforms(t, spec, &trafficcircuit.Controller{})

	// It rejects inputs the environment may not give: a waiting car does
	// not leave before it got green.
	var c trafficctl.Controller
	_, ok := c.Step(trafficctl.ControllerInputs{})
	require.True(t, ok)
	out, ok := c.Step(trafficctl.ControllerInputs{CarNS: true, CarEW: true})
	require.True(t, ok)
	require.False(t, out.GreenNS && out.GreenEW)
	_, ok = c.Step(trafficctl.ControllerInputs{CarNS: out.GreenNS, CarEW: out.GreenEW})
	assert.False(t, ok, "the car without green left")
}

// TestGeneratedControllerIsCurrent regenerates the controllers as
// go generate would and compares them with the checked-in files.
func TestGeneratedControllerIsCurrent(t *testing.T) {
	spec, err := synth.ParseFile("traffic.structuredslugs")
	require.NoError(t, err)
	for _, c := range []struct {
		pkg   string
		write func(*bytes.Buffer) error
	}{
		{"trafficctl", func(b *bytes.Buffer) error {
			return ltltest.RequireSynthesizeExplicit(t, spec).WriteGo(b, "trafficctl", "Controller")
		}},
		{"trafficcircuit", func(b *bytes.Buffer) error {
			return ltltest.RequireSynthesize(t, spec).WriteGo(b, "trafficcircuit", "Controller")
		}},
	} {
		var b bytes.Buffer
		require.NoError(t, c.write(&b))
		checkedIn, err := os.ReadFile(filepath.Join(c.pkg, "controller.go"))
		require.NoError(t, err)
		assert.Equal(t, string(checkedIn), b.String(), "%s/controller.go is stale: run go generate ./examples/synth/...", c.pkg)
	}
}
