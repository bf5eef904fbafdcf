//go:build !linux

package report

import "time"

// treeCPU is not measured outside Linux.
func treeCPU(pid int) (time.Duration, bool) { return 0, false }
