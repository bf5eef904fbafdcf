// Package maporder has tests that fail only for some iteration orders of
// a range over a map.
package maporder

import (
	"strings"
	"testing"
)

func order(m map[string]int) string {
	var b strings.Builder
	for k := range m {
		b.WriteString(k)
	}
	return b.String()
}

// TestBBeforeA fails when b is visited before a (a rotation of the
// insertion order).
func TestBBeforeA(t *testing.T) {
	if o := order(map[string]int{"a": 1, "b": 2}); o == "ba" {
		t.Error("order", o)
	}
}

// TestNotRotation fails only for a, c, b, which no rotation of a, b, c
// gives.
func TestNotRotation(t *testing.T) {
	if o := order(map[string]int{"a": 1, "b": 2, "c": 3}); o == "acb" {
		t.Error("order", o)
	}
}
