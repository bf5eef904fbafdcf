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
//     math/rand…) or a native pure function (math, strconv, unicode…).
//     Calling anything else is an "unsupported" finding, never a silent
//     zero; reading a global of an opaque package that is not modelled is
//     unsupported too.
//
// User packages (outside GOROOT) are always interpreted.

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
}

// isInterpretedStd reports whether the standard package with the given
// import path is interpreted from source.
func isInterpretedStd(path string) bool { return interpretedStd[path] }

// isStdPath reports whether an import path belongs to the standard library.
func isStdPath(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".") && !strings.HasSuffix(path, ".test")
}
