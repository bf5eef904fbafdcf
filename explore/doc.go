// Package explore runs Go tests under a controlled scheduler and explores
// their goroutine schedules.
//
// It owns: loading packages (with tests) into SSA form; an SSA interpreter
// whose goroutines are interpreter threads with explicit frame stacks, so
// the scheduler can switch goroutines at any scheduling point; models of
// the parts of the standard library that reach the runtime (sync,
// sync/atomic, time's timers and clock, runtime, fmt, testing, os, log,
// math/rand); the exploration strategies (exhaustive DFS, dynamic
// partial-order reduction, preemption bounding, random walk, PCT); and the
// findings (deadlock, goroutine leak, unrecovered panic, failed test,
// monitor violation, unsupported construct) with their interleaving,
// goroutine stacks and replay tokens.
//
// Every execution is deterministic: time is virtual (it advances only when
// every goroutine is blocked), the iteration order of a range over a map
// is a choice of the exploration like the schedule (Options.MapOrders),
// math/rand is seeded from the exploration seed, and every choice the
// explorer makes is recorded. A replay token (Finding.Replay, passed back
// as Options.Replay) re-runs exactly the execution of a finding.
//
// Typical use:
//
//	p, err := explore.Load(ctx, explore.LoadConfig{Patterns: []string{"./mypkg"}})
//	for _, e := range p.Tests(nil) {
//		r, err := p.Explore(ctx, e, explore.Options{Strategy: explore.DPOR})
//		for _, f := range r.Findings {
//			fmt.Println(f)
//		}
//	}
//
// The Observer and Brancher interfaces (hooks.go) are the extension points
// for LTL monitors and symbolic execution. STATUS.md in this directory
// describes the design and what is not supported yet.
package explore
