package explore

import (
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"hash/maphash"
	"sort"
	"strconv"
	"strings"

	"github.com/henceforth-go/henceforth/annotate"
	"github.com/henceforth-go/henceforth/automaton"
	"github.com/henceforth-go/henceforth/ltl"
	"github.com/henceforth-go/henceforth/monitor"
	"golang.org/x/tools/go/ssa"
)

// This file is scenario search, after Gunter and Peled's temporal
// debugging: instead of checking that every path satisfies a spec, find
// one path (a "temporal step") whose sequence of states satisfies a
// formula — "an interleaving where both workers are in the critical
// section", "a path to a deadlock".
//
// States and positions. A path's states are the program states between
// scheduling steps: position 0 is the state when the search starts (after
// package initialization, when every goroutine has run to its first
// scheduling point; or the last state of FindOptions.After), and each
// step adds the state after it. A path of n steps has n+1 positions; a
// witness is the shortest (or, with DFSMin/DFSMax, some) path whose
// positions satisfy the formula under LTLf: its DFA accepts them. A path
// is never extended past a terminal state (no goroutine can move).
//
// Atoms of a search formula:
//   - deadlock: a terminal state in which some goroutine is still blocked
//     (a global deadlock, or goroutines blocked forever after the entry
//     returned); terminated: a terminal state in which every goroutine has
//     exited. Both are false in every other state.
//   - at(G, L): goroutine G is at label L — the last //ltl:event label
//     goroutine G executed is L (the paper's "G at L"). G is a goroutine
//     number as the trace table prints it (1 is the entry) or the name of
//     the function the goroutine was started with (P0, or pkg.P0; every
//     goroutine started with it). ltl parses at(G, L) as the atom named
//     at(G,L) (ltl.SplitAt); the quoted atom "at(G,L)" means the same.
//   - the name of an //ltl:event label or of a call/return //ltl:prop:
//     true in the state right after the step in which it happened.
//   - the name of a state //ltl:prop, or a quoted Go boolean expression
//     over package-level variables visible in the entry's package
//     ("c0 == 0 && c1 == 1"; see predicate.go for the supported forms).
//
// Props and labels are looked up in the entry's package first, then in
// the other loaded user packages (by import path), so a test body may
// search the labels of the package it calls. Every //ltl:event statement
// of the loaded user packages is a scheduling point during a search
// (whether or not the formula names it), which gives labelled programs
// the paper's atomicity: one labelled node per step.
//
// The search runs a stateless explorer: each node of the search tree is
// a schedule prefix, re-executed from the start. States are matched by
// fingerprint (statehash.go) paired with the DFA state, as the paper's
// "new to the search" pairs, so cyclic programs (spin loops, infinite
// loops over finite state) are searched exhaustively; where a state has no
// fingerprint the search cannot prune and may end at MaxDepth, which
// makes the result incomplete (unknown), never "none".

// SearchMode selects the order of a scenario search.
type SearchMode string

const (
	// BFS searches breadth-first: the witness is a shortest one (fewest
	// steps). The default.
	BFS SearchMode = "bfs"
	// DFSMin is the paper's DFS_min: depth-first, stopping at the first
	// accepting state on a path (a minimal step, not necessarily the
	// shortest).
	DFSMin SearchMode = "dfs-min"
	// DFSMax is the paper's DFS_max: depth-first, reporting an accepting
	// state from which the search found no longer accepting extension (a
	// maximal step, relative to the search tree).
	DFSMax SearchMode = "dfs-max"
)

// FindOptions control a scenario search.
type FindOptions struct {
	// Options: Shared, MaxSteps (default 10000 here), MaxLoop, Seed,
	// Timeout and Shard apply; Strategy, Specs and Replay are ignored.
	//
	// With Shard, the search covers one part of the schedule tree, as an
	// exploration's shard does (the pieces of shard.go), matching states
	// only below the split points, where a node's whole subtree is the
	// shard's: states first reached above them are searched again, so
	// that no shard prunes a subtree whose continuations are another
	// shard's. A shard's "none" means none in its part; MergeFindResults
	// gives the whole search's verdict. Sharding a search pays only when
	// states rarely repeat across parts: where most states are reachable
	// from every part (Dekker's algorithm: each of 7 shards of the mutual
	// exclusion search runs 96–99 % of the whole search's executions),
	// each shard searches nearly the whole state space, and one shard
	// running the whole search costs less.
	Options
	// Mode is the search order (default BFS).
	Mode SearchMode
	// MaxDepth bounds the steps of a witness (default 1000).
	MaxDepth int
	// MaxNodes bounds the search nodes, each one execution (default
	// 200000).
	MaxNodes int
	// After starts the search at the last state of a previous witness of
	// the same entry (the paper's temporal stack): the new witness
	// continues that path.
	After *Witness
	// Replay checks the path of a witness's replay token instead of
	// searching: the formula is evaluated over the states from step
	// ReplayStart; the witness is the prefix of ReplaySteps steps if
	// accepted there (0: the shortest accepted prefix).
	Replay      string
	ReplayStart int
	ReplaySteps int
}

