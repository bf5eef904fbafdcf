package annotate

import (
	"context"
	"go/types"
	"strings"
	"testing"

	"github.com/henceforth-go/henceforth/automaton"
)

// BenchmarkFromTypes measures reading the annotations of bankSrc (16
// directives) from its type-checked syntax: the analyzer's cost per package.
// The baseline is type-checking the same files, which go vet does before any
// analyzer runs.
func BenchmarkFromTypes(b *testing.B) {
	c := checkSource(b, map[string]string{"bank.go": bankSrc})
	directives := strings.Count(bankSrc, "//ltl:")
	b.Run("baseline=typecheck", func(b *testing.B) {
		for b.Loop() {
			info := &types.Info{Defs: c.info.Defs}
			conf := types.Config{Importer: importerFor(c.pkg)}
			if _, err := conf.Check("example.com/p", c.fset, c.files, info); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("annotate", func(b *testing.B) {
		for b.Loop() {
			_, _ = FromTypes(c.fset, c.files, c.pkg, c.info)
		}
		b.ReportMetric(float64(directives*b.N)/b.Elapsed().Seconds(), "directives/s")
	})
}

// BenchmarkLint measures the meaning checks on lintSrc's 10 specs with the
// automaton-based Checker.
func BenchmarkLint(b *testing.B) {
	c := checkSource(b, map[string]string{"a.go": lintSrc})
	pkg, err := FromTypes(c.fset, c.files, c.pkg, c.info)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	for b.Loop() {
		pkg.Lint(ctx, automaton.Satisfiability{})
	}
	b.ReportMetric(float64(len(pkg.Specs)*b.N)/b.Elapsed().Seconds(), "specs/s")
}

// importerFor imports the packages pkg imports, already loaded, so that the
// baseline measures type-checking and not reading export data.
func importerFor(pkg *types.Package) types.Importer {
	return importerFunc(func(path string) (*types.Package, error) {
		for _, imp := range pkg.Imports() {
			if imp.Path() == path {
				return imp, nil
			}
		}
		return nil, &types.Error{Msg: "not imported: " + path}
	})
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }
