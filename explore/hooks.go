package explore

import (
	"go/token"

	"golang.org/x/tools/go/ssa"
)

// The internal interfaces between the interpreter and its monitors (spec
// checking, Find's observer: events and state predicates), and the
// payload of symbolic values. Nothing here depends on the monitor or
// symbolic packages.

// observer watches the events of explored executions. The explorer asks
// it once per function whether calls of that function are events, and
// creates one pathMonitor per execution (per path), so monitor state never
// leaks between paths.
//
// Every event is a scheduling point: the goroutine stops before the event,
// so the interleavings of events of different goroutines are explored.
type observer interface {
	// CallEvents reports whether calls and returns of fn are events.
	// It is called once per function per worker and must be safe for
	// concurrent use.
	CallEvents(fn *ssa.Function) bool
	// NewPath starts monitoring one execution.
	NewPath() pathMonitor
}

// pathMonitor receives the events of one execution in order.
type pathMonitor interface {
	// Event receives one event. A non-nil violation ends the execution
	// with a finding.
	Event(ev *obsEvent, st obsState) *violation
	// End is called once when the execution ends (normally or not); a
	// non-nil violation is reported.
	End(st obsState) *violation
}

// obsKind classifies events.
type obsKind uint8

const (
	// obsCall: a call of an observed function starts (after argument
	// evaluation, before the body).
	obsCall obsKind = iota + 1
	// obsReturn: an observed function returns.
	obsReturn
	// obsStep: a scheduling step completed; state predicates may have
	// changed and should be re-evaluated.
	obsStep
	// obsStatement: a statement marked with //ltl:event starts
	// executing (Labels holds the event names). Only observers built from
	// annotations (Options.Specs) mark statements.
	obsStatement
)

func (k obsKind) String() string {
	switch k {
	case obsCall:
		return "call"
	case obsReturn:
		return "return"
	case obsStep:
		return "step"
	case obsStatement:
		return "statement"
	}
	return "?"
}

// obsEvent is one observable event of an execution.
type obsEvent struct {
	Kind      obsKind
	Goroutine int
	Func      *ssa.Function // for calls and returns; the enclosing function of a statement
	Pos       token.Pos
	Step      int      // number of scheduling steps so far
	Labels    []string // for statement events: the //ltl:event names
}

// obsState gives monitors read access to the program state at an event.
type obsState interface {
	// Global returns the value of a package-level variable converted to a
	// Go value (bool, int64, uint64, float64, string, or nil for
	// references), and whether the conversion was possible.
	Global(g *ssa.Global) (any, bool)
}

// violation is a property violation reported by a monitor.
type violation struct {
	// Kind of the finding; "ltl" if empty.
	Kind    string
	Message string
	// Explanation is free text from the monitor (e.g. the automaton run).
	Explanation string
	// Pos, if valid, is the finding's position (default: the event's).
	Pos token.Pos
}

// symTerm is the payload a symbolic scalar Value carries in its p
// field. Term is owned by the symbolic engine.
type symTerm struct {
	Term any
}

// symbolicTerm returns the term of a symbolic scalar value.
func symbolicTerm(v Value) *symTerm { return (*symTerm)(v.p) }