// FindResult is the outcome of a scenario search.
type FindResult struct {
	// Witness is the path found, nil if none.
	Witness *Witness
	// Complete reports that the search covered every path (up to state
	// matching): without a witness, no path satisfies the formula.
	Complete bool
	// Bound names what cut an incomplete search: "depth", "nodes",
	// "time" or "steps".
	Bound string
	// Nodes is the number of executions run; States the number of
	// distinct (program state, automaton state) pairs seen.
	Nodes, States int
	// Shard is the part of the search the result covers (the zero value:
	// all of it).
	Shard Shard
}

// Verdict is "found", "none" (complete search without witness) or
// "unknown" (a bound cut the search).
func (r *FindResult) Verdict() string {
	switch {
	case r.Witness != nil:
		return Found
	case r.Complete:
		return None
	}
	return Unknown
}

// Witness is a path that satisfies a search formula.
type Witness struct {
	Entry   string
	Formula string
	// Start is the number of steps before the witness starts (the steps
	// of FindOptions.After); Steps the number of steps of the witness.
	Start, Steps int
	// States are the witness's states: States[0] is its first state,
	// States[i] the state after its i-th step.
	States []WitnessState
	// Trace is the interleaving of the whole path, from the program start
	// to the witness's last state.
	Trace []Step
	// Goroutines names each goroutine of the path by the function it was
	// started with.
	Goroutines map[int]string
	// Replay is the token of an execution whose first Start+Steps steps
	// are the witness (the execution continues with default choices). It
	// is accepted by FindOptions.Replay, and by Options.Replay (ltl explore
	// -replay) only when the program has no //ltl:event labels, which are
	// scheduling points in searches alone.
	Replay string

	choices []int // every step's choice, from the program start
}

// WitnessState is one state of a witness.
type WitnessState struct {
	// Step is the number of steps from the program start.
	Step int
	// Goroutine made the step into this state (0 for the first state).
	Goroutine int
	// Atoms are the formula's atoms true in the state.
	Atoms []string
	// At maps each goroutine that has passed a label to its last label.
	At map[int]string
	// Terminal: no goroutine can move.
	Terminal bool
}

// Labels returns the successive labels of goroutine g along the witness
// (its label in the first state, then each change).
func (w *Witness) Labels(g int) []string {
	var out []string
	for _, s := range w.States {
		if l, ok := s.At[g]; ok && (len(out) == 0 || out[len(out)-1] != l) {
			out = append(out, l)
		}
	}
	return out
}

// Goroutine returns the number of the goroutine started with the function
// named name, or 0.
func (w *Witness) Goroutine(name string) int {
	ids := make([]int, 0, len(w.Goroutines))
	for id := range w.Goroutines {
		ids = append(ids, id)
	}
	sort.Ints(ids)
	for _, id := range ids {
		if matchGoroutineName(w.Goroutines[id], name) {
			return id
		}
	}
	return 0
}

func (w *Witness) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "witness of %s in %s: %d steps", w.Formula, w.Entry, w.Steps)
	if w.Start > 0 {
		fmt.Fprintf(&b, " after %d", w.Start)
	}
	b.WriteString("\nstates:\n")
	for i, s := range w.States {
		var at []string
		ids := make([]int, 0, len(s.At))
		for g := range s.At {
			ids = append(ids, g)
		}
		sort.Ints(ids)
		for _, g := range ids {
			at = append(at, fmt.Sprintf("%s@%s", goroutineLabel(w.Goroutines, g), s.At[g]))
		}
		by := "start"
		if s.Goroutine > 0 {
			by = "goroutine " + strconv.Itoa(s.Goroutine)
		}
		fmt.Fprintf(&b, "  %3d  step %-4d %-13s at {%s}  atoms {%s}\n", i, s.Step, by, strings.Join(at, " "), strings.Join(s.Atoms, ", "))
	}
	b.WriteString("interleaving:\n")
	b.WriteString(indent(FormatTrace(w.Trace)))
	fmt.Fprintf(&b, "\nreplay: %s", w.Replay)
	return b.String()
}

