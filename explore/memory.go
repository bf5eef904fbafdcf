package explore

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"runtime"
	"runtime/metrics"
	"slices"
	"strconv"
	"strings"
)

// The memory bound (Options.MaxMemory): executions read the size of the
// heap's objects when they check the context (execution.interrupted: every
// 256 scheduling iterations and every 65536 loop back-edges) and stop with
// the bound "memory" when it exceeds the limit, before the machine runs
// out of memory and the process is killed. The exploration ends there
// (its next executions would grow the same way).

// heapObjectsMetric is the bytes of heap memory occupied by objects, live
// or not yet collected: a cheap read (no stop-the-world), unlike
// runtime.ReadMemStats.
const heapObjectsMetric = "/memory/classes/heap/objects:bytes"

// memoryGauge compares the heap with a limit (0: no limit).
type memoryGauge struct {
	limit  uint64
	sample [1]metrics.Sample
}

func newMemoryGauge(limit uint64) *memoryGauge {
	g := &memoryGauge{limit: limit}
	g.sample[0].Name = heapObjectsMetric
	return g
}

func (g *memoryGauge) heap() uint64 {
	metrics.Read(g.sample[:])
	if g.sample[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return g.sample[0].Value.Uint64()
}

// exceeded reports whether the live heap is over the limit. Objects not
// yet collected count in the metric, so a reading over the limit is
// confirmed after a collection: the heap of a program that only makes
// garbage never reaches the bound.
func (g *memoryGauge) exceeded() bool {
	if g == nil || g.limit == 0 || g.heap() <= g.limit {
		return false
	}
	runtime.GC()
	return g.heap() > g.limit
}

// defaultMemoryFraction is the part of the machine's memory an
// exploration may use by default.
const defaultMemoryFraction = 2

// fallbackMemory is the machine's memory when it cannot be read.
const fallbackMemory = 8 << 30

// machineMemory is the memory available to the process: the smallest of
// the physical memory (/proc/meminfo) and the cgroup limits (v2
// memory.max, v1 memory.limit_in_bytes) that are set; fallbackMemory if
// none can be read (other systems than Linux).
func machineMemory() uint64 {
	var m uint64
	if b, err := os.ReadFile("/proc/meminfo"); err == nil {
		m = memTotal(b)
	}
	for _, f := range []string{"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"} {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		// "max" or a huge number: no limit
		if v, err := strconv.ParseUint(strings.TrimSpace(string(b)), 10, 64); err == nil && v > 0 && v < 1<<60 && (m == 0 || v < m) {
			m = v
		}
	}
	if m == 0 {
		return fallbackMemory
	}
	return m
}

// memTotal parses the MemTotal line of /proc/meminfo ("MemTotal: 24683620
// kB"), in bytes; 0 if absent.
func memTotal(meminfo []byte) uint64 {
	s := bufio.NewScanner(bytes.NewReader(meminfo))
	for s.Scan() {
		f := strings.Fields(s.Text())
		if len(f) >= 2 && f[0] == "MemTotal:" {
			v, err := strconv.ParseUint(f[1], 10, 64)
			if err != nil {
				return 0
			}
			if len(f) >= 3 && strings.EqualFold(f[2], "kB") {
				v <<= 10
			}
			return v
		}
	}
	return 0
}

// ParseBytes reads a size in bytes: a number with an optional unit B, KB,
// MB, GB or TB (binary: 1KB = 1024 bytes; KiB, MiB… and k, m, g, t are
// accepted too, in any case), e.g. "2GB", "512MiB", "1.5g", "1000000".
func ParseBytes(s string) (int64, error) {
	t := strings.TrimSpace(s)
	i := strings.IndexFunc(t, func(r rune) bool { return (r < '0' || r > '9') && r != '.' })
	num, unit := t, ""
	if i >= 0 {
		num, unit = t[:i], strings.ToLower(strings.TrimSpace(t[i:]))
	}
	shift := -1
	for k, names := range [][]string{{"", "b"}, {"k", "kb", "kib"}, {"m", "mb", "mib"}, {"g", "gb", "gib"}, {"t", "tb", "tib"}} {
		if slices.Contains(names, unit) {
			shift = 10 * k
		}
	}
	v, err := strconv.ParseFloat(num, 64)
	if num == "" || err != nil || shift < 0 || v < 0 {
		return 0, fmt.Errorf("invalid size %q (want a number of bytes with an optional unit: B, KB, MB, GB or TB)", s)
	}
	b := v * float64(uint64(1)<<shift)
	if b >= 1<<63 {
		return 0, fmt.Errorf("size %q too large", s)
	}
	return int64(b), nil
}

// formatBytes prints a size in bytes with a binary unit: "512MB", "2GB",
// "1.5GB" (the units ParseBytes reads).
func formatBytes(n uint64) string {
	units := []string{"B", "KB", "MB", "GB", "TB"}
	v, u := float64(n), 0
	for v >= 1024 && u < len(units)-1 {
		v /= 1024
		u++
	}
	if v == float64(int64(v)) {
		return fmt.Sprintf("%d%s", int64(v), units[u])
	}
	return fmt.Sprintf("%.1f%s", v, units[u])
}
