package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/henceforth-go/henceforth/internal/testproc"
	"github.com/henceforth-go/henceforth/synth"
)

// TestSynthCircuitFiles writes the symbolic controller as AIGER (both
// encodings), JSON and Go, and model-checks the AIGER files read back.
func TestSynthCircuitFiles(t *testing.T) {
	if testproc.Alone(t) { // its BDD collections would scan the heap the other tests cached
		return
	}
	specPath := filepath.Join(synthSpecs, "arbiter.structuredslugs")
	spec, err := synth.ParseFile(specPath)
	require.NoError(t, err)
	dir := t.TempDir()
	for _, name := range []string{"arbiter.aag", "arbiter.aig"} {
		path := filepath.Join(dir, name)
		status, out, errOut := runLTL(t, "", "synth", "-aiger", path, specPath)
		require.Equal(t, 0, status, errOut)
		assert.Contains(t, out, "checked against the spec) written to "+path)
		f, err := os.Open(path)
		require.NoError(t, err)
		a, err := synth.ParseAIGER(path, f)
		f.Close()
		require.NoError(t, err)
		assert.Equal(t, []string{"grant0", "grant1", "owner@0", "owner@1"}, a.OutputNames)
		require.NoError(t, synth.CheckAIG(t.Context(), spec, a))
	}

	jsonPath := filepath.Join(dir, "arbiter.json")
	status, _, errOut := runLTL(t, "", "synth", "-strategy", jsonPath, specPath)
	require.Equal(t, 0, status, errOut)
	data, err := os.ReadFile(jsonPath)
	require.NoError(t, err)
	var doc struct {
		Kind  string     `json:"kind"`
		Nodes [][3]int32 `json:"nodes"`
	}
	require.NoError(t, json.Unmarshal(data, &doc))
	assert.Equal(t, "circuit", doc.Kind)
	assert.NotEmpty(t, doc.Nodes)

	status, out, errOut := runLTL(t, "", "synth", "-go", "-check=false", specPath)
	require.Equal(t, 0, status, errOut)
	assert.Contains(t, out, "func (c *Controller) Step(in ControllerInputs) (out ControllerOutputs, ok bool)")
	assert.Contains(t, out, "decision nodes")
}

// TestSynthBoundsUnknown: a memory bound or a deadline reached in any phase
// is "unknown" with exit status 2.
func TestSynthBoundsUnknown(t *testing.T) {
	if testproc.Alone(t) { // its BDD collections would scan the heap the other tests cached
		return
	}
	amba := filepath.Join(ambaInputs, "amba3.slugsin")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"synth", "-max-memory", "64KB", "-go", amba}, "unknown: memory bound (-max-memory 64KB) reached"},
		{[]string{"synth", "-max-memory", "64KB", amba}, "unknown: memory bound"},
		{[]string{"synth", "-timeout", "1ms", "-aiger", filepath.Join(t.TempDir(), "x.aag"), amba}, "unknown: no answer within -timeout 1ms"},
	} {
		t.Run(strings.Join(c.args[1:], " "), func(t *testing.T) {
			status, _, errOut := runLTL(t, "", c.args...)
			assert.Equal(t, 2, status)
			assert.Contains(t, errOut, c.want)
		})
	}
}
