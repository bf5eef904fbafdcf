package condsignal

import "testing"

// Scenario deadlocks when Open runs between Wait's check and its
// cond.Wait.
func Scenario(t *testing.T) {
	g := NewGate()
	go g.Open()
	g.Wait()
}

func TestFixed(t *testing.T) {
	g := NewGate()
	go g.Open()
	g.SafeWait()
}
