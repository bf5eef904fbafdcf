package ltltest

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/henceforth-go/henceforth/explore"
)

// This file runs a test body under the explorer (explore.Program.Explore):
// every goroutine schedule of the body is executed and checked for
// deadlocks, leaks, panics, failed assertions, data races and violations
// of the //ltl:spec annotations of the package and of the packages it
// imports.
//
// The body runs in the explorer's interpreter, not natively: the explorer
// loads the package of the test (the current directory, as go test runs
// it, test files included) once per process and finds the body there by
// name. An explore.LoadConfig among the trailing arguments loads other
// packages instead (when the body is a function of another package).

// ReplayFlag is the name of the test flag that replays one execution:
//
//	go test -run '^TestX$' -ltl.replay=TOKEN
//
// With the flag set, Explore runs only the execution of the token (from a
// failure message) instead of exploring; a body the token does not belong
// to is explored as usual.
const ReplayFlag = "ltl.replay"

func init() {
	// go test parses the flag with its own; ltltest only reads it.
	if flag.Lookup(ReplayFlag) == nil {
		flag.String(ReplayFlag, "", "ltltest.Explore: replay the execution of this `token` instead of exploring")
	}
}

// replayToken is the value of -ltl.replay ("" when not set).
func replayToken() string {
	if f := flag.Lookup(ReplayFlag); f != nil {
		return f.Value.String()
	}
	return ""
}

// exploreConfig is what Explore's options set.
type exploreConfig struct {
	set     []func(*explore.Options) // applied in order over the base options
	bounded bool                     // a bound reached without findings passes
}

// options returns base with the options' settings applied in order.
func (c exploreConfig) options(base explore.Options) explore.Options {
	for _, f := range c.set {
		f(&base)
	}
	return base
}

// WithStrategy selects the exploration strategy: explore.Auto (the
// default: explore.DPOR, exhaustive with partial-order reduction, then
// PCT sampling if DPOR cannot complete in half of the time budget; a pass
// needs DPOR to complete), explore.DPOR, explore.DFS, explore.PB
// (preemption bounding), explore.Random or explore.PCT.
func WithStrategy(s explore.Strategy) Option {
	return exploreOption(func(o *explore.Options) { o.Strategy = s })
}

// WithSeed makes the Random and PCT strategies, and math/rand inside the
// body, deterministic from seed.
func WithSeed(seed int64) Option {
	return exploreOption(func(o *explore.Options) { o.Seed = seed })
}

// WithMaxExecutions bounds the number of executions (default 100000 for
// exhaustive strategies, 1000 for Random and PCT).
func WithMaxExecutions(n int) Option {
	return exploreOption(func(o *explore.Options) { o.MaxExecutions = n })
}

// WithEarlyFire sets how close a timer's or sleep's deadline must be for
// it to expire at any scheduling point, not only when no goroutine can
// move (default 1ms; 0 or negative: never, the clock of testing/synctest).
func WithEarlyFire(d time.Duration) Option {
	return exploreOption(func(o *explore.Options) {
		o.EarlyFire = d
		if d <= 0 {
			o.EarlyFire = -1
		}
	})
}

// WithMaxSteps bounds the scheduling steps of one execution (default
// explore.DefaultMaxSteps).
func WithMaxSteps(n int) Option {
	return exploreOption(func(o *explore.Options) { o.MaxSteps = n })
}

// WithMaxMemory bounds the explorer's heap, in bytes (default: half of
// the machine's memory; negative: none): an exploration that would grow
// it beyond stops with the "memory" bound (unknown) instead of being
// killed. explore.ParseBytes reads sizes like "2GB". It bounds the
// synthesis helpers too (synth.WithMemoryLimit: their BDDs and explicit
// machines; no bound by default).
func WithMaxMemory(bytes int64) Option {
	return exploreOption(func(o *explore.Options) { o.MaxMemory = bytes })
}

// WithTimeout bounds the time of the whole exploration, or of a synthesis
// helper (Realizable, Synthesize…). Without it, they end shortly before the
// test binary's -timeout.
func WithTimeout(d time.Duration) Option {
	return exploreOption(func(o *explore.Options) { o.Timeout = d })
}

// WithShared makes every load and store of memory another goroutine can
// reach a scheduling point, so the orders of conflicting accesses are
// explored too: it finds check-then-act bugs at the cost of many more
// schedules. (Data races are reported without it: every access of every
// explored execution is checked against Go's happens-before.)
func WithShared() Option {
	return exploreOption(func(o *explore.Options) { o.Shared = true })
}

