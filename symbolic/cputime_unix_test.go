//go:build unix

package symbolic

import (
	"syscall"
	"time"
)

// cpuTime returns the CPU time (user + system) the process has used: on
// a loaded machine it measures the work done better than wall time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
