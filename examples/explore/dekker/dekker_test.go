package dekker

import (
	"testing"

	"github.com/henceforth-go/henceforth/explore"
	"github.com/henceforth-go/henceforth/ltltest"
)

// The processes run forever, so these tests search their interleavings
// instead of running them: Run is explored, never called natively.
//
// pkg loads this package without its tests: the body, Run, is package
// code, and leaving out the test files (which import ltltest and the
// explorer itself) keeps every explored execution small.
var pkg = explore.LoadConfig{NoTests: true}

func TestMutualExclusion(t *testing.T) {
	ltltest.Never(t, Run, "F(at(P0, m8) && at(P1, n8))", pkg)
}

func TestP0EntersWhenP1BacksOff(t *testing.T) {
	// Both processes want to enter (the paper's D4) …
	both := ltltest.RequireFind(t, Run, "F(at(P0, m2) && at(P1, n2))", pkg)
	// … then P1 cannot enter first (D8) …
	ltltest.Never(t, Run, "!at(P0, m8) U at(P1, n8)", pkg, explore.FindOptions{After: both})
	// … and P0 gets in once P1 backs off at n3 (D7).
	w := ltltest.RequireFind(t, Run, "F at(P0, m8)", pkg, explore.FindOptions{After: both})
	if got := w.Labels(w.Goroutine("P1")); len(got) == 0 || got[len(got)-1] != "n3" {
		t.Errorf("P1's labels %v: want it to back off at n3\n%s", got, w)
	}
}
