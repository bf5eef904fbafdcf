package scale

import (
	"testing"

	"github.com/henceforth-go/henceforth/ltltest"
)

// TestScale passes under go test: the inputs are drawn at random (from a
// seed derived from the test name; see ltltest.Symbolic), and the
// division by zero needs n*3 == limit+7. The explorer finds the inputs.
func TestScale(t *testing.T) {
	n := ltltest.Symbolic[int](t, "n")
	limit := ltltest.Symbolic[int](t, "limit")
	if n < 0 || n > 1000 || limit < 0 || limit > 1000 {
		return // the documented domain
	}
	if p := Scale(n, limit); p < -100000 || p > 100000 {
		t.Errorf("Scale(%d, %d) = %d out of range", n, limit, p)
	}
}
