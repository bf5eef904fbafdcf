// Package testproc runs a test alone in a new process of its test binary.
//
// It is for tests whose cost grows with the heap of the process they run
// in. The BDD kernel (internal/fds) runs the Go garbage collector each time
// it collects its node table, which synthesis does whenever its table fills
// (hundreds of times under a tight memory bound); each collection marks
// the whole live heap, which in a test binary holds what earlier tests
// keep for later ones (the loaded and type-checked programs of explore's
// Loader, hundreds of megabytes): a test that takes a second in a fresh
// process can take minutes under the race detector after the package's
// other tests. A new process has only the test's own heap.
//
// The package does not import testing: Alone takes a TB, which *testing.T
// satisfies.
package testproc

import (
	"flag"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"time"
)

// TB is the part of testing.TB the package uses.
type TB interface {
	Helper()
	Name() string
	Logf(format string, args ...any)
	Errorf(format string, args ...any)
	Deadline() (time.Time, bool)
}

// envVar names, in the environment of the new process, the test it runs
// (t.Name()): that test runs its body there instead of starting another
// process.
const envVar = "HENCEFORTH_TESTPROC_RUN"

// Alone runs t's test (top-level or a subtest) again, by itself, in a new
// process of the running test binary, and reports whether it did: the
// caller returns at once when Alone returns true, and when it returns
// false (t is the test of that new process) it runs the test's body.
//
//	func TestBig(t *testing.T) {
//		if testproc.Alone(t) {
//			return
//		}
//		… // the test, in a process of its own
//	}
//
// The new process runs with the same -test.short, -test.v and race
// detector (it is the same binary), the time left before t's deadline as
// its -test.timeout (none without a deadline), and the same working
// directory. Its output is logged
// through t; t fails if the process fails or did not run and pass the
// test (a pattern that matched nothing must not pass).
func Alone(t TB) bool {
	t.Helper()
	if os.Getenv(envVar) == t.Name() {
		return false
	}
	args := []string{"-test.run=" + runPattern(t.Name()), "-test.count=1", "-test.v"}
	if f := flag.Lookup("test.short"); f != nil && f.Value.String() == "true" {
		args = append(args, "-test.short")
	}
	timeout, ok := childTimeout(t.Deadline())
	if !ok {
		t.Errorf("testproc: no time left before the deadline to run %s in its own process", t.Name())
		return true
	}
	args = append(args, "-test.timeout="+timeout)
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), envVar+"="+t.Name())
	out, err := cmd.CombinedOutput()
	t.Logf("%s %s in a new process:\n%s", os.Args[0], strings.Join(args, " "), out)
	switch {
	case err != nil:
		t.Errorf("testproc: %s failed in its own process: %v", t.Name(), err)
	case !strings.Contains(string(out), "--- PASS: "+t.Name()+" "):
		t.Errorf("testproc: the new process did not run and pass %s", t.Name())
	}
	return true
}

// runPattern is the -test.run pattern that selects exactly the test
// named name (a subtest's name is its parent's, a slash and its own).
func runPattern(name string) string {
	parts := strings.Split(name, "/")
	for i, p := range parts {
		parts[i] = "^" + regexp.QuoteMeta(p) + "$"
	}
	return strings.Join(parts, "/")
}

// childTimeout is the -test.timeout of the new process for the deadline
// d (ok: t has one): the time left, to the millisecond, or "0" (none)
// without a deadline. It reports false when no time is left: a timeout
// of zero would mean none at all.
func childTimeout(d time.Time, ok bool) (string, bool) {
	if !ok {
		return "0", true // no deadline: none for the new process either (its default is 10 minutes)
	}
	left := time.Until(d).Truncate(time.Millisecond)
	if left <= 0 {
		return "", false
	}
	return left.String(), true
}
