package ctxcancel

import "testing"

// Scenario leaks the producer after the consumer stops early.
func Scenario(t *testing.T) {
	if got := Consume(Produce, 3, 2); got != 1 {
		t.Errorf("sum = %d, want 1", got)
	}
}

func TestFixed(t *testing.T) {
	if got := Consume(SafeProduce, 3, 2); got != 1 {
		t.Errorf("sum = %d, want 1", got)
	}
}
