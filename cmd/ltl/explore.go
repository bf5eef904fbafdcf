package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/henceforth-go/henceforth/explore"
)

// exploreUsage is the help of ltl explore; its synopsis lists
// explore.Strategies.
var exploreUsage = `Usage: ltl explore [-run REGEX] [-strategy ` + strategyNames("|") + `] [-json]
                   [-seed N] [-max-executions N] [-max-steps N] [-max-loop N]
                   [-max-memory SIZE] [-timeout D] [-bounded]
                   [-shared] [-races=false] [-ignore-leaks FUNC,…] [-timer-leaks] [-workers N]
                   [-preemptions N] [-pct-depth N]
                   [-map-orders offsets|permutations] [-replay TOKEN] [-emit-test] [-find FORMULA]
                   [-specs NAME,… | -specs none] [-func NAME] [-html DIR] [-shard I/N] [PACKAGES]
       ltl explore -merge [-json] [FILES]

Runs the Test functions of PACKAGES (go/packages patterns, "." by default)
under the explorer, unchanged: every goroutine schedule is executed in an
interpreter and checked for deadlocks, goroutine leaks, unrecovered panics,
failed t.Error/t.Fatal, data races and violations of //ltl:spec
annotations (all of them, or those -specs names): those of the test's
package and of every package of the program it imports (an external test
package p_test checks p's), each over its own props. A dependency's specs
over events alone are judged only on paths where one of its events
happened. A leak is a goroutine the test started that is still blocked
when it returns; goroutines package initialization started are not the
test's, and -ignore-leaks names functions (as stacks name them) whose
blocked goroutines are not leaks either. Goroutines only timers can still
wake (a sleeping or ticking loop the test never stopped: a cache's
janitor, a pool's purge loop) are background loops, not leaks: each is
woken once after the test returned, then the run ends; -timer-leaks
reports them as leaks too.

Subtests: a test that calls t.Run is explored one subtest at a time, as
go test -run 'TestX/case' runs it: each subtest (at every depth: those
without subtests of their own) is an exploration of its own, reported
under the name go test -v gives it ("TestX/case_1", "TestX/dup#01"), in
which the other subtests' t.Run calls return true without running them.
A first execution of the test with every subtest skipped finds their
names. If the test's own code (outside its subtests) starts goroutines,
makes a scheduling choice or ends with a finding there, which subtests
run could depend on the schedule: the test is explored whole with its
subtests, and a warning says so. -run takes go test's syntax: the
pattern is split by unbracketed '/' into one regular expression per
level (and by unbracketed '|' into alternatives): -run TestX/case
explores the subtests of TestX matching "case", -run /case those of
every test.

Data races are checked on every explored execution, like go test -race
but on every schedule: every load and store is checked against Go's
happens-before (channels, locks, WaitGroup, Once, atomics, go statements,
timers; never sleeps). Checking adds no scheduling point. -shared also
makes each access to memory another goroutine can reach a scheduling
point, so the orders of conflicting accesses are explored too (finds
check-then-act bugs; many more schedules). -races=false turns checking
off.

Strategies: auto (the default) runs dpor and, if dpor's share of the
budget runs out before it completes, samples schedules with pct for the
rest: with -timeout, dpor gets half of it; without, dpor gets 10s, then
pct 10s, then (if pct found nothing) dpor again from the start, bounded by
-max-executions only. A pass is complete only if dpor completed. dpor
explores every schedule up to partial-order reduction; dfs every schedule;
pb those with at most -preemptions preemptions; random and pct sample
-max-executions schedules (1000 by default) and never prove anything.

Bounds: -max-executions per test, that is per exploration: per subtest
for a test with subtests (100000 by default; 1000 for random and
pct; the executions dpor prunes as redundant, sleep-set-blocked, do not
count: the result line counts the others), -max-steps scheduling steps per execution (1000000), -max-loop loop
iterations per execution (100000000: stops loops that spin without a
scheduling point), -max-memory the explorer's heap (half of the machine's
memory by default, or of the cgroup's limit; "0" for none; units B, KB, MB,
GB, TB), -timeout the time per test, that is per exploration (none by
default; loading the packages and the executions that find the subtests
count against none). A result cut by a bound is unknown, and
says which bound and what would do better. With -bounded, a test whose
exploration a bound cut without any finding is reported as "bounded" and
does not fail the exit status: nothing was found within the budget, which
is not a proof (the mode for CI runs with -timeout). Unsupported
constructs stay unknown.

The iteration order of every range over a map is a choice too (Go
randomizes it): by default each start of the insertion order (n orders
for n entries); -map-orders permutations explores every order (n!).

Output: one block per finding (the interleaving table, goroutine stacks,
output and a replay token), then one line per test:
  pass     TEST  N executions (STRATEGY, complete)
  fail     TEST  N executions (STRATEGY, ...): K findings
  unknown  TEST  N executions (STRATEGY, BOUND bound reached): …
  bounded  TEST  N executions (STRATEGY, BOUND bound reached): … (-bounded)
           suggestion: what would do better
STRATEGY is what ran: for auto, "dpor", or "dpor, then pct: N + M
executions".
followed, when specs were checked, by
           specs checked: PACKAGE, …
"unknown" means nothing was proved: a bound cut the exploration, or the
test uses something the explorer cannot run (an "unsupported" finding).

With -json, one JSON object per line on standard output for each finding:
  {"test":…,"kind":…,"message":…,"position":"file:line:col","replay":…,"steps":N,"seen":N}
"test" is the package-qualified name of the test or subtest
("example.com/p.TestX/case_1"). "seen" counts the executions that showed
the finding. A failed test is one
finding per failing call (its first t.Error/t.Fatal…), whatever the message
says: when executions printed different messages, "variants" lists them
(and the text output says "the same failure in N executions, with M
messages: …").
kind is deadlock, leak, panic, race, test-failure, ltl, unsupported or
internal; a test whose exploration was incomplete without findings gets one
object of kind "unknown" (position and replay empty).

-func NAME explores that function instead of the Test functions: a
function without parameters, or one marked //ltl:symbolic whose
parameters are symbolic inputs.

-replay TOKEN runs exactly the execution of a finding's token, of the one
test -run selects; a subtest's token needs -run to select that subtest
(anchor each level: -run '^TestX$/^case_1$'; the text output prints
this command after each finding of a subtest).

Symbolic inputs (ltltest.Symbolic, //ltl:symbolic): a finding on a
symbolic path prints the inputs that reach it and the path condition; in
-json its object has "inputs" (input name to value) and "path_condition".
-emit-test prints, after each such finding, a Go regression test that
reproduces it natively with those inputs (in -json: "regression_test").

-shard I/N explores only the I-th of N parts (from 1) of each test's
schedules: N runs with every I, anywhere and without communicating, cover
the schedules of one run, each happens-before class in exactly one part.
With -json each test's output ends with a line of kind "shard":
  {"test":…,"kind":"shard","message":VERDICT,"shard":"I/N","complete":BOOL,"executions":N}
and every line has "shard" (a finding's also "key", which names it
whichever goroutines showed it: -merge merges the findings with one key).
-merge reads those outputs (FILES, or standard
input) and prints the report and exit status of one run: a test passes
only if every part 1..N is there and complete without findings; a part
missing or incomplete makes it unknown. A replay token of any part
replays without -shard.

-find FORMULA searches each test for an interleaving that satisfies
FORMULA (scenario search; see explorefind.go) and prints the witness.

-html DIR writes, for each test with findings (or each witness, with
-find), a self-contained HTML report into DIR: the interleaving as a
timeline with a lane per goroutine, the source of each step, the stacks,
the replay command (with the flags that change an execution, such as
-shared); standard error names each file.

Progress (executions, findings, rate) goes to standard error at most once a
second when it is a terminal.

Exit status: 0 every test passed a complete exploration (with -bounded:
or found nothing before a bound cut it), 1 a finding or an unknown
(incomplete) result, 2 usage or load error.
`

