package philosophers

import "testing"

// Scenario deadlocks when every philosopher holds a left fork.
func Scenario(t *testing.T) {
	if got := Dine(3, false); got != 3 {
		t.Errorf("meals = %d", got)
	}
}

func TestFixed(t *testing.T) {
	if got := Dine(3, true); got != 3 {
		t.Errorf("meals = %d", got)
	}
}

// Benchmark kernels for the explorer (see explore's benchmarks): N
// philosophers, ordered forks (no deadlock, so every schedule completes).
func Dine3(t *testing.T) { Dine(3, true) }
func Dine4(t *testing.T) { Dine(4, true) }
func Dine5(t *testing.T) { Dine(5, true) }
func Dine6(t *testing.T) { Dine(6, true) }
