package explore

import (
	"context"
	"fmt"
	"hash/maphash"
	"iter"
	"time"
)

// This file is the search of one temporal step: a generator of accepting
// paths (stepHit) that suspends at each report until Backtrack resumes
// it, and at each request bound (MaxNodes, the context) until the next
// request. Its visited set lives as long as the step, so the alternatives
// of a step are distinct paths and Backtrack never reports one twice.
//
// Search nodes are schedule prefixes from the program start; a node's
// state is the state after its prefix, evaluated by the finder (find.go)
// from the step's start (the finder's base, the previous step's last
// state). Pruning, as in Find: a node whose automaton can no longer accept
// (dead) is not expanded; without AllPaths, a (program state, automaton
// state) pair already searched is not searched again; and no path repeats
// a pair of its own (a loop back to a pair on the path adds no state: an
// accepting path through the loop stays accepting without it, so the
// search stays complete for existence).

// stepHit is what the step's generator yields.
type stepHit struct {
	// prefix is the accepting node's schedule prefix (from the program
	// start); loopFrom the index (from the step's start) of the state
	// its last state repeats, for an infinite chain, else -1.
	prefix   []int
	loopFrom int
	// bound is set when the generator suspends at a request bound
	// ("nodes", "time") rather than at a report.
	bound string
	err   error
}

// snode is a node of a step's search tree.
type snode struct {
	prefix   []int
	parent   *snode
	depth    int // steps from the step's start
	key, sys uint64
	hasKey   bool
	accept   bool
	n        int // alternatives at its state
}

// seq returns the program-state keys from the step's start to sn, and
// whether every state has one.
func (sn *snode) seq() ([]uint64, bool) {
	out := make([]uint64, sn.depth+1)
	for x := sn; x != nil; x = x.parent {
		if !x.hasKey {
			return nil, false
		}
		out[x.depth] = x.sys
	}
	return out, true
}

func (sn *snode) child(i int) *snode {
	p := make([]int, len(sn.prefix)+1)
	copy(p, sn.prefix)
	p[len(sn.prefix)] = i
	return &snode{prefix: p, parent: sn, depth: sn.depth + 1}
}

// stepSearch is the resumable search of one temporal step.
type stepSearch struct {
	f *finder
	o StepOptions
	// single names the goroutine of a Single step ("" otherwise).
	single string

	// budget is the finder's node count at which the current request
	// ends.
	budget int
	// cut names a bound that cut part of the search ("length",
	// "steps"): exhausting it proves nothing.
	cut string
	// states counts the search nodes visited (not pruned); stored the
	// largest number of states held at once.
	states, stored int
	reported       int

	ends map[uint64]bool        // DistinctEnd: reported end states
	trie map[trieEdge]int       // DistinctSequences: reported sequences
	next func() (stepHit, bool) // the suspended generator
	halt func()
}

// trieEdge is an edge of the tree of reported sequences: from node
// parent (0 is the root) by a state key.
type trieEdge struct {
	parent int
	state  uint64
}

// validate fills in the defaults of o and rejects combinations the
// search does not have.
func (o *StepOptions) validate() error {
	switch o.Size {
	case "":
		o.Size = Minimal
	case Minimal, Maximal, EveryEnd:
	default:
		return fmt.Errorf("explore: session: unknown step size %q (want min, max or every)", o.Size)
	}
	switch o.Search {
	case "":
		o.Search = BFS
		if o.Size == Maximal {
			o.Search = DepthFirst
		}
	case BFS, DepthFirst, IterativeDeepening:
	case DFSMin, DFSMax:
		return fmt.Errorf("explore: session: search %q is a FindOptions mode: use Search %q with Size %q or %q", o.Search, DepthFirst, Minimal, Maximal)
	default:
		return fmt.Errorf("explore: session: unknown search %q (want bfs, dfs or iddfs)", o.Search)
	}
	if o.Size == Maximal && o.Search != DepthFirst {
		return fmt.Errorf("explore: session: a maximal step needs the depth-first search (DFS_max), not %s", o.Search)
	}
	if o.MaxLength < 0 || o.MaxNodes < 0 {
		return fmt.Errorf("explore: session: negative MaxLength or MaxNodes")
	}
	if o.MaxLength == 0 {
		o.MaxLength = 1000
	}
	if o.MaxNodes == 0 {
		o.MaxNodes = 200000
	}
	return nil
}

