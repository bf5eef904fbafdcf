package rv

import (
	"context"
	"fmt"

	"github.com/henceforth-go/henceforth/automaton"
	"github.com/henceforth-go/henceforth/ltl"
	"github.com/henceforth-go/henceforth/monitor"
)

// An engine decides the verdict event by event when the Monitor does not
// step the DFA itself. Its letters are over the Monitor's vocabulary, whose
// first atoms are the formula's, sorted.
type engine interface {
	// step reads the next event and returns the verdict after it.
	step(l uint64) monitor.Verdict
	// final is the verdict at the end of m's events (m.mu held): whether
	// the formula holds, and the conjunct that fails, if known.
	final(m *Monitor) (holds bool, conjunct ltl.Formula, err error)
}

// generated is a generated past-time monitor as an engine.
type generated struct {
	s Stepper
	// safety: the formula is G(φ) and s monitors φ: violated at the first
	// false. Otherwise s monitors the formula, whose value at the first
	// event is the verdict.
	safety bool
}

func newGenerated(f ltl.Formula, s Stepper) (*generated, error) {
	switch c := f.Classify(); {
	case c == ltl.Propositional || c == ltl.PurePast:
		return &generated{s: s}, nil
	case f.IsPastSafety():
		return &generated{s: s, safety: true}, nil
	}
	return nil, fmt.Errorf("rv: %s: a generated engine monitors a propositional or pure-past formula, or G of one", f)
}

func (g *generated) step(l uint64) monitor.Verdict {
	ok := g.s.StepLetter(l)
	switch {
	case !ok:
		return monitor.Violated
	case g.safety:
		return monitor.CurrentlyTrue
	}
	return monitor.Satisfied
}

func (g *generated) final(m *Monitor) (bool, ltl.Formula, error) {
	// Not decided by an event: G(φ) held at every event, or there was no
	// event (G holds on the empty trace; φ's value there is LTLf's).
	if g.safety || m.n > 0 {
		return true, ltl.Formula{}, nil
	}
	return ltl.Eval(m.formula, ltl.Sets{}, m.cfg.semantics), ltl.Formula{}, nil
}

// pastParts is the engine of a formula without a DFA (checked with
// WithFullTrace): its G(past) conjuncts online, each with a past-time DP
// monitor, and the whole formula on the full trace at the end.
type pastParts struct {
	parts    []pastPart
	violated ltl.Formula // the conjunct found violated
}

type pastPart struct {
	formula ltl.Formula // G(φ)
	past    *monitor.Past
	bits    []uint // vocabulary bit of each of past's atoms
}

func newPastParts(f ltl.Formula, sem ltl.Semantics) *pastParts {
	p := &pastParts{}
	atoms := f.Atoms() // the vocabulary's first atoms
	bit := map[string]uint{}
	for i, a := range atoms {
		bit[a] = uint(i)
	}
	for _, c := range conjuncts(f) {
		if !c.IsPastSafety() {
			continue
		}
		past, err := monitor.NewPast(sem, c.Left())
		if err != nil {
			continue // checked at the end instead
		}
		part := pastPart{formula: c, past: past}
		for _, a := range past.Atoms() {
			part.bits = append(part.bits, bit[a])
		}
		p.parts = append(p.parts, part)
	}
	return p
}

// conjuncts returns the top-level conjuncts of f.
func conjuncts(f ltl.Formula) []ltl.Formula {
	if f.Op() != ltl.OpAnd {
		return []ltl.Formula{f}
	}
	return append(conjuncts(f.Left()), conjuncts(f.Right())...)
}

func (p *pastParts) step(l uint64) monitor.Verdict {
	for _, part := range p.parts {
		var in monitor.Letter
		for j, b := range part.bits {
			in |= monitor.Letter(l>>b&1) << uint(j)
		}
		if part.past.Step(in)&1 == 0 {
			p.violated = part.formula
			return monitor.Violated
		}
	}
	return monitor.CurrentlyTrue
}

func (p *pastParts) final(m *Monitor) (bool, ltl.Formula, error) {
	res, err := automaton.Check(context.Background(), m.formula, m.traceOf(m.full), monitor.Options{Semantics: m.cfg.semantics})
	if err != nil {
		return false, ltl.Formula{}, fmt.Errorf("rv: %w", err)
	}
	return res.Holds, ltl.Formula{}, nil
}