func init() {
	x := &explorer{load: explore.Load}
	register(&command{name: "explore", summary: "explore the goroutine schedules of Go tests", usage: exploreUsage, run: x.run})
}

// explorer is the explore command. load is explore.Load (tests substitute
// a loader that reuses programs across runs).
type explorer struct {
	load func(context.Context, explore.LoadConfig) (*explore.Program, error)
}

// loader returns the environment's loader if it has one, else x.load.
func (x *explorer) loader(e *env) func(context.Context, explore.LoadConfig) (*explore.Program, error) {
	if e.load != nil {
		return e.load
	}
	return x.load
}

// exploreFlags are the flags of ltl explore. To add a flag: a field here,
// a line in register, and its use in options or runExplore.
type exploreFlags struct {
	run           string
	strategy      string
	json          bool
	seed          int64
	maxExecutions int
	maxSteps      int
	maxLoop       int
	maxMemory     string
	timeout       time.Duration
	bounded       bool
	ignoreLeaks   string
	timerLeaks    bool
	earlyFire     time.Duration
	shared        bool
	races         bool
	workers       int
	preemptions   int
	pctDepth      int
	mapOrders     string
	replay        string
	emitTest      bool
	find          string
	specs         string
	fn            string
	html          string
	shard         string
	merge         bool
}

