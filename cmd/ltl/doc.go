// Command ltl checks temporal properties from the shell: the verdict of a
// formula on a recorded trace, an online monitor, generated Go monitors, the
// automaton of a formula, the goroutine schedules of Go tests, GR(1)
// synthesis and compositional proofs.
//
// Usage:
//
//	ltl COMMAND [flags] [args]
//	ltl help [COMMAND]
//
// The commands (flags may follow the positional arguments):
//
//	check      ltl check -f FORMULA [-engine auto|dp|automaton|naive]
//	           [-semantics ltlf|rosu-havelund] [-html FILE] [TRACE]
//	           the verdict of FORMULA on a trace: holds or violated, where
//	           it was decided, why, and the trace around that position
//	           (-html: also as a page with the trace's waveform)
//	monitor    ltl monitor -f FORMULA [-html FILE] [TRACE]
//	           one line per event as it is read: violated, satisfied,
//	           currently true or currently false; then the final verdict
//	gen        ltl gen -f FORMULA -pkg NAME -func NAME [-semantics …]
//	           Go source of a dynamic-programming monitor
//	automaton  ltl automaton -f FORMULA [-format hoa|dot|promela|stats]
//	           [-minimal=true]
//	           the minimal complete DFA of FORMULA
//	explore    ltl explore [-run REGEX] [-strategy S] [-json] [bounds…]
//	           [-replay TOKEN] [-find FORMULA] [-func NAME] [-html DIR] [PACKAGES]
//	           runs Go tests under the explorer, each subtest on its own
//	           (-run: go test's syntax, TestX/case): every schedule (and
//	           symbolic input path) checked for deadlocks, leaks, panics,
//	           failed tests, data races and //ltl:spec violations (-html:
//	           an HTML report per test with findings into DIR)
//	debug      ltl debug [-func NAME | -run REGEX] [-script FILE] [PACKAGES]
//	           the temporal debugger: a session over the schedules of one
//	           function or test, at a prompt with line editing and history
//	           or from a script of commands with expect lines (exit 1 when
//	           one fails): push FORMULA, backtrack, pop, step G, clear …
//	synth      ltl synth [-format slugsin|structuredslugs|tlsf] [-go|-json|-dot]
//	           [-strategy FILE] [-timeout D] FILE
//	           GR(1) realizability, the unrealizable core, the controller
//	           or the environment's counterstrategy
//	split      ltl split [-n N] [-property NAME] [-timeout D] FILE
//	           the INVARSPEC and LTLSPEC properties of an SMV program,
//	           proved compositionally for any number of processes
//
// 'ltl help COMMAND' prints a command's flags and output. A TRACE is a file
// of JSON Lines (one event per line: ["req","busy"] or
// {"req":true,"busy":false}) or CSV (a header of atom names, 0/1 cells);
// standard input when absent or "-". The formula syntax is package ltl's.
//
// # Exit status
//
// For every command: 0 the answer is yes (holds, realizable, no finding,
// every property proved), 1 the answer is no (violated, unrealizable,
// findings), 2 a usage or input error, reported in one line on stderr
// that names the position of the problem (-f: offset 7: …,
// trace.jsonl:3: …, file:line:col). An unknown answer is never 0: explore
// and split exit 1 when a bound cut the exploration or the proof (unless
// explore's -bounded accepts a cut exploration without findings, labelled
// "bounded", not a proof), explore
// -find exits 1 when a test has no witness, debug -script exits 1 when an
// expect line failed, and synth exits 2 when it
// gave up at -timeout. ltl without a command prints the usage and exits 2.
//
// # Limits
//
//   - A formula watches at most 64 distinct atoms (one bit each in a
//     letter), and trace atoms are Booleans: no data values or timestamps.
//   - The automaton engine, ltl monitor and ltl automaton read formulas
//     under LTLf only; -semantics rosu-havelund needs the dp or naive
//     engine. ltl gen rejects formulas that mix past and future operators
//     other than G of a past formula.
//   - ltl explore has the limits of package explore (unmodelled standard
//     packages are unknown, not pass); -replay needs -run to select exactly
//     one test or subtest; a test whose own code (outside its subtests)
//     starts goroutines or makes scheduling choices is explored whole
//     with its subtests; progress is shown only when standard error is a terminal.
//   - ltl synth reads GR(1) specifications only (Slugs formats, basic TLSF
//     with Mealy semantics) and bounds explicit machines (-max-states).
//   - ltl split reads the SMV subset of package split.
package main
