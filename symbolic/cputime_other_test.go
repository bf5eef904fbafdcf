//go:build !unix

package symbolic

import "time"

// cpuTime is not measured on this platform; the paths/cpu-s metrics are
// then omitted.
func cpuTime() time.Duration { return 0 }