func goroutineLabel(names map[int]string, g int) string {
	if n := names[g]; n != "" {
		return n
	}
	return strconv.Itoa(g)
}

// ErrFormula wraps errors in a search formula.
var ErrFormula = errors.New("search formula")

// Find searches the executions of e for a path satisfying formula.
func (p *Program) Find(ctx context.Context, e *Entry, formula string, fo FindOptions) (*FindResult, error) {
	if err := fo.Shard.Validate(); err != nil {
		return nil, fmt.Errorf("explore: find: shard: %w", err)
	}
	fs, err := p.newFindSpec(ctx, e, formula)
	if err != nil {
		return nil, err
	}
	if fo.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, fo.Timeout)
		defer cancel()
	}
	opts := findRunOptions(ctx, fo.Options, fs)
	s := &finder{p: p, e: e, fs: fs, fo: &fo, opts: &opts, m: newMachine(p, &opts), ctx: ctx,
		seed: maphash.MakeSeed(), part: newShardPath(fo.Shard), visited: map[uint64]bool{}, res: &FindResult{}}
	if fo.After != nil {
		if fo.After.Entry != e.Name {
			return nil, fmt.Errorf("explore: find: FindOptions.After is a witness of %s, not of %s", fo.After.Entry, e.Name)
		}
		s.base = fo.After.choices
	}
	if fo.Replay != "" {
		return s.replay()
	}
	switch fo.Mode {
	case BFS, "":
		s.bfs()
	case DFSMin:
		s.dfsMin()
	case DFSMax:
		s.dfsMax()
	default:
		return nil, fmt.Errorf("explore: find: unknown search mode %q (want bfs, dfs-min or dfs-max)", fo.Mode)
	}
	r := s.res
	r.Shard = fo.Shard
	r.States = len(s.visited)
	r.Complete = r.Witness == nil && r.Bound == "" || r.Witness != nil
	if r.Witness != nil {
		r.Bound = ""
	}
	return r, nil
}

// findRunOptions are the Options a search of fs runs its executions with.
func findRunOptions(ctx context.Context, o Options, fs *findSpec) Options {
	o.Strategy, o.NoSpecs, o.Specs, o.Replay = DFS, true, nil, ""
	// a scenario may need a goroutine to spin while others could move
	// (P0 waits while P1 stays): the search recognizes repeated states
	// instead of assuming fairness
	o.unfair = true
	if o.MaxSteps == 0 {
		// an execution that spins (a goroutine waiting while the
		// scenario keeps another still) runs to the steps bound: a
		// search needs far fewer than an exploration's million
		o.MaxSteps = 10000
	}
	o.observer = findObserver{fs}
	o.ctx = ctx
	return o
}

// findSpec is a prepared search formula.
type findSpec struct {
	src     string
	formula ltl.Formula
	dfa     *automaton.DFA
	atoms   []findAtom // parallel to the monitor's atoms
	labels  map[*ssa.Function]map[ssa.Instruction][]string
	calls   map[*types.Func][]string
	returns map[*types.Func][]string
	hasPred bool
}

type atomKind uint8

const (
	atomDeadlock atomKind = iota + 1
	atomTerminated
	atomAt
	atomEvent
	atomPred
)

type findAtom struct {
	kind  atomKind
	name  string
	g     string // atomAt: goroutine number or function name
	label string // atomAt
	pred  *predicate
}

