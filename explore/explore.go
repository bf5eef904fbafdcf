package explore

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"go/token"
	"hash/fnv"
	"regexp"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/tools/go/ssa"
)

// Strategy selects how the explorer enumerates executions.
type Strategy string

const (
	// DFS explores every schedule depth-first (stateless: each execution
	// re-runs the entry from the start).
	DFS Strategy = "dfs"
	// DPOR is DFS with dynamic partial-order reduction (source sets and
	// sleep sets): it skips schedules equivalent to explored ones.
	DPOR Strategy = "dpor"
	// PB is preemption-bounded DFS: iterative bounds 0, 1, … up to
	// Options.Preemptions.
	PB Strategy = "pb"
	// Random picks every choice uniformly at random.
	Random Strategy = "random"
	// PCT is probabilistic concurrency testing with depth Options.PCTDepth.
	PCT Strategy = "pct"
	// Auto runs DPOR and, if DPOR's share of the budget runs out before
	// it completes, samples schedules with PCT for the rest, so that a
	// bug sampling reaches is still found (auto.go). The default. Its
	// result is complete only if DPOR completed.
	Auto Strategy = "auto"
)

// Options control one exploration. The zero value explores exhaustively
// with DPOR and default bounds, then samples with PCT if DPOR could not
// complete (Auto).
type Options struct {
	Strategy Strategy
	// Seed makes random strategies and math/rand deterministic.
	Seed int64
	// MaxExecutions bounds the number of executions (default 100000 for
	// exhaustive strategies, 1000 for random and PCT).
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
	// a lock. Default 1ms; negative: never (testing/synctest's clock).
	EarlyFire time.Duration
	// MaxLoop bounds loop iterations (back-edges) of one execution, to
	// stop programs that spin without reaching a scheduling point
	// (default DefaultMaxLoop). It reports the bound "steps" too.
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
	// StopAtFirst ends the exploration at the first finding.
	StopAtFirst bool
	// Replay runs exactly the execution of a replay token.
	Replay string
	// Observer receives events (for LTL monitors).
	Observer Observer
	// Specs names the //ltl:spec annotations to check (spec.go), in the
	// entry's package and the packages it imports; nil checks all of them.
	Specs []string
	// NoSpecs turns spec checking off.
	NoSpecs bool
	// Brancher decides symbolic branches.
	Brancher Brancher
	// SymbolicGlobals replaces, after package initialization, the values
	// of these package variables (of boolean or integer type) by symbolic
	// terms: the inputs of a symbolic exploration (//ltl:symbolic).
	SymbolicGlobals map[*ssa.Global]*SymbolicTerm
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
	// unfair offers failed polls however often they repeat (fair.go).
	unfair   bool
	symbolic bool // set by Explore: code is compiled for symbolic values
	// memory checks the heap against MaxMemory (set by Explore; nil: no
	// bound).
	memory *memoryGauge
	// ctx is the exploration's context, for the solver's queries (set by
	// Explore; executions check done instead).
	ctx context.Context
	// done is the exploration's context's Done channel: executions check
	// it as they run, so a timeout also stops a long execution.
	done <-chan struct{}
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

// DefaultMaxLoop is the default of Options.MaxLoop: 100 back-edges per
// step of a DefaultMaxSteps execution; a loop that spins without a
// scheduling point reaches it in about a second.
const DefaultMaxLoop = 100_000_000

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
	return DefaultMaxLoop
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

func (o *Options) maxExecutions() int {
	if o.MaxExecutions > 0 {
		return o.MaxExecutions
	}
	if o.Strategy == Random || o.Strategy == PCT {
		return defaultSamples
	}
	return 100000
}

func (m *machine) sharedMemory() bool { return m.opts != nil && m.opts.Shared }

// Config is the input of Run: which packages and tests to explore, how.
type Config struct {
	LoadConfig
	// Run selects tests by name like go test -run (all if empty).
	Run string
	Options
}

// Run loads the packages and explores each selected test function.
func Run(ctx context.Context, cfg Config) ([]*Report, error) {
	var re *regexp.Regexp
	if cfg.Run != "" {
		var err error
		if re, err = regexp.Compile(cfg.Run); err != nil {
			return nil, fmt.Errorf("explore: -run: %w", err)
		}
	}
	p, err := Load(ctx, cfg.LoadConfig)
	if err != nil {
		return nil, err
	}
	var reports []*Report
	for _, e := range p.Tests(re) {
		r, err := p.Explore(ctx, e, cfg.Options)
		if err != nil {
			return reports, err
		}
		reports = append(reports, r)
	}
	return reports, nil
}

// Explore explores the executions of entry e.
func (p *Program) Explore(ctx context.Context, e *Entry, opts Options) (*Report, error) {
	if opts.Strategy == "" {
		opts.Strategy = Auto
	}
	switch opts.MapOrders {
	case "":
		opts.MapOrders = MapOffsets
	case MapOffsets, MapPermutations:
	default:
		return nil, fmt.Errorf("explore: unknown map order mode %q (want offsets or permutations)", opts.MapOrders)
	}
	opts.recordEvents = opts.CountClasses || opts.Shared
	opts.symbolic = p.symbolicExploration(e, &opts)
	if opts.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, opts.Timeout)
		defer cancel()
	}
	opts.done = ctx.Done()
	opts.ctx = ctx
	opts.memory = newMemoryGauge(opts.maxMemory())
	start := time.Now()
	r := &Report{Entry: e.Name, Strategy: string(opts.Strategy), Seed: opts.Seed}
	specProblems, err := p.installSpecs(ctx, e, &opts, r)
	if err != nil {
		return nil, err
	}
	warnings := r.Warnings
	if opts.Replay != "" {
		err = p.replay(ctx, e, &opts, r)
	} else {
		switch opts.Strategy {
		case DFS:
			err = p.exploreDFS(ctx, e, &opts, r, -1)
		case PB:
			err = p.explorePB(ctx, e, &opts, r)
		case Random, PCT:
			err = p.exploreRandom(ctx, e, &opts, r)
		case DPOR:
			err = p.exploreDPOR(ctx, e, &opts, r)
		case Auto:
			err = p.exploreAuto(ctx, e, &opts, r)
		default:
			err = fmt.Errorf("explore: unknown strategy %q (want auto, dpor, dfs, pb, random or pct)", opts.Strategy)
		}
	}
	if err == nil {
		p.completeRaces(e, &opts, r.Findings)
	}
	r.Warnings = append(warnings, r.Warnings...)
	r.Findings = append(r.Findings, specProblems...)
	r.Elapsed = time.Since(start)
	if err == nil {
		r.Suggestion = suggest(r, &opts)
	}
	return r, err
}