// WithoutRaces turns data race detection off.
func WithoutRaces() Option {
	return exploreOption(func(o *explore.Options) { o.NoRaces = true })
}

// WithIgnoreLeaks does not report as leaks the goroutines blocked, when the
// body returns, in one of the named functions (the innermost function of
// the goroutine's stack, named as Go's stacks name it:
// "example.com/pool.(*Pool).purge"), as goleak's IgnoreTopFunction.
// Goroutines started by package initialization are never the test's leaks.
func WithIgnoreLeaks(funcs ...string) Option {
	return exploreOption(func(o *explore.Options) { o.IgnoreLeaks = append(o.IgnoreLeaks, funcs...) })
}

// WithTimerLeaks reports as leaks, too, the goroutines that only timers
// can still wake when the body returns: a sleeping or ticking loop never
// stopped (a cache's janitor, a pool's purge loop). Without it they are
// background loops, not leaks.
func WithTimerLeaks() Option {
	return exploreOption(func(o *explore.Options) { o.ReportTimerLeaks = true })
}

// WithWorkers explores with n workers in parallel (every strategy,
// including DPOR, the default).
func WithWorkers(n int) Option {
	return exploreOption(func(o *explore.Options) { o.Workers = n })
}

// WithPreemptions sets the largest preemption bound of explore.PB.
func WithPreemptions(n int) Option {
	return exploreOption(func(o *explore.Options) { o.Preemptions = n })
}

// WithPCTDepth sets PCT's bug depth (default 3).
func WithPCTDepth(d int) Option {
	return exploreOption(func(o *explore.Options) { o.PCTDepth = d })
}

// WithMapOrders selects the iteration orders of ranges over maps the
// exploration covers: explore.MapOffsets (the default: every start of the
// insertion order) or explore.MapPermutations (every order).
func WithMapOrders(mode explore.MapOrder) Option {
	return exploreOption(func(o *explore.Options) { o.MapOrders = mode })
}

// WithMaxSplit bounds how many values a symbolic input is split into
// where the explorer needs a concrete value (default 16); a value that
// can take more is fixed to one, and the result is unknown.
func WithMaxSplit(n int) Option {
	return exploreOption(func(o *explore.Options) { o.MaxSplit = n })
}

// WithSpecs checks only the named //ltl:spec annotations of the body's
// package and the packages it imports (all of them by default).
func WithSpecs(names ...string) Option {
	return exploreOption(func(o *explore.Options) { o.Specs = names })
}

// WithoutSpecs turns //ltl:spec checking off.
func WithoutSpecs() Option {
	return exploreOption(func(o *explore.Options) { o.NoSpecs = true })
}

// WithReplay runs only the execution of a replay token (as -ltl.replay
// does, but for this call only, and failing if the token does not belong
// to the body).
func WithReplay(token string) Option {
	return exploreOption(func(o *explore.Options) { o.Replay = token })
}

// WithBounded accepts an exploration cut by a bound (executions, steps,
// time, preemptions; symbolic values fixed to one of many values or
// solver time limits) as a pass when it found nothing: use it with Random,
// PCT or PB, whose search is bounded by design. Without it such a result
// fails the test as "unknown". Unsupported constructs fail regardless.
func WithBounded() Option {
	return func(c *config) { c.explore.bounded = true }
}

func exploreOption(f func(*explore.Options)) Option {
	return func(c *config) { c.explore.set = append(c.explore.set, f) }
}

