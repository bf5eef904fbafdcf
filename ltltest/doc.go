// Package ltltest is what a Go test imports to check temporal properties:
//
//   - on a recorded trace: Holds and Violated;
//   - while the code under test runs: NewMonitor, a Recorder the code feeds
//     with events and state, checked online and when the test ends;
//   - on every schedule and input path of a test body: Explore, run by the
//     explorer (package explore), Find and Never for scenario search, Debug
//     for a temporal debugging session, and Symbolic for inputs the solver
//     chooses;
//   - on reactive specifications: Realizable, Unrealizable, Synthesize (a
//     checked circuit), SynthesizeExplicit (an explicit machine) and
//     Conforms (package synth), and Weave for AspectLTL;
//   - on any number of processes: Split, SplitViolated and SplitN (package
//     split).
//
// It follows testify's conventions: every function takes the test first,
// calls t.Helper(), reports a failure with the formula, the verdict, where it
// was decided, why, and the trace around that position, and returns whether
// it passed; the Require variants stop the test with t.FailNow instead.
// Malformed formulas fail the test with the parse error, never panic. A
// failure of Holds, Violated, a Recorder, Explore, Find or Never also writes
// an HTML report of it (package report) into t.ArtifactDir() and names the
// file (go test -artifacts keeps it). The
// trailing arguments of every assertion mix Options (WithSemantics,
// WithEngine, WithStrategy…), the *Annotations of Specs (so that the formula
// argument may name an //ltl:spec), and a testify-style message.
//
// # Limits
//
//   - A Recorder checks a formula online with its minimal DFA only under
//     ltl.LTLf and up to 16384 DFA states; otherwise it keeps the whole
//     trace, checks the G(past) conjuncts online and the rest when the test
//     ends. Otherwise it keeps only the last events (WithWindow), so Holds
//     and Violated refuse a Recorder that has dropped events: keep them with
//     WithFullTrace.
//   - Explore, Find, Never and Debug take a func(*testing.T) or a func() that
//     captures no variables (a literal may use package-level names, its
//     parameter t and its own locals). They load the test's directory with
//     the go command once per process (seconds for a package with many
//     dependencies), so they need the source and a Go toolchain at test
//     time. What the explorer does not support is listed in package
//     explore's Limits.
//   - Explore passes only for a complete exploration without findings: a
//     bound reached fails the test as unknown unless WithBounded, and an
//     unsupported construct always fails. The exploration ends a tenth of
//     the remaining time before the test binary's deadline (go test
//     -timeout), so a long exploration is unknown rather than killed.
//   - Symbolic values are symbolic only under the explorer. Run natively,
//     Symbolic returns one value per run (from InputsEnv, or drawn from the
//     test's name, the input's name and SeedEnv): a plain randomized test.
//   - Split and SplitN prove what package split proves: finite-state
//     abstractions (Booleans, ranged integers, the Go constructs that
//     split's Go extraction supports); anything else is an error or an
//     unknown that fails the test.
package ltltest
