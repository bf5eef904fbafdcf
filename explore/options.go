package explore

import (
	"context"
	"time"
)

// Options control one exploration. The zero value explores exhaustively
// with DPOR and default bounds, then samples with PCT if DPOR could not
// complete (Auto).
type Options struct {
	Strategy Strategy
	// Seed makes random strategies and math/rand deterministic.
	Seed int64
	// MaxExecutions bounds the number of executions of one exploration
	// (default 100000 for exhaustive strategies, 1000 for random and PCT):
	// Report.Executions is at most MaxExecutions (for Auto, per phase).
	// The executions DPOR cuts short because they are redundant with
	// explored ones (Report.Pruned) do not count; the time bound bounds
	// them.
	MaxExecutions int
	// MaxSteps bounds the scheduling steps of one execution (default
	// DefaultMaxSteps). A step costs the same whatever the count: the
	// trace keeps an entry per step and DPOR's analysis of an execution
	// is near-linear in its steps (depindex.go).
	MaxSteps int
	// EarlyFire is how close a timer's or sleep's deadline must be to the
	// virtual clock for it to expire at any scheduling point rather than
	// only when no goroutine can move (clock.go): real time passes
	// between any two steps, so a tick may arrive while a goroutine holds
	// a lock. Early expiries take the clock at most EarlyFire ahead in
	// all until nothing else can move. Default 1ms; negative: never
	// (testing/synctest's clock).
	EarlyFire time.Duration
	// MaxLoop bounds loop iterations (back-edges) of one execution, to
	// stop programs that spin without reaching a scheduling point
	// (default 100000000: 100 back-edges per step of a DefaultMaxSteps
	// execution). It reports the bound "steps" too.
	MaxLoop int
	// MaxMemory bounds the heap of the exploring process, in bytes: an
	// execution that grows it beyond stops, and the exploration ends with
	// Bound "memory" (memory.go). 0: half of the machine's memory (of the
	// cgroup's limit if lower); negative: no bound.
	MaxMemory int64
	// Timeout bounds the whole exploration (0: only ctx).
	Timeout time.Duration
	// Workers explore in parallel (default 1), with every strategy. DFS
	// and PB explore the same tree as with one worker; DPOR the same
	// happens-before classes (exploreDPOR says when not).
	Workers int
	// Preemptions is PB's largest preemption bound: PB explores with
	// bounds 0, 1, … up to it (0: only schedules that switch goroutines
	// when the running one blocks or ends; negative: 2).
	Preemptions int
	// PCTDepth is PCT's bug depth d (default 3).
	PCTDepth int
	// Shared makes loads and stores of memory that another goroutine can
	// reach scheduling points, so the orders of conflicting accesses are
	// explored too (finds check-then-act bugs; explodes the schedule
	// space). Data races are detected without it.
	Shared bool
	// NoRaces turns data race detection off (it is on by default: every
	// load and store of every explored execution is checked against
	// Go's happens-before, race.go).
	NoRaces bool
	// IgnoreLeaks names functions, as Go's stacks name them
	// ("example.com/pool.(*Pool).purge", "example.com/pool.worker.func1"):
	// a goroutine blocked in one of them (the innermost function of its
	// stack) when the entry returns is not reported as a leak, as goleak's
	// IgnoreTopFunction. Goroutines started by package initialization are
	// never the test's leaks, without this option.
	IgnoreLeaks []string
	// ReportTimerLeaks reports as leaks, too, the goroutines of the test
	// that only timers can still wake when the entry returns: blocked in
	// a sleep, on a timer's or ticker's channel, or in a select with such
	// a case (a cache's janitor, a pool's purge loop never stopped). By
	// default they are background loops, not leaks: the explorer wakes
	// each of them once after the entry returned, then ends the
	// execution.
	ReportTimerLeaks bool
	// StopAtFirst ends the exploration at the first finding.
	StopAtFirst bool
	// Replay runs exactly the execution of a replay token.
	Replay string
	// Shard selects one part of the exploration (shard.go): the parts of
	// Shard.Total runs with every Index make up the whole exploration,
	// each class of schedules in exactly one part (with DPOR, a class
	// below an alternative of the shard plan's that the races of two
	// shards add is in both: shard.go). Replay ignores it.
	Shard Shard
	// observer receives events (spec monitors, Find; set inside the
	// package only).
	observer observer
	// Specs names the //ltl:spec annotations to check (spec.go), in the
	// entry's package and the packages it imports; nil checks all of them.
	Specs []string
	// NoSpecs turns spec checking off.
	NoSpecs bool
	// Inputs, if not nil, runs a symbolic entry concretely: its inputs
	// (parameters of a //ltl:symbolic entry, //ltl:symbolic variables,
	// ltltest.Symbolic values) take these values by name (zero if
	// missing), as a Finding's InputMap gives them.
	Inputs map[string]any
	// MaxSplit bounds how many values a symbolic value is split into
	// where the interpreter needs a concrete one (an allocation size, an
	// index, slice bounds, a conversion to an interface or a float, an
	// argument of a function not run symbolically): each value is
	// explored on a path of its own (default 16). A value that can take
	// more is fixed to one of them, and the report is incomplete (Bound
	// "concretized", Verdict unknown; Warnings say what was fixed).
	MaxSplit int
	// SolverTimeout bounds each solver query of a symbolic exploration
	// (default symbolic.DefaultTimeout); a query that runs out makes the
	// path inconclusive (Report.Bound "solver").
	SolverTimeout time.Duration
	// MapOrders selects the iteration orders of ranges over maps that are
	// explored: MapOffsets (default: insertion order rotated by every
	// start, n orders for n entries) or MapPermutations (every order,
	// n!). Each is a choice of the ranging goroutine (maps.go).
	MapOrders MapOrder
	// CountClasses counts distinct happens-before classes of the explored
	// executions (Report.Classes), for measuring reduction.
	CountClasses bool
	// Progress, if set, is called about once a second.
	Progress func(Progress)

	recordEvents bool
	// autoShare is the time share of Auto's first DPOR phase (0
	// otherwise): that phase gives up early when its own pace says it
	// cannot complete within it (strategy_auto.go).
	autoShare time.Duration
	// unfair offers failed polls however often they repeat (fair.go).
	unfair   bool
	symbolic bool // set by Explore: code is compiled for symbolic values
	// memory checks the heap against MaxMemory (set by Explore; nil: no
	// bound).
	memory *memoryGauge
	// ctx is the exploration's or search's context, for the solver's
	// queries (set by Explore and Find; executions check done instead).
	ctx context.Context
	// done is the exploration's context's Done channel: executions check
	// it as they run, so a timeout also stops a long execution.
	done <-chan struct{}
	// procs are the exploration's subprocess results, warnings and test
	// binary (set by Explore; model_exec.go).
	procs *procCache
}

