package logafter

import (
	"testing"
	"time"
)

// A goroutine started by the test logs after the test has returned:
// the testing package panics ("Log in goroutine after
// TestLogAfterTestCompleted has completed: late").
func TestLogAfterTestCompleted(t *testing.T) {
	go func() {
		time.Sleep(time.Millisecond)
		t.Log("late")
	}()
}

// The fixed version: the test waits for the goroutine before returning.
func TestLogAfterTestCompletedFixed(t *testing.T) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		t.Log("on time")
	}()
	<-done
}
