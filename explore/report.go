package explore

import (
	"fmt"
	"go/token"
	"sort"
	"strings"
	"text/tabwriter"
	"time"
)

// Kind classifies findings. The strings are part of the CLI's JSON output.
type Kind string

const (
	KindDeadlock    Kind = "deadlock"     // every goroutine blocked before the entry returned
	KindLeak        Kind = "leak"         // goroutines blocked forever after the entry returned
	KindPanic       Kind = "panic"        // unrecovered panic or fatal runtime error
	KindRace        Kind = "race"         // data race (checked unless Options.NoRaces)
	KindTestFailure Kind = "test-failure" // t.Error, t.Fatal…
	KindLTL         Kind = "ltl"          // a monitor reported a violation
	KindUnsupported Kind = "unsupported"  // the program uses something the explorer cannot run
	KindInternal    Kind = "internal"     // a bug in the explorer itself
)

// Finding is one problem found on one execution path.
type Finding struct {
	Kind    Kind
	Test    string // the entry's name
	Message string
	Pos     token.Position
	// Steps is the number of scheduling steps of the execution.
	Steps int
	// Replay reproduces exactly this execution (see Options.Replay).
	Replay string
	// Trace is the interleaving: one row per scheduling step, plus rows
	// for goroutine starts, clock advances and the failure itself.
	Trace []Step
	// Goroutines are the stacks at the point of failure.
	Goroutines []GoroutineStack
	// Output is what the program printed (fmt, println, t.Log…).
	Output string
	// Execution is the number of the execution (1-based) it occurred in.
	Execution int
	// Explanation is additional detail (e.g. from a monitor).
	Explanation string
	// Inputs are values of the symbolic inputs, in order of declaration,
	// that make the program take this finding's path (from a model of
	// PathCondition); nil outside symbolic explorations.
	Inputs []Input
	// PathCondition is the conjunction of the branch conditions of the
	// path, in Go syntax ("true" if no branch depended on an input).
	PathCondition string
	// Concretized lists where the path fixed a symbolic value to a
	// concrete one ("file:line: n+1 concretized to 3 (map key)"): the
	// finding holds for these values, other values were not explored.
	Concretized []string
	// Seen is the number of executions that showed this finding: the
	// same kind at the same place (for a test failure, the same failing
	// call of the test whatever its message; for a race, the same pair of
	// accesses). The finding itself is the one with the fewest steps.
	Seen int
	// Variants are the distinct messages of a test failure's executions,
	// sorted, when there are several (a message that prints a value the
	// schedule decides); Message is one of them, that of this execution.
	// Nil otherwise.
	Variants []string
	// Spec is, for an ltl finding of a //ltl:spec, the trace of the
	// spec's atoms its monitor was stepped on; nil otherwise.
	Spec *SpecTrace

	path *findingPath // for computing Inputs (symbolic.go)
	// race identifies a race's earlier access, whose stack a replay
	// completes (race.go); raceKey is its pair of positions.
	race    *raceCapture
	raceKey string
	// specKey identifies the violated spec of an ltl finding from the
	// spec checker (name and declaration): one finding per spec
	// (specmon.go).
	specKey string
}

// Step is one row of an interleaving.
type Step struct {
	N         int // scheduling step (1-based); 0 for information rows
	Goroutine int
	Pos       token.Position
	Op        string
	// Object names the channel or synchronization object the step
	// operated on ("chan#3", "sync#1": a mutex, WaitGroup, Once, Cond…),
	// numbered per execution, so that steps on the same object can be
	// matched (a lock hand-off, a send and its receive); "" for other
	// steps.
	Object string
}

// SpecTrace is the trace on which a //ltl:spec was violated: one event per
// position its monitor was stepped at, with the atoms that held there.
type SpecTrace struct {
	Name    string // the spec's name
	Formula string // its formula (ltl.Parse reads it back)
	Pos     token.Position
	// Atoms are the monitor's atoms, sorted.
	Atoms  []string
	Events []SpecEvent
	// Violation is the index of the event after which no continuation
	// could satisfy the formula (-1 when the violation was decided at the
	// end of the execution).
	Violation int
}

// SpecEvent is one position of a SpecTrace.
type SpecEvent struct {
	Step      int    // the scheduling step it followed
	Goroutine int    // the goroutine that made it
	What      string // "call F", "event m2", "state", "end state"…
	Atoms     []string
}

