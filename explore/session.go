package explore

import (
	"context"
	"errors"
	"fmt"
)

// This file is the temporal debugger of Gunter and Peled: a Session is a
// temporal stack over one entry's schedules. The user stands at a state
// (the initial state, or the last state of the latest step), asks for a
// temporal step — a path from that state whose states satisfy an LTLf
// formula (the atoms of Find) — and lands at the step's last state; the
// next question starts there. Each step owns its search: Backtrack resumes
// it for the step's next alternative, with the search's visited set kept,
// so an alternative is never a step already reported; Pop discards it.
//
// States are schedule prefixes re-executed from the program start (the
// explorer is stateless), so every state of the stack has a replay token
// and the stack costs no program memory; a step's search matches states
// by fingerprint paired with the formula's DFA state, as Find does.

// Search orders of a temporal step (StepOptions.Search), besides BFS.
const (
	// DepthFirst searches depth-first (the paper's DFS_min and DFS_max,
	// by StepOptions.Size).
	DepthFirst SearchMode = "dfs"
	// IterativeDeepening is the memoryless search: depth-first to depth
	// 1, 2, … up to StepOptions.MaxLength, keeping only the current path
	// (no visited set), so memory stays proportional to the step length
	// whatever the state space. A state repeated on the current path is
	// not expanded again. Steps are found in order of length, as with
	// BFS, at the price of re-running the shallower levels.
	IterativeDeepening SearchMode = "iddfs"
)

// StepSize selects which accepting paths a temporal step reports.
type StepSize string

const (
	// Minimal reports a path whose last state is the first accepting
	// one on it: the search does not continue past an accepting state.
	// With BFS or IterativeDeepening, the shortest first. The default.
	Minimal StepSize = "min"
	// Maximal reports an accepting path that the search could not
	// extend to a longer accepting one (the paper's DFS_max: maximality
	// is relative to the search tree, since visited states are not
	// searched again). It needs a depth-first search (the default search
	// when Size is Maximal). A cycle of accepting states met on the
	// current path is an infinite chain of ever-longer steps: the step up
	// to the cycle's closing state is reported with InfiniteChain set.
	Maximal StepSize = "max"
	// EveryEnd reports every accepting path the search meets, one per
	// Backtrack, continuing past accepting states (the paper's "step
	// through all the states that end a finite sequence satisfying this
	// formula").
	EveryEnd StepSize = "every"
)

// StepOptions control the search of one temporal step.
type StepOptions struct {
	// Search is the search order: BFS (shortest first), DepthFirst or
	// IterativeDeepening. Default: BFS, or DepthFirst when Size is
	// Maximal.
	Search SearchMode
	// Size is Minimal (default), Maximal or EveryEnd.
	Size StepSize
	// MaxLength bounds the steps of a temporal step (default 1000); a
	// search cut by it ends "unknown", never "none".
	MaxLength int
	// MaxNodes bounds the executions of one search request (Push, or one
	// Backtrack) (default 200000).
	MaxNodes int
	// DistinctEnd refuses an alternative that ends in a program state
	// (fingerprint, labels) where an earlier alternative of the step
	// ended.
	DistinctEnd bool
	// DistinctSequences refuses an alternative whose sequence of program
	// states is one already reported by the step (or a prefix of one):
	// the reported sequences form a tree, and a new one must leave it.
	DistinctSequences bool
	// AllPaths searches without the visited set: every path, even
	// through states already searched (exponential in general; the
	// search ends "unknown" at MaxNodes or MaxLength).
	AllPaths bool
}

// Verdicts of a StepResult and of a FindResult.
const (
	Found   = "found"
	None    = "none"
	Unknown = "unknown"
)

// StepResult is the outcome of one search request (Push, Backtrack,
// Single).
type StepResult struct {
	// Verdict is Found (Step is the new step), None (the search is
	// complete and there is no step, or no further alternative) or
	// Unknown (a bound cut the search: Bound names it).
	Verdict string
	// Bound names what cut an incomplete search: "length", "nodes",
	// "time" or "steps".
	Bound string
	// Nodes is the number of executions this request ran (the search's
	// and those recording the step); States the number of search nodes
	// the step's search has visited so far, Push and Backtracks together:
	// with the visited set, the distinct (program state, automaton state)
	// pairs; without one (AllPaths, IterativeDeepening, states without a
	// fingerprint), every node not pruned, repeats included.
	Nodes, States int
	// Stored is the largest number of states the search held in memory
	// at once (visited set and queue; the current path for
	// IterativeDeepening).
	Stored int
	// Step is the new top of the stack when Verdict is Found.
	Step *TemporalStep
	// InfiniteChain reports that the search met a cycle of accepting
	// states (a Maximal step of G p on a p-cycle): ever-longer steps
	// exist without end. Step is the path up to the cycle's closing
	// state; Step.LoopFrom is where the cycle starts.
	InfiniteChain bool
	// Popped reports that Backtrack found no alternative and popped the
	// step.
	Popped bool
}