func (p *Program) newFindSpec(ctx context.Context, e *Entry, src string) (*findSpec, error) {
	f, err := ltl.Parse(src)
	if err != nil {
		return nil, fmt.Errorf("explore: find: %w %q: %w", ErrFormula, src, err)
	}
	fs := &findSpec{src: src, formula: f, labels: map[*ssa.Function]map[ssa.Instruction][]string{},
		calls: map[*types.Func][]string{}, returns: map[*types.Func][]string{}}
	// The annotations of the entry's package first, then those of the
	// other user packages (the body may call into them).
	var tpkg *types.Package
	var aps []*annotate.Package
	p.specs.mu.Lock()
	if e.Fn.Pkg != nil {
		tpkg = e.Fn.Pkg.Pkg
		if ap, _ := p.annotationsLocked(tpkg); ap != nil {
			aps = append(aps, ap)
		}
	}
	others := make([]*types.Package, 0, len(p.syntax))
	for q := range p.syntax {
		if q != tpkg {
			others = append(others, q)
		}
	}
	sort.Slice(others, func(i, j int) bool { return others[i].Path() < others[j].Path() })
	for _, q := range others {
		if ap, _ := p.annotationsLocked(q); ap != nil {
			aps = append(aps, ap)
		}
	}
	p.specs.mu.Unlock()
	lookup := func(name string) *annotate.Prop {
		for _, ap := range aps {
			if prop := ap.Prop(name); prop != nil {
				return prop
			}
		}
		return nil
	}
	// Every label of these packages is a scheduling point.
	known := map[string]bool{}
	for _, ap := range aps {
		for _, prop := range ap.Props {
			if prop.Kind != annotate.StatementEvent {
				continue
			}
			fn, ins, err := p.stmtInstr(prop)
			if err != nil {
				continue // reported if the formula uses it
			}
			known[prop.Name] = true
			if fs.labels[fn] == nil {
				fs.labels[fn] = map[ssa.Instruction][]string{}
			}
			fs.labels[fn][ins] = append(fs.labels[fn][ins], prop.Name)
		}
	}
	d, err := automaton.FromFormula(ctx, f, automaton.Options{})
	if err != nil {
		return nil, fmt.Errorf("explore: find: %w %q: %w", ErrFormula, src, err)
	}
	fs.dfa = d
	bad := func(format string, args ...any) error {
		return fmt.Errorf("explore: find: %w %q: %s", ErrFormula, src, fmt.Sprintf(format, args...))
	}
	for _, name := range d.Monitor().Atoms() {
		a := findAtom{name: name}
		g, label, isAt := ltl.SplitAt(name)
		switch {
		case name == "deadlock":
			a.kind = atomDeadlock
		case name == "terminated":
			a.kind = atomTerminated
		case isAt:
			a.kind, a.g, a.label = atomAt, g, label
			if !known[a.label] {
				return nil, bad("at(%s, %s): no //ltl:event %s in the loaded packages", a.g, a.label, a.label)
			}
		default:
			prop := lookup(name)
			switch {
			case prop == nil:
				pr, err := p.exprPredicate(tpkg, name)
				if err != nil {
					return nil, bad("atom %q: %v", name, err)
				}
				a.kind, a.pred = atomPred, pr
				fs.hasPred = true
			case prop.Kind == annotate.StateProp:
				pr, err := p.newPredicate(prop.Expr, p.Fset)
				if err != nil {
					return nil, bad("%v", err)
				}
				a.kind, a.pred = atomPred, pr
				fs.hasPred = true
			case prop.Kind == annotate.StatementEvent:
				if !known[name] {
					_, _, err := p.stmtInstr(prop)
					return nil, bad("event %s: %v", name, err)
				}
				a.kind = atomEvent
			case prop.Kind == annotate.CallEvent:
				a.kind = atomEvent
				fs.calls[prop.Func] = append(fs.calls[prop.Func], name)
			case prop.Kind == annotate.ReturnEvent:
				a.kind = atomEvent
				fs.returns[prop.Func] = append(fs.returns[prop.Func], name)
			default:
				return nil, bad("%s events (%s) are not supported in searches", prop.Kind, name)
			}
		}
		fs.atoms = append(fs.atoms, a)
	}
	return fs, nil
}

// exprPredicate type-checks a Go boolean expression in the package scope
// of tpkg and prepares it.
func (p *Program) exprPredicate(tpkg *types.Package, src string) (*predicate, error) {
	pr, err := p.exprValue(tpkg, src)
	if err != nil {
		return nil, err
	}
	if b, ok := pr.expr.Info.TypeOf(pr.expr.AST).Underlying().(*types.Basic); !ok || b.Info()&types.IsBoolean == 0 {
		return nil, fmt.Errorf("Go expression of type %s, want a boolean", pr.expr.Info.TypeOf(pr.expr.AST))
	}
	return pr, nil
}

