package initrand

import "testing"

func TestDraws(t *testing.T) {
	done := make(chan int)
	go func() { done <- Next() }()
	if a, b := Next(), <-done; a == b {
		t.Errorf("equal draws %d", a)
	}
}

func TestBase(t *testing.T) {
	if base%2 == 0 {
		t.Errorf("even base %d", base)
	}
}