// Explore runs body under the explorer and asserts that no execution of
// it has a finding: a deadlock, a goroutine leak, an unrecovered panic, a
// failed t.Error/t.Fatal, a data race or a violation of an
// //ltl:spec of its package or of a package it imports (each package's
// specs over its own props; the log names the packages). It passes only
// when the exploration was complete (every schedule, up to partial-order
// reduction); a bound
// reached or a construct the explorer does not support fails the test as
// "unknown" (WithBounded accepts bounds).
//
// body is a func(*testing.T) or a func() that captures no variables: a
// function literal inside the test is fine if it uses only package-level
// names, its parameter t and its own locals. Each failure shows the
// finding's interleaving (step, goroutine, file:line, operation), the
// goroutine stacks, the output, and a replay token with the go test
// command that runs exactly that execution again.
//
// The trailing arguments mix Options (WithStrategy, WithSeed,
// WithMaxExecutions, WithShared…), an explore.Options value (the base the
// Options modify), an explore.LoadConfig (which packages to load; the
// test's directory by default), and a testify-style message.
//
//	func TestTransfer(t *testing.T) {
//		ltltest.Explore(t, func(t *testing.T) {
//			a, b := bank.New(100), bank.New(100)
//			var wg sync.WaitGroup
//			wg.Add(2)
//			go func() { defer wg.Done(); bank.Transfer(a, b, 10) }()
//			go func() { defer wg.Done(); bank.Transfer(b, a, 20) }()
//			wg.Wait()
//		})
//	}
func Explore(t TestingT, body any, args ...any) bool {
	t.Helper()
	base, lc, rest := exploreArgs[explore.Options](args)
	cfg, msg := parseArgs(rest)
	opts := cfg.explore.options(base)
	if err := shardExploration(t, &opts); err != nil {
		fail(t, "ltltest: cannot shard the exploration", err.Error(), msg)
		return false
	}
	p, e, err := findEntry(body, lc)
	if err != nil {
		fail(t, "ltltest: cannot explore the body", err.Error(), msg)
		return false
	}
	ctx, cancel := testContext(t)
	defer cancel()

	replayed := false
	if tok := replayToken(); opts.Replay == "" && tok != "" {
		opts.Replay = tok
		r, err := p.Explore(ctx, e, opts)
		switch {
		case diverged(err):
			logf(t, "ltltest: the -%s token is not an execution of %s; exploring it", ReplayFlag, e.Name)
			opts.Replay = ""
		case err != nil:
			fail(t, "ltltest: cannot replay -"+ReplayFlag, "entry: "+e.Name+"\nerror: "+err.Error(), msg)
			return false
		default:
			return judge(t, e, r, &opts, cfg.explore.bounded, true, msg)
		}
	} else if opts.Replay != "" {
		replayed = true
	}
	r, err := p.Explore(ctx, e, opts)
	if err != nil {
		fail(t, "ltltest: cannot explore the body", "entry: "+e.Name+"\nerror: "+err.Error(), msg)
		return false
	}
	return judge(t, e, r, &opts, cfg.explore.bounded, replayed, msg)
}

// diverged reports whether err says the replay token is not an execution
// of the entry.
func diverged(err error) bool {
	return errors.Is(err, explore.ErrReplayDiverged)
}

// RequireExplore is Explore, stopping the test when it fails.
func RequireExplore(t TestingT, body any, args ...any) {
	t.Helper()
	if !Explore(t, body, args...) {
		t.FailNow()
	}
}

// judge reports the outcome of an exploration (or of a replay) and
// returns whether it passed.
func judge(t TestingT, e *explore.Entry, r *explore.Report, opts *explore.Options, bounded, replayed bool, msg []any) bool {
	t.Helper()
	summary := exploreSummary(e, r, replayed)
	verdict := r.Verdict()
	if verdict == "pass" || (verdict == "unknown" && bounded && len(r.Findings) == 0) {
		// Warnings do not fail the test (e.g. a range over a map that
		// adds entries: Go may also skip them) but are logged: go test -v
		// shows them.
		for _, w := range r.Warnings {
			logf(t, "ltltest: warning: %s", w)
		}
		if len(r.SpecPackages) > 0 {
			logf(t, "ltltest: %s", specsChecked(r))
		}
		if replayed {
			logf(t, "ltltest: replayed one execution of %s: no finding", e.Name)
		} else if !r.Complete {
			logf(t, "ltltest: %s (accepted by WithBounded)", summary)
			if r.Suggestion != "" {
				logf(t, "ltltest: suggestion: %s", r.Suggestion)
			}
		}
		return true
	}
	var b strings.Builder
	b.WriteString(summary + "\n")
	switch {
	case len(r.Findings) > 0:
	case r.Bound == "concretized":
		b.WriteString("unknown: a symbolic value that can take many values was fixed to one of them (the warnings say where); the others were not explored, nothing is proved.\n")
		b.WriteString("Constrain the input, raise WithMaxSplit, or accept bounded results with ltltest.WithBounded().\n")
	default:
		// Incomplete without findings.
		fmt.Fprintf(&b, "unknown: the %s bound was reached before every schedule was explored; nothing is proved.\n", r.Bound)
		if r.Suggestion != "" {
			fmt.Fprintf(&b, "suggestion: %s.\n", r.Suggestion)
		}
		b.WriteString("Raise the bound (WithMaxExecutions, WithMaxSteps, WithTimeout, WithMaxMemory) or accept bounded results with ltltest.WithBounded().\n")
	}
	test := testName(t)
	for i, f := range r.Findings {
		if i > 0 {
			b.WriteString("\n")
		}
		if f.Kind == explore.KindUnsupported || f.Kind == explore.KindInternal {
			b.WriteString("unknown: ")
		}
		b.WriteString(f.String())
		if test != "" && f.Replay != "" && !replayed {
			fmt.Fprintf(&b, "replay with: go test -run '%s' -%s=%s\n", runPattern(test), ReplayFlag, f.Replay)
		}
	}
	for _, w := range r.Warnings {
		fmt.Fprintf(&b, "warning: %s\n", w)
	}
	if len(r.Findings) > 0 {
		b.WriteString(exploreReport(t, r, replayed) + "\n")
	}
	fail(t, exploreHeadline(r, verdict, replayed), b.String(), msg)
	return false
}

