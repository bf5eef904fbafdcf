package ltlanalysis

import (
	"context"
	"errors"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"golang.org/x/tools/go/analysis"

	"github.com/henceforth-go/henceforth/annotate"
	"github.com/henceforth-go/henceforth/automaton"
)

const doc = `check //ltl: annotations

The ltl analyzer checks the //ltl:prop, //ltl:event, //ltl:spec,
//ltl:symbolic and //ltl:specfile directives of a package (see package
annotate): their syntax, that their Go expressions type-check in the scope
where they stand, are boolean and have no side effects, that every atom of
every spec names a prop, an event or a Go boolean expression, and that
events and symbolic directives are attached to a statement, function or
variable. It also reports specs that are unsatisfiable, valid (they check
nothing) or vacuous, G(a -> G !a) (equivalent to G !a), and props that no
spec uses.`

// Analyzer reports problems with //ltl: directives. Each diagnostic's
// category is the annotate.Kind of the problem ("syntax", "meaning", …).
var Analyzer = &analysis.Analyzer{
	Name: "ltl",
	Doc:  doc,
	Run:  run,
}

// maxStates bounds the automata behind the meaning checks: specs are
// written by hand, and vet must stay fast. A spec whose automaton exceeds it
// gets a "meaning not checked" diagnostic.
const maxStates = 1 << 14

func run(pass *analysis.Pass) (any, error) {
	pkg, err := annotate.FromTypes(pass.Fset, pass.Files, pass.Pkg, pass.TypesInfo)
	var list annotate.ErrorList
	if err != nil && !errors.As(err, &list) {
		return nil, err
	}
	for _, e := range list {
		report(pass, e)
	}
	// Whether to skip unused props is decided only if there are any.
	skipUnused := sync.OnceValue(func() bool { return testsElsewhere(pass) })
	for _, e := range pkg.Lint(context.Background(), automaton.Satisfiability{MaxStates: maxStates}) {
		if e.Kind == annotate.KindUnused && skipUnused() {
			continue
		}
		report(pass, e)
	}
	return nil, nil
}

func report(pass *analysis.Pass, e *annotate.Error) {
	pass.Report(analysis.Diagnostic{Pos: e.Pos, Category: e.Kind.String(), Message: e.Message()})
}

// testsElsewhere reports whether pass sees a package without its in-package
// test files, which exist: a standalone run analyzes both p and p [p.test],
// and specs in the test files may use props of p, so "not used" is decided
// on the test variant only.
func testsElsewhere(pass *analysis.Pass) bool {
	if len(pass.Files) == 0 {
		return false
	}
	for _, f := range pass.Files {
		if strings.HasSuffix(pass.Fset.File(f.FileStart).Name(), "_test.go") {
			return false
		}
	}
	dir := filepath.Dir(pass.Fset.File(pass.Files[0].FileStart).Name())
	tests, _ := filepath.Glob(filepath.Join(dir, "*_test.go"))
	for _, name := range tests {
		src, err := os.ReadFile(name)
		if err != nil {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, src, parser.PackageClauseOnly)
		if err == nil && f.Name.Name == pass.Pkg.Name() {
			return true
		}
	}
	return false
}