// newStepSearch prepares the search of formula from the state after
// base, or with single set, of the moves of the goroutines it names; o
// must be validated.
func (s *Session) newStepSearch(ctx context.Context, formula string, o StepOptions, base []int, single string) (*stepSearch, error) {
	f, err := s.newFinder(ctx, formula, base, o)
	if err != nil {
		return nil, err
	}
	ss := &stepSearch{f: f, o: o, single: single, ends: map[uint64]bool{}, trie: map[trieEdge]int{}}
	var gen iter.Seq[stepHit]
	switch {
	case single != "":
		gen = ss.singleMoves
	case o.Search == IterativeDeepening:
		gen = ss.iddfs
	case o.Size == Maximal:
		gen = ss.dfsMax
	default:
		gen = ss.frontier
	}
	ss.next, ss.halt = iter.Pull(gen)
	return ss, nil
}

// newFinder prepares a finder of formula from the state after base, with
// the session's Options as Find sets them.
func (s *Session) newFinder(ctx context.Context, formula string, base []int, o StepOptions) (*finder, error) {
	fs, err := s.p.newFindSpec(ctx, s.e, formula)
	if err != nil {
		return nil, fmt.Errorf("explore: session: %w", err)
	}
	opts := findRunOptions(ctx, s.opts, fs)
	return &finder{p: s.p, e: s.e, fs: fs, fo: &FindOptions{MaxDepth: o.MaxLength, MaxNodes: o.MaxNodes}, opts: &opts,
		m: newMachine(s.p, &opts), ctx: ctx, seed: maphash.MakeSeed(), part: newShardPath(Shard{}), visited: map[uint64]bool{}, res: &FindResult{}, base: base}, nil
}

// request runs the search to its next hit within o.MaxNodes executions
// and o's Timeout. exhausted reports that nothing is left to search.
func (ss *stepSearch) request(ctx context.Context, timeout time.Duration) (res *StepResult, h stepHit, exhausted bool) {
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	f := ss.f
	f.ctx, f.opts.ctx = ctx, ctx
	start := f.res.Nodes
	ss.budget = start + ss.o.MaxNodes
	h, ok := ss.next()
	res = &StepResult{Nodes: f.res.Nodes - start, States: ss.states, Stored: ss.stored}
	switch {
	case !ok:
		res.Verdict = None
		if ss.cut != "" {
			res.Verdict, res.Bound = Unknown, ss.cut
		}
		return res, h, true
	case h.bound != "":
		res.Verdict, res.Bound = Unknown, h.bound
	case h.err == nil:
		res.Verdict = Found
		res.InfiniteChain = h.loopFrom >= 0
	}
	return res, h, false
}

// stop abandons the search.
func (ss *stepSearch) stop() {
	if ss.halt != nil {
		ss.halt()
		ss.halt = nil
	}
}

// pause suspends the generator while a request bound holds; false means
// the search was abandoned.
func (ss *stepSearch) pause(yield func(stepHit) bool) bool {
	for {
		var b string
		switch {
		case ss.f.ctx.Err() != nil:
			b = "time"
		case ss.f.res.Nodes >= ss.budget:
			b = "nodes"
		default:
			return true
		}
		if !yield(stepHit{bound: b}) {
			return false
		}
	}
}

