package annotate

import (
	"context"
	"fmt"

	"github.com/henceforth-go/henceforth/ltl"
)

// This file is the meaning checks: specs that are well-formed but check
// nothing, or something else than they seem to say, and props no spec
// uses.

// A Checker decides satisfiability of LTLf formulas: whether some finite
// trace (the empty one included) satisfies f at position 0. A Checker may
// over-approximate — answer true when it cannot tell, as a DFA that treats
// past subformulas as free atoms does — since Lint only reports what the
// Checker proves unsatisfiable. An error means the answer is unknown.
type Checker interface {
	Satisfiable(ctx context.Context, f ltl.Formula) (bool, error)
}

// Lint reports the specs of p that are well-formed but meaningless or
// misleading, and the props and events no spec uses (Kind Unused). With a
// nil Checker it reports only the unused ones.
//
// The meaning checks (Kind Meaning) consider the non-empty traces on which
// at most one event happens per step, as in every run:
//
//   - unsatisfiable: no such trace satisfies the spec;
//   - vacuous: in a subformula G(a -> φ), a holds on no such trace;
//   - equivalent to G(!a): in G(a -> φ), φ fails wherever a holds (as in
//     the thesis's G(p -> G !p), since G includes the present step); the
//     message suggests G(a -> N(φ));
//   - valid: every such trace satisfies the spec (reported only when no
//     G(a -> φ) finding above explains it).
//
// A check the Checker cannot decide is reported as "meaning not checked"
// with the Checker's error. Problems come sorted by position.
func (p *Package) Lint(ctx context.Context, c Checker) ErrorList {
	r := &reporter{fset: p.Fset}
	if c != nil {
		for _, s := range p.Specs {
			lintSpec(ctx, r, c, s)
		}
	}
	for _, q := range p.Props {
		if !p.used[q.Name] {
			verb := verbProp
			if q.Kind == StatementEvent {
				verb = verbEvent
			}
			r.errorf(q.Pos, verb, q.Name, KindUnused, nil, "not used by any spec")
		}
	}
	r.errs.Sort()
	return r.errs
}

// lintSpec runs the meaning checks on one spec.
func lintSpec(ctx context.Context, r *reporter, c Checker, s *Spec) {
	events := s.Events()
	nonEmpty := ltl.Eventually(ltl.True())
	assume := ltl.And(nonEmpty, oneEventAtATime(events))
	report := func(format string, args ...any) {
		r.errorf(s.Pos, verbSpec, s.Name, KindMeaning, nil, format, args...)
	}
	// possible reports whether some assumed trace satisfies f; ok is false
	// (and the problem reported) if the Checker cannot tell.
	possible := func(f ltl.Formula) (sat, ok bool) {
		sat, err := c.Satisfiable(ctx, ltl.And(assume, f))
		if err != nil {
			r.errorf(s.Pos, verbSpec, s.Name, KindMeaning, err, "meaning not checked: %v", err)
			return false, false
		}
		return sat, true
	}
	// onlyByEvents reports whether f is satisfiable when events may
	// coincide, for messages that name the reason.
	onlyByEvents := func(f ltl.Formula) bool {
		if len(events) < 2 {
			return false
		}
		sat, err := c.Satisfiable(ctx, ltl.And(nonEmpty, f))
		return err == nil && sat
	}

	sat, ok := possible(s.Formula)
	if !ok {
		return
	}
	if !sat {
		if onlyByEvents(s.Formula) {
			report("unsatisfiable: it needs two events at one step, but events happen one at a time")
		} else {
			report("unsatisfiable: no trace satisfies it, so every run violates it")
		}
		return
	}

	explained := false
	for _, g := range s.Formula.Subformulas() {
		if g.Op() != ltl.OpAlways || g.Left().Op() != ltl.OpImplies {
			continue
		}
		a, phi := g.Left().Left(), g.Left().Right()
		sat, ok := possible(ltl.Eventually(a))
		if !ok {
			return
		}
		if !sat {
			explained = true
			why := "can never hold"
			if onlyByEvents(ltl.Eventually(a)) {
				why = "needs two events at one step, but events happen one at a time"
			}
			report("vacuous: the antecedent %s of %s %s, so it checks nothing", a, g, why)
			continue
		}
		never := ltl.Always(ltl.Not(a))
		differ, ok := possible(ltl.Not(ltl.Iff(g, never)))
		if !ok {
			return
		}
		if differ {
			continue
		}
		explained = true
		msg := fmt.Sprintf("%s is equivalent to %s: %s cannot hold at a step where %s holds", g, never, phi, a)
		suggestion := ltl.Always(ltl.Implies(a, ltl.WeakNext(phi)))
		if differ, ok := possible(ltl.Not(ltl.Iff(suggestion, never))); ok && differ {
			msg += fmt.Sprintf("; to constrain the steps after %s, write %s (N: from the next step on, if any; X instead requires a next step)", a, suggestion)
		}
		report("%s", msg)
	}
	if explained {
		return
	}
	sat, ok = possible(ltl.Not(s.Formula))
	if !ok || sat {
		return
	}
	if onlyByEvents(ltl.Not(s.Formula)) {
		report("valid: it holds on every trace where events happen one at a time, as they do, so it checks nothing")
	} else {
		report("valid: it holds on every trace, so it checks nothing")
	}
}

// oneEventAtATime is G(no two of events hold together); true for fewer than
// two events.
func oneEventAtATime(events []string) ltl.Formula {
	var pairs []ltl.Formula
	for i := range events {
		for j := i + 1; j < len(events); j++ {
			pairs = append(pairs, ltl.Not(ltl.And(ltl.Atom(events[i]), ltl.Atom(events[j]))))
		}
	}
	if len(pairs) == 0 {
		return ltl.True()
	}
	return ltl.Always(ltl.AndAll(pairs...))
}
