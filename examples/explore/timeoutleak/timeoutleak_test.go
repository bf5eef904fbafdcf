package timeoutleak

import (
	"errors"
	"testing"
)

// Scenario leaks the worker goroutine after the timeout.
func Scenario(t *testing.T) {
	if _, err := Fetch(); !errors.Is(err, ErrTimeout) {
		t.Errorf("err = %v, want timeout", err)
	}
}

// TestFixed takes three seconds natively (the worker sleeps); under the
// explorer time is virtual.
func TestFixed(t *testing.T) {
	if testing.Short() {
		t.Skip("sleeps")
	}
	if _, err := SafeFetch(); !errors.Is(err, ErrTimeout) {
		t.Errorf("err = %v, want timeout", err)
	}
}
