// Package maporderbodies has bodies for ltltest.Explore whose outcome
// depends on the iteration order of a range over a map.
package maporderbodies

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

// NotRotation fails only for the order a, c, b.
func NotRotation(t *testing.T) {
	if o := order(map[string]int{"a": 1, "b": 2, "c": 3}); o == "acb" {
		t.Error("order", o)
	}
}
