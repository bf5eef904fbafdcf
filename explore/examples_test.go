package explore

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

const examplesPath = "github.com/henceforth-go/henceforth/examples/explore"

// TestExamples runs the explorer on every example: the buggy scenario
// must produce a finding of the expected kind whose replay token
// reproduces it exactly, and the fixed test must pass exhaustive
// exploration.
func TestExamples(t *testing.T) {
	cases := []struct {
		pkg     string
		kind    Kind
		message string // substring of the finding's message
		shared  bool
	}{
		{"abba", KindDeadlock, "all goroutines are asleep", false},
		{"timeoutleak", KindLeak, "blocked forever after Scenario returned", false},
		{"waitgroup", KindTestFailure, "squares[", false},
		{"condsignal", KindDeadlock, "all goroutines are asleep", false},
		{"doubleclose", KindPanic, "close of closed channel", false},
		{"ctxcancel", KindLeak, "chan send", false},
		{"philosophers", KindDeadlock, "all goroutines are asleep", false},
		{"singleton", KindTestFailure, "getSingleton called 2 times", true},
		{"counter", KindTestFailure, "count = 1, want 2", true},
	}
	p := load(t)
	for _, tc := range cases {
		t.Run(tc.pkg, func(t *testing.T) {
			// singleton's specs are checked by TestSingletonSpecs.
			opts := Options{Strategy: DPOR, Shared: tc.shared, NoSpecs: tc.pkg == "singleton"}
			scenario, err := p.Func(examplesPath + "/" + tc.pkg + ".Scenario")
			require.NoError(t, err)
			r, err := p.Explore(context.Background(), scenario, opts)
			require.NoError(t, err)
			require.NotEmpty(t, r.Findings, "no finding for %s (%d executions)", tc.pkg, r.Executions)
			f := findKind(r, tc.kind)
			require.NotNil(t, f, "want a %s finding, got %s", tc.kind, r.Findings[0])
			require.Contains(t, f.Message, tc.message)
			t.Logf("%s: %d executions\n%s", tc.pkg, r.Executions, f)

			// The replay token reproduces exactly this execution.
			opts.Replay = f.Replay
			rr, err := p.Explore(context.Background(), scenario, opts)
			require.NoError(t, err)
			g := findKind(rr, tc.kind)
			require.NotNil(t, g, "replay did not reproduce the %s", tc.kind)
			require.Equal(t, f.Message, g.Message)
			require.Equal(t, f.Pos, g.Pos)
			require.Equal(t, f.Steps, g.Steps)
			require.Equal(t, f.Trace, g.Trace)
			require.Equal(t, 1, rr.Executions)

			fixed, err := p.Func(examplesPath + "/" + tc.pkg + ".TestFixed")
			require.NoError(t, err)
			fr, err := p.Explore(context.Background(), fixed, Options{Strategy: DPOR, Shared: tc.shared, NoSpecs: tc.pkg == "singleton"})
			require.NoError(t, err)
			for _, f := range fr.Findings {
				t.Errorf("fixed version: %s", f)
			}
			require.Equal(t, "pass", fr.Verdict(), "bound %q after %d executions", fr.Bound, fr.Executions)
		})
	}
}

func findKind(r *Report, k Kind) *Finding {
	for _, f := range r.Findings {
		if f.Kind == k {
			return f
		}
	}
	return nil
}

var _ = strings.Contains
