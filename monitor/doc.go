// Package monitor owns henceforth's runtime-verification engines built on
// dynamic programming — the Havelund–Roşu past-time monitor (forward, online,
// constant memory) and the Roşu–Havelund future-time monitor (backward over a
// stored trace) — the Go code generator for monitors, explanations of
// verdicts, and the types every engine shares: recorded traces, letters
// (valuations of a monitor's atoms) and verdicts.
//
// To check a formula on a recorded trace, call automaton.Check: it runs
// every engine (Options.Engine) — this package's DP engines, the reference
// evaluator and the minimal DFA of package automaton, which imports this
// one — and explains a failed verdict. This package provides the engines
// themselves and what they share: Past steps a past-time monitor event by
// event; Future evaluates any formula on a stored trace; Explain says why a
// formula has its value at a position; Generate writes Go source for a
// monitor; ReadTrace, StreamTrace and WriteTrace read and write traces as
// JSON Lines or CSV, with positioned *TraceError values. Every engine agrees
// with ltl.Eval, the reference evaluator, under both semantics of package
// ltl.
//
// # Limits
//
//   - One monitor watches at most MaxAtoms (64) distinct atoms, and a Past
//     monitor computes at most 64 root formulas: a Letter is one uint64.
//   - Only propositional and pure-past formulas are monitored online in
//     constant memory (Past, and G(φ) of one). Other formulas are
//     evaluated over a stored trace (Future: O(n·m) time, the trace kept in
//     memory); online verdicts for them, with early "violated" and
//     "satisfied", are package automaton's DFA monitor.
//   - Generate handles propositional, pure-past and pure-future formulas and
//     G of a pure-past one; formulas that mix past and future operators
//     otherwise are an error.
//   - Atoms are Boolean: a trace position is a set of atoms, read from JSON
//     Lines (an array of names or an object of Booleans) or CSV (0/1 cells);
//     there are no data values or timestamps.
//   - An explanation stops at 200 reasons; claims about whole ranges ("p
//     never holds in 4…9") are not expanded further.
//   - Past is not safe for concurrent use; Future is immutable once built.
package monitor