// exprValue type-checks a Go expression of any type in the package scope
// of tpkg and prepares it.
func (p *Program) exprValue(tpkg *types.Package, src string) (*predicate, error) {
	if tpkg == nil {
		return nil, fmt.Errorf("no package scope")
	}
	fset := token.NewFileSet()
	x, err := parser.ParseExprFrom(fset, "formula", src, 0)
	if err != nil {
		return nil, fmt.Errorf("not an atom of the search (deadlock, terminated, at(G, L), a label or prop) and not a Go expression: %w", err)
	}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Uses: map[*ast.Ident]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{}}
	if err := types.CheckExpr(fset, tpkg, token.NoPos, x, info); err != nil {
		return nil, fmt.Errorf("not an atom of the search (deadlock, terminated, at(G, L), a label or prop) and not a valid Go expression: %w", err)
	}
	return p.newPredicate(&annotate.Expr{Src: src, AST: x, Info: info, Scope: tpkg.Scope()}, fset)
}

// findObserver marks the packages' labels and the formula's call/return
// events.
type findObserver struct{ fs *findSpec }

func (o findObserver) CallEvents(fn *ssa.Function) bool {
	obj := funcObject(fn)
	return obj != nil && (len(o.fs.calls[obj]) > 0 || len(o.fs.returns[obj]) > 0)
}

func (o findObserver) stmtEvents(fn *ssa.Function) map[ssa.Instruction][]string {
	return o.fs.labels[fn]
}

func (o findObserver) NewPath() pathMonitor {
	return &findPath{fs: o.fs, at: map[int][]string{}, atPos: map[int]token.Pos{}, names: map[int]string{}}
}

// findPath tracks the labels of one execution; the chooser reads it.
type findPath struct {
	fs    *findSpec
	at    map[int][]string  // goroutine → labels of its last labelled statement
	atPos map[int]token.Pos // goroutine → position of that statement
	names map[int]string    // goroutine → function it was started with
	fired []string          // events of the current step
	// ended is set by End for a terminal state.
	ended, terminated bool
}

func (fp *findPath) Event(ev *obsEvent, st obsState) *violation {
	x := st.(stateView).x
	if _, ok := fp.names[ev.Goroutine]; !ok && ev.Goroutine >= 1 && ev.Goroutine <= len(x.gs) {
		fp.names[ev.Goroutine] = goroutineName(x.gs[ev.Goroutine-1])
	}
	switch ev.Kind {
	case obsStatement:
		fp.at[ev.Goroutine] = ev.Labels
		fp.atPos[ev.Goroutine] = ev.Pos
		fp.fired = append(fp.fired, ev.Labels...)
	case obsCall:
		fp.fired = append(fp.fired, fp.fs.calls[funcObject(ev.Func)]...)
	case obsReturn:
		fp.fired = append(fp.fired, fp.fs.returns[funcObject(ev.Func)]...)
	}
	return nil
}

func (fp *findPath) End(st obsState) *violation {
	x := st.(stateView).x
	if x.sleepBlocked || x.bound != "" || x.replayErr != "" {
		return nil
	}
	fp.ended = true
	fp.terminated = true
	for _, g := range x.gs {
		if !g.done {
			fp.terminated = false
		}
	}
	return nil
}

// goroutineName is the name of the function g was started with.
func goroutineName(g *goroutine) string {
	if g.depth > 0 {
		if fn := g.frames[0].fn.fn; fn != nil {
			return shortFuncName(fn)
		}
	}
	return ""
}

// matchGoroutineName reports whether a goroutine started with function
// full ("pkg.F") is named name ("pkg.F" or "F").
func matchGoroutineName(full, name string) bool {
	if full == name {
		return true
	}
	if i := strings.LastIndexByte(full, '.'); i >= 0 && full[i+1:] == name {
		return true
	}
	return false
}

// letter evaluates the atoms in the current state.
func (fp *findPath) letter(x *execution) (monitor.Letter, []string, error) {
	var l monitor.Letter
	var names []string
	for i, a := range fp.fs.atoms {
		var v bool
		switch a.kind {
		case atomDeadlock:
			v = fp.ended && !fp.terminated
		case atomTerminated:
			v = fp.ended && fp.terminated
		case atomAt:
			id, err := strconv.Atoi(a.g)
			for g, labels := range fp.at {
				if (err == nil && g == id || err != nil && matchGoroutineName(fp.names[g], a.g)) && contains(labels, a.label) {
					v = true
				}
			}
		case atomEvent:
			v = contains(fp.fired, a.name)
		case atomPred:
			ok, err := a.pred.eval(x, nil) // symbolic values: unsupported
			if err != nil {
				return 0, nil, err
			}
			v = ok
		}
		if v {
			l |= 1 << uint(i)
			names = append(names, a.name)
		}
	}
	return l, names, nil
}

