package explore

import (
	"go/token"
	"go/types"
	"unsafe"

	"golang.org/x/tools/go/ssa"
)

// Extension points for the packages that build on the explorer: LTL
// monitors (events and state predicates) and symbolic execution (symbolic
// values and branch forks). Nothing here depends on those packages.

// Observer watches the events of explored executions. The explorer asks
// it once per function whether calls of that function are events, and
// creates one PathMonitor per execution (per path), so monitor state never
// leaks between paths.
//
// Every event is a scheduling point: the goroutine stops before the event,
// so the interleavings of events of different goroutines are explored.
type Observer interface {
	// CallEvents reports whether calls and returns of fn are events.
	// It is called once per function per worker and must be safe for
	// concurrent use.
	CallEvents(fn *ssa.Function) bool
	// NewPath starts monitoring one execution.
	NewPath() PathMonitor
}

// PathMonitor receives the events of one execution in order.
type PathMonitor interface {
	// Event receives one event. A non-nil violation ends the execution
	// with a finding.
	Event(ev *Event, st State) *Violation
	// End is called once when the execution ends (normally or not); a
	// non-nil violation is reported.
	End(st State) *Violation
}

// EventKind classifies events.
type EventKind uint8

const (
	// EventCall: a call of an observed function starts (after argument
	// evaluation, before the body).
	EventCall EventKind = iota + 1
	// EventReturn: an observed function returns.
	EventReturn
	// EventStep: a scheduling step completed; state predicates may have
	// changed and should be re-evaluated.
	EventStep
	// EventStatement: a statement marked with //ltl:event starts
	// executing (Labels holds the event names). Only observers built from
	// annotations (Options.Specs) mark statements.
	EventStatement
)

func (k EventKind) String() string {
	switch k {
	case EventCall:
		return "call"
	case EventReturn:
		return "return"
	case EventStep:
		return "step"
	case EventStatement:
		return "statement"
	}
	return "?"
}

// Event is one observable event of an execution.
type Event struct {
	Kind      EventKind
	Goroutine int
	Func      *ssa.Function // for calls and returns; the enclosing function of a statement
	Pos       token.Pos
	Step      int      // number of scheduling steps so far
	Labels    []string // for statement events: the //ltl:event names
}

// State gives monitors read access to the program state at an event.
type State interface {
	// Global returns the value of a package-level variable converted to a
	// Go value (bool, int64, uint64, float64, string, or nil for
	// references), and whether the conversion was possible.
	Global(g *ssa.Global) (any, bool)
}

// Violation is a property violation reported by a monitor.
type Violation struct {
	// Kind of the finding; "ltl" if empty.
	Kind    string
	Message string
	// Explanation is free text from the monitor (e.g. the automaton run).
	Explanation string
	// Pos, if valid, is the finding's position (default: the event's).
	Pos token.Pos
}

// Brancher decides conditional branches on symbolic conditions. A value
// is symbolic when its p field holds a *SymbolicTerm (see Value): the
// inputs of //ltl:symbolic entries, Options.SymbolicGlobals and
// ltltest.Symbolic values, and what is computed from them.
type Brancher interface {
	// Branch returns which outcomes of the condition are feasible under
	// the current path condition. If both are, the explorer forks (a
	// choice point of kind branch); it then calls Assume with the taken
	// outcome.
	Branch(cond *SymbolicTerm) (canFalse, canTrue bool)
	Assume(cond *SymbolicTerm, outcome bool)
}

// SymbolicTerm is the payload a symbolic scalar Value carries in its p
// field. Term is owned by the symbolic engine.
type SymbolicTerm struct {
	Term any
}

// SymbolicValue makes a scalar Value carrying a symbolic term; the concrete
// part (used where the engine does not care) is concrete.
func SymbolicValue(t *SymbolicTerm, concrete uint64) Value {
	return Value{p: unsafe.Pointer(t), a: concrete}
}

// setSymbolicGlobals installs Options.SymbolicGlobals.
func (x *execution) setSymbolicGlobals() ctrl {
	if x.opts.Brancher == nil {
		return x.symbolicGlobals(x.gs[0])
	}
	for g, term := range x.opts.SymbolicGlobals {
		rt := x.m.rtypeOf(g.Type().(*types.Pointer).Elem())
		if rt.kind != kBool && !rt.kind.isInteger() {
			return x.gs[0].unsupported(g.Pos(), "symbolic variable %s of type %s (only booleans and integers)", g.Name(), rt)
		}
		o := x.m.global(g)
		o.cells[0] = SymbolicValue(term, o.cells[0].a)
	}
	return ctrlNext
}

// symbolicTerm returns the term of a symbolic scalar value.
func symbolicTerm(v Value) *SymbolicTerm { return (*SymbolicTerm)(v.p) }
