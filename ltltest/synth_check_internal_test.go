package ltltest

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/henceforth-go/henceforth/synth"
)

// recordT records the failures of a helper under test.
type recordT struct{ errs []string }

func (r *recordT) Helper()                        {}
func (r *recordT) Errorf(format string, a ...any) { r.errs = append(r.errs, fmt.Sprintf(format, a...)) }
func (r *recordT) FailNow()                       {}
func (r *recordT) Cleanup(func())                 {}

// TestSynthesizeChecksTheCircuit: Synthesize model-checks the circuit it
// returns. A circuit broken between determinization and check — both
// grants raised together, which AMBA's mutual exclusion forbids — fails
// the test as a violation instead of being returned.
func TestSynthesizeChecksTheCircuit(t *testing.T) {
	spec, err := synth.ParseFile(filepath.Join("testdata", "synth", "amba2.slugsin"))
	require.NoError(t, err)
	broke := 0
	grantBoth := func(c *synth.Circuit) {
		for k, b := range c.ComputedBits {
			if b.Var == "hgrant0" || b.Var == "hgrant1" {
				c.Step.Computed[k] = 1 // the constant true
				broke++
			}
		}
	}
	ft := &recordT{}
	assert.Nil(t, synthesize(ft, spec, nil, grantBoth))
	assert.Equal(t, 2, broke, "the circuit has a computed bit per grant")
	out := strings.Join(ft.errs, "\n")
	assert.Contains(t, out, "ltltest: the synthesized controller violates the specification")
	assert.Contains(t, out, "spec: amba2")
}

// TestSynthesizeStopsInEveryPhase: a context that ends when a phase starts
// stops that phase, and the failure names it.
func TestSynthesizeStopsInEveryPhase(t *testing.T) {
	spec, err := synth.ParseFile(filepath.Join("testdata", "synth", "lift3.slugsin"))
	require.NoError(t, err)
	for _, c := range []struct {
		phase    string
		explicit bool
	}{
		{phaseRealizability, false},
		{phaseExtraction, false},
		{phaseDeterminize, false},
		{phaseCheckCircuit, false},
		{phaseEnumerate, true},
		{phaseCheckMachine, true},
	} {
		t.Run(c.phase, func(t *testing.T) {
			ft := &recordT{}
			if c.explicit {
				assert.Nil(t, SynthesizeExplicit(ft, spec, withSynthStopAt(c.phase)))
			} else {
				assert.Nil(t, Synthesize(ft, spec, withSynthStopAt(c.phase)))
			}
			out := strings.Join(ft.errs, "\n")
			assert.Contains(t, out, "ltltest: unknown: the test ended before the answer")
			assert.Contains(t, out, "phase: "+c.phase+"\n")
		})
	}
}
