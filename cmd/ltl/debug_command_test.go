package main

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/henceforth-go/henceforth/explore"
)

func TestDebugCommandParse(t *testing.T) {
	c, err := parseDebugCommand("  push -dfs -max -max-length 20 -distinct-end G at(P1, n2)  ")
	require.NoError(t, err)
	assert.Equal(t, "push", c.verb.name)
	assert.Equal(t, "G at(P1, n2)", c.rest, "the formula is the rest of the line, inner blanks kept")
	assert.Equal(t, 46, c.restOff)
	o := c.flags.apply(explore.StepOptions{MaxNodes: 7, AllPaths: true})
	assert.Equal(t, explore.StepOptions{Search: explore.DepthFirst, Size: explore.Maximal, MaxLength: 20, MaxNodes: 7, DistinctEnd: true, AllPaths: true}, o,
		"flags override the defaults they name and keep the others")

	c, err = parseDebugCommand("find -- -p")
	require.NoError(t, err)
	assert.Equal(t, "push", c.verb.name, "find is push")
	assert.Equal(t, "-p", c.rest, "-- ends the flags")

	c, err = parseDebugCommand("set -iddfs -every -max-nodes=500 -all-paths=false")
	require.NoError(t, err)
	o = c.flags.apply(explore.StepOptions{AllPaths: true, DistinctSequences: true})
	assert.Equal(t, explore.StepOptions{Search: explore.IterativeDeepening, Size: explore.EveryEnd, MaxNodes: 500, DistinctSequences: true}, o)
	assert.Equal(t, "-iddfs -every -max-nodes 500 -distinct-seq", formatStepOptions(o))
	c, err = parseDebugCommand("set -default -max")
	require.NoError(t, err)
	assert.Equal(t, explore.StepOptions{Size: explore.Maximal}, c.flags.apply(o))
	assert.Equal(t, "-dfs -max", formatStepOptions(explore.StepOptions{Size: explore.Maximal}), "a maximal step searches depth-first by default")

	c, err = parseDebugCommand("step P0")
	require.NoError(t, err)
	assert.Equal(t, []string{"P0"}, c.args)
	c, err = parseDebugCommand("bt")
	require.NoError(t, err)
	assert.Equal(t, "backtrack", c.verb.name)

	for _, line := range []string{"", "   ", "# push F p", "\t# comment"} {
		c, err = parseDebugCommand(line)
		require.NoError(t, err, line)
		assert.Nil(t, c.verb, "%q is no command", line)
	}

	c, err = parseDebugCommand("watch c0 + c1")
	require.NoError(t, err)
	assert.Equal(t, "c0 + c1", c.rest)
}

func TestDebugExpectParse(t *testing.T) {
	for _, tc := range []struct {
		line string
		want expectation
	}{
		{"expect found", expectation{kind: expectVerdict, verdict: "found"}},
		{"expect none", expectation{kind: expectVerdict, verdict: "none"}},
		{"expect popped", expectation{kind: expectPopped}},
		{"expect chain", expectation{kind: expectChain}},
		{"expect at P0 m8", expectation{kind: expectAt, goroutine: "P0", label: "m8"}},
		{"expect holds c0 == 0 && c1 == 1", expectation{kind: expectHolds, expr: "c0 == 0 && c1 == 1"}},
		{"expect value c0 + c1 = 1", expectation{kind: expectValue, expr: "c0 + c1", value: "1"}},
		{"expect moves P1:n7 P0:m8", expectation{kind: expectMoves, moves: []string{"P1:n7", "P0:m8"}}},
		{"expect labels P0 m7 m6", expectation{kind: expectLabels, goroutine: "P0", labels: []string{"m6", "m7"}}},
		{"expect steps 5", expectation{kind: expectSteps, n: 5}},
		{"expect depth 0", expectation{kind: expectDepth}},
	} {
		c, err := parseDebugCommand(tc.line)
		if assert.NoError(t, err, tc.line) {
			assert.Equal(t, tc.want, c.expect, tc.line)
		}
	}
}

// TestDebugCommandErrors: each bad line names the column of the word at
// fault.
func TestDebugCommandErrors(t *testing.T) {
	for _, tc := range []struct {
		line string
		col  int
		msg  string
	}{
		{"pusj F p", 1, `unknown command "pusj"`},
		{"push", 5, "push needs a formula"},
		{"push -dfs", 10, "push needs a formula"},
		{"push -dfz F p", 6, "unknown flag -dfz"},
		{"push -max-length x F p", 18, `-max-length: want a positive number, got "x"`},
		{"push -max-length=0 F p", 6, `want a positive number, got "0"`},
		{"push -max-length", 6, "-max-length needs a number"},
		{"push -bfs=1 F p", 6, "-bfs takes no value"},
		{"push -all-paths=maybe F p", 6, `-all-paths: want true or false, got "maybe"`},
		{"push -default F p", 6, "-default is a flag of set"},
		{"set F p", 5, `set takes only flags, not "F"`},
		{"pop now", 5, "pop takes no arguments"},
		{"step", 5, "step takes one argument"},
		{"step P0 P1", 9, "step takes one argument"},
		{"watch   ", 9, "watch needs an argument"},
		{"expect", 7, "expect needs what to check"},
		{"expect founds", 8, `unknown expectation "founds"`},
		{"expect at P0", 13, "expect at takes 2 arguments"},
		{"expect found now", 14, "expect found takes 0 arguments"},
		{"expect steps -1", 14, `expect steps: want a number, got "-1"`},
		{"expect moves P0m8", 14, `want G:L, got "P0m8"`},
		{"expect value c0", 14, "want EXPR = VALUE"},
		{"expect holds", 13, "expect holds needs a Go expression"},
		{"é pop", 1, `unknown command "é"`},
	} {
		_, err := parseDebugCommand(tc.line)
		var se *debugSyntaxError
		if assert.True(t, errors.As(err, &se), "%q: %v", tc.line, err) {
			assert.Equal(t, tc.col, se.Off+1, "%q: %v", tc.line, err)
			assert.Contains(t, se.Msg, tc.msg, tc.line)
		}
	}
}

// FuzzDebugCommand: any line parses or gives a syntax error at an offset
// inside the line (or at its end); a parsed command has its verb's
// arguments.
func FuzzDebugCommand(f *testing.F) {
	for _, s := range []string{"push -dfs -max G at(P1, n2)", "set -max-nodes=5", "expect value a = b = c",
		"expect moves P0:m1", "step 3", "# c", "unwatch 2", "help push", "find -- -x", "expect labels P0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		c, err := parseDebugCommand(line)
		if err != nil {
			var se *debugSyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("%q: error %v is not positioned", line, err)
			}
			if se.Off < 0 || se.Off > len(line) {
				t.Fatalf("%q: offset %d outside the line", line, se.Off)
			}
			return
		}
		if c.verb == nil {
			if strings.TrimSpace(line) != "" && !strings.HasPrefix(strings.TrimLeft(line, " \t"), "#") && utf8.ValidString(line) && !strings.ContainsAny(line, "\r\n") {
				t.Fatalf("%q: no command", line)
			}
			return
		}
		switch c.verb.kind {
		case argsFormula, argsRest:
			if c.rest == "" {
				t.Fatalf("%q: %s without its argument", line, c.verb.name)
			}
		case argsWord:
			if len(c.args) != 1 {
				t.Fatalf("%q: %s with %d arguments", line, c.verb.name, len(c.args))
			}
		}
	})
}
