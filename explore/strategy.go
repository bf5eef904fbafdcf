package explore

// Strategy selects how the explorer enumerates executions.
type Strategy string

const (
	// DFS explores every schedule depth-first (stateless: each execution
	// re-runs the entry from the start).
	DFS Strategy = "dfs"
	// DPOR is DFS with dynamic partial-order reduction (source sets and
	// sleep sets): it skips schedules equivalent to explored ones.
	DPOR Strategy = "dpor"
	// PB is preemption-bounded DFS: iterative bounds 0, 1, … up to
	// Options.Preemptions.
	PB Strategy = "pb"
	// Random picks every choice uniformly at random.
	Random Strategy = "random"
	// PCT is probabilistic concurrency testing with depth Options.PCTDepth.
	PCT Strategy = "pct"
	// Auto runs DPOR and, if DPOR's share of the budget runs out before
	// it completes, samples schedules with PCT for the rest, so that a
	// bug sampling reaches is still found (strategy_auto.go). The default. Its
	// result is complete only if DPOR completed.
	Auto Strategy = "auto"
)