// collector accumulates results of executions (safe for concurrent use).
type collector struct {
	mu       sync.Mutex
	set      findingSet
	execs    int
	maxSteps int
	maxGs    int // most goroutines of one execution
	bounds   map[string]bool
	classes  map[uint64]bool
	pruned   int
	warns    map[string]bool
	stop     atomic.Bool
	opts     *Options
	start    time.Time
	lastProg time.Time

	// symbolic explorations (symbolic.go)
	inconclusive, infeasible int
	concretized              map[string]bool // values fixed without covering the others
}

func newCollector(opts *Options) *collector {
	return &collector{opts: opts, bounds: map[string]bool{}, classes: map[uint64]bool{}, start: time.Now()}
}

// add records a finished execution.
func (c *collector) add(x *execution) {
	var hash uint64
	if c.opts.CountClasses {
		hash = x.hbHash() ^ x.localChoicesHash()
	}
	token := ""
	if len(x.findings) > 0 {
		token = encodeToken(x.entry.Name, x.seed, x.path)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.execs++
	c.maxSteps = max(c.maxSteps, x.steps)
	c.maxGs = max(c.maxGs, len(x.gs))
	if x.bound != "" && x.bound != "replay" {
		c.bounds[x.bound] = true
	}
	if x.bound == "memory" {
		// the next executions would grow the heap the same way
		c.stop.Store(true)
	}
	if c.opts.CountClasses {
		c.classes[hash] = true
	}
	c.addSymbolic(x)
	c.addMapAdded(x)
	for _, f := range x.findings {
		f.Replay = token
		c.set.add(f)
		if c.opts.StopAtFirst {
			c.stop.Store(true)
		}
	}
	if f := c.opts.Progress; f != nil && c.execs%64 == 0 && time.Since(c.lastProg) > time.Second {
		c.lastProg = time.Now()
		f(Progress{Executions: c.execs, Findings: len(c.set.m), Elapsed: time.Since(c.start)})
	}
}

// warnings records the machine's warnings (packages whose initialization
// failed).
func (c *collector) warnings(m *machine) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.warns == nil {
		c.warns = map[string]bool{}
	}
	for pkg, reason := range m.broken {
		c.warns[fmt.Sprintf("package %s could not be initialized (its functions are unsupported in this exploration): %s", pkg.Pkg.Path(), reason)] = true
	}
}

