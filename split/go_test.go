package split

import (
	"context"
	"errors"
	"go/ast"
	"go/importer"
	goparser "go/parser"
	"go/types"
	"testing"

	gotoken "go/token"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// goSource type-checks src (one file, package p) and extracts fn run by n
// goroutines.
func goSource(t *testing.T, src, fn string, n int) (*GoProgram, error) {
	t.Helper()
	fset := gotoken.NewFileSet()
	f, err := goparser.ParseFile(fset, "p.go", src, goparser.ParseComments)
	require.NoError(t, err)
	info := &types.Info{
		Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{},
		Uses: map[*ast.Ident]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{},
		Scopes: map[ast.Node]*types.Scope{},
	}
	pkg, err := (&types.Config{Importer: importer.Default()}).Check("example.com/p", fset, []*ast.File{f}, info)
	require.NoError(t, err, "the test's Go source must type-check")
	return FromGo(fset, []*ast.File{f}, pkg, info, fn, n)
}

const mutexSrc = `package p

import "sync"

var mu sync.Mutex

//ltl:range inCS 0..3
var inCS int

//ltl:spec mutex G("inCS <= 1")
//ltl:spec leaves G(crit -> F !crit)

func worker() {
	for {
		mu.Lock()
		//ltl:event crit
		inCS++
		inCS--
		mu.Unlock()
	}
}
`

const racySrc = `package p

var busy bool

//ltl:range inCS 0..3
var inCS int

//ltl:spec mutex G("inCS <= 1")

func worker() {
	if !busy {
		busy = true
		//ltl:event crit
		inCS++
		inCS--
		busy = false
	}
}
`

func checkGo(t *testing.T, g *GoProgram, spec string) *Result {
	t.Helper()
	prop, err := g.Property(spec)
	require.NoError(t, err)
	res, err := Check(context.Background(), g.Program, prop, Options{})
	require.NoError(t, err)
	return res
}

func TestGoMutexProved(t *testing.T) {
	g, err := goSource(t, mutexSrc, "worker", 4)
	require.NoError(t, err)
	require.Len(t, g.Program.Processes(), 4)
	for _, spec := range []string{"runtime", "mutex", `G "count(crit) <= 1"`} {
		res := checkGo(t, g, spec)
		assert.Equal(t, Proved, res.Verdict, "%s: %s", spec, res)
		mono, _, err := CheckMonolithic(context.Background(), g.Program, mustProp(t, g, spec), 0)
		require.NoError(t, err)
		assert.Equal(t, Proved, mono.Verdict, spec)
	}
}

func mustProp(t *testing.T, g *GoProgram, spec string) *Property {
	p, err := g.Property(spec)
	require.NoError(t, err)
	return p
}

func TestGoRacyViolated(t *testing.T) {
	g, err := goSource(t, racySrc, "worker", 3)
	require.NoError(t, err)
	res := checkGo(t, g, "mutex")
	require.Equal(t, Violated, res.Verdict, "%s", res)
	steps, err := g.Steps(res.Counterexample)
	require.NoError(t, err)
	t.Log(g.FormatSteps(res.Counterexample))
	require.NotEmpty(t, steps)
}

var _ = errors.Is
