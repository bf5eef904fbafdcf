// Package configured's initialization configures the standard logger and
// draws from math/rand: the initialization snapshot carries both.
package configured

import (
	"log"
	"math/rand"
	"testing"
)

var first = setup()

func setup() int {
	log.SetFlags(0)
	log.SetPrefix("configured: ")
	return rand.Int()
}

// Logs logs a line and a draw after the one of the initialization.
func Logs(t *testing.T) {
	log.Printf("second draw %d", rand.Int()%1000)
	if first == 0 {
		t.Error("no draw")
	}
}