func (c *collector) fill(r *Report) {
	r.Findings = c.set.sorted()
	for _, f := range r.Findings {
		c.findInputs(f)
	}
	r.Warnings = nil
	for w := range c.warns {
		r.Warnings = append(r.Warnings, w)
	}
	sort.Strings(r.Warnings)
	r.Executions = c.execs
	r.MaxSteps = c.maxSteps
	r.Goroutines = c.maxGs
	r.Classes = len(c.classes)
	r.Inconclusive, r.Infeasible = c.inconclusive, c.infeasible
	r.Concretized = nil
	for w := range c.concretized {
		r.Concretized = append(r.Concretized, w)
	}
	sort.Strings(r.Concretized)
	for _, b := range boundOrder {
		if c.bounds[b] {
			r.Bound = b
			break
		}
	}
	r.Complete = r.Bound == ""
}

// boundOrder lists the bounds by precedence: Report.Bound names the first
// one reached.
var boundOrder = []string{"memory", "time", "executions", "steps", "preemptions", "solver", "concretized"}

// bound records that a bound cut the exploration.
func (c *collector) bound(name string) {
	c.mu.Lock()
	c.bounds[name] = true
	c.mu.Unlock()
}

// stopped reports whether the exploration must end (first finding,
// context done). It records the time bound.
func (c *collector) stopped(ctx context.Context) bool {
	if ctx.Err() != nil {
		c.bound("time")
		return true
	}
	return c.stop.Load()
}

// localChoicesHash hashes each goroutine's sequence of local choices
// (symbolic branches, map orders): executions of one happens-before class
// that choose differently are different behaviours (Report.Classes counts
// them apart).
func (x *execution) localChoicesHash() uint64 {
	local := map[uint64][]byte{}
	for _, c := range x.path {
		if c.kind != choiceSched {
			local[c.g] = binary.AppendUvarint(append(local[c.g], byte(c.kind)), uint64(c.c))
		}
	}
	if len(local) == 0 {
		return 0
	}
	lines := make([]string, 0, len(local))
	for g, cs := range local {
		lines = append(lines, string(binary.AppendUvarint(nil, g))+"\xff"+string(cs))
	}
	sort.Strings(lines)
	h := fnv.New64a()
	for _, l := range lines {
		h.Write([]byte(l))
		h.Write([]byte{0xfe})
	}
	return h.Sum64()
}

// addMapAdded records the ranges over maps of x that visited entries
// added during the range (with c.mu held).
func (c *collector) addMapAdded(x *execution) {
	if len(x.mapAdded) == 0 {
		return
	}
	if c.warns == nil {
		c.warns = map[string]bool{}
	}
	for pos := range x.mapAdded {
		c.warns[fmt.Sprintf("%s: a range over a map visited entries added during the range, after the others: Go may also skip them or visit them earlier; only this was explored", x.m.prog.Fset.Position(pos))] = true
	}
}

// addedVisited records that the range at pos visited an entry added
// during the range (maps.go).
func (x *execution) addedVisited(pos token.Pos) {
	if x.mapAdded == nil {
		x.mapAdded = map[token.Pos]bool{}
	}
	x.mapAdded[pos] = true
}

