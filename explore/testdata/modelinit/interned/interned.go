// Package interned's initialization interns a value with unique.Make: it
// prevents the initialization snapshot.
package interned

import (
	"testing"
	"unique"
)

var handle = unique.Make("a")

// SameHandle interns the value again.
func SameHandle(t *testing.T) {
	if unique.Make("a") != handle {
		t.Error("handles differ")
	}
}
