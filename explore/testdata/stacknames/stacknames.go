// Package stacknames holds tests that print what a Go program sees of its
// own stack: runtime.FuncForPC's names, runtime.Caller's lines,
// runtime.Callers with CallersFrames, runtime/debug.Stack. Each test
// compares what it sees with what the Go toolchain prints for the same
// program, so it passes under go test -gcflags=all=-l (inlining renames
// a closure inlined into its parent); the explorer must pass it too.
// The tests named TestFail* fail on purpose, for the positions and stacks
// of the findings.
package stacknames

import (
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
)

// Catcher has methods with a pointer and a value receiver.
type Catcher struct{ n int }

// Try reports its own name and line.
func (c *Catcher) Try() string { return here(0) }

// Peek reports its own name and line.
func (c Catcher) Peek() string { return here(0) }

// Outer reports the names and lines of a closure and a nested closure.
func Outer() (string, string) {
	f := func() (string, string) {
		g := func() string { return here(0) }
		return here(0), g()
	}
	return f()
}

// Gen is a generic function; its closure's name has the [...] too.
func Gen[T any](x T) (string, string) {
	f := func() string { return here(0) }
	return here(0), f()
}

// here returns "name file:line" of its caller's frame, skip frames up.
func here(skip int) string {
	pc, file, line, ok := runtime.Caller(skip + 1)
	if !ok {
		return "?"
	}
	return runtime.FuncForPC(pc).Name() + " " + filepath.Base(file) + ":" + itoa(line)
}

// callers returns "name file:line" of the frames above it, up to the
// first frame of package testing, from runtime.Callers.
func callers() []string {
	pcs := make([]uintptr, 32)
	n := runtime.Callers(2, pcs)
	frames := runtime.CallersFrames(pcs[:n])
	var out []string
	for {
		f, more := frames.Next()
		if strings.HasPrefix(f.Function, "testing.") {
			break
		}
		out = append(out, f.Function+" "+filepath.Base(f.File)+":"+itoa(f.Line))
		if !more {
			break
		}
	}
	return out
}

// stack returns "name file:line" of the frames of debug.Stack above its
// caller's, up to the first frame of package testing.
func stack() []string {
	lines := strings.Split(string(debug.Stack()), "\n")
	var out []string
	for i := 1; i+1 < len(lines); i += 2 {
		fn := lines[i]
		if j := strings.LastIndex(fn, "("); j >= 0 {
			fn = fn[:j]
		}
		if strings.HasPrefix(fn, "testing.") {
			break
		}
		if strings.HasPrefix(fn, "runtime/debug.") || fn == "github.com/henceforth-go/henceforth/explore/testdata/stacknames.stack" {
			continue
		}
		loc := strings.TrimSpace(lines[i+1])
		if j := strings.LastIndex(loc, " +0x"); j >= 0 {
			loc = loc[:j]
		}
		out = append(out, fn+" "+filepath.Base(loc))
	}
	return out
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for ; n > 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}

// Stack reports the stack above it.
func (c *Catcher) Stack() []string { return stack() }
