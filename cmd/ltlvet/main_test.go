package main_test

import (
	"bytes"
	"errors"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The diagnostics of testdata/mod/bank, as both modes print them (after the
// path of the file).
var bankWant = []string{
	`bank.go:8:34: ltl:spec lockPairs: unknown proposition "unlok" (did you mean "unlock"?)`,
	"bank.go:9:1: ltl:spec once: G(withdraw -> G !withdraw) is equivalent to G !withdraw: G !withdraw cannot hold at a step where withdraw holds; to constrain the steps after withdraw, write G(withdraw -> N G !withdraw) (N: from the next step on, if any; X instead requires a next step)",
	"bank.go:19:22: ltl:prop overdrawn: a.balance - n has type int, not bool",
	`bank.ltl:1:17: ltl:spec fromFile: unknown proposition "nothing"`,
	"bank_test.go:11:1: ltl:spec inTest: unsatisfiable: it needs two events at one step, but events happen one at a time",
}

// TestVet builds ltlvet and runs it as go vet's tool and standalone on the
// module in testdata/mod, as CI would after go install ./cmd/ltlvet.
func TestVet(t *testing.T) {
	if testing.Short() {
		t.Skip("builds ltlvet and runs go vet")
	}
	gobin := filepath.Join(runtime.GOROOT(), "bin", "go")
	tool := filepath.Join(t.TempDir(), "ltlvet")
	out, err := exec.Command(gobin, "build", "-o", tool, ".").CombinedOutput()
	require.NoError(t, err, "%s", out)
	mod, err := filepath.Abs(filepath.Join("testdata", "mod"))
	require.NoError(t, err)

	run := func(name string, args ...string) (string, int) {
		cmd := exec.Command(name, args...)
		cmd.Dir = mod
		cmd.Env = append(cmd.Environ(), "GOWORK=off", "GOFLAGS=")
		var buf bytes.Buffer
		cmd.Stdout, cmd.Stderr = &buf, &buf
		err := cmd.Run()
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return buf.String(), exit.ExitCode()
		}
		require.NoError(t, err, "%s %v: %s", name, args, buf.String())
		return buf.String(), 0
	}

	t.Run("go vet", func(t *testing.T) {
		out, code := run(gobin, "vet", "-vettool="+tool, "./...")
		assert.Equal(t, 1, code, "%s", out)
		assert.Equal(t, bankWant, diagnostics(out), "%s", out)

		out, code = run(gobin, "vet", "-vettool="+tool, "./clean")
		assert.Equal(t, 0, code, "%s", out)
		assert.Empty(t, strings.TrimSpace(out))
	})
	t.Run("standalone", func(t *testing.T) {
		out, code := run(tool, "./...")
		assert.Equal(t, 3, code, "%s", out)
		assert.Equal(t, bankWant, diagnostics(out), "%s", out)
		assert.Contains(t, out, filepath.Join(mod, "bank", "bank.go")+":8:34: ", "standalone prints full paths")

		// Without test files, the test's spec is not seen, and the
		// props it uses are not reported as unused.
		out, code = run(tool, "-test=false", "./...")
		assert.Equal(t, 3, code, "%s", out)
		assert.Equal(t, bankWant[:4], diagnostics(out), "%s", out)

		out, code = run(tool, "./clean")
		assert.Equal(t, 0, code, "%s", out)
		assert.Empty(t, strings.TrimSpace(out))
	})
}

var diagLine = regexp.MustCompile(`([\w.]+\.(?:go|ltl):\d+:\d+: ltl.*)$`)

// diagnostics returns the diagnostic lines of out without the directories
// of their files, sorted by file, line and column.
func diagnostics(out string) []string {
	var lines []string
	for _, line := range strings.Split(out, "\n") {
		if m := diagLine.FindStringSubmatch(line); m != nil {
			lines = append(lines, m[1])
		}
	}
	sort.Slice(lines, func(i, j int) bool { return key(lines[i]) < key(lines[j]) })
	return lines
}

// key orders "file:line:col: …" by file, then numerically.
func key(line string) string {
	parts := strings.SplitN(line, ":", 4)
	pad := func(s string) string { return strings.Repeat("0", 6-len(s)) + s }
	return parts[0] + ":" + pad(parts[1]) + ":" + pad(parts[2])
}