// GoroutineStack is the call stack of one goroutine, innermost first.
type GoroutineStack struct {
	ID     int
	State  string // "running", "blocked on chan receive", "finished"…
	Frames []StackFrame
}

// StackFrame is one frame of a stack.
type StackFrame struct {
	Func string
	Pos  token.Position
}

// Report is the result of exploring one entry.
type Report struct {
	Entry    string
	Findings []*Finding
	// Executions is the number of complete or cut executions explored.
	Executions int
	// Complete is true when the strategy explored its whole search space
	// without hitting a bound (for exhaustive strategies: every schedule,
	// up to partial-order reduction).
	Complete bool
	// Bound names the bound that cut the exploration ("memory", "time",
	// "executions", "schedules", "steps", "preemptions", "solver",
	// "concretized") when not Complete; "" otherwise. "schedules": Auto
	// found the schedule space too large to enumerate in its budget and
	// sampled it (the DPOR phase's Reason says why).
	Bound string
	// Suggestion says, when a bound cut the exploration, which bound and
	// what would do better ("the steps bound (1000) was reached …: raise
	// it (-max-steps, ltltest.WithMaxSteps)"); "" otherwise.
	Suggestion string
	// Strategy is what ran: the strategy, or for Auto the strategies in
	// order ("dpor", "dpor, then pct"); Phases details them.
	Strategy string
	// Phases are the strategies Auto ran, in order, with their
	// executions; nil for the other strategies.
	Phases  []Phase
	Seed    int64
	Elapsed time.Duration
	// MaxSteps is the largest number of steps of one execution.
	MaxSteps int
	// Goroutines is the largest number of goroutines of one execution.
	Goroutines int
	// Classes is the number of distinct happens-before classes among the
	// explored executions (computed only with Options.CountClasses).
	Classes int
	// Pruned counts executions DPOR cut because every enabled transition
	// was in the sleep set (redundant with explored ones). They are not
	// in Executions and do not count toward Options.MaxExecutions.
	Pruned int
	// Shard is the part of the exploration the report covers (the zero
	// value: all of it); Complete then says that the part is complete.
	Shard Shard
	// Skipped counts the executions of a sharded exploration that were
	// cut at a split point without an alternative of its shard, or that
	// ended above every split point and belong to another shard: the
	// price of sharding without communication. They are not in
	// Executions and do not count toward Options.MaxExecutions.
	Skipped int
	// Probes counts the executions a sharded DPOR exploration ran before
	// exploring, to estimate the sizes of the subtrees it deals to the
	// shards (every shard runs the same ones). They are not in Executions
	// and do not count toward Options.MaxExecutions.
	Probes int
	// Inconclusive counts executions of a symbolic exploration on which
	// the solver could not decide a branch (time limit): a side was not
	// explored. Bound is then "solver" and Warnings say where.
	Inconclusive int
	// Infeasible counts branch sides the solver proved infeasible, summed
	// over executions (a side pruned on a shared prefix counts once per
	// execution through it).
	Infeasible int
	// Warnings are problems that did not stop the exploration, e.g. a
	// dependency whose package initialization is unsupported (its
	// functions are then unsupported if called), or a range over a map
	// that visited entries added during the range: one per source
	// position, after the others, in position order. They do not change
	// Complete or the verdict.
	Warnings []string
	// SpecPackages are the import paths of the packages whose //ltl:spec
	// annotations were checked, each by its own monitors: the entry's
	// package first (if it has specs), then the user packages it imports
	// (for an external test package p_test, p among them), by path.
	SpecPackages []string
	// Concretized lists the symbolic values the exploration fixed to one
	// value without covering the others ("file:line: n concretized to 0
	// (makeslice size): not covered, …"): a value that could take more
	// than Options.MaxSplit values where a concrete one was needed, or one
	// that worded a panic the program recovered. Bound is then
	// "concretized" (Verdict unknown). Values split into all their values
	// are covered and not listed (Finding.Concretized shows them).
	Concretized []string

	// boundReason is the reason of a "schedules" bound (Phase.Reason),
	// estimate the time DPOR estimated it needed.
	boundReason string
	estimate    time.Duration
	// classSet holds the hashes of Classes, pathSet those of the
	// executions' paths (tests compare shards' sets).
	classSet, pathSet map[uint64]bool
}

