package misuse

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