func exploreHeadline(r *explore.Report, verdict string, replayed bool) string {
	what := "the exploration"
	if replayed {
		what = "the replayed execution"
	}
	if verdict == "unknown" {
		if len(r.Findings) == 0 {
			return "ltltest: " + what + " was cut by a bound (unknown)"
		}
		return "ltltest: " + what + " could not run the body (unknown)"
	}
	kinds := make([]string, 0, len(r.Findings))
	seen := map[explore.Kind]bool{}
	for _, f := range r.Findings {
		if !seen[f.Kind] {
			seen[f.Kind] = true
			kinds = append(kinds, string(f.Kind))
		}
	}
	return fmt.Sprintf("ltltest: %s found %s", what, plural(len(r.Findings), "problem")) + " (" + strings.Join(kinds, ", ") + ")"
}

func exploreSummary(e *explore.Entry, r *explore.Report, replayed bool) string {
	var summary string
	if replayed {
		summary = fmt.Sprintf("entry: %s\nreplayed one execution (seed %d)", e.Name, r.Seed)
	} else {
		state := "complete"
		if !r.Complete {
			state = "incomplete: " + r.Bound + " bound reached"
		}
		summary = fmt.Sprintf("entry: %s\nexplored: %s with %s, %s", e.Name, plural(r.Executions, "execution"), r.Ran(), state)
	}
	if len(r.SpecPackages) > 0 {
		summary += "\n" + specsChecked(r)
	}
	return summary
}

// specsChecked names the packages whose //ltl:spec annotations the
// exploration checked.
func specsChecked(r *explore.Report) string {
	return "specs checked: " + strings.Join(r.SpecPackages, ", ")
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// testName is the name of the running test, if t has one.
func testName(t TestingT) string {
	if n, ok := t.(interface{ Name() string }); ok {
		return n.Name()
	}
	return ""
}

// runPattern is a go test -run pattern selecting exactly the test (and
// subtest) called name.
func runPattern(name string) string {
	parts := strings.Split(name, "/")
	for i, p := range parts {
		parts[i] = "^" + regexp.QuoteMeta(p) + "$"
	}
	return strings.Join(parts, "/")
}

// testContext ends the exploration a little before the test binary's
// deadline (go test -timeout), so a long exploration is reported as
// unknown instead of killing the test binary.
func testContext(t TestingT) (context.Context, context.CancelFunc) {
	d, ok := t.(interface{ Deadline() (time.Time, bool) })
	if !ok {
		return context.WithCancel(context.Background())
	}
	deadline, ok := d.Deadline()
	if !ok {
		return context.WithCancel(context.Background())
	}
	left := time.Until(deadline)
	return context.WithDeadline(context.Background(), deadline.Add(-left/10))
}

// optionArg separates an options value of type O (or *O) from the other
// arguments; the last one given wins.
func optionArg[O any](args []any) (opts O, rest []any) {
	for _, a := range args {
		switch a := a.(type) {
		case O:
			opts = a
		case *O:
			opts = *a
		default:
			rest = append(rest, a)
		}
	}
	return opts, rest
}

// exploreArgs separates an options value of type O (or *O) and an
// explore.LoadConfig (or a pointer to one) from the other arguments.
func exploreArgs[O any](args []any) (opts O, lc *explore.LoadConfig, rest []any) {
	opts, args = optionArg[O](args)
	for _, a := range args {
		switch a := a.(type) {
		case explore.LoadConfig:
			lc = &a
		case *explore.LoadConfig:
			lc = a
		default:
			rest = append(rest, a)
		}
	}
	return opts, lc, rest
}
