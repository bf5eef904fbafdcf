package explore

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// All test programs are loaded together, once: loading (type checking
// the standard library's declarations) is the slowest part of a test.
const testdataPath = "github.com/henceforth-go/henceforth/explore/testdata"

// testLoader loads the test programs: the standard library is
// type-checked once for all of them.
var testLoader Loader

var testProgram struct {
	once sync.Once
	p    *Program
	err  error
}

func load(t testing.TB) *Program {
	t.Helper()
	testProgram.once.Do(func() {
		testProgram.p, testProgram.err = testLoader.Load(context.Background(), LoadConfig{
			// ("..." patterns skip testdata directories)
			Patterns: append([]string{"./testdata/basic", "./testdata/conc", "./testdata/misc", "./testdata/formats",
				"./testdata/oldloop", "./testdata/outcomes", "./testdata/realistic", "./testdata/uniq", "./testdata/brokeninit", "./testdata/testify", examplesPath + "/...",
				symExamples + "/...", "./testdata/symhard", "./testdata/symguard"}, sharedTestdata...),
		})
	})
	require.NoError(t, testProgram.err)
	return testProgram.p
}

// runFunc explores pkg.name, pkg being a package under testdata.
func runFunc(t *testing.T, pkg, name string, opts Options) *Report {
	t.Helper()
	p := load(t)
	e, err := p.Func(testdataPath + "/" + pkg + "." + name)
	require.NoError(t, err)
	r, err := p.Explore(context.Background(), e, opts)
	require.NoError(t, err)
	return r
}

func TestInterpBasic(t *testing.T) {
	for _, name := range []string{"Arith", "Interfaces", "Closures", "Maps", "CheckDefers", "Errors", "Generics"} {
		t.Run(name, func(t *testing.T) {
			r := runFunc(t, "basic", name, Options{Strategy: DFS})
			for _, f := range r.Findings {
				t.Errorf("%s", f)
			}
			require.Equal(t, "pass", r.Verdict())
		})
	}
}

func TestInterpPanicMessage(t *testing.T) {
	r := runFunc(t, "basic", "Panics", Options{Strategy: DFS})
	require.Len(t, r.Findings, 1)
	f := r.Findings[0]
	require.Equal(t, KindPanic, f.Kind)
	require.Contains(t, f.Message, "panic: assignment to entry in nil map")
	require.Equal(t, 225, f.Pos.Line)
}

// loaded caches the Programs of loadPatterns, one per list of patterns.
var loaded sync.Map // string → *loadedProgram

type loadedProgram struct {
	once sync.Once
	p    *Program
	err  error
}

// loadPatterns loads the packages of patterns once per test process. One
// pattern of sharedTestdata gives the program of load, which has them all.
func loadPatterns(t testing.TB, patterns ...string) *Program {
	t.Helper()
	if len(patterns) == 1 && slices.Contains(sharedTestdata, patterns[0]) {
		return load(t)
	}
	v, _ := loaded.LoadOrStore(strings.Join(patterns, "\x00"), &loadedProgram{})
	l := v.(*loadedProgram)
	l.once.Do(func() {
		l.p, l.err = testLoader.Load(context.Background(), LoadConfig{Patterns: patterns})
	})
	require.NoError(t, l.err)
	return l.p
}

// exploreTestdata explores the function test ("TestX") of the package
// testdata/pkg with opts.
// assertCompletePasses explores each test of testdata package pkg as a
// subtest and asserts a complete pass.
func assertCompletePasses(t *testing.T, pkg string, tests ...string) {
	t.Helper()
	for _, test := range tests {
		t.Run(test, func(t *testing.T) {
			r := exploreTestdata(t, pkg, test, Options{})
			assert.Equal(t, "pass", r.Verdict(), "%v", r.Findings)
			assert.True(t, r.Complete, "bound %q: %s", r.Bound, r.Suggestion)
		})
	}
}

func exploreTestdata(t testing.TB, pkg, test string, opts Options) *Report {
	t.Helper()
	p := loadPatterns(t, "./testdata/"+pkg)
	e, err := p.Func(testdataPath + "/" + pkg + "." + test)
	require.NoError(t, err)
	r, err := p.Explore(context.Background(), e, opts)
	require.NoError(t, err)
	return r
}
