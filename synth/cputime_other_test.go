//go:build !unix

package synth

import "time"

// cpuTime is unavailable here; benchmarks then report 0.
func cpuTime() time.Duration { return 0 }
