package explore

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// The explorer's own packages and the libraries it is built on are loaded
// with types only; the module's examples and testdata, and other modules,
// are interpreted.
func TestIsOpaqueLibrary(t *testing.T) {
	for path, want := range map[string]bool{
		"github.com/henceforth-go/henceforth/ltltest":                        true,
		"github.com/henceforth-go/henceforth/explore":                        true,
		"github.com/henceforth-go/henceforth/internal/fds":                   true,
		"github.com/henceforth-go/henceforth/examples/explore/abba":          false,
		"github.com/henceforth-go/henceforth/ltltest/testdata/explorebodies": false,
		"github.com/henceforth-go/henceforth/ltltest_test":                   false,
		"github.com/henceforth-go/henceforth":                                false,
		"golang.org/x/tools/go/ssa":                                          true,
		"golang.org/x/toolsmith":                                             false,
		"github.com/aclements/go-z3/z3":                                      true,
		"github.com/stretchr/testify/assert":                                 false,
		"example.com/user/pkg":                                               false,
	} {
		assert.Equal(t, want, isOpaqueLibrary(path), path)
	}
}
