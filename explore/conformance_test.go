package explore

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"golang.org/x/tools/go/packages"
)

// TestXToolsInterpPrograms runs the self-checking test programs of
// golang.org/x/tools/go/ssa/interp (they panic when a construct is
// interpreted wrongly) under the explorer. The programs are copied from
// the module cache into a temporary module.
func TestXToolsInterpPrograms(t *testing.T) {
	if testing.Short() {
		t.Skip("loads 33 programs")
	}
	pkgs, err := packages.Load(&packages.Config{Mode: packages.NeedFiles}, "golang.org/x/tools/go/ssa/interp")
	require.NoError(t, err)
	require.NotEmpty(t, pkgs[0].GoFiles)
	src := filepath.Join(filepath.Dir(pkgs[0].GoFiles[0]), "testdata")
	files, err := filepath.Glob(filepath.Join(src, "*.go"))
	require.NoError(t, err)

	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module xinterp\n\ngo 1.26\n"), 0o644))
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".go")
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		require.NoError(t, os.MkdirAll(filepath.Join(dir, name), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, name, "main.go"), data, 0o644))
	}
	p, err := Load(context.Background(), LoadConfig{Dir: dir, Patterns: []string{"./..."}, NoTests: true})
	require.NoError(t, err)

	// Programs whose expectations differ from this interpreter, and why.
	deviations := map[string]string{
		"convert":        "expects x/tools interp's doubled \"runtime error: \" prefix",
		"coverage":       "expects another toolchain's wording of the nil-receiver panic",
		"slice2arrayptr": "expects x/tools interp's conversion panic message (ours is Go 1.26's)",
		"width32":        "expects 32-bit int behaviour",
		"reflect":        "reflect.SliceOf is not modelled (reflect is only partly modelled)",
	}
	passed := 0
	for _, pkg := range p.Packages {
		name := strings.TrimPrefix(pkg.Pkg.Path(), "xinterp/")
		t.Run(name, func(t *testing.T) {
			e, err := p.Func(pkg.Pkg.Path() + ".main")
			require.NoError(t, err)
			r, err := p.Explore(context.Background(), e, Options{Strategy: DFS, MaxExecutions: 3})
			require.NoError(t, err)
			if why, ok := deviations[name]; ok {
				require.NotEmpty(t, r.Findings, "known deviation (%s) no longer happens: remove it", why)
				t.Skipf("known deviation: %s", why)
			}
			for _, f := range r.Findings {
				t.Errorf("%s", f)
			}
			passed++
		})
	}
	t.Logf("%d programs pass, %d known deviations", passed, len(deviations))
	require.GreaterOrEqual(t, passed, 25)
}
