package mutex_test

import (
	"testing"

	"github.com/henceforth-go/henceforth/ltltest"
)

// worker, run by 64 goroutines, keeps mutual exclusion (and every
// //ltl:range: the runtime property SplitN checks too), and a goroutine in
// the critical section eventually leaves it. ".worker" is the function
// worker of this package (the test's directory).
func TestWorkerSplit(t *testing.T) {
	ltltest.RequireSplitN(t, ".worker", 64, "mutex")
	ltltest.RequireSplitN(t, ".worker", 64, `G "count(crit) <= 1"`)
	ltltest.RequireSplitN(t, ".worker", 64, "leaves")
}
