package ltlanalysis_test

import (
	"path/filepath"
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/henceforth-go/henceforth/annotate/ltlanalysis"
)

// Every diagnostic, as go vet reports it, against the // want comments of the
// testdata packages: syntax (malformed directives, duplicate names), exprs
// (Go expressions), events (event functions and statement placement),
// symbolic, atoms (unknown, ambiguous and ill-typed atoms), specfile (spec
// files that cannot be included), meaning (Lint's findings and unused
// props), and clean (no diagnostic, tests included).
func TestAnalyzer(t *testing.T) {
	if testing.Short() {
		t.Skip("loads testdata packages with go list")
	}
	analysistest.Run(t, analysistest.TestData(), ltlanalysis.Analyzer,
		"syntax", "exprs", "events", "symbolic", "atoms", "specfile", "meaning", "clean")
}

// Problems inside a spec file are reported at their position there, which
// analysistest cannot check (it reads // want comments from Go files only).
func TestSpecFileDiagnostics(t *testing.T) {
	if testing.Short() {
		t.Skip("loads a testdata module with go list")
	}
	dir := filepath.Join("testdata", "specfilemod")
	pkgs, err := packages.Load(&packages.Config{Mode: packages.LoadAllSyntax, Dir: dir}, ".")
	require.NoError(t, err)
	require.Len(t, pkgs, 1)
	require.Empty(t, pkgs[0].Errors)
	graph, err := checker.Analyze([]*analysis.Analyzer{ltlanalysis.Analyzer}, pkgs, nil)
	require.NoError(t, err)
	var got []string
	for act := range graph.All() {
		require.NoError(t, act.Err)
		for _, d := range act.Diagnostics {
			p := act.Package.Fset.Position(d.Pos)
			p.Filename = filepath.Base(p.Filename)
			got = append(got, p.String()+": ["+d.Category+"] "+d.Message)
		}
	}
	sort.Strings(got)
	assert.Equal(t, []string{
		"m.go:6:1: [unused] ltl:prop lonely: not used by any spec",
		`specs.ltl:10:7: [syntax] ltl:spec broken: syntax error: expected formula, found ")"`,
		"specs.ltl:11:1: [placement] ltl:event ev: not allowed in a spec file: an event marks a statement in Go source",
		"specs.ltl:12:1: [syntax] ltl:spec: commented out: in a spec file // starts a comment; write the directive without //ltl:, as spec …",
		"specs.ltl:13:1: [placement] ltl:symbolic: not allowed in a spec file: symbolic marks a function or variable in Go source",
		"specs.ltl:14:1: [placement] ltl:specfile: not allowed in a spec file: spec files do not include others",
		"specs.ltl:15:1: [syntax] ltl:frobnicate: unknown directive (want prop, event, spec, symbolic, specfile or range)",
		"specs.ltl:16:6: [duplicate] ltl:prop ticking: duplicate name: already declared by the ltl:prop at specs.ltl:3:1",
		"specs.ltl:17:1: [syntax] ltl: unterminated /* comment",
		"specs.ltl:5:10: [type] ltl:prop low: counter has type int, not bool",
		`specs.ltl:7:18: [unresolved] ltl:spec bounded: unknown proposition "nope"`,
		"specs.ltl:8:1: [meaning] ltl:spec always: valid: it holds on every trace, so it checks nothing",
	}, got)
}
