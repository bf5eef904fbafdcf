package rv_test

import (
	"fmt"

	"github.com/henceforth-go/henceforth/monitor/rv"
)

// A service reports lock operations and writes to a Monitor, which calls
// back at the first write after a release.
func ExampleNew() {
	m, err := rv.New("G(write -> (!release S acquire))", func(v *rv.Violation) {
		fmt.Print(v)
	})
	if err != nil {
		panic(err)
	}
	acquire, write, release := m.Atom("acquire"), m.Atom("write"), m.Atom("release")
	acquire.Step()
	write.Step()
	release.Step()
	write.Step() // not under the lock
	m.Finish()
	// Output:
	// formula: G(write -> !release S acquire)
	// verdict: violated at event 3 (trace of 4 events)
	// why:
	//   write -> !release S acquire is false at 3: write is true and !release S acquire is false at 3
	//     write is true at 3
	//     !release S acquire is false at 3: !release is false at 2 and acquire does not hold in 2…3
	//       !release is false at 2: release is true at 2
	// trace (events 0–3 of 4):
	//     0: {acquire}
	//     1: {write}
	//     2: {release}
	//   > 3: {write}
}