// finder runs one search.
type finder struct {
	p    *Program
	e    *Entry
	fs   *findSpec
	fo   *FindOptions
	opts *Options
	m    *machine
	ctx  context.Context
	seed maphash.Seed
	base []int // choices of FindOptions.After
	// part is the shard partition at the program start: each run starts
	// its node's from a copy (the pieces, read-only, are computed once).
	part shardPath

	visited map[uint64]bool
	res     *FindResult
	err     error
}

// node is the result of running one search node (a schedule prefix).
type node struct {
	prefix []int
	n      int  // alternatives at the node's state (0: terminal)
	accept bool // the DFA accepts the positions so far
	dead   bool // no extension can be accepted
	// key identifies the (program state, DFA state) pair, sys the
	// program state alone; both only if hasKey.
	key, sys uint64
	hasKey   bool
	bound    string
	err      error
	part     shardPath // the node's place in the shard partition
}

// findChooser follows a prefix, evaluating every position from the start
// of the search, and stops at its end (or, with extend, continues with
// first choices). In replay mode it follows a replay token instead.
type findChooser struct {
	f      *finder
	prefix []int
	pos    int // steps taken
	extend bool
	mon    *automaton.Monitor
	states []WitnessState
	record bool
	nd     *node
	// moves are the goroutines of the alternatives at the prefix's end
	// (set when the prefix ends at a choice point, without extend).
	moves []*goroutine

	// replay mode: the token's choices (choice points with ≥ 2
	// alternatives only), where positions start, where to stop (-1:
	// at the first accepting position).
	replaying   bool
	token       []int
	tokenPos    int
	replayStart int
	stopAt      int
	found       bool
	foundAt     int
	foundTrace  []Step
	halt        bool
}

// observe evaluates the current state as the next position of the search
// (from the search's start on); final computes the node's state key.
func (c *findChooser) observe(x *execution, terminal bool, n int, final bool) {
	fp := x.monitor.(*findPath)
	start := len(c.f.base)
	if c.replaying {
		start = c.replayStart
	}
	defer func() { fp.fired = fp.fired[:0] }()
	if c.pos < start || c.nd.err != nil {
		return
	}
	l, names, err := fp.letter(x)
	if err != nil {
		c.nd.err = err
		return
	}
	v := c.mon.Step(l)
	c.nd.accept = v.Holds()
	c.nd.dead = v == monitor.Violated
	c.nd.n = n
	if c.record {
		at := map[int]string{}
		for g, ls := range fp.at {
			at[g] = strings.Join(ls, ",")
		}
		g := 0
		if x.lastG != nil && c.pos > start {
			g = x.lastG.id
		}
		c.states = append(c.states, WitnessState{Step: x.steps, Goroutine: g, Atoms: names, At: at, Terminal: terminal})
	}
	if !final || terminal {
		c.nd.hasKey = false
		return
	}
	fpKey, ok := x.fingerprint(c.f.seed)
	if !ok {
		c.nd.hasKey = false
		return
	}
	var h maphash.Hash
	h.SetSeed(c.f.seed)
	fmt.Fprintf(&h, "%x", fpKey)
	ids := make([]int, 0, len(fp.at))
	for g := range fp.at {
		ids = append(ids, g)
	}
	sort.Ints(ids)
	for _, g := range ids {
		fmt.Fprintf(&h, "|%d:%s", g, strings.Join(fp.at[g], ","))
	}
	fmt.Fprintf(&h, "|%s", strings.Join(names, ","))
	c.nd.sys = h.Sum64()
	fmt.Fprintf(&h, "|%d", c.mon.State())
	c.nd.key, c.nd.hasKey = h.Sum64(), true
}

