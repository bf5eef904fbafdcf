package gosplit

import (
	"context"
	"errors"
	"go/ast"
	"go/importer"
	goparser "go/parser"
	gotoken "go/token"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/henceforth-go/henceforth/split"
)

// goSource type-checks src (one file, package p) and extracts fn run by n
// goroutines.
func goSource(t testing.TB, src, fn string, n int) (*Program, error) {
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
	return Extract(fset, []*ast.File{f}, pkg, info, fn, n)
}

// example returns the source of the program examples/split/<name>/<name>.go,
// the programs the README and ltltest's SplitN tests use (the tests here
// assert positions in them: p.go:LINE:COL is a line of that file).
func example(t testing.TB, name string) string {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("..", "..", "examples", "split", name, name+".go"))
	require.NoError(t, err)
	return string(src)
}

func checkGo(t *testing.T, g *Program, spec string) *split.Result {
	t.Helper()
	prop, err := g.Property(spec)
	require.NoError(t, err)
	res, err := split.Check(context.Background(), g.Program, prop, split.Options{})
	require.NoError(t, err)
	return res
}

func TestGoMutexProved(t *testing.T) {
	g, err := goSource(t, example(t, "mutex"), "worker", 4)
	require.NoError(t, err)
	require.Len(t, g.Program.Processes(), 4)
	for _, spec := range []string{"runtime", "mutex", `G "count(crit) <= 1"`} {
		res := checkGo(t, g, spec)
		assert.Equal(t, split.Proved, res.Verdict, "%s: %s", spec, res)
		mono, _, err := split.CheckMonolithic(context.Background(), g.Program, mustProp(t, g, spec), 0)
		require.NoError(t, err)
		assert.Equal(t, split.Proved, mono.Verdict, spec)
	}
}

func mustProp(t *testing.T, g *Program, spec string) *split.Property {
	p, err := g.Property(spec)
	require.NoError(t, err)
	return p
}

func TestGoRacyViolated(t *testing.T) {
	g, err := goSource(t, example(t, "racy"), "worker", 3)
	require.NoError(t, err)
	res := checkGo(t, g, "mutex")
	require.Equal(t, split.Violated, res.Verdict, "%s", res)
	steps, err := g.Steps(res.Counterexample)
	require.NoError(t, err)
	t.Log(g.FormatSteps(res.Counterexample))
	require.NotEmpty(t, steps)
}

// Mutexes are modelled by their owner, so the lock-protected counter needs
// no refinement and 64 goroutines are proved in a fraction of a second
// (with a Bool lock bit, N = 32 took 34 s and N = 64 did not finish).
func TestGoMutex64Goroutines(t *testing.T) {
	g, err := goSource(t, example(t, "mutex"), "worker", 64)
	require.NoError(t, err)
	for _, spec := range []string{"mutex", "runtime", `G "count(crit) <= 1"`, "leaves"} {
		res, err := g.Check(context.Background(), spec, split.Options{})
		require.NoError(t, err)
		assert.Equal(t, split.Proved, res.Verdict, "%s: %s", spec, res.Reason)
		assert.Zero(t, res.Refinements, spec)
	}
}

// A violation that two goroutines reach is found with two and lifted to
// the N goroutines: the trace replays on the 16-goroutine program, only
// goroutines 1 and 2 move, and its last state violates the invariant.
func TestGoRacyFalsifiedWithTwoGoroutines(t *testing.T) {
	g, err := goSource(t, example(t, "racy"), "worker", 16)
	require.NoError(t, err)
	res, err := g.Check(context.Background(), "mutex", split.Options{})
	require.NoError(t, err)
	require.Equal(t, split.Violated, res.Verdict, "%s", res.Reason)
	assert.Contains(t, res.Reason, "found with 2 of the 16 goroutines")
	cex := res.Counterexample
	require.NoError(t, g.Program.Replay(cex))
	last, ok := cex.Value(cex.Len()-1, "inCS")
	require.True(t, ok)
	assert.Equal(t, 2, last)
	steps, err := g.Steps(cex)
	require.NoError(t, err)
	for _, s := range steps {
		assert.LessOrEqual(t, s.Goroutine, 2, "%s", s)
	}
	assert.Len(t, cex.States[0], len(g.Program.Vars()))
}

// Unlocking an unlocked mutex is a runtime error of the model, as in Go;
// unlocking a mutex another goroutine locked is not.
func TestGoMutexUnlock(t *testing.T) {
	const twice = `package p

import "sync"

var mu sync.Mutex

func worker() {
	mu.Lock()
	mu.Unlock()
	mu.Unlock()
}
`
	g, err := goSource(t, twice, "worker", 3)
	require.NoError(t, err)
	res, err := g.Check(context.Background(), "runtime", split.Options{})
	require.NoError(t, err)
	require.Equal(t, split.Violated, res.Verdict, "%s", res.Reason)
	steps, err := g.Steps(res.Counterexample)
	require.NoError(t, err)
	require.NotEmpty(t, steps)
	assert.Contains(t, steps[len(steps)-1].Error, "unlock of unlocked mutex mu")

	// A goroutine may unlock the mutex another one locked: with two
	// goroutines the second unlocks what the first locked (no error);
	// with three, the third unlocks it again.
	const handoff = `package p

import "sync"

var mu sync.Mutex

var locked bool

func worker() {
	if !locked {
		mu.Lock()
		locked = true
		return
	}
	mu.Unlock()
}
`
	for n, want := range map[int]split.Verdict{2: split.Proved, 3: split.Violated, 6: split.Violated} {
		g, err = goSource(t, handoff, "worker", n)
		require.NoError(t, err)
		res, err = g.Check(context.Background(), "runtime", split.Options{})
		require.NoError(t, err)
		assert.Equal(t, want, res.Verdict, "N = %d: %s", n, res.Reason)
		if n == 6 {
			assert.Contains(t, res.Reason, "found with 3 of the 6 goroutines")
			require.NoError(t, g.Program.Replay(res.Counterexample))
		}
		mono, _, err := split.CheckMonolithic(context.Background(), g.Program, mustProp(t, g, "runtime"), 0)
		require.NoError(t, err)
		assert.Equal(t, want, mono.Verdict, "N = %d, monolithic", n)
	}
}

// Go's mutex is not fair: under the goroutines' weak fairness one
// goroutine can starve at Lock while another keeps taking the lock, and
// the lasso shows it (the monolithic check agrees).
func TestGoMutexStarvation(t *testing.T) {
	g, err := goSource(t, example(t, "mutex"), "worker", 3)
	require.NoError(t, err)
	res, err := g.Check(context.Background(), "G F crit", split.Options{})
	require.NoError(t, err)
	require.Equal(t, split.Violated, res.Verdict, "%s", res.Reason)
	cex := res.Counterexample
	require.GreaterOrEqual(t, cex.Loop, 0, "a lasso")
	require.NoError(t, g.Program.Replay(cex))
	assert.Contains(t, g.FormatSteps(cex), "mu.Lock()")
	crit := slices.Index(g.Program.Lookup("worker[1].pc").Enum(), "p.go:28:3") // inCS++
	require.GreaterOrEqual(t, crit, 0)
	for j := cex.Loop; j < cex.Len(); j++ {
		pc, _ := cex.Value(j, "worker[1].pc")
		assert.NotEqual(t, crit, pc, "goroutine 1 is never in the critical section on the cycle")
	}
	mono, _, err := split.CheckMonolithic(context.Background(), g.Program, mustProp(t, g, "G F crit"), 0)
	require.NoError(t, err)
	assert.Equal(t, split.Violated, mono.Verdict)
}

var _ = errors.Is
