package main

import (
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// muxsem is MUX-SEM of the JTLV thesis (Fig 4.1): mutual exclusion
// (proved after refinement) and starvation freedom of P[1] (violated: a
// lasso).
const muxsem = "../../split/smv/testdata/muxsem.smv"

// brokenLock checks the flag and sets it in two moves: two workers can
// both enter.
const brokenLock = `MODULE main
VAR
  busy : boolean;
  P : array 1..N of process worker(busy);
ASSIGN
  init(busy) := FALSE;
INVARSPEC NAME exclusive := forall i in 1..N : forall j in i+1..N : !(P[i].cs & P[j].cs)

MODULE worker(busy)
VAR
  cs : boolean;
ASSIGN
  init(cs) := FALSE;
COMMANDS
  enter : !cs & !busy -> cs := TRUE;
  lock : cs & !busy -> busy := TRUE;
  leave : cs & busy -> cs := FALSE, busy := FALSE;
`

func TestSplitVerdictsAndExitStatus(t *testing.T) {
	status, out, errOut := runLTL(t, "", "split", "-n", "6", "-property", "mutex", muxsem)
	assert.Equal(t, 0, status, errOut)
	assert.Regexp(t, `^proved mutex \(2 refinements, .*\)\n`, out)
	assert.Contains(t, out, "  exposed x1 ≡ loc ∈ {0, 1, 2} for P[1]")
	assert.Empty(t, errOut)

	// Flags after the file, and two workers: the same verdict.
	status, out, _ = runLTL(t, "", "split", muxsem, "-n", "6", "-property", "mutex", "-workers", "2")
	assert.Equal(t, 0, status)
	assert.Equal(t, "proved mutex", verdictLine(out))

	// A violated invariant: a finite counterexample, two workers entering
	// one after the other.
	file := writeFile(t, "lock.smv", brokenLock)
	status, out, _ = runLTL(t, "", "split", "-n", "3", file)
	assert.Equal(t, 1, status)
	assert.Equal(t, "violated exclusive", verdictLine(out))
	assert.Contains(t, out, "  counterexample: 2 moves to a state that violates exclusive\n")
	assert.Contains(t, out, "  state 0: busy=FALSE P[1].cs=FALSE P[2].cs=FALSE P[3].cs=FALSE\n")
	assert.Regexp(t, `  state 1: P\[\d\] enter: P\[\d\]\.cs=TRUE\n  state 2: P\[\d\] enter: P\[\d\]\.cs=TRUE\n`, out)
}

// Every property of the file, in the file's order; one violation makes
// the status 1; a liveness counterexample is printed as a lasso.
func TestSplitAllPropertiesAndLasso(t *testing.T) {
	status, out, errOut := runLTL(t, "", "split", "-n", "2", muxsem)
	assert.Equal(t, 1, status, errOut)
	var verdicts []string
	for _, line := range strings.Split(out, "\n") {
		if line != "" && !strings.HasPrefix(line, " ") {
			verdicts = append(verdicts, verdictLine(line))
		}
	}
	assert.Equal(t, []string{"proved mutex", "violated starvation"}, verdicts)
	assert.Regexp(t, `counterexample: a lasso of \d+ moves; the moves from state \d+ repeat forever`, out)
	assert.Contains(t, out, "[loop starts]")
	assert.Regexp(t, `\[= state \d+\]`, out)

	// With variant A the verdict is the same.
	status, out, _ = runLTL(t, "", "split", "-n", "2", "-variant", "a", "-property", "starvation", muxsem)
	assert.Equal(t, 1, status)
	assert.Equal(t, "violated starvation", verdictLine(out))
}

// No verdict prints "unknown" with the reason, and is not a pass.
func TestSplitUnknownIsNotAPass(t *testing.T) {
	status, out, _ := runLTL(t, "", "split", "-n", "4", "-max-refinements", "0", "-property", "mutex", muxsem)
	assert.Equal(t, 1, status)
	assert.Regexp(t, `^unknown mutex: refinement limit \(0\) reached; the next predicate would be x1 ≡ loc ∈ \{0, 1, 2\}`, out)

	status, out, _ = runLTL(t, "", "split", "-n", "4", "-timeout", "1ns", "-property", "mutex", muxsem)
	assert.Equal(t, 1, status)
	assert.Regexp(t, `^unknown mutex: stopped: context deadline exceeded`, out)
}

func TestSplitInputErrors(t *testing.T) {
	bad := writeFile(t, "bad.smv", "MODULE main\nVAR\n  x : 0..;\n")
	unnamed := writeFile(t, "unnamed.smv", "MODULE main\nVAR\n  x : boolean;\n  P : process p(x);\nINVARSPEC !x | x\n\nMODULE p(x)\nCOMMANDS\n  flip : TRUE -> x := !x;\n")
	none := writeFile(t, "none.smv", "MODULE main\nVAR\n  x : boolean;\n  P : process p(x);\n\nMODULE p(x)\nCOMMANDS\n  flip : TRUE -> x := !x;\n")
	for _, tc := range []struct {
		args []string
		want string // regexp of the one-line message
	}{
		{[]string{muxsem}, `^ltl split: .*muxsem\.smv:7:\d+: type error: N is not set`},
		{[]string{"-n", "3", bad}, `^ltl split: .*bad\.smv:3:\d+: syntax error: `},
		{[]string{"-n", "3", "-property", "nope", muxsem}, `^ltl split: -property: .*muxsem\.smv has no property "nope" \(it has mutex, starvation\)$`},
		{[]string{"-property", "nope", unnamed}, `^ltl split: -property: .*unnamed\.smv has no named properties`},
		{[]string{none}, `^ltl split: .*none\.smv: no INVARSPEC or LTLSPEC to check$`},
		{[]string{"-n", "3"}, `^ltl split: want one FILE, got 0 arguments`},
		{[]string{"-n", "3", muxsem, muxsem}, `^ltl split: want one FILE, got 2 arguments`},
		{[]string{"-n", "-1", muxsem}, `^ltl split: -n: N must be positive`},
		{[]string{"-n", "3", "-workers", "0", muxsem}, `^ltl split: -workers: K must be at least 1`},
		{[]string{"-n", "3", "-max-refinements", "-2", muxsem}, `^ltl split: -max-refinements: R must be at least 0`},
		{[]string{"-n", "3", "-variant", "C", muxsem}, `^ltl split: -variant: unknown variant "C"`},
		{[]string{"-n", "3", "-frobnicate", muxsem}, `^ltl split: flag provided but not defined: -frobnicate`},
		{[]string{"-n", "3", "missing.smv"}, `^ltl split: smv: open missing\.smv: no such file`},
	} {
		status, out, errOut := runLTL(t, "", append([]string{"split"}, tc.args...)...)
		assert.Equal(t, 2, status, "%v: %s", tc.args, out)
		assert.Empty(t, out, "%v", tc.args)
		assert.Regexp(t, regexp.MustCompile(tc.want), strings.TrimSuffix(errOut, "\n"), "%v", tc.args)
		assert.Equal(t, 1, strings.Count(errOut, "\n"), "%v: one line: %q", tc.args, errOut)
	}

	// A property without a name is labelled by its position.
	status, out, errOut := runLTL(t, "", "split", unnamed)
	require.Equal(t, 0, status, errOut)
	assert.Regexp(t, `^proved INVARSPEC at .*unnamed\.smv:5:\d+ `, out)
}

func TestSplitHelp(t *testing.T) {
	status, out, _ := runLTL(t, "", "help", "split")
	assert.Equal(t, 0, status)
	assert.Contains(t, out, "Usage: ltl split [-n N] [-workers K] [-property NAME] [-max-refinements R]")
	assert.Contains(t, out, "unknown is never a pass")
	_, out, _ = runLTL(t, "", "help")
	assert.Contains(t, out, "split ")
}

// verdictLine returns the first line of out up to its parenthesised
// details: "proved mutex".
func verdictLine(out string) string {
	line, _, _ := strings.Cut(out, "\n")
	if i := strings.Index(line, " ("); i >= 0 {
		line = line[:i]
	}
	return line
}
