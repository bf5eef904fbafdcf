//go:build linux

package monitor_test

import (
	"syscall"
	"time"
)

// threadCPU returns the CPU time the calling OS thread has used. On a
// loaded machine it is a steadier measure of a benchmark than wall time,
// which counts the time other processes hold the CPU.
func threadCPU() (time.Duration, bool) {
	const rusageThread = 1 // RUSAGE_THREAD
	var ru syscall.Rusage
	if err := syscall.Getrusage(rusageThread, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
