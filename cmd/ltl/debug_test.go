package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/henceforth-go/henceforth/explore"
)

const dekkerPkg = "../../examples/explore/dekker"

// runDebug runs ltl debug with cachedLoad, stdin as its input (not a
// terminal); errors are reported as run reports them.
func runDebug(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	x := &explorer{load: cachedLoad}
	status, err := x.debug(&env{stdin: strings.NewReader(stdin), stdout: &out, stderr: &errb}, args)
	if err != nil {
		fmt.Fprintf(&errb, "ltl debug: %s\n", oneLine(err.Error()))
	}
	return status, out.String(), errb.String()
}

// writeScript writes a script into a temporary directory.
func writeScript(t *testing.T, text string) string {
	t.Helper()
	name := filepath.Join(t.TempDir(), "session.txt")
	require.NoError(t, os.WriteFile(name, []byte(text), 0o644))
	return name
}

// TestDebugDekkerScript replays the paper's Dekker session D1–D9
// (testdata/debug/dekker.txt) through ltl debug -script: every expect
// line holds.
func TestDebugDekkerScript(t *testing.T) {
	const script = "testdata/debug/dekker.txt"
	status, out, errs := runDebug(t, "", "-func", "Run", "-script", script, dekkerPkg)
	require.Equal(t, 0, status, "stdout:\n%s\nstderr:\n%s", out, errs)
	assert.NotContains(t, out, "FAILED")
	src, err := os.ReadFile(script)
	require.NoError(t, err)
	expects := 0
	for _, l := range strings.Split(string(src), "\n") {
		if strings.HasPrefix(l, "expect ") {
			expects++
			assert.Contains(t, out, "(ltl) "+l+"\nok\n", "each expectation is echoed and holds")
		}
	}
	assert.Equal(t, expects, strings.Count(out, "\nok\n"), "every expect line ran")
	assert.Greater(t, expects, 40)
	// the transcript shows the state after each step: D7's last state,
	// the watched variables, the stack and a replay token
	assert.Contains(t, out, "  moves: P1:n7 P1:n6 P1:n3 P0:m7 P0:m8\n")
	assert.Contains(t, out, "  c1 = 1\n")
	assert.Regexp(t, `(?m)^  2  !at\(P1, n8\) U at\(P0, m8\)\s+-bfs -min`, out)
	assert.Regexp(t, `(?m)^replay: v\d:\S+$`, out)
}

// TestDebugScriptExpectFails: a failed expectation says why, the script
// goes on, and the exit status is 1.
func TestDebugScriptExpectFails(t *testing.T) {
	script := writeScript(t, `expect found
push F at(P0, m2)
expect none
expect at P0 m8
expect holds c0 == 1
expect value c0 + 1 = 1
expect moves P0:m1
expect labels P0 m2
expect depth 2
expect found
pop
expect steps 3
`)
	status, out, errs := runDebug(t, "", "-func", "Run", "-script", script, dekkerPkg)
	assert.Equal(t, 1, status, "stdout:\n%s\nstderr:\n%s", out, errs)
	for _, want := range []string{
		"(ltl) expect found\nFAILED: no search has run yet\n",
		"FAILED: the last search's verdict is found, not none\n",
		"FAILED: goroutine P0 is at m2, not m8\n",
		"FAILED: c0 == 1 = false, not true\n",
		"(ltl) expect value c0 + 1 = 1\nok\n",
		"FAILED: the latest step's moves are [P0:m1 P0:m11 P0:m2], not [P0:m1]\n",
		"FAILED: in the latest step goroutine P0 reaches {m1 m11 m2}, not {m2}\n",
		"FAILED: the stack holds 1 step, not 2\n",
		"(ltl) expect found\nok\n",
		"FAILED: the stack is empty\n",
	} {
		assert.Contains(t, out, want)
	}
	assert.Equal(t, 8, strings.Count(out, "FAILED"))
}

