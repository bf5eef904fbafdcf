package monitor

import (
	"errors"
	"fmt"

	"github.com/henceforth-go/henceforth/ltl"
)

// This file is the one-call entry point: the verdict of a formula on a
// recorded trace, with the engine chosen for the formula's shape, the first
// violating position where there is one, and the reasons for a failure.

// Engine selects how Check computes a verdict.
type Engine uint8

const (
	// EngineAuto lets Check choose: the past-time DP for G(φ) with φ pure
	// past (or propositional), the future-time DP otherwise. The automaton
	// engine is chosen above this package.
	EngineAuto Engine = iota
	// EngineDP is the dynamic-programming engines: past-time for G(φ) with
	// φ pure past, future-time for everything else.
	EngineDP
	// EngineNaive is ltl.Eval, the reference evaluator: quadratic, for
	// cross-checking.
	EngineNaive
	// EngineAutomaton is the formula's minimal DFA, stepped once per
	// event. It lives in package automaton, which imports this one:
	// automaton.Check runs it (and every other engine); Check here
	// rejects it.
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

// Options configure Check. The zero value is EngineAuto under ltl.LTLf.
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

// Check computes the verdict of f on t under opts. A nil t is the empty
// trace. Errors: an invalid (zero) formula, an unknown engine, more than
// MaxAtoms distinct atoms in f.
func Check(f ltl.Formula, t *Trace, opts Options) (Result, error) {
	if f.IsZero() {
		return Result{}, errors.New("monitor: check: invalid (zero) formula")
	}
	if t == nil {
		t = &Trace{}
	}
	res := Result{Violation: -1}
	switch opts.Engine {
	case EngineNaive:
		res.Engine = EngineNaive
		res.Holds = ltl.Eval(f, t, opts.Semantics)
		if !res.Holds && f.IsPastSafety() {
			for i, v := range ltl.EvalAll(f.Left(), t, opts.Semantics) {
				if !v {
					res.Violation = i
					break
				}
			}
		}
	case EngineAuto, EngineDP:
		res.Engine = EngineDP
		var err error
		if f.IsPastSafety() {
			res.Violation, err = firstViolation(f.Left(), t, opts.Semantics)
			res.Holds = res.Violation < 0
		} else {
			res.Holds, err = evalFuture(f, t, opts.Semantics)
		}
		if err != nil {
			return Result{}, fmt.Errorf("monitor: check %s: %w", f, err)
		}
	case EngineAutomaton:
		return Result{}, errors.New("monitor: check: the automaton engine is run by automaton.Check")
	default:
		return Result{}, fmt.Errorf("monitor: check: unknown engine %d", opts.Engine)
	}
	if !res.Holds {
		var err error
		if res.Why, err = explainFailure(f, t, res.Violation, opts.Semantics); err != nil {
			return Result{}, fmt.Errorf("monitor: check %s: %w", f, err)
		}
	}
	return res, nil
}

// firstViolation runs the past-time DP for φ over t and returns the first
// position at which φ is false, or -1.
func firstViolation(phi ltl.Formula, t *Trace, sem ltl.Semantics) (int, error) {
	m, err := NewPast(sem, phi)
	if err != nil {
		return -1, err
	}
	letters, err := t.Letters(m.Atoms())
	if err != nil {
		return -1, err
	}
	for i, l := range letters {
		if m.Step(l)&1 == 0 {
			return i, nil
		}
	}
	return -1, nil
}

// evalFuture is the verdict of the future-time DP of f on t.
func evalFuture(f ltl.Formula, t *Trace, sem ltl.Semantics) (bool, error) {
	m, err := NewFuture(f, sem)
	if err != nil {
		return false, err
	}
	letters, err := t.Letters(m.Atoms())
	if err != nil {
		return false, err
	}
	return m.Eval(letters), nil
}

// explainFailure explains why f fails on t. For G(φ) with a known first
// violation v, the past values up to v do not depend on what follows, so
// only the prefix up to v is tabulated.
func explainFailure(f ltl.Formula, t *Trace, violation int, sem ltl.Semantics) ([]Reason, error) {
	if violation >= 0 {
		t = t.Slice(0, violation+1)
	}
	return Explain(f, t, 0, sem)
}
