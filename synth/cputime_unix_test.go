//go:build unix

package synth

import (
	"os"
	"runtime"
	"syscall"
	"time"
)

// cpuTime returns the user and system CPU time the process has used, to
// report benchmark costs that do not depend on the machine's load.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// maxRSS returns the peak resident memory of a finished child process.
func maxRSS(st *os.ProcessState) int64 {
	if ru, ok := st.SysUsage().(*syscall.Rusage); ok {
		if runtime.GOOS == "darwin" || runtime.GOOS == "ios" {
			return int64(ru.Maxrss) // bytes there
		}
		return int64(ru.Maxrss) * 1024 // kilobytes on Linux and the BSDs
	}
	return 0
}