// enter suspends at the request bounds, then runs sn: ok reports that
// the search goes on at sn; stop that the generator must return (the
// search was abandoned, or an error was yielded).
func (ss *stepSearch) enter(sn *snode, yield func(stepHit) bool) (ok, stop bool) {
	if !ss.pause(yield) {
		return false, true
	}
	ok, err := ss.exec(sn)
	if err != nil {
		yield(stepHit{err: err})
		return false, true
	}
	return ok, false
}

// exec runs sn's prefix and fills in its state; ok is false when the
// search does not go on at sn (an error, in err; a bound; a dead
// automaton).
func (ss *stepSearch) exec(sn *snode) (ok bool, err error) {
	nd, _, x := ss.f.run(sn.prefix, false, false)
	x.release()
	if nd.err != nil {
		return false, nd.err
	}
	if nd.bound != "" {
		ss.cut = nd.bound
		return false, nil
	}
	sn.key, sn.sys, sn.hasKey, sn.accept, sn.n = nd.key, nd.sys, nd.hasKey, nd.accept, nd.n
	return !nd.dead, nil
}

// seen reports whether the visited set already holds sn's pair, and
// adds it.
func (ss *stepSearch) seen(sn *snode) bool {
	if !ss.o.AllPaths && sn.hasKey {
		if ss.f.visited[sn.key] {
			return true
		}
		ss.f.visited[sn.key] = true
	}
	ss.states++
	return false
}

// onPath reports whether sn's pair is the pair of one of its ancestors,
// and which (its depth).
func onPath(sn *snode) (int, bool) {
	if !sn.hasKey {
		return 0, false
	}
	for a := sn.parent; a != nil; a = a.parent {
		if a.hasKey && a.key == sn.key {
			return a.depth, true
		}
	}
	return 0, false
}

// expandable reports whether the search goes below sn, and notes a cut
// at the length bound.
func (ss *stepSearch) expandable(sn *snode) bool {
	if sn.n == 0 {
		return false
	}
	if sn.depth >= ss.o.MaxLength {
		ss.cut = "length"
		return false
	}
	return true
}

// fresh decides whether an accepting node may be reported under
// DistinctEnd and DistinctSequences, and records it if so.
func (ss *stepSearch) fresh(sn *snode) bool {
	if ss.o.DistinctEnd && sn.hasKey && ss.ends[sn.sys] {
		return false
	}
	var seq []uint64
	var keyed bool
	if ss.o.DistinctSequences {
		seq, keyed = sn.seq()
		if keyed && ss.inTrie(seq) {
			return false
		}
	}
	if ss.o.DistinctEnd && sn.hasKey {
		ss.ends[sn.sys] = true
	}
	if keyed {
		ss.addTrie(seq)
	}
	return true
}

// inTrie reports whether seq is a path of the tree of reported sequences
// from its root.
func (ss *stepSearch) inTrie(seq []uint64) bool {
	at := 0
	for _, k := range seq {
		next, ok := ss.trie[trieEdge{at, k}]
		if !ok {
			return false
		}
		at = next
	}
	return true
}

func (ss *stepSearch) addTrie(seq []uint64) {
	at := 0
	for _, k := range seq {
		next, ok := ss.trie[trieEdge{at, k}]
		if !ok {
			next = len(ss.trie) + 1
			ss.trie[trieEdge{at, k}] = next
		}
		at = next
	}
}

func (ss *stepSearch) store(n int) {
	if n > ss.stored {
		ss.stored = n
	}
}

func (ss *stepSearch) root() *snode {
	return &snode{prefix: append([]int(nil), ss.f.base...)}
}

