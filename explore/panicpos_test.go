package explore

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The panicpos tests (testdata/panicpos): an operation that panics or
// throws a fatal error, followed by another statement on the next line.
// The interpreter advances a frame's pc before it runs an instruction;
// the finding (and the top frame of its stack) must be positioned at the
// operation itself, not at the next statement, and a caller's frame at
// its call.

const panicposPath = testdataPath + "/panicpos"

func loadPanicpos(t testing.TB) *Program {
	t.Helper()
	return loadPatterns(t, "./testdata/panicpos")
}

// panicposLine returns the line of testdata/panicpos/panicpos_test.go
// that ends with "// at:"+marker.
func panicposLine(t *testing.T, marker string) int {
	t.Helper()
	return atLine(t, filepath.Join("testdata", "panicpos", "panicpos_test.go"), marker)
}

// atLine returns the line of file that ends with "// at:"+marker.
func atLine(t *testing.T, file, marker string) int {
	t.Helper()
	b, err := os.ReadFile(file)
	require.NoError(t, err)
	line := 0
	for i, l := range strings.Split(string(b), "\n") {
		if strings.HasSuffix(strings.TrimSpace(l), "// at:"+marker) {
			require.Zero(t, line, "marker %q occurs twice", marker)
			line = i + 1
		}
	}
	require.NotZero(t, line, "no marker %q", marker)
	return line
}

func TestPanicPositions(t *testing.T) {
	p := loadPanicpos(t)
	for _, tc := range []struct {
		test    string
		message string
		marker  string
		callers []string // markers of the callers' frames, innermost first
	}{
		{"TestUnlockUnlocked", "fatal error: sync: unlock of unlocked mutex [goroutine 1]", "unlock", nil},
		{"TestRUnlockUnlocked", "fatal error: sync: RUnlock of unlocked RWMutex [goroutine 1]", "runlock", nil},
		{"TestCloseClosed", "panic: close of closed channel [goroutine 1]", "close", nil},
		{"TestNilMapWrite", "panic: assignment to entry in nil map [goroutine 1]", "nilmap", nil},
		{"TestIndexOutOfRange", "panic: runtime error: index out of range [3] with length 1 [goroutine 1]", "index", nil},
		{"TestDivideByZero", "panic: runtime error: integer divide by zero [goroutine 1]", "div", nil},
		{"TestDivideByZeroInCallee", "panic: runtime error: integer divide by zero [goroutine 1]", "divcallee", []string{"divcaller"}},
		{"TestDeferredUnlockUnlocked", "fatal error: sync: unlock of unlocked mutex [goroutine 1]", "deferunlock", nil},
		{"TestPanicValue", "panic: boom [goroutine 1]", "panic", nil},
		{"TestNilMapInGoroutine", "panic: assignment to entry in nil map [goroutine 2]", "gonilmap", nil},
	} {
		t.Run(tc.test, func(t *testing.T) {
			line := panicposLine(t, tc.marker)
			e, err := p.Func(panicposPath + "." + tc.test)
			require.NoError(t, err)
			r, err := p.Explore(context.Background(), e, Options{})
			require.NoError(t, err)
			require.Len(t, r.Findings, 1, "%s", reportText(r))
			f := r.Findings[0]
			require.Equal(t, KindPanic, f.Kind)
			require.Equal(t, tc.message, f.Message)
			require.Equal(t, "panicpos_test.go", filepath.Base(f.Pos.Filename), "%s", f)
			require.Equal(t, line, f.Pos.Line, "%s", f)

			// The panicking goroutine's stack: its top frame at the
			// operation, each caller at its call.
			var frames []StackFrame
			for _, g := range f.Goroutines {
				if g.State == "panicking" || g.State == "running" {
					frames = g.Frames
				}
			}
			require.Len(t, frames, 1+len(tc.callers), "%s", f)
			require.Equal(t, line, frames[0].Pos.Line, "%s", f)
			for i, m := range tc.callers {
				require.Equal(t, panicposLine(t, m), frames[i+1].Pos.Line, "%s", f)
			}
		})
	}
}
