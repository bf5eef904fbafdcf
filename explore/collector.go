package explore

import (
	"context"
	"encoding/binary"
	"fmt"
	"go/token"
	"hash/fnv"
	"sort"
	"sync"
	"sync/atomic"
	"time"
)

// collector accumulates results of executions (safe for concurrent use).
type collector struct {
	mu       sync.Mutex
	set      findingSet
	execs    int
	maxSteps int
	maxGs    int // most goroutines of one execution
	bounds   map[string]bool
	classes  map[uint64]bool
	paths    map[uint64]bool // hashes of the executions' paths (with classes)
	pruned   int
	skipped  int // executions of another shard (shard.go)
	warns    map[string]bool
	stop     atomic.Bool
	opts     *Options
	start    time.Time
	lastProg time.Time

	// reason explains the "schedules" bound, estimate is DPOR's
	// estimate of the time it needs (tooLarge).
	reason   string
	estimate time.Duration

	// symbolic explorations (symbolic.go)
	inconclusive, infeasible int
	concretized              map[string]bool // values fixed without covering the others
}

func newCollector(opts *Options) *collector {
	return &collector{opts: opts, bounds: map[string]bool{}, classes: map[uint64]bool{}, paths: map[uint64]bool{}, start: time.Now()}
}

// add records a finished execution.
func (c *collector) add(x *execution) {
	var hash, path uint64
	if c.opts.CountClasses {
		hash = x.hbHash() ^ x.localChoicesHash()
		path = pathHash(x.path)
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
		c.paths[path] = true
	}
	c.addSymbolic(x)
	c.addMapAdded(x)
	c.addWarnings(x)
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
	r.Skipped = c.skipped
	r.classSet, r.pathSet = c.classes, c.paths
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
	r.boundReason, r.estimate = c.reason, c.estimate
}

// prunedCount returns the number of executions recorded as pruned or
// skipped (another shard's) so far.
func (c *collector) prunedCount() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.pruned + c.skipped
}

// boundOrder lists the bounds by precedence: Report.Bound names the first
// one reached.
var boundOrder = []string{"memory", "time", "executions", "schedules", "steps", "preemptions", "solver", "concretized"}

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
	return hashLines(lines, 0xfe)
}

// hashLines hashes a set of lines (sorted in place), each ended by sep.
func hashLines(lines []string, sep byte) uint64 {
	sort.Strings(lines)
	h := fnv.New64a()
	for _, l := range lines {
		h.Write([]byte(l))
		h.Write([]byte{sep})
	}
	return h.Sum64()
}

// addMapAdded turns the ranges over maps of x that visited entries added
// during the range into warnings of x (addWarnings records them).
func (c *collector) addMapAdded(x *execution) {
	for pos := range x.mapAdded {
		x.warn("%s: a range over a map visited entries added during the range, after the others: Go may also skip them or visit them earlier; only this was explored", x.m.prog.Fset.Position(pos))
	}
}

// addWarnings records the warnings models raised in x (with c.mu held).
func (c *collector) addWarnings(x *execution) {
	if len(x.warnings) == 0 {
		return
	}
	if c.warns == nil {
		c.warns = map[string]bool{}
	}
	for w := range x.warnings {
		c.warns[w] = true
	}
}

// warn adds a warning to the report: something the execution did
// differently from Go that does not stop it (Report.Warnings).
func (x *execution) warn(format string, args ...any) {
	if x.warnings == nil {
		x.warnings = map[string]bool{}
	}
	x.warnings[fmt.Sprintf(format, args...)] = true
}

// addedVisited records that the range at pos visited an entry added
// during the range (maps.go).
func (x *execution) addedVisited(pos token.Pos) {
	if x.mapAdded == nil {
		x.mapAdded = map[token.Pos]bool{}
	}
	x.mapAdded[pos] = true
}
