//go:build !unix

package synth

import (
	"os"
	"time"
)

// cpuTime is unavailable here; benchmarks then report 0.
func cpuTime() time.Duration { return 0 }

// maxRSS is unavailable here.
func maxRSS(*os.ProcessState) int64 { return 0 }

// selfMaxRSS is unavailable here.
func selfMaxRSS() int64 { return 0 }

// cpuLimited is unavailable here: no child has a CPU-time limit.
func cpuLimited(*os.ProcessState) bool { return false }
