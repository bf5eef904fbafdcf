package explore

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The testify cases (testdata/testifyfail) fail testify assertions on
// composite values: the explorer must report each as a failed test with
// testify's message, as go test prints it, and the same assertions
// holding must pass.

func exploreTestifyCase(t *testing.T, test string) *Report {
	t.Helper()
	return exploreTestdata(t, "testifyfail", test, Options{})
}

func TestTestifyFailures(t *testing.T) {
	for _, c := range []struct {
		test string
		line int
		want []string // lines of the finding's message, as go test prints them
	}{
		{"TestEqualStructFails", 22, []string{"Not equal: ", `expected: testifyfail.point{X:1, Y:2, Name:"a"}`, `actual  : testifyfail.point{X:1, Y:3, Name:"a"}`,
			// spew's dumps are %#v's one line: a one-line diff
			"Diff:", `-testifyfail.point{X:1, Y:2, Name:"a"}`, `+testifyfail.point{X:1, Y:3, Name:"a"}`}},
		{"TestEqualSliceFails", 26, []string{"Not equal: ", "expected: []int{1, 2, 3}", "actual  : []int{1, 2, 4}", "Diff:"}},
		{"TestEqualMapFails", 30, []string{"Not equal: ", `expected: map[string]int{"a":1}`, `actual  : map[string]int{"a":2}`, "Diff:"}},
		{"TestEqualValuesFails", 34, []string{"Not equal: ", "expected: 1", "actual  : 2"}},
		{"TestNoErrorFails", 38, []string{"Received unexpected error:", "x"}},
		{"TestContainsFails", 43, []string{`[]string{"a", "b"} does not contain "c"`}},
		{"TestLenFails", 47, []string{`"[1 2]" should have 3 item(s), but has 2`}},
		{"TestElementsMatchFails", 51, []string{"elements differ", "extra elements in list A:", "[]interface {}{2}", "extra elements in list B:", "[]interface {}{1}", "listA:", "[]int{1, 2, 2}"}},
	} {
		t.Run(c.test, func(t *testing.T) {
			r := exploreTestifyCase(t, c.test)
			require.Len(t, r.Findings, 1, "%v", r.Findings)
			require.Empty(t, r.Warnings)
			require.True(t, r.Complete, "bound %q", r.Bound)
			f := r.Findings[0]
			require.Equal(t, KindTestFailure, f.Kind, "%v", f)
			require.Equal(t, c.line, f.Pos.Line)
			lines := map[string]bool{}
			for _, l := range strings.Split(f.Message, "\n") {
				// testify's lines: a label, a tab, the text
				l = strings.TrimLeft(l, "\t ")
				lines[l] = true
				if label, text, ok := strings.Cut(l, "\t"); ok && label == "Error:      " {
					lines[text] = true
				}
			}
			require.True(t, lines[fmt.Sprintf("Error Trace:\t%s:%d", f.Pos.Filename, c.line)], "%s", f.Message)
			require.True(t, lines["Test:       \t"+c.test], "%s", f.Message)
			for _, w := range c.want {
				assert.True(t, lines[w], "%q in %s", w, f.Message)
			}
		})
	}
	t.Run("TestAllPass", func(t *testing.T) {
		r := exploreTestifyCase(t, "TestAllPass")
		require.Equal(t, "pass", r.Verdict(), "%v", r.Findings)
		require.Empty(t, r.Warnings)
		require.True(t, r.Complete, "bound %q", r.Bound)
	})
}
