package annotate

import (
	"errors"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// A checked package is Go source type-checked as FromTypes takes it.
type checked struct {
	fset  *token.FileSet
	files []*ast.File
	pkg   *types.Package
	info  *types.Info
}

// checkSource writes files (name → content) into a fresh directory (so that
// spec files among them can be read) and type-checks the .go files at its
// top as one package. It fails if the Go code itself does not type-check.
func checkSource(tb testing.TB, files map[string]string) checked {
	tb.Helper()
	dir := tb.TempDir()
	c := checked{fset: token.NewFileSet()}
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		path := filepath.Join(dir, name)
		require.NoError(tb, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(tb, os.WriteFile(path, []byte(files[name]), 0o644))
		if strings.HasSuffix(name, ".go") && !strings.Contains(name, "/") {
			f, err := parser.ParseFile(c.fset, path, files[name], parser.ParseComments|parser.SkipObjectResolution)
			require.NoError(tb, err)
			c.files = append(c.files, f)
		}
	}
	c.info = &types.Info{
		Types:      map[ast.Expr]types.TypeAndValue{},
		Defs:       map[*ast.Ident]types.Object{},
		Uses:       map[*ast.Ident]types.Object{},
		Selections: map[*ast.SelectorExpr]*types.Selection{},
		Scopes:     map[ast.Node]*types.Scope{},
	}
	conf := types.Config{Importer: importer.Default()}
	var err error
	c.pkg, err = conf.Check("example.com/p", c.fset, c.files, c.info)
	require.NoError(tb, err, "the test's Go source must type-check")
	return c
}

// fromSource type-checks files (see checkSource) and reads their
// annotations.
func fromSource(t *testing.T, files map[string]string) (*Package, ErrorList) {
	t.Helper()
	c := checkSource(t, files)
	pkg, err := FromTypes(c.fset, c.files, c.pkg, c.info)
	require.NotNil(t, pkg)
	if err == nil {
		return pkg, nil
	}
	var list ErrorList
	require.True(t, errors.As(err, &list), "FromTypes returns an ErrorList, got %T", err)
	return pkg, list
}

// messages returns the errors as "file:line:col: message" with base file
// names, in order.
func messages(list ErrorList) []string {
	out := make([]string, len(list))
	for i, e := range list {
		p := e.Position
		p.Filename = filepath.Base(p.Filename)
		out[i] = p.String() + ": " + e.Message()
	}
	return out
}

// short formats pos as base-file-name:line:col.
func short(fset *token.FileSet, pos token.Pos) string {
	p := fset.Position(pos)
	p.Filename = filepath.Base(p.Filename)
	return p.String()
}

// readDir returns the files of dir (not its subdirectories, nor go.mod) as
// fromSource takes them.
func readDir(t *testing.T, dir string) map[string]string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	files := map[string]string{}
	for _, e := range entries {
		if e.IsDir() || e.Name() == "go.mod" {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		require.NoError(t, err)
		files[e.Name()] = string(data)
	}
	return files
}