// chooseLocal makes a choice point of n ≥ 2 alternatives of goroutine g
// alone, inside its transition (kind choiceBranch or choiceMapOrder): it
// is not a scheduling state, the alternatives are g's local
// nondeterminism. Every strategy explores it as any choice (DPOR backtracks
// every alternative of a goroutine at a state), and replay tokens record
// it.
func (x *execution) chooseLocal(g *goroutine, n int, kind choiceKind) (int, ctrl) {
	ts := make([]transition, n)
	for i := range ts {
		ts[i] = transition{g: g, alt: i}
	}
	x.branching = true
	i := x.chooser.choose(x, ts)
	x.branching = false
	switch {
	case i == sleepBlocked:
		x.sleepBlocked = true
		x.stopped = true
		return 0, ctrlStop
	case i < 0 || i >= n:
		x.stopWith("replay", "diverged at choice %d", len(x.path))
		return 0, ctrlStop
	}
	x.path = append(x.path, choice{n: n, c: i, kind: kind, g: g.key})
	return i, ctrlNext
}

// chooser picks one transition at a choice point.
type chooser interface {
	choose(x *execution, ts []transition) int
}

// runOne performs one execution.
func (p *Program) runOne(m *machine, e *Entry, opts *Options, ch chooser, num int, seed int64) *execution {
	x := newExecution(m, e, opts, ch, num, seed)
	x.run()
	return x
}

// runCollect performs one execution, records it in c (and also, if not
// nil), and releases it. It reports whether the execution could not run
// the program (unsupported, internal), which ends the exploration.
func (p *Program) runCollect(m *machine, e *Entry, opts *Options, ch chooser, num int, seed int64, c, also *collector) bool {
	x := p.runOne(m, e, opts, ch, num, seed)
	c.add(x)
	if also != nil {
		also.add(x)
	}
	fatal := x.hasFatalFinding()
	x.release()
	return fatal
}

// replay runs the execution of a token.
func (p *Program) replay(ctx context.Context, e *Entry, opts *Options, r *Report) error {
	tok, err := decodeToken(opts.Replay)
	if err != nil {
		return err
	}
	opts.Seed = tok.seed
	r.Seed = tok.seed
	m := newMachine(p, opts)
	rc := &replayChooser{choices: tok.choices}
	x := p.runOne(m, e, opts, rc, 1, tok.seed)
	if x.replayErr != "" {
		return fmt.Errorf("explore: replay of %s: %w (%s)", e.Name, ErrReplayDiverged, x.replayErr)
	}
	if rc.pos != len(rc.choices) || pathCheck(e.Name, x.path) != tok.check {
		return fmt.Errorf("explore: replay of %s: %w", e.Name, ErrReplayDiverged)
	}
	c := newCollector(opts)
	c.add(x)
	x.release()
	c.warnings(m)
	c.fill(r)
	return nil
}

// ErrReplayDiverged is returned when a replay token does not describe an
// execution of the program (another entry, or the program changed).
var ErrReplayDiverged = errors.New("the replay token does not match this program")

type replayChooser struct {
	choices []int
	pos     int
}

func (rc *replayChooser) choose(x *execution, ts []transition) int {
	if rc.pos >= len(rc.choices) {
		rc.pos++
		return -1
	}
	c := rc.choices[rc.pos]
	rc.pos++
	return c
}

// dfsChooser replays a prefix and extends it with first alternatives.
type dfsChooser struct {
	stack []dfsEntry
	pos   int
	// bound limits preemptions (-1: none); pruned records that an
	// alternative was skipped because of it.
	bound    int
	pruned   bool
	preempts int
}

type dfsEntry struct {
	n int
	// end, if not 0, limits the alternatives this chooser explores to
	// k < end (the others were handed to other workers).
	end  int
	alts []int // allowed alternatives (nil: all)
	k    int   // index into alts (or the choice itself)
	cost []int // preemption count before this point (PB)
}

func (e *dfsEntry) choice() int {
	if e.alts == nil {
		return e.k
	}
	return e.alts[e.k]
}

