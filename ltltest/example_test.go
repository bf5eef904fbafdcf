package ltltest_test

import (
	"fmt"
	"log"
	"strings"

	"github.com/henceforth-go/henceforth/examples/explore/dekker"
	"github.com/henceforth-go/henceforth/explore"
	"github.com/henceforth-go/henceforth/ltl"
	"github.com/henceforth-go/henceforth/ltltest"
	"github.com/henceforth-go/henceforth/ltltest/testdata/explorebodies"
	"github.com/henceforth-go/henceforth/synth"
)

// exampleT stands in for the *testing.T of a test function: it prints what
// ltltest reports with Errorf, so the examples show the failure messages a
// test would log. With lines > 0 it prints only the first lines of each
// report (the rest of an exploration's report names files by their
// absolute paths).
type exampleT struct {
	lines    int
	cleanups []func()
}

func (*exampleT) Helper()            {}
func (*exampleT) FailNow()           { fmt.Println("(the test stops here)") }
func (t *exampleT) Cleanup(f func()) { t.cleanups = append(t.cleanups, f) }
func (t *exampleT) Errorf(format string, args ...any) {
	report := strings.Split(fmt.Sprintf(format, args...), "\n")
	if t.lines > 0 && len(report) > t.lines {
		report = append(report[:t.lines], "\t…")
	}
	fmt.Println(strings.Join(report, "\n"))
}

// end runs the cleanups, as the testing package does when the test ends.
func (t *exampleT) end() {
	for i := len(t.cleanups) - 1; i >= 0; i-- {
		t.cleanups[i]()
	}
}

// A trace is a sequence of sets of true atoms; ltl.Sets writes one inline.
func ExampleHolds() {
	t := &exampleT{} // a *testing.T in a test
	ok := ltltest.Holds(t, "G(req -> F ack)", ltl.Sets{{"req"}, {}, {"ack"}})
	fmt.Println(ok)
	// Output:
	// true
}

// A failure names the formula, where the verdict was decided and why, and
// shows the trace around that position.
func ExampleHolds_failure() {
	t := &exampleT{}
	ok := ltltest.Holds(t, "G(req -> F ack)", ltl.Sets{{"req"}, {"ack"}, {"req"}, {}}, "request %d", 2)
	fmt.Println(ok)
	// Output:
	// ltltest: formula does not hold
	// 	formula: G(req -> F ack)
	// 	verdict: violated (trace of 4 events)
	// 	why:
	// 	  G(req -> F ack) is false at 0: req -> F ack is false at 2
	// 	    req -> F ack is false at 2: req is true and F ack is false at 2
	// 	      req is true at 2
	// 	      F ack is false at 2: ack never holds in 2…3
	// 	trace (events 0–3 of 4):
	// 	    0: {req}
	// 	    1: {ack}
	// 	  > 2: {req}
	// 	    3: {}
	// 	message: request 2
	// false
}

// A Recorder is fed by the code under test while it runs and fails the test
// at the first event after which the formula can no longer hold.
func ExampleNewMonitor() {
	t := &exampleT{}
	m := ltltest.NewMonitor(t, "G(acquire -> X(!acquire U release))")
	m.Step("acquire")
	m.Step("release")
	m.Step("acquire")
	m.Step("acquire") // acquired twice without a release in between
	t.end()
	// Output:
	// ltltest: property violated at event 3: no continuation of the trace can satisfy it
	// 	formula: G(acquire -> X(!acquire U release))
	// 	verdict: violated at event 3 (trace of 4 events)
	// 	why:
	// 	  G(acquire -> X(!acquire U release)) is false at 0: acquire -> X(!acquire U release) is false at 2
	// 	    acquire -> X(!acquire U release) is false at 2: acquire is true and X(!acquire U release) is false at 2
	// 	      acquire is true at 2
	// 	      X(!acquire U release) is false at 2: !acquire U release is false at 3
	// 	        !acquire U release is false at 3: !acquire and release are both false at 3
	// 	          !acquire is false at 3: acquire is true at 3
	// 	trace (events 0–3 of 4):
	// 	    0: {acquire}
	// 	    1: {release}
	// 	    2: {acquire}
	// 	  > 3: {acquire}
}

// Explore runs a function under the explorer's scheduler, every
// interleaving of its goroutines up to partial-order reduction, and fails
// the test with the interleaving of each problem found. Here three dining
// philosophers deadlock.
func ExampleExplore() {
	t := &exampleT{lines: 2}
	pkg := explore.LoadConfig{Patterns: []string{"github.com/henceforth-go/henceforth/ltltest/testdata/explorebodies"}, NoTests: true}
	ok := ltltest.Explore(t, explorebodies.Deadlock, pkg)
	fmt.Println(ok)
	// Output:
	// ltltest: the exploration found 1 problem (deadlock)
	// 	entry: github.com/henceforth-go/henceforth/ltltest/testdata/explorebodies.Deadlock
	// 	…
	// false
}

// Never asserts that no interleaving satisfies a scenario formula: here,
// that the two processes of Dekker's algorithm are never both in their
// critical sections (labels m8 and n8).
func ExampleNever() {
	t := &exampleT{}
	pkg := explore.LoadConfig{Patterns: []string{"github.com/henceforth-go/henceforth/examples/explore/dekker"}, NoTests: true}
	ok := ltltest.Never(t, dekker.Run, "F(at(P0, m8) && at(P1, n8))", pkg)
	fmt.Println(ok)
	// Output:
	// true
}

// Realizable checks a GR(1) specification: some system meets the
// guarantees against every environment that meets the assumptions. Here a
// light turns green for each request, eventually.
func ExampleRealizable() {
	t := &exampleT{}
	spec, err := synth.FromLTL("light", synth.Bools("req"), synth.Bools("green"),
		[]string{"G(req && !green -> X req)"}, []string{"G F(req -> green)"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(ltltest.Realizable(t, spec))
	// Output:
	// true
}

// Synthesize returns a checked controller that meets the specification, as
// a circuit the test can run: here, a light that turns green for a waiting
// request, and not otherwise.
func ExampleSynthesize() {
	t := &exampleT{}
	spec, err := synth.FromLTL("light", synth.Bools("req"), synth.Bools("green"),
		[]string{"G(req && !green -> X req)"}, []string{"G(green -> req)", "G F(req -> green)"})
	if err != nil {
		log.Fatal(err)
	}
	ctrl := ltltest.Synthesize(t, spec)
	run, err := ctrl.Run()
	if err != nil {
		log.Fatal(err)
	}
	for _, req := range []int{0, 1, 1, 0} {
		out, err := run.Step(map[string]int{"req": req})
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("req=%d green=%d\n", req, out["green"])
	}
	// Output:
	// req=0 green=0
	// req=1 green=0
	// req=1 green=1
	// req=0 green=0
}