func (f *exploreFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.run, "run", "", "explore only the tests and subtests matching `regex` (go test's syntax: one regexp per level, split by '/')")
	fs.StringVar(&f.strategy, "strategy", string(explore.Auto), "`strategy`: "+strategyNames(", "))
	fs.BoolVar(&f.json, "json", false, "print one JSON object per finding")
	fs.Int64Var(&f.seed, "seed", 0, "`seed` of random and pct (and math/rand)")
	fs.IntVar(&f.maxExecutions, "max-executions", 0, "bound on executions per test or subtest (0: the default)")
	fs.IntVar(&f.maxSteps, "max-steps", 0, "bound on scheduling steps per execution (0: the default)")
	fs.IntVar(&f.maxLoop, "max-loop", 0, "bound on loop iterations per execution (0: the default)")
	fs.StringVar(&f.maxMemory, "max-memory", "", "bound on the explorer's heap, e.g. 2GB (default: half of the machine's memory; 0: none)")
	fs.DurationVar(&f.timeout, "timeout", 0, "bound on the time per test or subtest, loading the packages excluded (0: none)")
	fs.BoolVar(&f.bounded, "bounded", false, "accept an exploration a bound cut without findings (reported as bounded: nothing found within the budget, not a proof) instead of failing it as unknown")
	fs.StringVar(&f.ignoreLeaks, "ignore-leaks", "", "comma-separated `functions` (as stacks name them, pkg.(*T).M): a goroutine blocked in one of them when the test returns is not a leak")
	fs.BoolVar(&f.timerLeaks, "timer-leaks", false, "also report as leaks the goroutines only timers can still wake when the test returns (sleeping or ticking loops never stopped)")
	fs.DurationVar(&f.earlyFire, "early-fire", time.Millisecond, "timers and sleeps due within `D` may expire at any scheduling point, not only when no goroutine can move (0: never)")
	fs.BoolVar(&f.shared, "shared", false, "also schedule at loads and stores of memory other goroutines can reach (explores the orders of racing accesses)")
	fs.BoolVar(&f.races, "races", true, "check every explored execution for data races")
	fs.IntVar(&f.workers, "workers", 1, "parallel workers (every strategy)")
	fs.IntVar(&f.preemptions, "preemptions", 2, "largest preemption bound of pb")
	fs.IntVar(&f.pctDepth, "pct-depth", 3, "bug depth of pct")
	fs.StringVar(&f.mapOrders, "map-orders", string(explore.MapOffsets), "iteration orders of ranges over maps: `offsets` (every start of the insertion order) or permutations (every order)")
	fs.StringVar(&f.replay, "replay", "", "run only the execution of this replay `token`")
	fs.BoolVar(&f.emitTest, "emit-test", false, "print a Go regression test for each finding with symbolic inputs")
	fs.StringVar(&f.fn, "func", "", "explore the function `name` (e.g. a //ltl:symbolic function) instead of Test functions")
	fs.StringVar(&f.specs, "specs", "", "comma-separated `names` of the //ltl:spec annotations to check (default all; \"none\": none)")
	fs.StringVar(&f.shard, "shard", "", "explore only part `I/N` of each test's schedules, the I-th of N (from 1); the N parts' -json outputs merge with -merge")
	fs.BoolVar(&f.merge, "merge", false, "merge the -json outputs of the shards of a run (the FILES arguments, or standard input) into its report and exit status")
	fs.StringVar(&f.find, "find", "", "search for an interleaving satisfying `formula` instead of checking")
	fs.StringVar(&f.html, "html", "", "write an HTML report of each test with findings (or of each witness, with -find) into `dir`")
}

