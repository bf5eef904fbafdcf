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
)

// synthSpecs holds the synth package's test specifications.
const synthSpecs = "../../synth/testdata/specs"

// ambaInputs holds the AMBA AHB arbiter specs in the three input formats
// (the synth package's benchmark inputs).
const ambaInputs = "../../synth/testdata/bench/amba"

func TestSynthVerdictsAndExitStatus(t *testing.T) {
	cases := []struct {
		file   string
		status int
		first  string
	}{
		{"arbiter.structuredslugs", 0, "realizable"},
		{"counter.structuredslugs", 0, "realizable"},
		{"handshake.tlsf", 0, "realizable"},
		{"e1_implication.tlsf", 0, "realizable"},
		{"conflict.slugsin", 1, "unrealizable"},
		{"starve.structuredslugs", 1, "unrealizable"},
		{"e1_strict.tlsf", 1, "unrealizable"},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			status, out, errOut := runLTL(t, "", "synth", filepath.Join(synthSpecs, c.file))
			assert.Equal(t, c.status, status, errOut)
			assert.Equal(t, c.first, firstLine(out))
			assert.Empty(t, errOut)
		})
	}
}

func TestSynthUnrealizablePrintsCore(t *testing.T) {
	path := filepath.Join(synthSpecs, "conflict.slugsin")
	status, out, _ := runLTL(t, "", "synth", path)
	require.Equal(t, 1, status)
	assert.Equal(t, "unrealizable\n"+
		"unrealizable core (with all the assumptions, these guarantees already conflict):\n"+
		"  "+path+":23:1 SYS_TRANS: | ! a' x'\n"+
		"  "+path+":24:1 SYS_TRANS: | ! b' y'\n"+
		"  "+path+":25:1 SYS_TRANS: ! & x' y'\n", out)
}

func TestSynthAMBAInAllFormats(t *testing.T) {
	if testproc.Alone(t) { // its BDD collections would scan the heap the other tests cached
		return
	}
	for _, ext := range []string{"slugsin", "structuredslugs", "tlsf"} {
		path := filepath.Join(ambaInputs, "amba2."+ext)
		status, out, errOut := runLTL(t, "", "synth", path)
		assert.Equal(t, 0, status, errOut)
		assert.Equal(t, "realizable", firstLine(out), ext)
	}
}

func TestSynthMalformedSpecIsOnePositionedLine(t *testing.T) {
	cases := []struct{ name, text, want string }{
		{"bad.slugsin", "[INPUT]\na\n[SYS_TRANS]\n& a\n", "bad.slugsin:4:4: syntax error: formula ends early"},
		{"bad.structuredslugs", "[INPUT]\na\n[SYS_TRANS]\nG(a -> F a)\n", "bad.structuredslugs:4:1: not GR(1): SYS_TRANS: temporal operator G inside a clause is outside GR(1)"},
		{"bad.tlsf", "INFO { SEMANTICS: Mealy }\nMAIN {\n INPUTS { r; }\n ASSERT { r\n}", "bad.tlsf:4:11: syntax error: formula does not end with ;"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := writeFile(t, c.name, c.text)
			status, out, errOut := runLTL(t, "", "synth", path)
			assert.Equal(t, 2, status)
			assert.Empty(t, out)
			assert.Equal(t, 1, strings.Count(errOut, "\n"), errOut)
			assert.True(t, strings.HasPrefix(errOut, "ltl synth: "+path), errOut)
			assert.Contains(t, errOut, c.want)
		})
	}
}

func TestSynthUsageErrors(t *testing.T) {
	spec := filepath.Join(synthSpecs, "arbiter.structuredslugs")
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"synth", "spec.txt"}, "spec.txt: unknown specification format"},
		{[]string{"synth"}, "reading standard input needs -format"},
		{[]string{"synth", "-format", "promela", spec}, "-format:"},
		{[]string{"synth", "-emit", "tlsf", spec}, `-emit: unknown format "tlsf"`},
		{[]string{"synth", "-emit", "slugsin", "-go", spec}, "-emit prints the spec only"},
		{[]string{"synth", "-go", "-json", spec}, "give one of them"},
		{[]string{"synth", spec, spec}, "one spec file at a time"},
		{[]string{"synth", filepath.Join(t.TempDir(), "missing.slugsin")}, "no such file"},
		{[]string{"synth", "-max-states", "2", "-explicit", "-json", spec}, "raise -max-states"},
		{[]string{"synth", "-max-memory", "lots", spec}, `-max-memory: "lots" is not a size`},
		{[]string{"synth", "-explicit", "-aiger", "x.aag", spec}, "cannot be combined with -explicit"},
		{[]string{"synth", "-nosuchflag", spec}, "flag provided but not defined"},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args[1:], " "), func(t *testing.T) {
			status, _, errOut := runLTL(t, "", c.args...)
			assert.Equal(t, 2, status)
			assert.Contains(t, errOut, c.want)
			assert.Equal(t, 1, strings.Count(errOut, "\n"), errOut)
		})
	}
}

func TestSynthStdinAndFlagsAfterFile(t *testing.T) {
	text, err := os.ReadFile(filepath.Join(synthSpecs, "conflict.slugsin"))
	require.NoError(t, err)
	status, out, errOut := runLTL(t, string(text), "synth", "-format", "slugsin")
	assert.Equal(t, 1, status, errOut)
	assert.Contains(t, out, "<stdin>:25:1 SYS_TRANS: ! & x' y'")

	status, out, _ = runLTL(t, string(text), "synth", "-", "-format", "slugsin")
	assert.Equal(t, 1, status)
	assert.Equal(t, "unrealizable", firstLine(out))
}

