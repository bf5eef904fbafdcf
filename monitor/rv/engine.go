package rv

import (
	"context"
	"fmt"
	"reflect"
	"slices"

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

	// Checkpoints, when s is a pointer to a comparable struct (as generated
	// monitors are): a copy of s's state before event saved, taken every
	// mask+1 events, so that a report can stand in for the events before
	// it (shortestToSaved). ptr is invalid otherwise.
	ptr     reflect.Value // s, a *T
	initial reflect.Value // a T: s's state at New
	state   reflect.Value // a T: s's state before event saved
	saved   int           // -1 before the first checkpoint
	mask    int
}

func newGenerated(f ltl.Formula, s Stepper, every int) (*generated, error) {
	g := &generated{s: s, saved: -1, mask: every - 1}
	switch c := f.Classify(); {
	case c == ltl.Propositional || c == ltl.PurePast:
	case f.IsPastSafety():
		g.safety = true
	default:
		return nil, fmt.Errorf("rv: %s: a generated engine monitors a propositional or pure-past formula, or G of one", f)
	}
	if p := reflect.ValueOf(s); p.Kind() == reflect.Pointer && !p.IsNil() && p.Elem().Kind() == reflect.Struct && p.Elem().Type().Comparable() {
		g.ptr = p
		g.initial = reflect.New(p.Elem().Type()).Elem()
		g.initial.Set(p.Elem())
		g.state = reflect.New(p.Elem().Type()).Elem()
	}
	return g, nil
}

// checkpoint saves s's state before event i when i is a checkpoint.
func (g *generated) checkpoint(i int) {
	if i&g.mask == 0 && g.ptr.IsValid() {
		g.state.Set(g.ptr.Elem())
		g.saved = i
	}
}

// maxStandInSearch bounds the states shortestToSaved visits.
const maxStandInSearch = 1 << 16

// shortestToSaved returns a shortest trace over atoms (bit i of a letter is
// atoms[i]) that leads s from its state at New to its state at the last
// checkpoint, by breadth-first search over s's states; false if there is
// none within maxStandInSearch states or 2^12 letters.
func (g *generated) shortestToSaved(atoms []string) (ltl.Sets, bool) {
	if !g.ptr.IsValid() || len(atoms) > 12 {
		return nil, false
	}
	type node struct {
		parent int
		letter uint64
	}
	start, target := g.initial.Interface(), g.state.Interface()
	seen := map[any]int{start: 0}
	nodes := []node{{parent: -1}}
	states := []any{start}
	scratch := reflect.New(g.initial.Type())
	step := scratch.Interface().(Stepper)
	found := -1
	if start == target {
		found = 0
	}
	for q := 0; q < len(nodes) && found < 0 && len(nodes) < maxStandInSearch; q++ {
		for l := uint64(0); l < 1<<len(atoms) && found < 0; l++ {
			scratch.Elem().Set(reflect.ValueOf(states[q]))
			step.StepLetter(l)
			st := scratch.Elem().Interface()
			if _, ok := seen[st]; ok {
				continue
			}
			seen[st] = len(nodes)
			nodes = append(nodes, node{parent: q, letter: l})
			states = append(states, st)
			if st == target {
				found = len(nodes) - 1
			}
		}
	}
	if found < 0 {
		return nil, false
	}
	var trace ltl.Sets
	for n := found; nodes[n].parent >= 0; n = nodes[n].parent {
		var e []string
		for b, a := range atoms {
			if nodes[n].letter>>uint(b)&1 == 1 {
				e = append(e, a)
			}
		}
		trace = append(trace, e)
	}
	slices.Reverse(trace)
	return trace, true
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
