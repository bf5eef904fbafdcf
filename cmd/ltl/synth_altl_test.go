package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// examAspects holds the thesis's ExamService listings.
const examAspects = "../../synth/testdata/aspectltl"

func altl(names ...string) []string {
	args := []string{"synth"}
	for _, n := range names {
		args = append(args, filepath.Join(examAspects, n+".altl"))
	}
	return args
}

func TestSynthAspectLTLTrace(t *testing.T) {
	status, out, errOut := runLTL(t, "", append([]string{"synth", "-trace"}, altl("examservice", "tuition", "availabilitynotwait")[1:]...)...)
	require.Equal(t, 0, status, errOut)
	assert.Equal(t, "realizable", firstLine(out))
	assert.Contains(t, out, "  wait -> exit: defined by Tuition; serves the liveness of AvailabilityNotWait\n")
	assert.Contains(t, out, "  wait -> welcome: defined by ExamService; serves the liveness of AvailabilityNotWait\n")
	assert.Contains(t, out, "moves the controller never makes:\n  (none)\n")
}

func TestSynthAspectLTLConflict(t *testing.T) {
	status, out, errOut := runLTL(t, "", altl("examservice", "tuition", "availability")...)
	require.Equal(t, 1, status, errOut)
	assert.Equal(t, "unrealizable", firstLine(out))
	assert.Contains(t, out, "minimal sets of aspects that conflict (every proper subset is realizable):\n  {Tuition, Availability}\n")
	assert.Contains(t, out, "blame: Tuition, Availability: the safety of Tuition rules out moves")
	assert.Contains(t, out, "and so on from step")

	// The environment's strategy as an interactive program.
	status, out, errOut = runLTL(t, "", append([]string{"synth", "-go"}, altl("examservice", "tuition", "availability")[1:]...)...)
	require.Equal(t, 1, status, errOut)
	assert.Contains(t, out, "func (c *Counterstrategy) Inputs() CounterstrategyInputs")
	assert.Contains(t, out, "func (c *Counterstrategy) Step(out CounterstrategyOutputs) bool")
}

func TestSynthAspectLTLGo(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "exam.go")
	status, out, errOut := runLTL(t, "", append([]string{"synth", "-strategy", file, "-pkg", "exam"}, altl("examservice", "tuition", "availabilitynotwait")[1:]...)...)
	require.Equal(t, 0, status, errOut)
	assert.Contains(t, out, "controller (")
	src, err := os.ReadFile(file)
	require.NoError(t, err)
	assert.Contains(t, string(src), "package exam")
	assert.Regexp(t, `ControllerStateWelcome += 1`, string(src))
}

func TestSynthAspectLTLErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.altl")
	require.NoError(t, os.WriteFile(bad, []byte("MODULE M\nVAR a : boolean b;\n"), 0o644))
	status, _, errOut := runLTL(t, "", "synth", bad)
	assert.Equal(t, 2, status)
	assert.Equal(t, "ltl synth: "+bad+":2:17: syntax error: unexpected \"b\", expected ';' after the declaration of a\n", errOut)

	ext := filepath.Join(dir, "ext.altl")
	require.NoError(t, os.WriteFile(ext, []byte("ASPECT A\nVAR ext nope : boolean;\n"), 0o644))
	status, _, errOut = runLTL(t, "", altl("examservice")[0], filepath.Join(examAspects, "examservice.altl"), ext)
	assert.Equal(t, 2, status)
	assert.Contains(t, errOut, ext+":2:5: type error: aspect A: ext variable nope is not declared by the base ExamService")

	status, _, errOut = runLTL(t, "", altl("tuition")...)
	assert.Equal(t, 2, status)
	assert.Contains(t, errOut, "no base system")

	status, _, errOut = runLTL(t, "", "synth", "-trace", filepath.Join("../../synth/testdata/specs", "arbiter.structuredslugs"))
	assert.Equal(t, 2, status)
	assert.True(t, strings.Contains(errOut, "-trace applies to AspectLTL"), errOut)
}
