package explore

import (
	"context"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The stacknames tests (testdata/stacknames) look at their own stacks
// (runtime.FuncForPC, runtime.Caller, runtime.Callers with
// CallersFrames, runtime/debug.Stack) and compare what they see with what
// the Go toolchain prints: Go's symbol names ("pkg.(*T).M", "pkg.T.M",
// "pkg.F.func1.1", "pkg.G[...]") and the line of the call each frame
// executes. The TestFail* tests fail on purpose: their findings must be
// positioned, and their stacks named, as go test prints them.

const stacknamesPath = testdataPath + "/stacknames"

func loadStacknames(t testing.TB) *Program {
	t.Helper()
	return loadPatterns(t, "./testdata/stacknames")
}

// TestStackNamesAsGo: every test that compares its stack with Go's
// passes.
func TestStackNamesAsGo(t *testing.T) {
	p := loadStacknames(t)
	for _, name := range []string{"TestNames", "TestMethodValue", "TestCallers", "TestStack", "TestLines", "TestDeferredNamed", "TestMoreLines"} {
		t.Run(name, func(t *testing.T) {
			e, err := p.Func(stacknamesPath + "." + name)
			require.NoError(t, err)
			r, err := p.Explore(context.Background(), e, Options{})
			require.NoError(t, err)
			require.Empty(t, r.Findings, "%s", reportText(r))
		})
	}
}

// TestStackNamesFindings: the failing tests' findings, at the lines go
// test prints, with the frames of Go's traceback.
func TestStackNamesFindings(t *testing.T) {
	p := loadStacknames(t)
	const pkg = stacknamesPath + "."
	file := filepath.Join("testdata", "stacknames", "stacknames_test.go")
	for _, tc := range []struct {
		test   string
		kind   Kind
		line   int
		output string   // a line of the output ("" = none checked)
		frames []string // the failing goroutine's frames, "func line"
	}{
		{"TestFailErrorf", KindTestFailure, 103, "stacknames_test.go:103: failed here", nil},
		{"TestFailFatalInHelper", KindTestFailure, 114, "stacknames_test.go:114: spanning", nil},
		{"TestFailErrorfSpanning", KindTestFailure, 159, "stacknames_test.go:159: spanning 1", nil},
		{"TestFailDeferredPanic", KindPanic, 167, "", []string{
			pkg + "TestFailDeferredPanic.func1 167",
			pkg + "TestFailDeferredPanic 170",
		}},
		{"TestFailPanic", KindPanic, 127, "", []string{
			pkg + "Catcher.boom 127",
			pkg + "TestFailPanic.func1 121",
			pkg + "TestFailPanic 122",
		}},
	} {
		t.Run(tc.test, func(t *testing.T) {
			e, err := p.Func(pkg + tc.test)
			require.NoError(t, err)
			r, err := p.Explore(context.Background(), e, Options{})
			require.NoError(t, err)
			require.Len(t, r.Findings, 1, "%s", reportText(r))
			f := r.Findings[0]
			require.Equal(t, tc.kind, f.Kind, "%s", f)
			require.Equal(t, filepath.Base(file), filepath.Base(f.Pos.Filename), "%s", f)
			require.Equal(t, tc.line, f.Pos.Line, "%s", f)
			if tc.output != "" {
				require.Contains(t, f.Output, tc.output, "%s", f)
			}
			if tc.frames == nil {
				return
			}
			var got []string
			for _, g := range f.Goroutines {
				if g.State != "panicking" {
					continue
				}
				for _, fr := range g.Frames {
					if strings.HasPrefix(fr.Func, pkg) {
						got = append(got, fr.Func+" "+strconv.Itoa(fr.Pos.Line))
					}
				}
			}
			require.Equal(t, tc.frames, got, "%s", f)
		})
	}
}