// Phase is one strategy run by Auto.
type Phase struct {
	Strategy   string
	Executions int
	// Complete: the phase explored its whole search space (only DPOR
	// can).
	Complete bool
	// Bound is the bound that ended the phase ("" if complete or stopped
	// by a finding).
	Bound string
	// Reason says why a phase with Bound "schedules" gave up: how many
	// schedules DPOR still had to explore and how long that would take
	// at its pace ("2993 schedules pending after 1 execution: about 1h
	// at 1.4s per execution, beyond DPOR's share of 10s").
	Reason string
}

// Ran describes what ran: the strategy, or Auto's phases with their
// executions ("dpor, then pct: 120 + 3400 executions").
func (r *Report) Ran() string {
	if len(r.Phases) < 2 {
		return r.Strategy
	}
	names := make([]string, len(r.Phases))
	counts := make([]string, len(r.Phases))
	for i, p := range r.Phases {
		names[i] = p.Strategy
		counts[i] = fmt.Sprint(p.Executions)
	}
	return strings.Join(names, ", then ") + ": " + strings.Join(counts, " + ") + " executions"
}

// Verdict summarizes a report: "fail" if a finding shows a bug in the
// program; otherwise "unknown" if the exploration could not run the
// program (unsupported, internal) or a bound cut it; "pass" only for a
// complete exploration without findings.
func (r *Report) Verdict() string {
	unknown := !r.Complete
	for _, f := range r.Findings {
		switch f.Kind {
		case KindUnsupported, KindInternal:
			unknown = true
		default:
			return "fail"
		}
	}
	if unknown {
		return "unknown"
	}
	return "pass"
}

// headline is "kind: msg", or msg alone when Go's own words already name
// the kind ("panic: …").
func (f *Finding) headline(msg string) string {
	if strings.HasPrefix(msg, string(f.Kind)+": ") {
		return msg
	}
	return string(f.Kind) + ": " + msg
}

// String formats a finding with its interleaving and stacks.
func (f *Finding) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s\n", f.Pos, f.headline(f.Message))
	if f.Explanation != "" {
		fmt.Fprintf(&b, "%s\n", f.Explanation)
	}
	if len(f.Inputs) > 0 {
		fmt.Fprintf(&b, "inputs: %s\npath condition: %s\n", formatInputs(f.Inputs), f.PathCondition)
	}
	for _, c := range f.Concretized {
		fmt.Fprintf(&b, "concretized: %s\n", c)
	}
	if len(f.Variants) > 1 {
		fmt.Fprintf(&b, "the same failure in %s, with %s: %s\n",
			plural(f.Seen, "execution"), plural(len(f.Variants), "message"), summarize(f.Variants, 5))
	}
	fmt.Fprintf(&b, "interleaving (%d steps, execution %d):\n", f.Steps, f.Execution)
	b.WriteString(FormatTrace(f.Trace))
	if len(f.Goroutines) > 0 {
		b.WriteString("goroutines:\n")
		for _, g := range f.Goroutines {
			fmt.Fprintf(&b, "goroutine %d [%s]:\n", g.ID, g.State)
			for _, fr := range g.Frames {
				fmt.Fprintf(&b, "\t%s\n\t\t%s\n", fr.Func, fr.Pos)
			}
		}
	}
	if f.Output != "" {
		fmt.Fprintf(&b, "output:\n%s", indent(f.Output))
	}
	fmt.Fprintf(&b, "replay: %s\n", f.Replay)
	return b.String()
}

// FormatTrace prints an interleaving as a table: step, goroutine,
// file:line, operation.
func FormatTrace(steps []Step) string {
	var b strings.Builder
	w := tabwriter.NewWriter(&b, 0, 4, 2, ' ', 0)
	fmt.Fprintf(w, "  step\tgoroutine\tposition\toperation\n")
	for _, s := range steps {
		n := ""
		if s.N > 0 {
			n = fmt.Sprint(s.N)
		}
		g := ""
		if s.Goroutine > 0 {
			g = fmt.Sprint(s.Goroutine)
		}
		fmt.Fprintf(w, "  %s\t%s\t%s\t%s\n", n, g, shortPos(s.Pos), s.Op)
	}
	w.Flush()
	return b.String()
}

