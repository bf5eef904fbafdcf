package counter

import "testing"

// Scenario loses an update when both goroutines read the counter before
// either writes it back.
func Scenario(t *testing.T) {
	if got := Count(2); got != 2 {
		t.Errorf("count = %d, want 2", got)
	}
}

func TestFixed(t *testing.T) {
	if got := SafeCount(2); got != 2 {
		t.Errorf("count = %d, want 2", got)
	}
}
