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

// selfMaxRSS returns the peak resident memory of this process so far, in
// bytes.
func selfMaxRSS() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	if runtime.GOOS == "darwin" || runtime.GOOS == "ios" {
		return int64(ru.Maxrss)
	}
	return int64(ru.Maxrss) * 1024
}

// cpuLimited reports whether a child process was stopped by its CPU-time
// limit (RLIMIT_CPU: SIGXCPU at the soft limit, SIGKILL at the hard one).
func cpuLimited(st *os.ProcessState) bool {
	ws, ok := st.Sys().(syscall.WaitStatus)
	return ok && ws.Signaled() && (ws.Signal() == syscall.SIGXCPU || ws.Signal() == syscall.SIGKILL)
}