// TestDebugScriptErrors: a script that does not parse is rejected before
// the program is loaded, each bad line named by FILE:LINE:COL; an input
// error while it runs stops it; both exit 2.
func TestDebugScriptErrors(t *testing.T) {
	script := writeScript(t, "push F p\npusj F p\n# fine\nexpect at P0\n")
	var out, errb bytes.Buffer
	x := &explorer{load: func(context.Context, explore.LoadConfig) (*explore.Program, error) {
		t.Error("a script that does not parse loads no program")
		return nil, fmt.Errorf("no load")
	}}
	status, err := x.debug(&env{stdout: &out, stderr: &errb}, []string{"-func", "Run", "-script", script, dekkerPkg})
	assert.Equal(t, 2, status)
	require.Error(t, err)
	msg := oneLine(err.Error())
	assert.Contains(t, msg, script+`:2:1: unknown command "pusj"`)
	assert.Contains(t, msg, script+":4:13: expect at takes 2 arguments")

	for _, tc := range []struct{ script, want string }{
		{"push F at(P0, m2)\npush   F at(P0, m2\n", ":2:19: formula: expected \")\" closing at(G, L), found end of input"},
		{"step P7\n", `:1: explore: session: single: no goroutine "P7"`},
		{"pop\n", ":1: explore: session: the temporal stack is empty"},
		{"watch nosuch + 1\n", `:1: explore: session: eval "nosuch + 1"`},
		{"unwatch c0\n", `:1: unwatch: "c0" is not watched`},
	} {
		// a line after the error, which must not run
		script := writeScript(t, tc.script+"expect found\n")
		status, out, errs := runDebug(t, "", "-func", "Run", "-script", script, dekkerPkg)
		assert.Equal(t, 2, status, tc.script)
		assert.Contains(t, errs, "ltl debug: "+script+tc.want)
		assert.NotContains(t, out, "expect found", "the script stops at the error")
	}
}

// TestDebugArgs: bad arguments are usage errors (exit 2).
func TestDebugArgs(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		// the package of the explore command's tests, which they load
		// already (a function is looked for in the test files too)
		{[]string{"-func", "Nope", bugsPkg}, `-func: explore: no function "Nope"`},
		{[]string{"-run", "TestNothing", bugsPkg}, "no Test function of " + bugsPkg + ` matches -run "TestNothing"`},
		{[]string{"-run", "Test", bugsPkg}, "ltl debug runs one test, and 4 match"},
		{[]string{"-func", "P0", "-run", "Test", dekkerPkg}, "-func and -run are exclusive"},
		{[]string{"-max-steps", "-1", dekkerPkg}, "-max-steps: must not be negative"},
		{[]string{"-timeout", "x", dekkerPkg}, `invalid value "x" for flag -timeout`},
		{[]string{"-script", "testdata/debug/missing.txt", dekkerPkg}, "-script: open testdata/debug/missing.txt"},
	} {
		status, _, errs := runDebug(t, "", tc.args...)
		assert.Equal(t, 2, status, "%v", tc.args)
		assert.Contains(t, errs, tc.want, "%v", tc.args)
	}
}

// TestDebugInteractive: commands from a standard input that is not a
// terminal are echoed after the prompt; errors are printed and the
// session goes on; set, watch, unwatch, history and help work.
func TestDebugInteractive(t *testing.T) {
	in := `set -max-length 3
push F at(P0, m8)
expect unknown
bogus
watch c0
watch turn
unwatch 1
push -max-length 20 F at(P0, m2)
expect found
state
history
help step
quit
expect none
`
	status, out, errs := runDebug(t, in, "-func", "Run", dekkerPkg)
	assert.Equal(t, 0, status, "stdout:\n%s\nstderr:\n%s", out, errs)
	assert.Contains(t, out, "ltl debug: github.com/henceforth-go/henceforth/examples/explore/dekker.Run (help lists the commands)\n")
	assert.Contains(t, out, "(ltl) set -max-length 3\ndefaults: -bfs -min -max-length 3\n")
	assert.Contains(t, out, "unknown: the search was cut by the length bound before it found a step; nothing is proved")
	assert.Contains(t, out, "(ltl) expect unknown\nok\n")
	assert.Contains(t, errs, `error: col 1: unknown command "bogus"`)
	assert.Contains(t, out, "unwatched: c0\n")
	assert.Contains(t, out, "(ltl) state\nstate after 3 scheduling steps:\n")
	assert.Regexp(t, `(?m)^  2\s+P0\s+m2\s`, out, "P0's row shows its last label")
	assert.Contains(t, out, "  turn = 0\n")
	assert.NotContains(t, out, "  c0 = ", "c0 is no longer watched after the push")
	assert.Contains(t, out, "  4  bogus\n", "history lists every line")
	assert.Contains(t, out, "step G\n  push a step of one move of goroutine G")
	assert.NotContains(t, out, "expect none", "nothing runs after quit")
}
