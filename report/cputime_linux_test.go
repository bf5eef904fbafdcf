package report

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// treeCPU is the CPU time (user and system) that process pid and its
// descendants have used, from /proc: on a shared machine it counts the
// browser's work without the time other processes took from it.
func treeCPU(pid int) (time.Duration, bool) {
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	parent := map[int]int{}
	ticks := map[int]int64{}
	for _, path := range stats {
		b, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		s := string(b)
		close := strings.LastIndexByte(s, ')')
		if close < 0 {
			continue
		}
		id, err := strconv.Atoi(strings.Fields(s[:strings.IndexByte(s, ' ')])[0])
		if err != nil {
			continue
		}
		f := strings.Fields(s[close+2:]) // from field 3 (state) on
		if len(f) < 13 {
			continue
		}
		ppid, _ := strconv.Atoi(f[1])
		utime, _ := strconv.ParseInt(f[11], 10, 64)
		stime, _ := strconv.ParseInt(f[12], 10, 64)
		parent[id] = ppid
		ticks[id] = utime + stime
	}
	if _, ok := ticks[pid]; !ok {
		return 0, false
	}
	var total int64
	for id, t := range ticks {
		for p := id; p != 0; p = parent[p] {
			if p == pid {
				total += t
				break
			}
			if _, ok := parent[p]; !ok {
				break
			}
		}
	}
	const clockTicks = 100 // USER_HZ on Linux
	return time.Duration(total) * time.Second / clockTicks, true
}
