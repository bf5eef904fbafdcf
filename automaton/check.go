package automaton

// This file is the one-call entry point: the verdict of a formula on a
// recorded trace, with the engine chosen for the formula's shape, the first
// violating position where there is one, and the reasons for a failure.

import (
	"context"
	"errors"
	"fmt"

	"github.com/henceforth-go/henceforth/ltl"
	"github.com/henceforth-go/henceforth/monitor"
)

// Check computes the verdict of f on the recorded trace t under opts, with
// any engine: the dynamic-programming engines of package monitor
// (monitor.EngineAuto and monitor.EngineDP: the past-time DP for G(φ) with
// φ pure past or propositional, the future-time DP otherwise), the
// reference evaluator (monitor.EngineNaive), or the formula's minimal DFA
// (monitor.EngineAutomaton: past operators translated exactly, stepped once
// per event until the verdict is decided; LTLf semantics only). A nil t is
// the empty trace; ctx bounds the DFA's construction.
//
// A failed verdict is explained by the DP table (monitor.Explain) at
// position 0, or, for G(φ), at its first violating position; the engines
// must agree, and an internal error says so if the DFA and the DP do not.
// Errors: an invalid (zero) formula, an unknown engine, more than
// monitor.MaxAtoms distinct atoms in f, a DFA too large (ErrTooLarge) or a
// canceled ctx.
func Check(ctx context.Context, f ltl.Formula, t *monitor.Trace, opts monitor.Options) (monitor.Result, error) {
	if f.IsZero() {
		return monitor.Result{}, errors.New("automaton: check: invalid (zero) formula")
	}
	if t == nil {
		t = monitor.NewTrace()
	}
	res := monitor.Result{Violation: -1}
	switch opts.Engine {
	case monitor.EngineNaive:
		res.Engine = monitor.EngineNaive
		res.Holds = ltl.Eval(f, t, opts.Semantics)
		if !res.Holds && f.IsPastSafety() {
			for i, v := range ltl.EvalAll(f.Left(), t, opts.Semantics) {
				if !v {
					res.Violation = i
					break
				}
			}
		}
	case monitor.EngineAuto, monitor.EngineDP:
		res.Engine = monitor.EngineDP
		var err error
		if f.IsPastSafety() {
			res.Violation, err = firstViolation(f.Left(), t, opts.Semantics)
			res.Holds = res.Violation < 0
		} else {
			res.Holds, err = evalFuture(f, t, opts.Semantics)
		}
		if err != nil {
			return monitor.Result{}, fmt.Errorf("automaton: check %s: %w", f, err)
		}
	case monitor.EngineAutomaton:
		res.Engine = monitor.EngineAutomaton
		var err error
		if res.Holds, err = runDFA(ctx, f, t, opts.Semantics); err != nil {
			return monitor.Result{}, err
		}
		if !res.Holds {
			// The DP engine finds the violation and the reasons.
			dp, err := Check(ctx, f, t, monitor.Options{Engine: monitor.EngineDP, Semantics: opts.Semantics})
			if err != nil {
				return monitor.Result{}, err
			}
			if dp.Holds {
				return monitor.Result{}, fmt.Errorf("automaton: check %s: internal error: the DFA rejects the trace but the DP engine accepts it", f)
			}
			res.Violation, res.Why = dp.Violation, dp.Why
		}
		return res, nil
	default:
		return monitor.Result{}, fmt.Errorf("automaton: check: unknown engine %d", opts.Engine)
	}
	if !res.Holds {
		var err error
		if res.Why, err = explainFailure(f, t, res.Violation, opts.Semantics); err != nil {
			return monitor.Result{}, fmt.Errorf("automaton: check %s: %w", f, err)
		}
	}
	return res, nil
}

// runDFA steps f's minimal DFA (past translated exactly) over t until the
// verdict is decided and returns it.
func runDFA(ctx context.Context, f ltl.Formula, t *monitor.Trace, sem ltl.Semantics) (bool, error) {
	if sem != ltl.LTLf {
		return false, fmt.Errorf("automaton: check: the automaton engine supports only %s semantics, not %s", ltl.LTLf, sem)
	}
	d, err := FromFormula(ctx, f, Options{ExactPast: true})
	if err != nil {
		return false, err
	}
	m := d.Monitor()
	letters, err := t.Letters(m.Atoms())
	if err != nil {
		return false, err
	}
	v := m.Verdict()
	for _, l := range letters {
		if v.Decided() {
			break
		}
		v = m.Step(l)
	}
	return v.Holds(), nil
}

// firstViolation runs the past-time DP for φ over t and returns the first
// position at which φ is false, or -1.
func firstViolation(phi ltl.Formula, t *monitor.Trace, sem ltl.Semantics) (int, error) {
	m, err := monitor.NewPast(sem, phi)
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
func evalFuture(f ltl.Formula, t *monitor.Trace, sem ltl.Semantics) (bool, error) {
	m, err := monitor.NewFuture(f, sem)
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
func explainFailure(f ltl.Formula, t *monitor.Trace, violation int, sem ltl.Semantics) ([]monitor.Reason, error) {
	if violation >= 0 {
		t = t.Slice(0, violation+1)
	}
	return monitor.Explain(f, t, 0, sem)
}
