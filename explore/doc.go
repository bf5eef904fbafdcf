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
// memory); the data race detector; the checking of //ltl:spec annotations
// and the scenario search (Program.Find) and the temporal debugger built
// on it (Program.NewSession); symbolic inputs decided with Z3;
// and the findings (deadlock, goroutine leak, unrecovered panic, data
// race, failed test, spec violation, unsupported construct) with their
// interleaving, goroutine stacks and replay tokens.
//
// Every execution is deterministic: time is virtual (it advances when no
// goroutine can move, and a timer due within Options.EarlyFire may also
// expire at any scheduling point, a choice the exploration makes like the
// schedule), a goroutine that only polls neither holds the clock back nor
// takes a whole execution, the iteration order of a range over a map is a
// choice of the exploration (Options.MapOrders), math/rand and crypto/rand
// are seeded from the exploration seed (crypto/rand's bytes are therefore
// not secret), temporary files live in an in-memory file system of the
// execution with deterministic names, and every choice is recorded. A replay token
// (Finding.Replay, passed back as Options.Replay) re-runs exactly the
// execution of a finding.
//
// Typical use:
//
//	p, err := explore.Load(ctx, explore.LoadConfig{Patterns: []string{"./mypkg"}})
//	for _, t := range p.Tests(nil) {
//		subs, err := p.Subtests(ctx, t, nil, explore.Options{})
//		for _, e := range subs { // each subtest on its own
//			r, err := p.Explore(ctx, e, explore.Options{Timeout: time.Minute})
//			for _, f := range r.Findings {
//				fmt.Println(f)
//			}
//		}
//	}
//
// A process that loads many programs (a test suite) loads them with one
// Loader, which type-checks the standard library once for all of them.
//
// Report.Verdict is "pass" only for a complete exploration without
// findings, "fail" for a finding that shows a bug, and "unknown" otherwise;
// Report.Bound and Report.Suggestion say what cut an incomplete one.
// docs/explore.md in the repository describes the design: the machine,
// scheduling points, the strategies, DPOR, the clock, the models.
//
// # Where to add what
//
// The files follow the concepts:
//
//   - A model of a standard package lives in model_<pkg>.go: a constructor
//     returning the package's model (its intrinsics, pure natives, the
//     initial values of its variables, and per-execution state in a slot
//     of its own), listed in models() in intrinsics.go. A model that
//     synchronizes yields a pendingOp (a scheduling point) and, if it is a
//     new kind of operation, needs an opKind, its enabledness (sched.go)
//     and its DPOR event (dpor.go).
//   - A strategy lives in strategy_<name>.go: a Strategy constant, its
//     chooser and its driver, registered in registry() in strategy.go, which
//     Strategies and ParseStrategy (and so ltl explore's -strategy flag)
//     read. A depth-first strategy walks the schedule tree with treeSearch
//     (treesearch.go), which also runs it on several workers.
//   - A finding kind is a Kind constant in report.go with its place in the
//     report's order; Report.Verdict decides whether it is a bug or a
//     reason for "unknown".
//   - A bound is an Options field (options.go) with its default, a check
//     that stops the execution or the collector (collector.go), a
//     Report.Bound name and a Report.Suggestion (report.go).
//
// # Limits
//
// Not supported; reaching these is an unsupported finding (verdict
// unknown), never a silent pass:
//
//   - standard packages that are neither interpreted nor modelled: the rest
//     of reflect (settable Values, Set*, Call, SliceOf…), reflection-based
//     encoders other than encoding/json and encoding/gob, and of those:
//     decoding JSON into a non-empty interface, a non-string JSON value
//     given to a TextUnmarshaler, a JSON type error inside a recursive
//     type, gob's interface values (Register), recursive types and types
//     with GobEncode, MarshalBinary or MarshalText methods (time.Time);
//     fmt.Formatter and fmt.State, Sscan*,
//     writing files outside temporary directories (those os.MkdirTemp,
//     os.CreateTemp, io/ioutil.TempDir and TempFile and t.TempDir make, in
//     an in-memory file system of the execution where os.WriteFile,
//     Create, Mkdir, MkdirAll, Remove, RemoveAll, ReadFile, Open, OpenFile,
//     Stat, Lstat, ReadDir, Rename, Chmod, io/ioutil.ReadDir,
//     filepath.WalkDir and Walk and
//     the *os.File methods Read, Write, WriteString, Seek, Sync, Close,
//     Name, Stat, ReadDir and Readdirnames work, except an access the
//     permissions of a file or directory deny, as whether it fails depends
//     on the user; on the real file system these only read), ioutil.ReadAll,
//     net beyond loopback connections between the test's goroutines (see
//     below; dialling another host, udp, name resolution and net/http are
//     unsupported), syscalls, os/exec beyond
//     Command, CommandContext, LookPath and Cmd's Start, Wait, Run, Output,
//     CombinedOutput and String (pipes, Cmd.ExtraFiles, a subprocess naming
//     an in-memory temporary file), os/signal, cgo, iter.Pull, runtime.Stack, testing.B
//     and the T methods Context, Setenv and Chdir; unsafe pointer
//     arithmetic and uintptr-to-pointer conversions; the spew package
//     (go-spew, and testify's copy of it) except Sdump;
//     reflect.Value.Convert other than between numeric types or types of
//     identical underlying types;
//   - calls from an explored body into this module's own libraries, except
//     ltltest.Symbolic, or into the libraries they are built on (x/tools,
//     Z3) where the user's code does not import them itself;
//   - in //ltl:spec state predicates: locals and parameters, map indexing,
//     method calls, comparisons of composite values, and go props; in
//     predicates of scenario searches, symbolic values; in predicates of
//     specs, a symbolic index or a symbolic value converted to a float;
//   - symbolic inputs of types other than booleans and integers;
//   - testing/quick with a variadic function; fmt verbs other than %v,
//     %#v, %s and %d without flags of a *big.Int, and every verb of a
//     *big.Float (their Format methods: fmt.Formatter is not modelled).
//
// Approximations; they never turn a bug into a pass unless stated:
//
//   - runtime.ReadMemStats reports zeros (the interpreter does not
//     measure Go's heap): a test asserting a bound on memory use passes
//     vacuously. hash/maphash hashes with one fixed function of the seed
//     and the bytes, not Go's, and its seeds, like the runtime's random
//     numbers a package pulls in with //go:linkname (runtime.cheaprand,
//     fastrand…), come from math/rand's generator of the execution: one
//     value per seed, not every value.
//   - Temporary files: names are deterministic (os.TempDir is "/tmp", a
//     pattern's "*" becomes the execution's count of temporary names, so
//     os.MkdirTemp("", "x*") is "/tmp/x1"; t.TempDir is "<dir>/001"…), a
//     test's t.TempDir directory is not removed when the test ends, and
//     every modification time in it is 2000-01-01 UTC. File errors are
//     Go's (*fs.PathError, *os.LinkError wrapping a syscall.Errno or
//     fs.ErrClosed: os.IsNotExist and errors.Is with fs.ErrNotExist hold),
//     except that errors of the real file system other than errnos are
//     plain errors with Go's messages. crypto/rand's bytes repeat with the
//     exploration seed: a test that needs them to differ across runs sees
//     one stream per execution.
//   - Loopback networking (model_net.go): net.Listen ("tcp", "tcp4",
//     "tcp6" on a loopback or unspecified host; "unix", which makes no
//     file), Accept, Dial, DialTimeout, (*net.Dialer).Dial and
//     DialContext to a listener of the execution, the connections' Read,
//     Write, Close, CloseWrite, addresses and deadlines (virtual time),
//     WriteTo and ReadFrom (io.Copy), and net.Pipe. Ports come from a
//     per-execution counter (the first is 40001). A dial never blocks and
//     ignores its timeout and context; a TCP write never blocks (the
//     buffer is unbounded); a read returns all the bytes available up to
//     len(p): shorter reads, which TCP allows, are not explored. Writing
//     to a connection whose peer closed succeeds (no "connection reset" or
//     "broken pipe" is explored); closing a listener closes its
//     connections not yet accepted, whose peers then read EOF. A Pipe
//     write of no bytes returns at once (Go's waits for a reader).
//   - testing/quick draws its arguments from Config.Rand's generator or
//     from one seeded by the exploration seed (Go seeds from the clock):
//     the same inputs on every execution and on replay, not go test's;
//     the count is Config.MaxCount or 100 (the -quickchecks flag is not
//     read), and every schedule of every iteration of a property that
//     starts goroutines is explored. Flags defined with flag.Int, Bool…
//     and IntVar, BoolVar… keep their defaults (nothing is parsed).
//   - Subprocesses (os/exec) are not explored: the child runs natively on
//     the host, to completion, in one transition of its caller (Wait, or
//     Run, Output, CombinedOutput; Start only checks the command), and each
//     command adds a warning to the report. Its result is cached per
//     exploration (by path, arguments, environment, directory and input),
//     so every execution sees the output of the first run: the child's
//     nondeterminism is not explored. Cmd's context is not consulted (a
//     hanging child hangs the exploration until its timeout), a nil Env is
//     the host's environment (the program's is empty), and the child sees
//     the host's file system, not the in-memory one. The test binary
//     re-executing itself (os.Args[0], which is os.Executable's path) is
//     the real test binary, built with go test -c once per exploration.
//   - The explorer is stateless: every execution runs from the start and no
//     program state is matched, so a program whose schedules never end (a
//     test looping on a ticker forever, a livelock) ends at a bound
//     (unknown).
//   - Virtual time: a timer or sleep longer than Options.EarlyFire expires
//     only when no goroutine can move, so a bug that needs a long timeout to
//     expire while other work still runs is missed; early expiries take
//     the clock at most Options.EarlyFire ahead in all between two points
//     where everything waits, so a bug that needs several ticks of a 1ms
//     ticker during one stretch of computation is missed too. A spin loop
//     on an atomic load or on time.Now that never yields (no Gosched, no
//     select default) is not a failed poll (its outcome is a value), so
//     fairness does not apply: each number of iterations before the
//     awaited write is an execution of its own, and the exploration may
//     not complete. The clock does not advance for a
//     loop that polls time.Now while no timer is set. time.Now reads the
//     clock plus 1ns per advance so far: two reads with no advance between
//     them are equal, and Now runs ahead of the timers' deadlines by that
//     count.
//   - Background loops: after the entry returned, a goroutine only timers
//     can still wake (a sleep, a timer's or ticker's channel, a select
//     with such a case) is woken once more, then the execution ends; it
//     is not a leak unless Options.ReportTimerLeaks asks. What it would do
//     in later rounds (a panic, a race, a late t.Log) is not explored.
//   - encoding/json prints Go's bytes and errors (the real package runs on
//     host mirrors of the values, Marshalers are called in the
//     interpreter); decoding calls Unmarshalers after the rest of the
//     value is decoded (the order of their side effects and what an
//     Unmarshaler's error leaves decoded may differ) and gives decoded
//     slices a new backing array unless json reuses the old one. Gob's
//     wire bytes name no types (a mirror's type has no name): they differ
//     from Go's, and only round trips within the execution are exact. The
//     reads and writes of both packages are not reported to the race
//     detector.
//   - Spew's Sdump (in testify's failure messages: the diff of Equal, the
//     lists of ElementsMatch) formats each value as fmt's %#v does, on one
//     line, where spew dumps it on several lines with types and lengths:
//     the message of a failed testify assertion has go test's lines
//     ("Error Trace:", "Error:", "expected:", "actual  :") but a shorter
//     diff.
//   - Cleanups and finalizers never run (runtime.AddCleanup and
//     SetFinalizer register nothing: no garbage is collected), and the
//     GC and profiling settings have no effect (debug.SetGCPercent
//     returns 100, SetMutexProfileFraction and SetBlockProfileRate 0).
//     The standard library's internal/testenv answers for the host: not a
//     builder, optimizations on, the go command and exec available;
//     SkipFlaky skips. internal/bytealg.MaxLen is that of a CPU without
//     the features internal/cpu reports.
//   - Stacks (runtime.Caller, Callers with CallersFrames, FuncForPC,
//     runtime/debug.Stack, the goroutines of a finding) name functions and
//     lines as Go built without inlining does: "pkg.(*T).M", "pkg.T.M",
//     "pkg.F.func1.2", "pkg.G[...]", compiler wrappers elided, each frame
//     at the line of its call (a frame running its deferred calls on
//     return at its return statement or closing brace). Inlining can
//     rename a closure inlined into its parent in Go; not here. A "pc" is
//     a source position; debug.Stack prints "(...)" for the arguments, no
//     pc offsets and no frame of its own; called from a deferred call
//     running for a panic, it shows, as Go does, the frames the panic
//     unwinds below a "panic(...)" line.
//   - Fairness: a failed poll (select default, failed TryLock, Gosched,
//     Sleep(0)) repeated more than twice in a row while another goroutine
//     could move is not explored, nor one by a goroutine that has seen
//     every change since its last read. The clock does not run to a
//     deadline farther than Options.EarlyFire while a polling goroutine
//     may still see a change (a spin lock that was freed): a schedule in
//     which a poller stays descheduled until a timeout expires is legal
//     Go but is not explored.
//   - testing.AllocsPerRun runs its function as Go does but returns 0,
//     with a report warning: the explorer cannot count Go's allocations.
//     A test that expects an exact positive count fails.
//   - reflect.Value: Set works on addressable Values; the other setters
//     (SetInt, SetLen…) and Addr are not modelled.
//   - t.Parallel: all parallel subtests run at once (no -parallel limit);
//     deadlocks that only a smaller limit causes are not reported.
//   - Subtests (Program.Subtests): each is explored on its own, the other
//     subtests' t.Run calls returning true without running them, as with
//     go test -run 'TestX/case'. Their names come from one execution of
//     the test with the subtests skipped; if the test's own code starts
//     goroutines, makes a scheduling choice (other than a map's iteration
//     order) or ends with a finding or a bound there, or a subtest calls
//     t.Parallel (parallel subtests overlap), or the test's own code
//     fails when only one subtest runs, or a subtest has a finding alone
//     but not after its siblings (on the first schedule of each), the
//     test is explored whole
//     instead (Entry.Note says why). A subtest that an execution does not
//     run, and a failure of the test's own code in a subtest's
//     exploration (it may depend on the skipped subtests), are
//     unsupported findings. Each subtest starts from the state the test's
//     code leaves with the other subtests skipped, as under go test -run
//     'TestX/case': a bug that needs an earlier subtest's effects, or a
//     finding of a subtest alone that its siblings' effects prevent on
//     schedules other than the first, shows only when the test is
//     explored whole (ltl explore -func TestX, or Explore on the test's
//     own Entry).
//   - sync.WaitGroup: a waiter is taken as registered when it is waiting as
//     the counter reaches zero (Go's schedule in which it has not yet loaded
//     the state is not explored); with DPOR, a schedule in which a waiter
//     that reached Wait after the counter went to zero reaches it before is
//     explored only if another race leads there.
//   - DPOR is source-set DPOR, not optimal: it runs sleep-set-blocked
//     executions (Report.Pruned; they do not count toward
//     Options.MaxExecutions, and only the time bound bounds them). With Workers > 1 and a bound that cuts the
//     exploration, which executions ran, and so the findings, depends on
//     timing. One DPOR execution costs more than a random one with many
//     goroutines: a state records every enabled transition, and a lock
//     handed over among n waiters opens n blocked spans per handover, each
//     checked for races (about 45× a random execution with 1000
//     goroutines taking turns at a mutex, 7× for a channel fan-in).
//   - Auto gives up on DPOR when its pace shows it cannot complete within
//     its share (the schedules left on its path times its time per
//     execution; a timing estimate, so the switch point depends on the
//     machine's speed) and samples with PCT: Bound "schedules", verdict
//     unknown, never a pass.
//   - Package initialization is snapshotted per machine, and machines
//     are reused by later explorations of the same Program with the same
//     entry package and compile-relevant options, so consecutive tests of
//     a package run the initializers once (a machine with a package whose
//     initialization failed, or with an observer, is not reused). The
//     snapshot is not taken when initialization starts a goroutine, sets
//     a timer, advances the clock, leaves model state in side tables, or
//     reaches an unsafe.Pointer (initialization then runs in every
//     execution).
//     Package variables keep their identity across restores (a pointer to
//     one still points to it).
//   - A native pure function's panic is the program's, recoverable: a
//     string panic keeps its value, a runtime error becomes the
//     interpreter's with the same message, another error a plain error
//     with the same message; a panic value of another type is an
//     "unsupported" finding naming the function.
//   - Data races are checked on every explored execution, but schedules are
//     explored only at scheduling points: a race that exists only after an
//     earlier racy read returned another value may need Options.Shared,
//     which makes accesses to published memory scheduling points.
//   - Map iteration: an entry added during a range is visited after the
//     original entries (Go may also skip it or visit it earlier; the report
//     warns). Ranges in initializers of packages other than the loaded ones,
//     in scenario searches, and in modelled functions (reflect's MapKeys,
//     sync.Map.Range) use insertion order, so a scenario search's "none"
//     does not cover map orders.
//   - Symbolic values: a value that can take more than Options.MaxSplit
//     values where a concrete one is needed (an index, a size, a conversion
//     to an interface, an argument of a model, a logged value) is fixed to
//     one (Bound "concretized", unknown); memory addressed by a symbolic
//     index is split over the indexes, not modelled as an array. Not
//     covered either: a deferred or go delete on a map holding symbolic
//     keys, and symbolic values in channel buffers or closures read by a
//     model.
//   - State predicates see writes made by interpreted code (a write a
//     predicate may read is a scheduling point); memory written natively by
//     a model (sort.Slice's swaps), by append into a backing array that a
//     longer slice shares, or through unsafe.Pointer conversions is seen at
//     the next scheduling step. A dependency's state-predicate specs are
//     judged on every path of every test that imports it, whether its code
//     ran or not (Options.Specs selects specs).
//   - Scenario search matches states only for programs whose state is
//     package variables and control positions; elsewhere it ends at its
//     depth bound (unknown). It runs on one worker.
//
// What makes a verdict unknown rather than "pass … complete": a bound
// (executions, steps or loop iterations, time, memory, preemptions), an
// unsupported or internal finding, a solver query that timed out ("solver"),
// a symbolic value fixed without covering the others ("concretized"), and
// the sampling strategies (Random and PCT never complete; Auto is complete
// only if its DPOR phase completed: "schedules" when it found the schedule
// space too large to enumerate and sampled it).
package explore
