// Package explore runs Go tests under a controlled scheduler and explores
// their goroutine schedules.
//
// It owns: loading packages (with tests) into SSA form; an SSA interpreter
// whose goroutines are interpreter threads with explicit frame stacks, so
// the scheduler can switch goroutines at any scheduling point; models of
// the parts of the standard library that reach the runtime (sync,
// sync/atomic, time's timers and clock, runtime, fmt, testing, os, log,
// math/rand); the exploration strategies (exhaustive DFS, dynamic
// partial-order reduction, preemption bounding, random walk, PCT, and
// Auto, the default: DPOR, then PCT for the rest of the budget if DPOR
// cannot complete); the bounds (executions, steps, loop iterations, time,
// memory: a result cut by one is unknown and its Report.Suggestion says
// what would do better); and the
// findings (deadlock, goroutine leak, unrecovered panic, failed test,
// monitor violation, unsupported construct) with their interleaving,
// goroutine stacks and replay tokens.
//
// Every execution is deterministic: time is virtual (clock.go: it advances
// when no goroutine can move, and a timer or sleep due within
// Options.EarlyFire may also expire at any scheduling point, a choice the
// exploration makes like the schedule; a goroutine that only polls —
// select's default, TryLock, Gosched — neither holds the clock back nor
// takes a whole execution, fair.go), the iteration order of a range over a map
// is a choice of the exploration like the schedule (Options.MapOrders),
// math/rand is seeded from the exploration seed, and every choice the
// explorer makes is recorded. A replay token (Finding.Replay, passed back
// as Options.Replay) re-runs exactly the execution of a finding.
//
// Typical use:
//
//	p, err := explore.Load(ctx, explore.LoadConfig{Patterns: []string{"./mypkg"}})
//	for _, e := range p.Tests(nil) {
//		r, err := p.Explore(ctx, e, explore.Options{Timeout: time.Minute})
//		for _, f := range r.Findings {
//			fmt.Println(f)
//		}
//	}
//
// The Observer and Brancher interfaces (hooks.go) are the extension points
// for LTL monitors and symbolic execution. STATUS.md in this directory
// describes the design and what is not supported yet.
package explore