// Progress is a snapshot of a running exploration.
type Progress struct {
	Executions int
	Findings   int
	Elapsed    time.Duration
}

// DefaultMaxSteps is the default of Options.MaxSteps: long enough for a
// test that runs a 1 ms ticker for 20 virtual seconds (40000 steps) many
// times over.
const DefaultMaxSteps = 1_000_000

// defaultMaxLoop is the default of Options.MaxLoop: 100 back-edges per
// step of a DefaultMaxSteps execution; a loop that spins without a
// scheduling point reaches it in about a second.
const defaultMaxLoop = 100_000_000

func (o *Options) maxSteps() int {
	if o.MaxSteps > 0 {
		return o.MaxSteps
	}
	return DefaultMaxSteps
}

// earlyFire returns EarlyFire in nanoseconds (negative: never).
func (o *Options) earlyFire() int64 {
	if o.EarlyFire == 0 {
		return int64(time.Millisecond)
	}
	return int64(o.EarlyFire)
}

func (o *Options) maxLoop() int {
	if o.MaxLoop > 0 {
		return o.MaxLoop
	}
	return defaultMaxLoop
}

// maxMemory is the heap bound in bytes (0: none).
func (o *Options) maxMemory() uint64 {
	switch {
	case o.MaxMemory > 0:
		return uint64(o.MaxMemory)
	case o.MaxMemory < 0:
		return 0
	}
	return machineMemory() / defaultMemoryFraction
}

// defaultExecutions and defaultSamples are the defaults of
// Options.MaxExecutions: for the exhaustive strategies, and for Random
// and PCT.
const (
	defaultExecutions = 100000
	defaultSamples    = 1000
)

func (o *Options) maxExecutions() int {
	if o.MaxExecutions > 0 {
		return o.MaxExecutions
	}
	if o.Strategy == Random || o.Strategy == PCT {
		return defaultSamples
	}
	return defaultExecutions
}

// context returns the exploration's context (Background if the options
// are not an exploration's).
func (o *Options) context() context.Context {
	if o.ctx != nil {
		return o.ctx
	}
	return context.Background()
}

// pctDepth is PCTDepth or its default.
func (o *Options) pctDepth() int {
	if o.PCTDepth > 0 {
		return o.PCTDepth
	}
	return 3
}

func (m *machine) sharedMemory() bool { return m.opts != nil && m.opts.Shared }