func shortPos(p token.Position) string {
	if !p.IsValid() {
		return "-"
	}
	file := p.Filename
	if i := strings.LastIndex(file, "/"); i >= 0 {
		file = file[i+1:]
	}
	return fmt.Sprintf("%s:%d", file, p.Line)
}

func indent(s string) string {
	lines := strings.SplitAfter(s, "\n")
	var b strings.Builder
	for _, l := range lines {
		if l != "" {
			b.WriteString("\t" + l)
		}
	}
	if !strings.HasSuffix(s, "\n") {
		b.WriteString("\n")
	}
	return b.String()
}

// Key identifies the finding across the executions and the shards of an
// exploration: two findings with one key report the same thing and merge
// into one (ltl explore -merge matches the shards' findings by it). It is
// the kind and the positions of a race's two accesses (in either order),
// the kind and the violated spec of a temporal property, the kind and the
// position of a test failure (its messages become variants), else the
// kind, position and message. Fields are separated by "|".
func (f *Finding) Key() string {
	k := string(f.Kind) + "|"
	switch {
	case f.raceKey != "":
		return k + strings.ReplaceAll(f.raceKey, "\x00", "|")
	case f.specKey != "":
		return k + "spec|" + strings.ReplaceAll(f.specKey, "\x00", "|")
	case f.Kind == KindTestFailure:
		return k + f.Pos.String()
	}
	return k + f.Pos.String() + "|" + f.Message
}

// findingSet keeps the shortest finding per (kind, position, message),
// per test failure (position of the failing call: one exploration
// explores one test), per race (pair of positions) and per violated
// spec, and orders the result deterministically. It counts the
// executions of each (Finding.Seen) and the messages of each test
// failure (Finding.Variants).
type findingSet struct {
	m        map[string]*Finding
	seen     map[string]int
	variants map[string]map[string]bool
}

// add records f, a finding of one execution or one that already sums
// several (Seen, Variants: Auto's phases). It reports whether f is now
// the finding kept for its key.
func (s *findingSet) add(f *Finding) bool {
	if s.m == nil {
		s.m = map[string]*Finding{}
		s.seen = map[string]int{}
		s.variants = map[string]map[string]bool{}
	}
	key := f.Key()
	if f.Kind == KindTestFailure && f.raceKey == "" && f.specKey == "" {
		vs := s.variants[key]
		if vs == nil {
			vs = map[string]bool{}
			s.variants[key] = vs
		}
		vs[f.Message] = true
		for _, v := range f.Variants {
			vs[v] = true
		}
	}
	s.seen[key] += max(f.Seen, 1)
	if old, ok := s.m[key]; ok {
		switch {
		case old.Steps != f.Steps:
			if old.Steps < f.Steps {
				return false
			}
		case (f.raceKey != "" || f.Kind == KindTestFailure) && old.Message != f.Message:
			// The same race shown by other goroutines, the same
			// failure with another message: keep one independent of
			// the order executions ran in.
			if old.Message < f.Message {
				return false
			}
		case old.Execution <= f.Execution:
			return false
		}
	}
	s.m[key] = f
	return true
}

// sorted returns findings ordered by kind, then fewest steps first.
func (s *findingSet) sorted() []*Finding {
	out := make([]*Finding, 0, len(s.m))
	for key, f := range s.m {
		f.Seen = s.seen[key]
		f.Variants = nil
		if vs := s.variants[key]; len(vs) > 1 {
			for v := range vs {
				f.Variants = append(f.Variants, v)
			}
			sort.Strings(f.Variants)
		}
		out = append(out, f)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Kind != b.Kind {
			return kindOrder(a.Kind) < kindOrder(b.Kind)
		}
		if a.Steps != b.Steps {
			return a.Steps < b.Steps
		}
		if a.Pos.String() != b.Pos.String() {
			return a.Pos.String() < b.Pos.String()
		}
		return a.Message < b.Message
	})
	return out
}

func kindOrder(k Kind) int {
	for i, o := range []Kind{KindInternal, KindUnsupported, KindPanic, KindDeadlock, KindLTL, KindRace, KindTestFailure, KindLeak} {
		if k == o {
			return i
		}
	}
	return 100
}