func (e *dfsEntry) count() int {
	n := e.n
	if e.alts != nil {
		n = len(e.alts)
	}
	if e.end > 0 {
		n = min(n, e.end)
	}
	return n
}

func (d *dfsChooser) choose(x *execution, ts []transition) int {
	if d.pos < len(d.stack) {
		e := &d.stack[d.pos]
		d.pos++
		if e.n != len(ts) {
			x.internal(fmt.Sprintf("nondeterministic execution: choice point %d had %d alternatives, now %d", d.pos-1, e.n, len(ts)))
			return 0
		}
		c := e.choice()
		d.preempts += preemptionCost(x, ts, c)
		return c
	}
	e := dfsEntry{n: len(ts)}
	if d.bound >= 0 {
		for i := range ts {
			if d.preempts+preemptionCost(x, ts, i) <= d.bound {
				e.alts = append(e.alts, i)
			} else {
				d.pruned = true
			}
		}
	}
	d.stack = append(d.stack, e)
	d.pos++
	c := e.choice()
	d.preempts += preemptionCost(x, ts, c)
	return c
}

// preemptionCost is 1 if choosing ts[i] preempts the goroutine that ran
// the previous step while it could continue.
func preemptionCost(x *execution, ts []transition, i int) int {
	last := x.lastG
	if last == nil || ts[i].g == last {
		return 0
	}
	for _, t := range ts {
		if t.g == last {
			return 1
		}
	}
	return 0
}

// split hands the unexplored siblings of the shallowest choice point
// that has any to other workers: each becomes a job, a prefix of fixed
// choices.
func (d *dfsChooser) split() [][]dfsEntry {
	for i := range d.stack {
		e := &d.stack[i]
		if e.k+1 >= e.count() {
			continue
		}
		var jobs [][]dfsEntry
		for k := e.k + 1; k < e.count(); k++ {
			job := make([]dfsEntry, i+1)
			copy(job, d.stack[:i+1])
			for j := range job[:i] {
				job[j].end = job[j].k + 1
			}
			job[i].k, job[i].end = k, k+1
			jobs = append(jobs, job)
		}
		e.end = e.k + 1
		return jobs
	}
	return nil
}

// next moves to the next path; false when the tree is exhausted.
func (d *dfsChooser) next() bool {
	d.pos = 0
	d.preempts = 0
	for len(d.stack) > 0 {
		top := &d.stack[len(d.stack)-1]
		if top.k+1 < top.count() {
			top.k++
			return true
		}
		d.stack = d.stack[:len(d.stack)-1]
	}
	return false
}

func (p *Program) exploreDFS(ctx context.Context, e *Entry, opts *Options, r *Report, bound int) error {
	c := newCollector(opts)
	p.dfsLoop(ctx, e, opts, c, nil, bound)
	c.fill(r)
	return nil
}

// dfsLoop runs the DFS with a preemption bound (-1: none), recording in c
// (and in also, if not nil). It reports whether the bound pruned
// alternatives.
func (p *Program) dfsLoop(ctx context.Context, e *Entry, opts *Options, c, also *collector, bound int) bool {
	if opts.Workers > 1 {
		return p.parallelDFS(ctx, e, opts, c, also, bound)
	}
	m := newMachine(p, opts)
	defer c.warnings(m)
	if also != nil {
		defer also.warnings(m) // PB's merged collector builds the report
	}
	d := &dfsChooser{bound: bound}
	for n := 1; !c.stopped(ctx); n++ {
		if n > opts.maxExecutions() {
			c.bound("executions")
			break
		}
		if p.runCollect(m, e, opts, d, n, opts.Seed, c, also) || !d.next() {
			break
		}
	}
	if d.pruned {
		c.bound("preemptions")
	}
	return d.pruned
}

