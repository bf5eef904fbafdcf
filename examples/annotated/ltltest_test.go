package annotated_test

import (
	"testing"

	"github.com/henceforth-go/henceforth/ltl"
	"github.com/henceforth-go/henceforth/ltltest"
)

// TestSpecsByName shows the annotations from a test: ltltest.Specs fails the
// test if any directive of the package is malformed or meaningless, and the
// specs it returns can be checked by name on recorded traces.
func TestSpecsByName(t *testing.T) {
	specs := ltltest.Specs(t, ".")

	// The events of one Withdraw: lock, debit, unlock.
	withdraw := ltl.Sets{{"lock"}, {"debit"}, {"unlock"}}
	ltltest.Holds(t, "lockPairs", withdraw, specs)
	ltltest.Holds(t, "debitLocked", withdraw, specs)

	// A debit after the unlock breaks debitLocked, and a lock that is
	// never released breaks lockPairs.
	ltltest.Violated(t, "debitLocked", ltl.Sets{{"lock"}, {"unlock"}, {"debit"}}, specs)
	ltltest.Violated(t, "lockPairs", ltl.Sets{{"lock"}, {"debit"}}, specs)
}