// strategyNames lists the names of explore.Strategies, separated by sep.
func strategyNames(sep string) string {
	var names []string
	for _, s := range explore.Strategies() {
		names = append(names, string(s))
	}
	return strings.Join(names, sep)
}

// options validates the flags and converts them to explore.Options.
func (f *exploreFlags) options() (explore.Options, error) {
	var o explore.Options
	s, err := explore.ParseStrategy(f.strategy)
	if err != nil {
		return o, fmt.Errorf("-strategy: %w", err)
	}
	o.Strategy = s
	for _, n := range []struct {
		name string
		v    int
	}{{"max-executions", f.maxExecutions}, {"max-steps", f.maxSteps}, {"max-loop", f.maxLoop}, {"workers", f.workers}, {"preemptions", f.preemptions}, {"pct-depth", f.pctDepth}} {
		if n.v < 0 {
			return o, fmt.Errorf("-%s: must not be negative, got %d", n.name, n.v)
		}
	}
	if f.timeout < 0 {
		return o, fmt.Errorf("-timeout: must not be negative, got %s", f.timeout)
	}
	if f.earlyFire < 0 {
		return o, fmt.Errorf("-early-fire: must not be negative, got %s", f.earlyFire)
	}
	switch m := explore.MapOrder(f.mapOrders); m {
	case explore.MapOffsets, explore.MapPermutations:
		o.MapOrders = m
	default:
		return o, fmt.Errorf("-map-orders: unknown mode %q (want offsets or permutations)", f.mapOrders)
	}
	o.Seed = f.seed
	o.MaxExecutions = f.maxExecutions
	o.MaxSteps = f.maxSteps
	o.MaxLoop = f.maxLoop
	if f.maxMemory != "" {
		n, err := explore.ParseBytes(f.maxMemory)
		if err != nil {
			return o, fmt.Errorf("-max-memory: %w", err)
		}
		o.MaxMemory = n
		if n == 0 {
			o.MaxMemory = -1 // no bound
		}
	}
	o.Timeout = f.timeout
	o.EarlyFire = f.earlyFire
	if f.earlyFire == 0 {
		o.EarlyFire = -1
	}
	o.Shared = f.shared
	o.NoRaces = !f.races
	if f.ignoreLeaks != "" {
		o.IgnoreLeaks = strings.Split(f.ignoreLeaks, ",")
	}
	o.ReportTimerLeaks = f.timerLeaks
	o.Workers = f.workers
	o.Preemptions = f.preemptions
	o.PCTDepth = f.pctDepth
	o.Replay = f.replay
	if f.shard != "" {
		if o.Shard, err = explore.ParseShard(f.shard); err != nil {
			return o, fmt.Errorf("-shard: %w", err)
		}
		if f.find != "" && o.Shard.Sharded() {
			// (-merge reads explorations' outputs, not searches'; and a
			// search matches states, which most parts reach: its shards
			// would each search nearly the whole state space)
			return o, fmt.Errorf("-shard: a search (-find) is not split: run it without -shard")
		}
	}
	switch f.specs {
	case "":
	case "none":
		o.NoSpecs = true
	default:
		for _, name := range strings.Split(f.specs, ",") {
			if name = strings.TrimSpace(name); name == "" {
				return o, fmt.Errorf("-specs: empty spec name in %q", f.specs)
			}
			o.Specs = append(o.Specs, strings.TrimSpace(name))
		}
	}
	return o, nil
}