// TestSynthEmitSlugsin prints specs of every input format as .slugsin and
// reads the result back: the same verdict.
func TestSynthEmitSlugsin(t *testing.T) {
	for _, c := range []struct {
		file   string
		status int
	}{
		{"counter.structuredslugs", 0},
		{"handshake.tlsf", 0},
		{"e1_implication.tlsf", 0},
		{"e1_strict.tlsf", 1},
		{"conflict.slugsin", 1},
	} {
		t.Run(c.file, func(t *testing.T) {
			status, out, errOut := runLTL(t, "", "synth", "-emit", "slugsin", filepath.Join(synthSpecs, c.file))
			require.Equal(t, 0, status, errOut)
			assert.Contains(t, out, "[INPUT]\n")
			assert.NotContains(t, out, "realizable", "-emit prints the spec only")
			status, out, errOut = runLTL(t, out, "synth", "-format", "slugsin")
			assert.Equal(t, c.status, status, errOut)
			assert.Equal(t, []string{"realizable", "unrealizable"}[c.status], firstLine(out))
		})
	}
}

func TestSynthStrategyFiles(t *testing.T) {
	if testproc.Alone(t) { // its BDD collections would scan the heap the other tests cached
		return
	}
	spec := filepath.Join(synthSpecs, "arbiter.structuredslugs")
	dir := t.TempDir()

	jsonPath := filepath.Join(dir, "arbiter.json")
	status, out, errOut := runLTL(t, "", "synth", "-explicit", spec, "-strategy", jsonPath)
	require.Equal(t, 0, status, errOut)
	assert.Equal(t, "realizable", firstLine(out))
	assert.Contains(t, out, "controller (")
	assert.Contains(t, out, "written to "+jsonPath)
	data, err := os.ReadFile(jsonPath)
	require.NoError(t, err)
	var m struct {
		Kind   string `json:"kind"`
		Inputs []struct {
			Name string `json:"name"`
		} `json:"inputs"`
		States []json.RawMessage `json:"states"`
	}
	require.NoError(t, json.Unmarshal(data, &m), string(data))
	assert.Equal(t, "mealy", m.Kind)
	require.Len(t, m.Inputs, 2)
	assert.Equal(t, "req0", m.Inputs[0].Name)
	assert.NotEmpty(t, m.States)

	goPath := filepath.Join(dir, "arbiter.go")
	status, _, errOut = runLTL(t, "", "synth", "-pkg", "arb", "-type", "Arbiter", "-strategy", goPath, spec)
	require.Equal(t, 0, status, errOut)
	src, err := os.ReadFile(goPath)
	require.NoError(t, err)
	assert.Contains(t, string(src), "package arb\n")
	assert.Contains(t, string(src), "func (c *Arbiter) Step(in ArbiterInputs) (out ArbiterOutputs, ok bool)")

	dotPath := filepath.Join(dir, "arbiter.dot")
	status, _, errOut = runLTL(t, "", "synth", "-strategy", dotPath, spec)
	require.Equal(t, 0, status, errOut)
	dot, err := os.ReadFile(dotPath)
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(string(dot), "digraph"), string(dot))

	// An unrealizable spec writes the environment's counterstrategy.
	csPath := filepath.Join(dir, "conflict.json")
	status, out, errOut = runLTL(t, "", "synth", "-strategy", csPath, filepath.Join(synthSpecs, "conflict.slugsin"))
	require.Equal(t, 1, status, errOut)
	assert.Contains(t, out, "counterstrategy (")
	data, err = os.ReadFile(csPath)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(data, &m))
	assert.Equal(t, "moore", m.Kind)
}

func TestSynthPrintsMachineAfterVerdict(t *testing.T) {
	if testproc.Alone(t) { // its BDD collections would scan the heap the other tests cached
		return
	}
	spec := filepath.Join(synthSpecs, "arbiter.structuredslugs")
	status, out, errOut := runLTL(t, "", "synth", "-go", spec)
	require.Equal(t, 0, status, errOut)
	verdict, src, _ := strings.Cut(out, "\n")
	assert.Equal(t, "realizable", verdict)
	assert.Contains(t, src, "package controller\n")
	assert.Contains(t, src, "func (c *Controller) Step(in ControllerInputs) (out ControllerOutputs, ok bool)")

	status, out, _ = runLTL(t, "", "synth", "-json", spec)
	require.Equal(t, 0, status)
	_, js, _ := strings.Cut(out, "\n")
	assert.True(t, json.Valid([]byte(js)), js)

	status, out, _ = runLTL(t, "", "synth", "-dot", filepath.Join(synthSpecs, "conflict.slugsin"))
	require.Equal(t, 1, status)
	assert.Contains(t, out, "unrealizable core")
	assert.Contains(t, out, "digraph")

	status, out, _ = runLTL(t, "", "synth", "-go", filepath.Join(synthSpecs, "conflict.slugsin"))
	require.Equal(t, 1, status)
	assert.Contains(t, out, "func (c *Counterstrategy) Inputs() CounterstrategyInputs")
}

func TestSynthHelp(t *testing.T) {
	status, out, _ := runLTL(t, "", "help", "synth")
	assert.Equal(t, 0, status)
	assert.Contains(t, out, "Usage: ltl synth")
	status, out, _ = runLTL(t, "", "help")
	assert.Equal(t, 0, status)
	assert.Contains(t, out, "synth")
}