// suggest says which bound cut the exploration of r and what would do
// better ("" if none did, or if a finding decided the verdict).
func suggest(r *Report, opts *Options) string {
	if r.Complete || r.Bound == "" || r.Verdict() != "unknown" {
		return ""
	}
	execs := plural(r.Executions, "execution")
	ran := r.Ran()
	gs := ""
	if r.Goroutines > 1 {
		gs = fmt.Sprintf(" with %d goroutines", r.Goroutines)
	}
	sampled := len(r.Phases) > 1
	switch r.Bound {
	case "memory":
		return fmt.Sprintf("the memory bound (%s) was reached after %s (longest: %d steps): an execution held more memory (a trace entry per step, or the program's own data); raise it (-max-memory, ltltest.WithMaxMemory) if the machine has more, or shorten the test",
			formatBytes(opts.maxMemory()), execs, r.MaxSteps)
	case "steps":
		if r.MaxSteps >= opts.maxSteps() {
			return fmt.Sprintf("the steps bound (%d) was reached: an execution ran %d scheduling steps without ending; raise it (-max-steps, ltltest.WithMaxSteps) if the test ends later, or look for a goroutine that never stops (a busy poller)",
				opts.maxSteps(), r.MaxSteps)
		}
		return fmt.Sprintf("the loop bound (%d back-edges) was reached: a loop ran without reaching a scheduling point; raise it (-max-loop, Options.MaxLoop) if the loop ends later, or look for a spin loop that waits for another goroutine without synchronizing",
			opts.maxLoop())
	case "schedules":
		samples := 0
		if n := len(r.Phases); n > 0 {
			samples = r.Phases[n-1].Executions
		}
		return fmt.Sprintf("sampled %s (pct) after %s of dpor%s: the schedule space is too large to enumerate (%s); sampling never proves the absence of bugs: make the test smaller (fewer goroutines, rounds or tasks) so that DPOR completes, or raise the budget (-timeout, ltltest.WithTimeout)",
			plural(samples, "execution"), plural(r.Executions-samples, "execution"), gs, r.boundReason)
	case "time", "executions":
		what := "the time bound was reached"
		raise := "-timeout, ltltest.WithTimeout"
		if r.Bound == "executions" {
			what = fmt.Sprintf("the executions bound (%d) was reached", opts.maxExecutions())
			if r.Pruned > 0 {
				what += fmt.Sprintf(" (not counting %s DPOR pruned as redundant)", plural(r.Pruned, "execution"))
			}
			raise = "-max-executions, ltltest.WithMaxExecutions"
		}
		switch {
		case sampled:
			return fmt.Sprintf("%s: %s (%s%s); DPOR did not complete and PCT's samples found no bug, which proves nothing: raise the budget (%s), or make the test smaller (fewer goroutines or rounds) so that DPOR completes",
				what, ran, execs, gs, raise)
		case r.Strategy == string(Random) || r.Strategy == string(PCT):
			return fmt.Sprintf("%s after %s of %s%s: sampling never proves the absence of bugs; -strategy dpor (or auto) explores every schedule when it can complete", what, execs, r.Strategy, gs)
		case r.Goroutines > 4:
			return fmt.Sprintf("%s after %s of %s%s: too many schedules to enumerate; -strategy pct samples schedules of many goroutines with long runs (the default strategy auto does after DPOR's share), or raise the budget (%s)",
				what, execs, r.Strategy, gs, raise)
		}
		return fmt.Sprintf("%s after %s of %s%s: raise it (%s)", what, execs, r.Strategy, gs, raise)
	case "preemptions":
		return fmt.Sprintf("the preemption bound (%d) cut schedules: raise it (-preemptions, ltltest.WithPreemptions), or use -strategy dpor for every schedule", max(opts.Preemptions, 0))
	case "solver":
		return "the solver's time limit cut a symbolic branch (the warnings say where): raise Options.SolverTimeout, or simplify the branch condition"
	case "concretized":
		return "a symbolic value that can take many values was fixed to one of them (the warnings say where): constrain the input, or raise the split bound (Options.MaxSplit, ltltest.WithMaxSplit)"
	}
	return "the " + r.Bound + " bound was reached"
}

// summarize joins the first n of list with "; ", saying how many more
// there are.
func summarize(list []string, n int) string {
	if len(list) <= n {
		return strings.Join(list, "; ")
	}
	return fmt.Sprintf("%s; and %d more", strings.Join(list[:n], "; "), len(list)-n)
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