// TemporalStep is one step of the temporal stack: a path from the
// previous step's last state (or the initial state) satisfying Formula.
type TemporalStep struct {
	// Formula is the step's formula as given ("single G" for Single).
	Formula string
	// Options are the step's search options.
	Options StepOptions
	// Alternative counts the alternatives reported by the step's search,
	// this one included (1 for the first).
	Alternative int
	// LoopFrom is, for an infinite chain, the index in States of the
	// state the last state repeats; -1 otherwise.
	LoopFrom int
	// Witness holds the step's states (States[0] is the previous step's
	// last state), its interleaving from the program start and the
	// replay token of its last state.
	*Witness
}

// SessionState describes the current state of a session.
type SessionState struct {
	// Step is the number of scheduling steps from the program start.
	Step int
	// Depth is the number of temporal steps on the stack.
	Depth int
	// Goroutines are the live and exited goroutines, by number.
	Goroutines []GoroutineState
	// Terminal: no goroutine can move; Deadlock: terminal with some
	// goroutine blocked.
	Terminal, Deadlock bool
	// Err is set when the state could not be computed (the program's
	// initialization failed, or the context of the session's first view
	// ended); the other fields are then zero.
	Err error
}

// GoroutineState is one goroutine in a SessionState.
type GoroutineState struct {
	// ID is the goroutine's number as the trace prints it (1 is the
	// entry); Name the function it was started with.
	ID   int
	Name string
	// Label is the last //ltl:event label the goroutine executed ("" if
	// none) and LabelPos the file:line:col of that statement.
	Label, LabelPos string
	// Pos is the file:line:col where the goroutine stands.
	Pos string
	// CanMove: the goroutine has an enabled transition; Exited: it
	// returned.
	CanMove, Exited bool
}

// ErrNoStep is returned by Pop and Backtrack on an empty stack.
var ErrNoStep = errors.New("explore: session: the temporal stack is empty")

// Session is a temporal stack over the schedules of one entry. Each step
// keeps its search suspended (a coroutine) until it is popped: Clear a
// session that is no longer needed to release them. A Session is not safe
// for concurrent use.
type Session struct {
	p    *Program
	e    *Entry
	opts Options
	// frames is the stack; frames[i] owns the search of step i.
	frames []*sessionFrame
	// initial caches the view of the initial state.
	initial *sessionView
}

// sessionFrame is one step of the stack and the search that produced it.
type sessionFrame struct {
	step   *TemporalStep
	search *stepSearch
	view   *sessionView // the view of its last state, once computed
}

// NewSession starts a session at the initial state of e (package
// initialization done, every goroutine at its first scheduling point).
// o's Shared, MaxSteps, MaxLoop, Timeout (per search request) and Seed
// apply to every step; its other fields are ignored.
func (p *Program) NewSession(e *Entry, o Options) *Session {
	return &Session{p: p, e: e, opts: o}
}

// base is the schedule prefix of the current state.
func (s *Session) base() []int {
	if len(s.frames) == 0 {
		return nil
	}
	return s.frames[len(s.frames)-1].step.choices
}

// Push searches for a temporal step satisfying formula from the current
// state and, if one is found, pushes it: its last state becomes the
// current state. A bad formula is an error wrapping ErrFormula; no step
// is pushed unless the verdict is Found.
func (s *Session) Push(ctx context.Context, formula string, o StepOptions) (*StepResult, error) {
	if err := o.validate(); err != nil {
		return nil, err
	}
	return s.push(ctx, formula, o, "")
}

