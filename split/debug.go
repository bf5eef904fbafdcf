package split

import (
	"fmt"
	"os"
)

// debugf prints progress when SPLIT_DEBUG is set (development aid).
func debugf(format string, args ...any) {
	if os.Getenv("SPLIT_DEBUG") != "" {
		fmt.Fprintf(os.Stderr, format+"\n", args...)
	}
}

// debugLasso: SPLIT_DEBUG=2 also prints every abstract lasso of a liveness round.
func debugLasso() bool { return os.Getenv("SPLIT_DEBUG") == "2" }