func (c *findChooser) choose(x *execution, ts []transition) int {
	if x.inInit {
		return 0
	}
	if c.replaying {
		return c.replayChoose(x, ts)
	}
	switch {
	case c.pos < len(c.prefix):
		c.observe(x, false, len(ts), false)
		i := c.prefix[c.pos]
		c.pos++
		c.nd.part.take(i, len(ts))
		return i
	case c.pos == len(c.prefix) && !c.extend:
		c.observe(x, false, len(ts), true)
		c.moves = make([]*goroutine, len(ts))
		for i, t := range ts {
			c.moves[i] = t.g
		}
		return sleepBlocked
	}
	c.pos++
	return 0
}

func (c *findChooser) replayChoose(x *execution, ts []transition) int {
	c.observe(x, false, len(ts), false)
	c.checkFound(x)
	if c.halt {
		return sleepBlocked
	}
	i := 0
	if len(ts) > 1 {
		if c.tokenPos >= len(c.token) {
			return -1
		}
		i = c.token[c.tokenPos]
		c.tokenPos++
	}
	c.pos++
	return i
}

// checkFound decides, in replay mode, whether the path so far is the
// witness, or cannot become one.
func (c *findChooser) checkFound(x *execution) {
	if c.pos < c.replayStart || c.halt {
		return
	}
	switch {
	case c.nd.err != nil || c.nd.dead:
		c.halt = true
	case c.stopAt < 0 && c.nd.accept, c.stopAt >= 0 && c.pos == c.stopAt && c.nd.accept:
		c.found, c.foundAt, c.foundTrace, c.halt = true, c.pos, x.steps2(), true
	case c.stopAt >= 0 && c.pos >= c.stopAt:
		c.halt = true
	}
}

// run executes one node.
func (f *finder) run(prefix []int, record, extend bool) (*node, *findChooser, *execution) {
	nd := &node{prefix: prefix, n: -1, part: f.part}
	c := &findChooser{f: f, prefix: prefix, extend: extend, mon: f.fs.dfa.Monitor(), record: record, nd: nd}
	x := newExecution(f.m, f.e, f.opts, c, f.res.Nodes+1, f.opts.Seed)
	x.chooseAll = true
	x.run()
	f.res.Nodes++
	if fp, ok := x.monitor.(*findPath); ok && fp.ended && c.pos == len(prefix) && !extend {
		c.observe(x, true, 0, true)
	}
	if x.bound != "" && !x.sleepBlocked {
		nd.bound = x.bound
	}
	for _, fd := range x.findings {
		if fd.Kind == KindUnsupported || fd.Kind == KindInternal {
			nd.err = fmt.Errorf("explore: find: %s: %s", fd.Pos, fd.Message)
		}
	}
	return nd, c, x
}

// visit runs a node and reports whether the search continues below it;
// it records a witness if the node accepts.
func (f *finder) visit(prefix []int) (*node, bool) {
	nd, _, x := f.run(prefix, false, false)
	x.release()
	if nd.err != nil {
		f.err = nd.err
		return nd, false
	}
	if nd.bound != "" {
		f.res.Bound = nd.bound
		return nd, false
	}
	if nd.dead {
		return nd, false
	}
	if nd.hasKey && !nd.part.active() {
		if f.visited[nd.key] {
			return nd, false
		}
		f.visited[nd.key] = true
	}
	return nd, true
}

func (f *finder) stop() bool {
	if f.err != nil {
		return true
	}
	if f.ctx.Err() != nil {
		f.res.Bound = "time"
		return true
	}
	if f.res.Nodes >= f.maxNodes() {
		f.res.Bound = "nodes"
		return true
	}
	return false
}

func (f *finder) maxNodes() int {
	if f.fo.MaxNodes > 0 {
		return f.fo.MaxNodes
	}
	return 200000
}

func (f *finder) maxDepth() int {
	if f.fo.MaxDepth > 0 {
		return f.fo.MaxDepth
	}
	return 1000
}

// children returns the prefixes below nd, or none at the depth bound.
func (f *finder) children(nd *node) [][]int {
	if len(nd.prefix)-len(f.base) >= f.maxDepth() {
		if nd.n > 0 {
			f.res.Bound = "depth"
		}
		return nil
	}
	out := make([][]int, 0, nd.n)
	for i := 0; i < nd.n; i++ {
		if !nd.part.owns(i, nd.n) {
			continue
		}
		c := make([]int, len(nd.prefix)+1)
		copy(c, nd.prefix)
		c[len(nd.prefix)] = i
		out = append(out, c)
	}
	return out
}

