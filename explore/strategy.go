package explore

import (
	"context"
	"fmt"
	"strings"
)

// Strategy selects how the explorer enumerates executions. Strategies
// lists them; each has a file of its own (strategy_dfs.go, …).
type Strategy string

const (
	// Auto runs DPOR and, if DPOR's share of the budget runs out before
	// it completes, samples schedules with PCT for the rest, so that a
	// bug sampling reaches is still found (strategy_auto.go). The
	// default. Its result is complete only if DPOR completed.
	Auto Strategy = "auto"
	// DPOR is DFS with dynamic partial-order reduction (source sets and
	// sleep sets): it skips schedules equivalent to explored ones.
	DPOR Strategy = "dpor"
	// DFS explores every schedule depth-first (stateless: each execution
	// re-runs the entry from the start).
	DFS Strategy = "dfs"
	// PB is preemption-bounded DFS: iterative bounds 0, 1, … up to
	// Options.Preemptions.
	PB Strategy = "pb"
	// Random picks every choice uniformly at random.
	Random Strategy = "random"
	// PCT is probabilistic concurrency testing with depth Options.PCTDepth.
	PCT Strategy = "pct"
)

// driver explores the executions of e with one strategy and fills r.
type driver func(p *Program, ctx context.Context, e *Entry, opts *Options, r *Report) error

// registered is a strategy and its driver.
type registered struct {
	strategy Strategy
	explore  driver
}

// registry lists every strategy with its driver, in the order of
// Strategies: the one place that adds a strategy.
func registry() []registered {
	return []registered{
		{Auto, (*Program).exploreAuto},
		{DPOR, (*Program).exploreDPOR},
		{DFS, (*Program).exploreDFS},
		{PB, (*Program).explorePB},
		{Random, (*Program).exploreRandom},
		{PCT, (*Program).exploreRandom},
	}
}

// Strategies returns the strategies, the default (Auto) first: Auto,
// DPOR, DFS, PB, Random, PCT.
func Strategies() []Strategy {
	reg := registry()
	ss := make([]Strategy, len(reg))
	for i, r := range reg {
		ss[i] = r.strategy
	}
	return ss
}

// ParseStrategy returns the strategy named s ("auto", "dpor", …); the
// error lists the names.
func ParseStrategy(s string) (Strategy, error) {
	if _, err := Strategy(s).driver(); err != nil {
		return "", err
	}
	return Strategy(s), nil
}

// driver returns the driver of s; the error lists the strategies.
func (s Strategy) driver() (driver, error) {
	reg := registry()
	names := make([]string, len(reg))
	for i, r := range reg {
		if r.strategy == s {
			return r.explore, nil
		}
		names[i] = string(r.strategy)
	}
	last := len(names) - 1
	return nil, fmt.Errorf("unknown strategy %q (want %s or %s)", string(s), strings.Join(names[:last], ", "), names[last])
}
