// Package brokeninit imports a package whose initialization is
// unsupported.
package brokeninit

import (
	"testing"

	"github.com/henceforth-go/henceforth/explore/testdata/brokeninit/dep"
)

// Independent does not use dep: it runs.
func Independent(t *testing.T) {
	if 1+1 != 2 {
		t.Error("arithmetic")
	}
}

// UsesDep calls into dep: unsupported.
func UsesDep(t *testing.T) {
	_ = dep.Twice(2)
}
