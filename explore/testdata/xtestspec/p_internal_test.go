package xtestspec

import "testing"

// TestZero gives the package a test variant of its own.
func TestZero(t *testing.T) {
	var s Store
	if s.v != 0 {
		t.Error("not zero")
	}
}
