package automaton

import (
	"context"
	"errors"
	"fmt"

	"github.com/henceforth-go/henceforth/ltl"
	"github.com/henceforth-go/henceforth/monitor"
)

// Check is monitor.Check with every engine, the automaton included: with
// monitor.EngineAutomaton it steps the formula's minimal DFA (past operators
// translated exactly) once per event and stops as soon as the verdict is
// decided; any other engine is monitor.Check's. The automaton engine
// supports LTLf semantics only. A failed verdict is explained as
// monitor.Check explains it, by the dynamic-programming table; the two
// engines must agree, and an internal error says so if they do not.
func Check(ctx context.Context, f ltl.Formula, t *monitor.Trace, opts monitor.Options) (monitor.Result, error) {
	if opts.Engine != monitor.EngineAutomaton {
		return monitor.Check(f, t, opts)
	}
	if f.IsZero() {
		return monitor.Result{}, errors.New("automaton: check: invalid (zero) formula")
	}
	if opts.Semantics != ltl.LTLf {
		return monitor.Result{}, fmt.Errorf("automaton: check: the automaton engine supports only %s semantics, not %s", ltl.LTLf, opts.Semantics)
	}
	if t == nil {
		t = monitor.NewTrace()
	}
	d, err := FromFormula(ctx, f, Options{ExactPast: true})
	if err != nil {
		return monitor.Result{}, err
	}
	m := d.Monitor()
	letters, err := t.Letters(m.Atoms())
	if err != nil {
		return monitor.Result{}, err
	}
	v := m.Verdict()
	for _, l := range letters {
		if v.Decided() {
			break
		}
		v = m.Step(l)
	}
	res := monitor.Result{Holds: v.Holds(), Engine: monitor.EngineAutomaton, Violation: -1}
	if res.Holds {
		return res, nil
	}
	dp, err := monitor.Check(f, t, monitor.Options{Engine: monitor.EngineDP, Semantics: opts.Semantics})
	if err != nil {
		return monitor.Result{}, err
	}
	if dp.Holds {
		return monitor.Result{}, fmt.Errorf("automaton: check %s: internal error: the DFA rejects the trace but the DP engine accepts it", f)
	}
	res.Violation, res.Why = dp.Violation, dp.Why
	return res, nil
}
