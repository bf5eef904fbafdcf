package main

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// runLTL runs the CLI in-process with stdin and returns the exit status, stdout
// and stderr. Its explore and debug commands load programs with cachedLoad.
func runLTL(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	status := run(&env{stdin: strings.NewReader(stdin), stdout: &out, stderr: &errb, load: cachedLoad}, args)
	return status, out.String(), errb.String()
}

// runMain is runLTL with the loader of main (explore.Load, a program per run).
func runMain(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	status := run(&env{stdin: strings.NewReader(stdin), stdout: &out, stderr: &errb}, args)
	return status, out.String(), errb.String()
}

func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
	return path
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

const serverTrace = `["request"]
["acquire"]
["write"]
["release", "response"]
["request"]
["write"]
["acquire"]
["write"]
["release", "response"]
`

func TestCheckVerdictsAndExitStatus(t *testing.T) {
	path := writeFile(t, "server.jsonl", serverTrace)
	for _, engine := range []string{"auto", "dp", "naive", "automaton"} {
		t.Run(engine, func(t *testing.T) {
			status, out, errOut := runLTL(t, "", "check", "-engine", engine, "-f", "G(request -> F response)", path)
			assert.Equal(t, 0, status, errOut)
			assert.Equal(t, "holds", firstLine(out))

			status, out, errOut = runLTL(t, "", "check", "-engine", engine, "-f", "G(write -> (!release S acquire))", path)
			assert.Equal(t, 1, status, errOut)
			assert.Equal(t, "violated", firstLine(out))
			assert.Empty(t, errOut)
		})
	}
}

func TestCheckReportsFirstViolationAndWhy(t *testing.T) {
	path := writeFile(t, "server.jsonl", serverTrace)
	status, out, _ := runLTL(t, "", "check", "-f", "G(write -> (!release S acquire))", path)
	require.Equal(t, 1, status)
	assert.Contains(t, out, "violated at event 5")
	assert.Contains(t, out, "why:")
	assert.Contains(t, out, "> 5: {write}", "the trace window marks the violating event")
}

func TestCheckFlagsAfterTraceAndStdin(t *testing.T) {
	path := writeFile(t, "server.jsonl", serverTrace)
	status, out, _ := runLTL(t, "", "check", path, "-f", "F response")
	assert.Equal(t, 0, status)
	assert.Equal(t, "holds", firstLine(out))

	status, out, _ = runLTL(t, "[\"p\"]\n[]\n", "check", "-f", "X p")
	assert.Equal(t, 1, status)
	assert.Equal(t, "violated", firstLine(out))
	assert.Contains(t, out, "engine: automaton\n", "a streamed trace of a future formula goes to the automaton")

	status, out, _ = runLTL(t, "p,q\n1,0\n0,1\n", "check", "-f", "p && X q", "-")
	assert.Equal(t, 0, status)
	assert.Equal(t, "holds", firstLine(out))
}

func TestCheckAutomatonEngineIsLTLfOnly(t *testing.T) {
	status, _, errOut := runLTL(t, "[\"p\"]\n", "check", "-engine", "automaton", "-semantics", "rosu-havelund", "-f", "F p")
	assert.Equal(t, 2, status)
	assert.Contains(t, errOut, "supports only ltlf semantics")
}

func TestCheckSemantics(t *testing.T) {
	// Y p at the first position: false under LTLf, p itself under the
	// papers' stationary-past convention.
	status, out, _ := runLTL(t, "[\"p\"]\n", "check", "-f", "Y p")
	assert.Equal(t, 1, status)
	assert.Equal(t, "violated", firstLine(out))
	status, out, _ = runLTL(t, "[\"p\"]\n", "check", "-semantics", "rosu-havelund", "-f", "Y p")
	assert.Equal(t, 0, status)
	assert.Equal(t, "holds", firstLine(out))
}

func TestCheckInputErrors(t *testing.T) {
	good := writeFile(t, "good.jsonl", "[\"p\"]\n")
	bad := writeFile(t, "bad.jsonl", "[\"p\"]\n[\"q\"\n")
	tests := []struct {
		name string
		args []string
		want string // substring of the one-line error
	}{
		{"no formula", []string{"check", good}, "-f: a formula is required"},
		{"syntax error", []string{"check", "-f", "G(p -> ", good}, "-f: offset 7"},
		{"unbalanced", []string{"check", "-f", "(p && q", good}, "-f: offset"},
		{"bad trace line", []string{"check", "-f", "G p", bad}, "bad.jsonl:2"},
		{"missing file", []string{"check", "-f", "G p", filepath.Join(t.TempDir(), "nope.jsonl")}, "nope.jsonl"},
		{"unknown engine", []string{"check", "-engine", "magic", "-f", "G p", good}, "-engine: unknown engine \"magic\""},
		{"unknown semantics", []string{"check", "-semantics", "ltl", "-f", "G p", good}, "unknown semantics"},
		{"unknown flag", []string{"check", "-x", "-f", "G p", good}, "-x"},
		{"two traces", []string{"check", "-f", "G p", good, good}, "at most one trace"},
		{"unknown command", []string{"chekc"}, "unknown command \"chekc\""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, out, errOut := runLTL(t, "", tt.args...)
			assert.Equal(t, 2, status)
			assert.Empty(t, out)
			assert.Contains(t, errOut, tt.want)
			assert.Equal(t, 1, strings.Count(errOut, "\n"), "one line on stderr: %q", errOut)
		})
	}
}

