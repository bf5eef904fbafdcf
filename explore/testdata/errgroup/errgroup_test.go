package errgroup

import (
	"testing"

	"github.com/henceforth-go/henceforth/ltltest"
)

// The test file imports ltltest, which reaches x/sync through the
// explorer too: the user's errgroup is interpreted all the same.
var _ = ltltest.Holds

func TestSum(t *testing.T) {
	if got := Sum([]int{1, 2}); got != 3 {
		t.Errorf("Sum = %d, want 3", got)
	}
}

func TestSumLocked(t *testing.T) {
	if got := SumLocked([]int{1, 2}); got != 3 {
		t.Errorf("SumLocked = %d, want 3", got)
	}
}
