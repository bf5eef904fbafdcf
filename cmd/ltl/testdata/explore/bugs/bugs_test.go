package bugs

import (
	"os"
	"testing"

	"github.com/henceforth-go/henceforth/examples/explore/philosophers"
)

// TestDeadlock deadlocks when the two philosophers take their left
// forks at once.
func TestDeadlock(t *testing.T) { philosophers.Dine(2, false) }

// TestFails fails in every schedule.
func TestFails(t *testing.T) {
	if n := philosophers.Dine(2, true); n != 3 {
		t.Errorf("%d meals, want 3", n)
	}
}

// TestPasses passes in every schedule.
func TestPasses(t *testing.T) {
	if n := philosophers.Dine(2, true); n != 2 {
		t.Errorf("%d meals, want 2", n)
	}
}

// TestUnsupported calls a function the explorer does not model.
func TestUnsupported(t *testing.T) { _ = os.Getpid() }