func (f *finder) bfs() {
	queue := [][]int{append([]int(nil), f.base...)}
	for len(queue) > 0 && !f.stop() {
		prefix := queue[0]
		queue = queue[1:]
		nd, cont := f.visit(prefix)
		if f.err != nil {
			return
		}
		if nd.accept {
			f.witness(prefix)
			return
		}
		if cont {
			queue = append(queue, f.children(nd)...)
		}
	}
}

func (f *finder) dfsMin() {
	stack := [][]int{append([]int(nil), f.base...)}
	for len(stack) > 0 && !f.stop() {
		prefix := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		nd, cont := f.visit(prefix)
		if f.err != nil {
			return
		}
		if nd.accept {
			f.witness(prefix)
			return
		}
		if cont {
			ch := f.children(nd)
			for i := len(ch) - 1; i >= 0; i-- {
				stack = append(stack, ch[i])
			}
		}
	}
}

// dfsMax is the paper's DFS_max: saved is set when an accepting node is
// entered; an accepting node is reported when the search below it
// entered no accepting node (saved unchanged).
func (f *finder) dfsMax() {
	saved := -1
	var rec func(prefix []int) bool
	rec = func(prefix []int) bool {
		if f.stop() {
			return true
		}
		nd, cont := f.visit(prefix)
		if f.err != nil || !cont && !nd.accept {
			return f.err != nil
		}
		depth := len(prefix)
		if nd.accept {
			saved = depth
		}
		if cont {
			for _, c := range f.children(nd) {
				if rec(c) {
					return true
				}
			}
		}
		if nd.accept && saved == depth {
			f.witness(prefix)
			return true
		}
		return false
	}
	rec(append([]int(nil), f.base...))
}

// witness re-runs the accepted prefix to record its states and trace,
// then the extended execution for the replay token.
func (f *finder) witness(prefix []int) {
	_, c, x := f.run(prefix, true, false)
	w := &Witness{Entry: f.e.Name, Formula: f.fs.src, Start: len(f.base), Steps: len(prefix) - len(f.base),
		Trace: x.steps2(), choices: prefix, Goroutines: map[int]string{}}
	fp := x.monitor.(*findPath)
	for g, n := range fp.names {
		w.Goroutines[g] = n
	}
	w.States = c.states[len(c.states)-w.Steps-1:]
	x.release()
	w.Replay = f.replayToken(prefix)
	f.res.Witness = w
}

// replayToken is the token of an execution that follows prefix, then
// default choices.
func (f *finder) replayToken(prefix []int) string {
	_, _, x := f.run(prefix, false, true)
	defer x.release()
	return encodeToken(f.e.Name, f.opts.Seed, x.path)
}

// replay checks the path of a token (FindOptions.Replay).
func (f *finder) replay() (*FindResult, error) {
	tok, err := decodeToken(f.fo.Replay)
	if err != nil {
		return nil, err
	}
	f.opts.Seed = tok.seed
	f.base = nil
	nd := &node{n: -1}
	stopAt := -1
	if f.fo.ReplaySteps > 0 {
		stopAt = f.fo.ReplayStart + f.fo.ReplaySteps
	}
	c := &findChooser{f: f, mon: f.fs.dfa.Monitor(), record: true, nd: nd, replaying: true,
		token: tok.choices, replayStart: f.fo.ReplayStart, stopAt: stopAt}
	x := newExecution(f.m, f.e, f.opts, c, 1, tok.seed)
	x.chooseAll = true
	x.run()
	defer x.release()
	f.res.Nodes = 1
	if fp := x.monitor.(*findPath); fp.ended && !c.halt {
		c.observe(x, true, 0, false)
		c.checkFound(x)
	}
	if nd.err != nil {
		return nil, fmt.Errorf("explore: find: replay of %s: %w", f.e.Name, nd.err)
	}
	if x.replayErr != "" {
		return nil, fmt.Errorf("explore: find: replay of %s: %w (%s)", f.e.Name, ErrReplayDiverged, x.replayErr)
	}
	f.res.Complete = true
	if c.found {
		w := &Witness{Entry: f.e.Name, Formula: f.fs.src, Start: c.replayStart, Steps: c.foundAt - c.replayStart,
			Trace: c.foundTrace, Replay: f.fo.Replay, Goroutines: map[int]string{}}
		for g, n := range x.monitor.(*findPath).names {
			w.Goroutines[g] = n
		}
		w.States = c.states
		f.res.Witness = w
	}
	return f.res, nil
}
