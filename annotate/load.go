package annotate

import (
	"context"
	"fmt"
	"os"
	"sort"
	"strings"

	"golang.org/x/tools/go/packages"
)

// Load loads the packages patterns name, with their tests, and reads their
// annotations (see FromTypes). Patterns are as go list takes them, relative
// to the current directory; a single pattern that names a directory is
// loaded from that directory instead, so it may lie in another module.
//
// It returns one Package per package with Go files: the test variant of a
// package that has tests ("p [p.test]", a superset of p) replaces p, and
// an external test package ("p_test [p.test]") is a Package of its own.
// The error, if not nil, is an ErrorList of every problem in every package,
// sorted by position: annotation problems, and (Kind Load) packages that
// fail to load or type-check, whose annotations are then not read. A
// failure to run the loader at all is returned as is.
func Load(ctx context.Context, patterns ...string) ([]*Package, error) {
	cfg := &packages.Config{
		Context: ctx,
		Mode: packages.NeedName | packages.NeedFiles | packages.NeedSyntax |
			packages.NeedTypes | packages.NeedTypesInfo,
		Tests: true,
	}
	if len(patterns) == 1 {
		if st, err := os.Stat(patterns[0]); err == nil && st.IsDir() {
			cfg.Dir, patterns = patterns[0], []string{"."}
		}
	}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		return nil, fmt.Errorf("annotate: loading %s: %w", strings.Join(patterns, " "), err)
	}
	// The generated test mains "p.test" are named by their variants
	// ("q [p.test]"); a package may itself be called "x.test".
	testMain := map[string]bool{}
	for _, p := range pkgs {
		if i := strings.Index(p.ID, " ["); i >= 0 && strings.HasSuffix(p.ID, "]") {
			testMain[p.ID[i+2:len(p.ID)-1]] = true
		}
	}
	hasTestVariant := map[string]bool{}
	for _, p := range pkgs {
		if p.ID != p.PkgPath && !testMain[p.ID] {
			hasTestVariant[p.PkgPath] = true
		}
	}
	var out []*Package
	var errs ErrorList
	seen := map[string]bool{} // load errors, reported once across variants
	for _, p := range pkgs {
		if len(p.Errors) > 0 {
			for _, e := range p.Errors {
				if msg := e.Error(); !seen[msg] {
					seen[msg] = true
					errs = append(errs, &Error{Kind: KindLoad, Msg: msg})
				}
			}
			continue
		}
		if testMain[p.ID] || p.ID == p.PkgPath && hasTestVariant[p.PkgPath] || len(p.Syntax) == 0 {
			continue
		}
		ap, err := FromTypes(p.Fset, p.Syntax, p.Types, p.TypesInfo)
		ap.ID = p.ID
		out = append(out, ap)
		if list, ok := err.(ErrorList); ok {
			errs = append(errs, list...)
		}
	}
	if len(pkgs) == 0 {
		errs = append(errs, &Error{Kind: KindLoad, Msg: "no packages match " + strings.Join(patterns, " ")})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	errs.Sort()
	return out, errs.Err()
}