// push runs a new step's first request and pushes the step if found.
func (s *Session) push(ctx context.Context, formula string, o StepOptions, single string) (*StepResult, error) {
	search := formula
	if single != "" {
		search, formula = "true", "single "+single
	}
	ss, err := s.newStepSearch(ctx, search, o, s.base(), single)
	if err != nil {
		return nil, err
	}
	r, h, _ := ss.request(ctx, s.opts.Timeout)
	if h.err != nil || r.Verdict != Found {
		ss.stop()
		if h.err != nil {
			return nil, fmt.Errorf("explore: session: %s: %w", formula, h.err)
		}
		return r, nil
	}
	r.Step = ss.step(formula, h)
	s.frames = append(s.frames, &sessionFrame{step: r.Step, search: ss})
	return r, nil
}

// step builds the reported step of a hit.
func (ss *stepSearch) step(formula string, h stepHit) *TemporalStep {
	ss.f.witness(h.prefix)
	w := ss.f.res.Witness
	ss.f.res.Witness = nil
	w.Formula = formula
	ss.reported++
	return &TemporalStep{Formula: formula, Options: ss.o, Alternative: ss.reported, LoopFrom: h.loopFrom, Witness: w}
}

// Backtrack resumes the search of the latest step for its next
// alternative, which replaces the step. When the search has no
// alternative left (verdict None, or Unknown with Bound "length" or
// "steps" when bounds cut part of it), the step is popped
// (StepResult.Popped) and the current state is the previous step's last
// state. When a request bound stopped the search (Unknown with Bound
// "nodes" or "time"), the step stays: Backtrack again continues the
// search with a fresh budget.
func (s *Session) Backtrack(ctx context.Context) (*StepResult, error) {
	if len(s.frames) == 0 {
		return nil, ErrNoStep
	}
	top := s.frames[len(s.frames)-1]
	r, h, exhausted := top.search.request(ctx, s.opts.Timeout)
	switch {
	case h.err != nil:
		return nil, fmt.Errorf("explore: session: %s: %w", top.step.Formula, h.err)
	case r.Verdict == Found:
		top.step = top.search.step(top.step.Formula, h)
		top.view = nil
		r.Step = top.step
	case exhausted:
		top.search.stop()
		s.frames = s.frames[:len(s.frames)-1]
		r.Popped = true
	}
	return r, nil
}

// Pop discards the latest step and its search; the current state is
// again the previous step's last state. No search is resumed.
func (s *Session) Pop() error {
	if len(s.frames) == 0 {
		return ErrNoStep
	}
	s.frames[len(s.frames)-1].search.stop()
	s.frames = s.frames[:len(s.frames)-1]
	return nil
}

// Clear pops every step: the current state is the initial state.
func (s *Session) Clear() {
	for len(s.frames) > 0 {
		_ = s.Pop()
	}
}

// Steps returns the stack, oldest first.
func (s *Session) Steps() []*TemporalStep {
	out := make([]*TemporalStep, len(s.frames))
	for i, f := range s.frames {
		out[i] = f.step
	}
	return out
}

// Path returns the states of the stack's path: the concatenation of the
// steps, each boundary state once (a step's first state is the previous
// step's last). With an empty stack, the initial state alone (nil if it
// cannot be computed: see Current).
func (s *Session) Path() []WitnessState {
	if len(s.frames) == 0 {
		v := s.view()
		if v.err != nil {
			return nil
		}
		return []WitnessState{v.ws}
	}
	var out []WitnessState
	for i, f := range s.frames {
		st := f.step.States
		if i > 0 {
			st = st[1:]
		}
		out = append(out, st...)
	}
	return out
}

// Current describes the current state.
func (s *Session) Current() SessionState {
	v := s.view()
	if v.err != nil {
		return SessionState{Err: v.err}
	}
	st := v.state
	st.Depth = len(s.frames)
	return st
}

// Replay returns the replay token of an execution through the current
// state (its schedule prefix, then default choices); the state is the one
// after Current().Step steps. FindOptions.Replay accepts it (with
// ReplayStart, the path from the state); so do Options.Replay and ltl
// explore -replay when the program has no //ltl:event labels, which are
// scheduling points only in searches. "" if the state cannot be computed
// (see Current).
func (s *Session) Replay() string {
	if len(s.frames) > 0 {
		return s.frames[len(s.frames)-1].step.Replay
	}
	return s.initialReplay()
}

// Goroutines names the goroutines of the current state by the function
// each was started with.
func (s *Session) Goroutines() map[int]string {
	out := map[int]string{}
	for _, g := range s.Current().Goroutines {
		out[g.ID] = g.Name
	}
	return out
}
