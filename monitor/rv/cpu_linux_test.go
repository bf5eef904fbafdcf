//go:build linux

package rv_test

import (
	"syscall"
	"time"
)

// processCPU is the CPU time the process has used, all threads together: on
// a loaded machine a steadier measure of a benchmark than wall time, which
// counts the time other processes hold the CPUs.
func processCPU() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