func TestHelp(t *testing.T) {
	status, out, _ := runLTL(t, "", "help")
	assert.Equal(t, 0, status)
	assert.Contains(t, out, "check")
	status, out, _ = runLTL(t, "", "help", "check")
	assert.Equal(t, 0, status)
	assert.Contains(t, out, "Usage: ltl check")
	status, _, _ = runLTL(t, "")
	assert.Equal(t, 2, status)
}

func TestGen(t *testing.T) {
	status, out, errOut := runLTL(t, "", "gen", "-f", "G(start(p) -> [q, end(r | s)))", "-pkg", "mon", "-func", "Example")
	require.Equal(t, 0, status, errOut)
	assert.Contains(t, out, "package mon")
	assert.Contains(t, out, "Example")

	status, _, errOut = runLTL(t, "", "gen", "-f", "G p")
	assert.Equal(t, 2, status)
	assert.Contains(t, errOut, "-pkg and -func are required")
}

func TestMonitorRunningVerdicts(t *testing.T) {
	status, out, errOut := runLTL(t, "[]\n[\"err\"]\n[\"done\"]\n", "monitor", "-f", "G !err && F done")
	require.Equal(t, 1, status, errOut)
	assert.Equal(t, "0: {} currently false\n1: {err} violated\n2: {done} violated\nviolated\n", out)

	status, out, _ = runLTL(t, "[\"req\"]\n[\"ack\"]\n", "monitor", "-f", "G(req -> F ack)")
	assert.Equal(t, 0, status)
	assert.Equal(t, "0: {req} currently false\n1: {ack} currently true\nholds\n", out)

	status, out, _ = runLTL(t, "[]\n[\"done\"]\n[]\n", "monitor", "-f", "F done")
	assert.Equal(t, 0, status)
	assert.Equal(t, "0: {} currently false\n1: {done} satisfied\n2: {} satisfied\nholds\n", out)
}

func TestAutomatonStats(t *testing.T) {
	status, out, errOut := runLTL(t, "", "automaton", "-f", "G(req -> F ack)", "-format", "stats")
	require.Equal(t, 0, status, errOut)
	assert.Equal(t, "states: 2\ntransitions: 4\n", out)

	// F p1 && F p2 needs one state per subset of the p_i seen so far.
	status, out, _ = runLTL(t, "", "automaton", "-f", "F p1 && F p2 && F p3")
	require.Equal(t, 0, status)
	assert.Contains(t, out, "states: 8\n")
}

func TestAutomatonFormats(t *testing.T) {
	for format, want := range map[string]string{
		"dot":     "digraph",
		"hoa":     "HOA: v1",
		"promela": "never {",
	} {
		status, out, errOut := runLTL(t, "", "automaton", "-f", "G(req -> F ack)", "-format", format)
		require.Equal(t, 0, status, errOut)
		assert.Contains(t, out, want, format)
	}
	status, _, errOut := runLTL(t, "", "automaton", "-f", "G p", "-format", "svg")
	assert.Equal(t, 2, status)
	assert.Contains(t, errOut, "unknown format \"svg\"")
}

func TestAutomatonMinimalFlag(t *testing.T) {
	status, minimal, _ := runLTL(t, "", "automaton", "-f", "F a || F b")
	require.Equal(t, 0, status)
	status, raw, _ := runLTL(t, "", "automaton", "-f", "F a || F b", "-minimal=false")
	require.Equal(t, 0, status)
	assert.Equal(t, "states: 2\ntransitions: 3\n", minimal)
	assert.NotEqual(t, minimal, raw, "the subset construction is larger than the minimal DFA")
}

// TestMonitorIsOnline feeds events through a pipe one at a time and reads
// each verdict before writing the next event: ltl monitor answers as events
// arrive, not at the end of its input.
func TestMonitorIsOnline(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan int)
	go func() {
		status := run(&env{stdin: inR, stdout: outW, stderr: io.Discard}, []string{"monitor", "-f", "G(req -> F ack)"})
		outW.Close()
		done <- status
	}()
	lines := bufio.NewReader(outR)
	for _, step := range []struct{ event, verdict string }{
		{`["req"]`, "0: {req} currently false\n"},
		{`["ack"]`, "1: {ack} currently true\n"},
		{`["req"]`, "2: {req} currently false\n"},
	} {
		_, err := io.WriteString(inW, step.event+"\n")
		require.NoError(t, err)
		got, err := lines.ReadString('\n')
		require.NoError(t, err)
		assert.Equal(t, step.verdict, got)
	}
	require.NoError(t, inW.Close())
	rest, err := io.ReadAll(lines)
	require.NoError(t, err)
	assert.Equal(t, "violated\n", string(rest))
	assert.Equal(t, 1, <-done)
}

func TestMonitorBadTraceLine(t *testing.T) {
	status, out, errOut := runLTL(t, "[\"req\"]\n[\"ack\"\n", "monitor", "-f", "G(req -> F ack)")
	assert.Equal(t, 2, status)
	assert.Equal(t, "0: {req} currently false\n", out, "events before the bad line are answered")
	assert.Contains(t, errOut, "<stdin>:2:")
}