// frontier is BFS (a queue) or DFS_min and the EveryEnd variants (a
// stack): minimal steps are not extended past their accepting state.
func (ss *stepSearch) frontier(yield func(stepHit) bool) {
	lifo := ss.o.Search == DepthFirst
	work := []*snode{ss.root()}
	for len(work) > 0 {
		var sn *snode
		if lifo {
			sn, work = work[len(work)-1], work[:len(work)-1]
		} else {
			sn, work = work[0], work[1:]
		}
		ok, stop := ss.enter(sn, yield)
		if stop {
			return
		}
		if !ok {
			continue
		}
		if ss.o.AllPaths {
			// without AllPaths, a pair of the path is in the visited set
			if _, loop := onPath(sn); loop {
				continue
			}
		}
		if ss.seen(sn) {
			continue
		}
		if sn.accept && ss.fresh(sn) && !yield(stepHit{prefix: sn.prefix, loopFrom: -1}) {
			return
		}
		if sn.accept && ss.o.Size == Minimal || !ss.expandable(sn) {
			continue
		}
		if lifo {
			for i := sn.n - 1; i >= 0; i-- {
				work = append(work, sn.child(i))
			}
		} else {
			for i := 0; i < sn.n; i++ {
				work = append(work, sn.child(i))
			}
		}
		ss.store(len(ss.f.visited) + len(work))
	}
}

// dfsMax is the paper's DFS_max: saved is set to the depth of an
// accepting node when it is entered; an accepting node is reported when
// the search returns to it with saved unchanged (no longer accepting
// path was entered below it). A node that closes a cycle of accepting
// nodes on the current path is an infinite chain: it is reported, and
// saved is set deeper than the whole path, so no node of the path is
// reported as maximal.
func (ss *stepSearch) dfsMax(yield func(stepHit) bool) {
	saved := -1
	var rec func(sn *snode) bool
	rec = func(sn *snode) bool {
		ok, stop := ss.enter(sn, yield)
		if !ok {
			return !stop
		}
		if from, loop := onPath(sn); loop {
			if !sn.accept || !ss.acceptingFrom(sn.parent, from) {
				return true
			}
			saved = sn.depth + 1
			return !ss.fresh(sn) || yield(stepHit{prefix: sn.prefix, loopFrom: from})
		}
		if ss.seen(sn) {
			return true
		}
		if sn.accept {
			saved = sn.depth
		}
		ss.store(len(ss.f.visited) + sn.depth)
		if ss.expandable(sn) {
			for i := 0; i < sn.n; i++ {
				if !rec(sn.child(i)) {
					return false
				}
			}
		}
		if sn.accept && saved == sn.depth && ss.fresh(sn) {
			return yield(stepHit{prefix: sn.prefix, loopFrom: -1})
		}
		return true
	}
	rec(ss.root())
}

// acceptingFrom reports whether every node from sn up to its ancestor at
// depth from accepts.
func (ss *stepSearch) acceptingFrom(sn *snode, from int) bool {
	for a := sn; a != nil && a.depth >= from; a = a.parent {
		if !a.accept {
			return false
		}
	}
	return true
}

// iddfs is the memoryless search: depth-first searches to depth 0, 1, …,
// MaxLength, each reporting the accepting nodes at its depth, with no
// visited set (only the current path is kept). It ends when a depth has
// no node left to extend.
func (ss *stepSearch) iddfs(yield func(stepHit) bool) {
	for d := 0; ; d++ {
		deeper := false
		var rec func(sn *snode) bool
		rec = func(sn *snode) bool {
			ok, stop := ss.enter(sn, yield)
			if !ok {
				return !stop
			}
			if _, loop := onPath(sn); loop {
				return true
			}
			ss.states++
			ss.store(sn.depth + 1)
			stopHere := sn.accept && ss.o.Size == Minimal
			if sn.depth == d {
				if sn.accept && ss.fresh(sn) && !yield(stepHit{prefix: sn.prefix, loopFrom: -1}) {
					return false
				}
				if !stopHere && sn.n > 0 {
					deeper = true
				}
				return true
			}
			if stopHere {
				return true
			}
			for i := 0; i < sn.n; i++ {
				if !rec(sn.child(i)) {
					return false
				}
			}
			return true
		}
		if !rec(ss.root()) || !deeper {
			return
		}
		if d >= ss.o.MaxLength {
			ss.cut = "length"
			return
		}
	}
}
