package monitor

import (
	"github.com/henceforth-go/henceforth/ltl"
)

// This file is the vocabulary of a verdict on a recorded trace: which
// engine computes it, and the result. The function that computes it is
// automaton.Check, which runs every engine: the DP engines of this
// package, the reference evaluator and the minimal DFA of package
// automaton, which imports this one.

// Engine selects how automaton.Check computes a verdict.
type Engine uint8

const (
	// EngineAuto lets automaton.Check choose: the past-time DP for G(φ)
	// with φ pure past (or propositional), the future-time DP otherwise.
	EngineAuto Engine = iota
	// EngineDP is the dynamic-programming engines: past-time for G(φ) with
	// φ pure past, future-time for everything else.
	EngineDP
	// EngineNaive is ltl.Eval, the reference evaluator: quadratic, for
	// cross-checking.
	EngineNaive
	// EngineAutomaton is the formula's minimal DFA (package automaton),
	// stepped once per event; LTLf semantics only.
	EngineAutomaton
)

func (e Engine) String() string {
	switch e {
	case EngineAuto:
		return "auto"
	case EngineDP:
		return "dp"
	case EngineNaive:
		return "naive"
	case EngineAutomaton:
		return "automaton"
	}
	return "invalid"
}

// ParseEngine returns the engine with the given name ("auto", "dp",
// "naive" or "automaton"), as the CLI's -engine flag spells it.
func ParseEngine(name string) (Engine, bool) {
	for e := EngineAuto; e <= EngineAutomaton; e++ {
		if e.String() == name {
			return e, true
		}
	}
	return 0, false
}

// Options configure automaton.Check. The zero value is EngineAuto under
// ltl.LTLf.
type Options struct {
	Engine    Engine
	Semantics ltl.Semantics
}

// Result is the verdict of a formula on a trace.
type Result struct {
	// Holds is the verdict: the value of the formula at position 0 (or the
	// empty-trace rule when the trace is empty).
	Holds bool
	// Engine is the engine that computed the verdict (never EngineAuto).
	Engine Engine
	// Violation is the first position at which φ fails, when the formula
	// is G(φ) with φ pure past or propositional and does not hold; -1
	// otherwise.
	Violation int
	// Why explains a failed verdict, as Explain does at position 0 (at the
	// violating position for G(φ)); nil when the formula holds.
	Why []Reason
}
