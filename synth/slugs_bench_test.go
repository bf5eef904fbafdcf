package synth

import (
	"context"
	"flag"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// slugsPath is the Slugs binary the AMBA circuit benchmark runs in the same
// process for comparison (its -slugs flag, or the SLUGS environment
// variable); without one the Slugs figures are skipped with a message.
var slugsPath = flag.String("slugs", os.Getenv("SLUGS"), "path to a Slugs binary for same-run comparisons in the AMBA benchmarks")

// slugsLimit bounds one Slugs run in the benchmarks (wall time; -slugs-limit).
var slugsLimit = flag.Duration("slugs-limit", 20*time.Minute, "bound on the wall time of one Slugs run in the AMBA benchmarks")

// slugsFactor makes the Slugs runs' limit adaptive (-slugs-factor): a run
// gets at most this many times our CPU time for the same result, so that a
// capped run still proves the ratio without running Slugs for hours.
// Zero leaves only -slugs-limit.
var slugsFactor = flag.Float64("slugs-factor", 3, "bound on the CPU time of one Slugs run, as a multiple of ours for the same spec (0: no such bound)")

// ambaPath is the AMBA spec of n masters in Slugs' input format.
func ambaPath(n int) string { return filepath.Join(ambaDir, fmt.Sprintf("amba%d.slugsin", n)) }

// slugsRun is the cost of one Slugs run: CPU time (user + system) of the
// child process and its peak resident memory. A run stopped at the limit
// is capped: its CPU time is then a lower bound.
type slugsRun struct {
	cpu    time.Duration
	maxRSS int64 // bytes; 0 where the system does not report it
	capped bool
}

// runSlugs runs `slugs --symbolicStrategy spec OUT` (a symbolic strategy,
// Slugs' cheapest form of controller) with a wall-time deadline and, if
// cpuLimit > 0, a CPU-time limit (RLIMIT_CPU, whole seconds, at least one),
// or returns ok=false with the reason logged when there is no binary or the
// run fails. A run stopped at either limit is returned capped.
func runSlugs(b *testing.B, spec string, limit, cpuLimit time.Duration) (slugsRun, bool) {
	b.Helper()
	if *slugsPath == "" {
		b.Log("no Slugs column: give a Slugs binary with -slugs PATH or SLUGS=PATH")
		return slugsRun{}, false
	}
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	out := filepath.Join(b.TempDir(), "strategy.bdd")
	args := []string{*slugsPath, "--symbolicStrategy", spec, out}
	if cpuLimit > 0 {
		secs := max(1, int64(math.Ceil(cpuLimit.Seconds())))
		args = append([]string{"sh", "-c", fmt.Sprintf(`ulimit -t %d && exec "$@"`, secs), "sh"}, args...)
	}
	cmd := exec.CommandContext(ctx, args[0], args[1:]...)
	msg, err := cmd.CombinedOutput()
	st := cmd.ProcessState
	switch {
	case err != nil && st != nil && (ctx.Err() != nil || cpuLimited(st)):
		run := slugsRun{cpu: st.UserTime() + st.SystemTime(), maxRSS: maxRSS(st), capped: true}
		which := fmt.Sprintf("%v of CPU", cpuLimit)
		if ctx.Err() != nil { // killed by exec at the deadline
			which = fmt.Sprintf("%v of wall time", limit)
		}
		b.Logf("slugs %s: stopped at the limit of %s: more than %.1f s of CPU", spec, which, run.cpu.Seconds())
		return run, true
	case err != nil:
		b.Logf("slugs %s: %v: %.200s", spec, err, msg)
		return slugsRun{}, false
	}
	return slugsRun{cpu: st.UserTime() + st.SystemTime(), maxRSS: maxRSS(st)}, true
}
