package explore

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Whether a package is the user's or the standard library's is decided
// from the go command's facts (the package's module, its files' place in
// GOROOT), never from the shape of its import path. These tests load
// small modules written under t.TempDir() whose paths have every shape:
// without a dot ("myapp", the shape the standard library has), a domain,
// a last element with a dot ("x.test", which also ends like a test main's
// ID), and a module of a go.work workspace. Each has a //ltl:symbolic
// entry (examples/symbolic/absdiff) and tests drawing inputs with
// ltltest.Symbolic (examples/symbolic/scale), in the package and in an
// external test package: the explorer must find every bug in each, as it
// does in this module. Before, a module without a dot in its first path
// element was taken for the standard library: its symbolic inputs were
// ignored and every symbolic test passed after one execution.

// repoRoot is the root of this module (the tests run in explore/).
func repoRoot(t *testing.T) string {
	t.Helper()
	wd, err := os.Getwd()
	require.NoError(t, err)
	root := filepath.Dir(wd)
	_, err = os.Stat(filepath.Join(root, "go.mod"))
	require.NoError(t, err, "the module root is the parent of the test's directory")
	return root
}

const modAbsDiff = `package app

// AbsDiff is examples/symbolic/absdiff's: result > 0 fails on x == y.
//
//ltl:symbolic
func AbsDiff(x, y int16) int {
	a, b := int(x), int(y)
	var result int
	if a > b {
		result = a - b
	} else {
		result = b - a
	}
	if result <= 0 {
		panic("assertion failed: result > 0")
	}
	return result
}

// Scale divides by zero exactly when n*3 == limit+7.
func Scale(n, limit int) int {
	return 100 * n / (n*3 - limit - 7)
}
`

const modScaleTest = `package app

import (
	"testing"

	"github.com/henceforth-go/henceforth/ltltest"
)

func TestScale(t *testing.T) {
	n := ltltest.Symbolic[int](t, "n")
	limit := ltltest.Symbolic[int](t, "limit")
	if n < 0 || n > 1000 || limit < 0 || limit > 1000 {
		return
	}
	if p := Scale(n, limit); p < -100000 || p > 100000 {
		t.Errorf("Scale(%d, %d) = %d out of range", n, limit, p)
	}
}
`

const modScaleXTest = `package app_test

import (
	"testing"

	"github.com/henceforth-go/henceforth/ltltest"

	app %q
)

func TestScaleExternal(t *testing.T) {
	n := ltltest.Symbolic[int](t, "n")
	limit := ltltest.Symbolic[int](t, "limit")
	if n < 0 || n > 1000 || limit < 0 || limit > 1000 {
		return
	}
	_ = app.Scale(n, limit)
}
`

// writeModule writes the module files into dir: app.go, and with
// symbolicTests the tests calling ltltest.Symbolic, with a replace of this
// module (at replace, if not "") in go.mod.
func writeModule(t *testing.T, dir, module string, symbolicTests bool, replace string) {
	t.Helper()
	require.NoError(t, os.MkdirAll(dir, 0o755))
	gomod := "module " + module + "\n\ngo 1.26.0\n"
	if symbolicTests && replace != "" {
		gomod += "\nrequire github.com/henceforth-go/henceforth v0.0.0\n\nreplace github.com/henceforth-go/henceforth => " + replace + "\n"
		// this module's checksums cover the dependencies it brings
		sum, err := os.ReadFile(filepath.Join(replace, "go.sum"))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(dir, "go.sum"), sum, 0o644))
	}
	files := map[string]string{"go.mod": gomod, "app.go": modAbsDiff}
	if symbolicTests {
		files["app_test.go"] = modScaleTest
		files["app_ext_test.go"] = strings.Replace(modScaleXTest, "%q", `"`+module+`"`, 1)
	}
	for name, src := range files {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644))
	}
}

// TestModuleWithoutDot is the short form: modules without dependencies
// (no ltltest), whose //ltl:symbolic entry must be one with its inputs.
func TestModuleWithoutDot(t *testing.T) {
	for _, module := range []string{"myapp", "x.test"} {
		t.Run(module, func(t *testing.T) {
			dir := t.TempDir()
			writeModule(t, dir, module, false, "")
			ctx := context.Background()
			p, err := Load(ctx, LoadConfig{Dir: dir, Env: append(os.Environ(), "GOWORK=off")})
			require.NoError(t, err)
			e, err := p.Func("AbsDiff")
			require.NoError(t, err)
			assert.Equal(t, module+".AbsDiff", e.Name)
			require.Len(t, e.Symbolic, 2, "//ltl:symbolic parameters")
			r, err := p.Explore(ctx, e, Options{})
			require.NoError(t, err)
			f := findKind(r, KindPanic)
			require.NotNil(t, f, "%v", r.Findings)
			assert.Contains(t, f.Message, "assertion failed: result > 0")
			assert.Equal(t, 3, r.Executions, "the three feasible paths")
		})
	}
}