func (p *Program) explorePB(ctx context.Context, e *Entry, opts *Options, r *Report) error {
	maxB := opts.Preemptions
	if maxB < 0 {
		maxB = 2
	}
	merged := newCollector(opts)
	for b := 0; b <= maxB; b++ {
		c := newCollector(opts)
		pruned := p.dfsLoop(ctx, e, opts, c, merged, b)
		for k := range c.bounds {
			merged.bound(k)
		}
		if !pruned {
			// This bound covered every schedule.
			delete(merged.bounds, "preemptions")
			break
		}
		if merged.stop.Load() || ctx.Err() != nil {
			break
		}
	}
	merged.fill(r)
	return nil
}

// randomChooser picks uniformly; pct adds PCT priorities.
type randomChooser struct {
	rng *rng
	pct *pctState
}

type pctState struct {
	depth   int
	prio    map[uint64]int
	changes []int // steps at which the running goroutine's priority drops
	next    int   // next low priority to assign
}

func (rc *randomChooser) choose(x *execution, ts []transition) int {
	if rc.pct == nil {
		return rc.rng.intn(len(ts))
	}
	ps := rc.pct
	prio := func(t transition) int {
		k := t.g.key
		p, ok := ps.prio[k]
		if !ok {
			p = ps.depth + rc.rng.intn(1<<20)
			ps.prio[k] = p
		}
		return p
	}
	pick := func() (best int) {
		best = -1
		bp := -1
		for i, t := range ts {
			if p := prio(t); p > bp {
				best, bp = i, p
			}
		}
		return best
	}
	best := pick()
	for _, cp := range ps.changes {
		if cp == x.steps {
			ps.prio[ts[best].g.key] = ps.next
			ps.next--
			best = pick()
		}
	}
	// Several alternatives of the chosen goroutine: choose randomly.
	g := ts[best].g
	var same []int
	for i, t := range ts {
		if t.g == g {
			same = append(same, i)
		}
	}
	return same[rc.rng.intn(len(same))]
}

func (p *Program) exploreRandom(ctx context.Context, e *Entry, opts *Options, r *Report) error {
	c := newCollector(opts)
	workers := max(1, opts.Workers)
	total := opts.maxExecutions()
	var next atomic.Int64
	var wg sync.WaitGroup
	var maxSteps atomic.Int64
	maxSteps.Store(int64(min(opts.maxSteps(), 100)))
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			m := newMachine(p, opts)
			defer c.warnings(m)
			for !c.stopped(ctx) {
				i := int(next.Add(1))
				if i > total {
					c.bound("executions")
					return
				}
				seed := int64(mix(uint64(opts.Seed), uint64(i)))
				rc := &randomChooser{rng: newRNG(uint64(seed))}
				if opts.Strategy == PCT {
					d := opts.PCTDepth
					if d <= 0 {
						d = 3
					}
					k := int(maxSteps.Load())
					ps := &pctState{depth: d, prio: map[uint64]int{}, next: d - 1}
					for j := 1; j < d; j++ {
						ps.changes = append(ps.changes, 1+rc.rng.intn(max(1, k)))
					}
					rc.pct = ps
				}
				x := p.runOne(m, e, opts, rc, i, seed)
				if int64(x.steps) > maxSteps.Load() {
					maxSteps.Store(int64(x.steps))
				}
				c.add(x)
				if x.hasFatalFinding() {
					c.stop.Store(true)
				}
				x.release()
			}
		}()
	}
	wg.Wait()
	c.fill(r)
	// Random exploration never proves absence of bugs.
	if r.Bound == "" {
		r.Bound = "executions"
		r.Complete = false
	}
	return nil
}

// rng is a small deterministic generator (splitmix64).
type rng struct{ s uint64 }

func newRNG(seed uint64) *rng { return &rng{s: seed} }

func (r *rng) next() uint64 { return splitmix(&r.s) }

// splitmix advances a splitmix64 state and returns the next value.
func splitmix(s *uint64) uint64 {
	*s += 0x9E3779B97F4A7C15
	z := *s
	z = (z ^ z>>30) * 0xBF58476D1CE4E5B9
	z = (z ^ z>>27) * 0x94D049BB133111EB
	return z ^ z>>31
}

func (r *rng) intn(n int) int { return int(r.next() % uint64(n)) }