func (x *explorer) run(e *env, args []string) (int, error) {
	var f exploreFlags
	fs := newFlags("explore")
	f.register(fs)
	pkgs, err := parseInterspersed(fs, args)
	if err != nil {
		return 2, err
	}
	if f.merge {
		return mergeShards(e, pkgs, f.json)
	}
	opts, err := f.options()
	if err != nil {
		return 2, err
	}
	var run *explore.RunPattern
	if f.run != "" {
		if run, err = explore.ParseRun(f.run); err != nil {
			return 2, fmt.Errorf("-run: %w", err)
		}
	}
	if len(pkgs) == 0 {
		pkgs = []string{"."}
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	p, err := x.loader(e)(ctx, explore.LoadConfig{Patterns: pkgs})
	if err != nil {
		return 2, err
	}
	var tests []*explore.Entry
	if f.fn != "" {
		if f.run != "" {
			return 2, fmt.Errorf("-func and -run are exclusive")
		}
		entry, err := p.Func(f.fn)
		if err != nil {
			return 2, fmt.Errorf("-func: %w", err)
		}
		tests = []*explore.Entry{entry}
	} else {
		for _, t := range p.Tests(nil) {
			if !run.Match(t.Fn.Name()) {
				continue
			}
			subs, err := p.Subtests(ctx, t, run, opts)
			if err != nil {
				return 2, err
			}
			tests = append(tests, subs...)
		}
	}
	switch {
	case len(tests) == 0 && f.run != "":
		return 2, fmt.Errorf("no Test function of %s matches -run %q", strings.Join(pkgs, " "), f.run)
	case len(tests) == 0:
		return 2, fmt.Errorf("no Test function in %s", strings.Join(pkgs, " "))
	case f.replay != "" && len(tests) > 1:
		return 2, fmt.Errorf("-replay: -run must select exactly one test, %d match (%s); anchor each level, e.g. -run '^TestX$/^case$'", len(tests), testNames(tests))
	}

	out := newExploreOutput(e, f.json)
	out.emitTest = f.emitTest
	out.bounded = f.bounded
	out.html, out.fn, out.pkgs = f.html, f.fn, pkgs
	out.replayFlags = replayFlags(fs)
	status := 0
	for _, t := range tests {
		if f.find != "" {
			ok, err := out.find(ctx, p, t, f.find, opts)
			if err != nil {
				return 2, err
			}
			if !ok {
				status = 1
			}
			continue
		}
		o := opts
		o.Progress = out.progress(t)
		r, err := p.Explore(ctx, t, o)
		out.endProgress()
		if err != nil {
			return 2, err
		}
		if v := out.report(t, r, f.replay != ""); v != "pass" && v != "bounded" {
			status = 1
		}
		if err := out.writeHTML(t, r); err != nil {
			return 2, err
		}
	}
	return status, out.err
}

func testNames(tests []*explore.Entry) string {
	names := make([]string, len(tests))
	for i, t := range tests {
		names[i] = t.TestName()
	}
	return strings.Join(names, ", ")
}

// jsonFinding is one line of -json output. The field names are part of
// the CLI's contract (the README's "ltl explore" lines). To add a field: add it here and fill it
// in newJSONFinding.
type jsonFinding struct {
	Test     string `json:"test"`
	Kind     string `json:"kind"`
	Message  string `json:"message"`
	Position string `json:"position"`
	Replay   string `json:"replay"`
	Steps    int    `json:"steps"`
	// Seen is the number of executions that showed the finding; Variants
	// the distinct messages of a test failure's executions when there
	// are several.
	Seen     int      `json:"seen,omitempty"`
	Variants []string `json:"variants,omitempty"`
	// Symbolic explorations: the inputs that reach the finding, the path
	// condition in Go syntax, and with -emit-test a regression test.
	Inputs         map[string]any `json:"inputs,omitempty"`
	PathCondition  string         `json:"path_condition,omitempty"`
	RegressionTest string         `json:"regression_test,omitempty"`
	// Suggestion: for kind "unknown", what would do better.
	Suggestion string `json:"suggestion,omitempty"`
	// Shard is the part of a sharded run ("2/4"); a line of kind
	// "shard" closes each test of a shard's output (shard.go).
	Shard      string `json:"shard,omitempty"`
	Complete   *bool  `json:"complete,omitempty"`
	Executions int    `json:"executions,omitempty"`
	// Key identifies a finding across shards (explore.Finding.Key), in a
	// shard's output only: -merge merges the findings with one key.
	Key string `json:"key,omitempty"`
}

func newJSONFinding(test string, f *explore.Finding) jsonFinding {
	pos := ""
	if f.Pos.IsValid() {
		pos = f.Pos.String()
	}
	return jsonFinding{Test: test, Kind: string(f.Kind), Message: f.Message, Position: pos, Replay: f.Replay, Steps: f.Steps,
		Seen: f.Seen, Variants: f.Variants, Inputs: f.InputMap(), PathCondition: f.PathCondition}
}

// exploreOutput prints the results of ltl explore: findings and summary
// lines on stdout (or JSON lines with -json), warnings and progress on
// stderr.
type exploreOutput struct {
	stdout, stderr io.Writer
	json           bool
	emitTest       bool            // -emit-test
	bounded        bool            // -bounded
	html           string          // -html: the directory of the reports
	fn             string          // -func
	pkgs           []string        // the packages explored
	replayFlags    []string        // the flags a replay repeats (replayFlags)
	terminal       bool            // stderr is a terminal: print progress
	warned         map[string]bool // warnings printed once
	err            error           // first write error

	mu       sync.Mutex // progress may be reported from worker goroutines
	lastProg time.Time
	progLine bool // a progress line is on the terminal
}

func newExploreOutput(e *env, asJSON bool) *exploreOutput {
	return &exploreOutput{stdout: e.stdout, stderr: e.stderr, json: asJSON, terminal: isTerminal(e.stderr), warned: map[string]bool{}}
}

// isTerminal reports whether w is a character device (a terminal).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// progress returns the Options.Progress callback for test t: a line on
// the terminal at most once a second; nil when stderr is not a terminal.
func (o *exploreOutput) progress(t *explore.Entry) func(explore.Progress) {
	if !o.terminal {
		return nil
	}
	return func(p explore.Progress) {
		o.mu.Lock()
		defer o.mu.Unlock()
		if time.Since(o.lastProg) < time.Second {
			return
		}
		o.lastProg = time.Now()
		rate := 0.0
		if s := p.Elapsed.Seconds(); s > 0 {
			rate = float64(p.Executions) / s
		}
		fmt.Fprintf(o.stderr, "\r\033[K%s: %d executions, %d findings, %.0f executions/s, %s",
			t.Name, p.Executions, p.Findings, rate, p.Elapsed.Round(time.Second))
		o.progLine = true
	}
}

// endProgress clears the progress line.
func (o *exploreOutput) endProgress() {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.progLine {
		fmt.Fprint(o.stderr, "\r\033[K")
		o.progLine = false
	}
}

// report prints the findings and summary of one test and returns its
// verdict ("pass", "fail" or "unknown"; with -bounded, "bounded" for an
// exploration a bound cut without findings). A replayed execution without
// finding passes.
func (o *exploreOutput) report(t *explore.Entry, r *explore.Report, replayed bool) string {
	for _, w := range r.Warnings {
		if !o.warned[w] {
			o.warned[w] = true
			o.printf(o.stderr, "ltl explore: warning: %s\n", w)
		}
	}
	verdict := r.Verdict()
	if o.bounded && verdict == "unknown" && len(r.Findings) == 0 && !r.Complete && !replayed {
		verdict = "bounded"
	}
	if o.json {
		for _, f := range r.Findings {
			jf := newJSONFinding(r.Entry, f)
			if o.emitTest && len(f.Inputs) > 0 {
				jf.RegressionTest, _ = explore.EmitTest(t, f)
			}
			jf.Shard = r.Shard.String()
			if jf.Shard != "" {
				jf.Key = f.Key()
			}
			o.writeJSON(jf)
		}
		if len(r.Findings) == 0 && (verdict == "unknown" || verdict == "bounded") {
			o.writeJSON(jsonFinding{Test: r.Entry, Kind: verdict, Message: incompleteMessage(r, verdict), Suggestion: r.Suggestion, Shard: r.Shard.String()})
		}
		if r.Shard != (explore.Shard{}) && !replayed {
			o.writeJSON(shardLine(r, verdict))
		}
		return verdict
	}
	for _, f := range r.Findings {
		o.printf(o.stdout, "--- %s: %s\n%s\n", r.Entry, f.Kind, f.String())
		if len(t.Path) > 0 && f.Replay != "" && !replayed {
			o.printf(o.stdout, "replay with: ltl explore -run '%s' -replay %s\n", subtestRun(t), f.Replay)
		}
		if o.emitTest && len(f.Inputs) > 0 {
			if src, err := explore.EmitTest(t, f); err != nil {
				o.printf(o.stderr, "ltl explore: -emit-test: %v\n", err)
			} else {
				o.printf(o.stdout, "regression test:\n%s\n", src)
			}
		}
	}
	detail := fmt.Sprintf("%s, complete", r.Strategy)
	switch {
	case replayed:
		detail = fmt.Sprintf("replay, seed %d", r.Seed)
	case !r.Complete:
		detail = fmt.Sprintf("%s, %s bound reached", r.Ran(), r.Bound)
	case verdict == "unknown":
		detail = r.Ran()
	}
	if r.Shard != (explore.Shard{}) && !replayed {
		detail = "shard " + r.Shard.String() + ", " + detail
	}
	line := fmt.Sprintf("%-8s %s  %s (%s)", verdict, r.Entry, plural(r.Executions, "execution"), detail)
	switch n := len(r.Findings); {
	case n > 0 && verdict == "unknown":
		line += ": " + plural(n, "finding") + " that stopped the exploration; nothing is proved"
	case n > 0:
		line += ": " + plural(n, "finding")
	case verdict == "unknown" || verdict == "bounded":
		line += ": " + incompleteMessage(r, verdict)
	}
	o.printf(o.stdout, "%s\n", line)
	if r.Suggestion != "" && !replayed {
		o.printf(o.stdout, "         suggestion: %s\n", r.Suggestion)
	}
	if len(r.SpecPackages) > 0 {
		o.printf(o.stdout, "         specs checked: %s\n", strings.Join(r.SpecPackages, ", "))
	}
	return verdict
}

// subtestRun is the -run pattern that selects exactly the subtest of
// entry t: each level of its name anchored and quoted.
func subtestRun(t *explore.Entry) string {
	parts := append([]string{t.Fn.Name()}, t.Path...)
	for i, p := range parts {
		parts[i] = "^" + regexp.QuoteMeta(p) + "$"
	}
	return strings.Join(parts, "/")
}

// incompleteMessage says why an exploration without findings is
// incomplete; verdict is "unknown", or "bounded" when -bounded accepts it.
func incompleteMessage(r *explore.Report, verdict string) string {
	head := "incomplete"
	if verdict == "bounded" {
		head = "nothing found within the bound"
	}
	if r.Bound == "concretized" {
		return fmt.Sprintf("%s: %s fixed to one of many values after %s (%s); nothing is proved", head,
			plural(len(r.Concretized), "symbolic value"), plural(r.Executions, "execution"), strings.Join(r.Concretized, "; "))
	}
	if r.Bound == "schedules" && len(r.Phases) > 1 {
		last := r.Phases[len(r.Phases)-1]
		return fmt.Sprintf("%s: sampled %s (%s): the schedule space is too large to enumerate; nothing is proved", head,
			plural(last.Executions, "execution"), last.Strategy)
	}
	return fmt.Sprintf("%s: the %s bound was reached after %s; nothing is proved", head, r.Bound, plural(r.Executions, "execution"))
}

// writeHTML writes the HTML report of test t's findings with -html and
// names it on standard error.
func (o *exploreOutput) writeHTML(t *explore.Entry, r *explore.Report) error {
	if o.html == "" {
		return nil
	}
	path, err := writeExploreHTML(o.html, t, r, o.fn, o.replayFlags, o.pkgs)
	if path != "" {
		o.printf(o.stderr, "ltl explore: report: %s\n", path)
	}
	return err
}

func (o *exploreOutput) writeJSON(v jsonFinding) {
	b, err := json.Marshal(v)
	if err != nil {
		o.setErr(err)
		return
	}
	o.printf(o.stdout, "%s\n", b)
}

func (o *exploreOutput) printf(w io.Writer, format string, args ...any) {
	if _, err := fmt.Fprintf(w, format, args...); err != nil {
		o.setErr(err)
	}
}

func (o *exploreOutput) setErr(err error) {
	if o.err == nil {
		o.err = err
	}
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