// TestPackagesWithoutModule: without module information (GOPATH mode, a
// file named on the command line) a package is standard only if its
// files are in GOROOT.
func TestPackagesWithoutModule(t *testing.T) {
	check := func(t *testing.T, p *Program, name string) {
		t.Helper()
		e, err := p.Func("AbsDiff")
		require.NoError(t, err)
		assert.Equal(t, name, e.Name)
		require.Len(t, e.Symbolic, 2, "//ltl:symbolic parameters")
		r, err := p.Explore(context.Background(), e, Options{})
		require.NoError(t, err)
		require.NotNil(t, findKind(r, KindPanic), "%v", r.Findings)
	}
	t.Run("gopath", func(t *testing.T) {
		gopath := t.TempDir()
		dir := filepath.Join(gopath, "src", "myapp")
		writeModule(t, dir, "myapp", false, "")
		require.NoError(t, os.Remove(filepath.Join(dir, "go.mod")))
		env := append(os.Environ(), "GO111MODULE=off", "GOPATH="+gopath, "GOFLAGS=")
		p, err := Load(context.Background(), LoadConfig{Dir: dir, Env: env})
		require.NoError(t, err)
		check(t, p, "myapp.AbsDiff")
	})
	t.Run("file", func(t *testing.T) {
		dir := t.TempDir()
		writeModule(t, dir, "myapp", false, "")
		p, err := Load(context.Background(), LoadConfig{Dir: dir, Patterns: []string{"./app.go"}, Env: append(os.Environ(), "GOWORK=off")})
		require.NoError(t, err)
		check(t, p, "command-line-arguments.AbsDiff")
	})
}

func TestModulePathShapes(t *testing.T) {
	if testing.Short() {
		t.Skip("loads four modules with the explorer's dependencies (about 10 s)")
	}
	root := repoRoot(t)
	for _, tc := range []struct {
		name, module string
		workspace    bool
	}{
		{"dotless", "myapp", false},
		{"domain", "example.com/x", false},
		{"dotted", "x.test", false},
		{"workspace", "service", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "m")
			env := append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
			if tc.workspace {
				// A workspace of the module and this one: no replace,
				// and -mod=mod is not allowed in workspace mode.
				ws := filepath.Dir(dir)
				writeModule(t, dir, tc.module, true, "")
				work := "go 1.26.0\n\nuse (\n\t./m\n\t" + root + "\n)\n"
				require.NoError(t, os.WriteFile(filepath.Join(ws, "go.work"), []byte(work), 0o644))
				env = append(os.Environ(), "GOFLAGS=", "GOWORK="+filepath.Join(ws, "go.work"))
			} else {
				writeModule(t, dir, tc.module, true, root)
			}
			ctx := context.Background()
			p, err := Load(ctx, LoadConfig{Dir: dir, Env: env})
			require.NoError(t, err)

			// The module's packages are user code, the standard
			// library's are not.
			var user, std []string
			for tp := range p.syntax {
				user = append(user, tp.Path())
			}
			for tp := range p.interpreted {
				if _, ok := p.syntax[tp]; !ok {
					std = append(std, tp.Path())
				}
			}
			assert.Contains(t, user, tc.module)
			assert.Contains(t, user, tc.module+"_test")
			assert.Contains(t, std, "strings")
			assert.NotContains(t, user, "strings")
			assert.NotContains(t, user, "github.com/henceforth-go/henceforth/ltltest", "the explorer's libraries are not interpreted")

			// ltltest.Symbolic in the package and in its external test
			// package: the division by zero is found.
			tests := p.Tests(regexp.MustCompile(`^TestScale`))
			require.Len(t, tests, 2)
			for _, e := range tests {
				r, err := p.Explore(ctx, e, Options{})
				require.NoError(t, err)
				f := findKind(r, KindPanic)
				require.NotNil(t, f, "%s: %d executions, %v", e.Name, r.Executions, r.Findings)
				assert.Contains(t, f.Message, "integer divide by zero", e.Name)
				assert.Greater(t, r.Executions, 1, "%s: a symbolic exploration forks", e.Name)
			}

			// The //ltl:symbolic entry: inputs x and y, the bug on x == y.
			e, err := p.Func("AbsDiff")
			require.NoError(t, err)
			require.Len(t, e.Symbolic, 2, "//ltl:symbolic parameters")
			r, err := p.Explore(ctx, e, Options{})
			require.NoError(t, err)
			f := findKind(r, KindPanic)
			require.NotNil(t, f, "AbsDiff: %v", r.Findings)
			assert.Contains(t, f.Message, "assertion failed: result > 0")
			assert.Equal(t, f.Inputs[0].Value, f.Inputs[1].Value, "x == y")
			assert.True(t, r.Complete)

			// Names as runtime.FuncForPC prints them (the last path
			// element's dots escaped) find the entries.
			slash := strings.LastIndex(tc.module, "/") + 1
			escaped := tc.module[:slash] + strings.ReplaceAll(tc.module[slash:], ".", "%2e")
			for _, name := range []string{tc.module + ".TestScale", escaped + ".TestScale"} {
				e, err := p.Func(name)
				require.NoError(t, err, name)
				assert.Equal(t, tc.module+".TestScale", e.Name)
			}
			e, err = p.Func(tc.module + "_test.TestScaleExternal")
			require.NoError(t, err)
			assert.Equal(t, tc.module+"_test.TestScaleExternal", e.Name)
		})
	}
}
