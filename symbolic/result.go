package symbolic

import (
	"errors"
	"time"
)

// Status is the answer to a satisfiability question. The zero Status is
// Unknown, so a Result nobody filled in is never mistaken for an answer.
type Status uint8

const (
	// Unknown: the solver gave up (time or resource limit, or an
	// incomplete procedure). The question is open; an explorer marks
	// the path inconclusive and reports it, never counting it as
	// feasible or infeasible.
	Unknown Status = iota
	// Sat: there are input values that satisfy the condition.
	Sat
	// Unsat: no input values satisfy the condition.
	Unsat
)

func (s Status) String() string {
	switch s {
	case Sat:
		return "sat"
	case Unsat:
		return "unsat"
	}
	return "unknown"
}

// Result is the answer to one feasibility question.
type Result struct {
	Status Status
	// Reason says why the answer is Unknown: "timeout" (Config.Timeout),
	// "resource limit exceeded" (Config.ResourceLimit), or Z3's own
	// words for anything else; empty unless Status is Unknown.
	Reason string
}

func (r Result) String() string {
	if r.Status == Unknown && r.Reason != "" {
		return "unknown (" + r.Reason + ")"
	}
	return r.Status.String()
}

// ErrInfeasible is returned by Session.Model and Session.Concretize
// when the path condition is unsatisfiable: the path cannot happen.
var ErrInfeasible = errors.New("symbolic: path condition is unsatisfiable")

// UnknownError is returned where a model was needed but the solver
// answered Unknown; the path is inconclusive.
type UnknownError struct {
	Reason string // as in Result.Reason
}

func (e *UnknownError) Error() string {
	return "symbolic: solver answered unknown: " + e.Reason
}

// Stats counts a Session's work since it was created.
type Stats struct {
	Queries     int           // feasibility questions asked (each side of a Branch counts)
	ModelHits   int           // answered Sat by evaluating a model already known, no solver call
	Guesses     int           // models found by repairing the current one (see guess.go), for questions and for Assume
	CacheHits   int           // answered from the result cache
	SolverCalls int           // Z3 checks run
	Fallbacks   int           // incremental checks that ran out of their budget and were solved afresh (a second check)
	Unknowns    int           // solver calls that ended Unknown
	SolverTime  time.Duration // wall time spent inside Z3's check
}
