package explore

import "strings"

// Standard-library policy.
//
// The explorer never runs the real runtime's scheduler, so every standard
// package falls in one of two classes:
//
//   - interpreted: loaded from source with function bodies and run by the
//     interpreter like user code, with intrinsics overriding the few
//     functions that reach the runtime (time.Sleep, runtimeNano…) and native
//     fast paths for pure leaf functions (see natives.go);
//   - opaque: loaded from source with function bodies stripped (so type
//     checking stays fast); every function that interpreted code calls must
//     be an intrinsic (sync, sync/atomic, runtime, fmt, testing, os, log,
//     math/rand…) or a native pure function (math, strconv, utf8…).
//     Calling anything else is an "unsupported" finding, never a silent
//     zero; reading a global of an opaque package that is not modelled is
//     unsupported too.
//
// User packages (those of a module, or outside GOROOT; see isStdPackage
// in load.go: never decided by the shape of the import path) are always
// interpreted.

// interpretedStd lists the standard packages whose source is interpreted.
var interpretedStd = map[string]bool{
	"bufio":                true,
	"bytes":                true,
	"cmp":                  true,
	"container/heap":       true,
	"container/list":       true,
	"container/ring":       true,
	"context":              true,
	"errors":               true,
	"io":                   true,
	"iter":                 true,
	"maps":                 true,
	"path":                 true,
	"slices":               true,
	"sort":                 true,
	"strings":              true,
	"text/tabwriter":       true,
	"time":                 true,
	"internal/itoa":        true,
	"unicode/utf16":        true,
	"internal/stringslite": true,
	"math/big":             true,
	"internal/byteorder":   true,
	"crypto/rand":          true,
	"testing/quick":        true,
}

// isInterpretedStd reports whether the standard package with the given
// import path is interpreted from source.
func isInterpretedStd(path string) bool { return interpretedStd[path] }

// Libraries policy.
//
// The explorer's own implementation, and the libraries behind it as far as
// only the explorer reaches them, are not interpreted: a test file that
// calls ltltest.Explore imports ltltest, which
// imports the explorer, go/ssa, Z3 and the BDD packages, and interpreting
// their initializers on every execution would cost more than the body under
// test (and Z3's cgo globals cannot be snapshotted). These packages are
// loaded like opaque standard packages: types only, no initializers, and a
// call of one of their functions from an explored body is an "unsupported"
// finding unless it is an intrinsic (ltltest.Symbolic is). A package of
// those libraries that the user's code imports itself (errgroup, say) is
// the user's and is interpreted (userDependencies in load.go).
//
// Everything else outside GOROOT — the user's packages, this module's
// examples and testdata, testify — is interpreted.

// henceforthModule is this module's path.
const henceforthModule = "github.com/henceforth-go/henceforth"

// henceforthLibraries are the first path elements, below henceforthModule,
// of the module's library packages (not its examples or testdata).
var henceforthLibraries = map[string]bool{
	"annotate": true, "automaton": true, "cmd": true, "explore": true,
	"internal": true, "ltl": true, "ltltest": true, "monitor": true,
	"report": true, "split": true, "symbolic": true, "synth": true,
}

// opaqueLibraries are module path prefixes of the libraries the explorer
// itself is built on.
var opaqueLibraries = []string{
	"golang.org/x/tools",
	"golang.org/x/mod",
	"golang.org/x/sync",
	"github.com/aclements/go-z3",
}

// isHenceforthLibrary reports whether the package with the given import
// path is one of this module's libraries (not its examples or testdata).
func isHenceforthLibrary(path string) bool {
	rest, ok := strings.CutPrefix(path, henceforthModule+"/")
	if !ok {
		return false
	}
	first, _, _ := strings.Cut(rest, "/")
	return henceforthLibraries[first] && !strings.Contains(rest, "/testdata/") && !strings.HasSuffix(rest, "/testdata")
}

// isOpaqueLibrary reports whether the non-standard package with the given
// import path is part of the explorer's implementation and so is loaded
// with types only.
func isOpaqueLibrary(path string) bool {
	if strings.HasPrefix(path, henceforthModule+"/") {
		return isHenceforthLibrary(path)
	}
	for _, m := range opaqueLibraries {
		if path == m || strings.HasPrefix(path, m+"/") {
			return true
		}
	}
	return false
}
