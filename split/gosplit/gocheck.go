package gosplit

import (
	"context"
	"fmt"
	"time"

	"github.com/henceforth-go/henceforth/split"
)

// FalsifyGoroutines is the most goroutines Program.Check runs (2, then
// 3, …, fewer than N) to look for a cheap counterexample to an invariant
// before it checks N.
const FalsifyGoroutines = 3

// Check decides the property spec (see Property) for g's N goroutines.
//
// An invariant is first checked for 2, then 3 … up to FalsifyGoroutines
// goroutines (fewer than N). A counterexample there, in which the other
// goroutines do not move, is a computation of the N goroutines too (every
// goroutine starts in the same state and a finite prefix need not
// schedule them all), and the properties of a Program are symmetric, so
// it is lifted to the N goroutines, replayed on g.Program, and its last
// state is checked to violate the property. A violation that needs two
// goroutines thus costs what two goroutines cost, not what the split
// invariant's refinements cost for N (each refinement exposes a predicate
// for all N goroutines, and the rounds' BDDs grow with the number of
// auxiliary bits: the racy example with 16 goroutines had no verdict
// after 4 minutes). A proof for fewer goroutines proves nothing for N, so
// a property that holds pays for these small checks on top of the check
// for N (a fraction of it: the same refinements, smaller BDDs).
//
// Otherwise, and for LTL properties (a lasso in which goroutines never
// move is not fair), it is Check on g.Program.
func (g *Program) Check(ctx context.Context, spec string, opts split.Options) (*split.Result, error) {
	start := time.Now()
	prop, err := g.Property(spec)
	if err != nil {
		return nil, err
	}
	for k := 2; prop.Kind == split.KindInvariant && k <= FalsifyGoroutines && k < g.N; k++ {
		res, err := g.falsify(ctx, spec, prop, k, opts)
		if err != nil {
			return nil, err
		}
		if res != nil {
			res.Duration = time.Since(start)
			return res, nil
		}
	}
	res, err := split.Check(ctx, g.Program, prop, opts)
	if err != nil {
		return nil, err
	}
	res.Duration = time.Since(start)
	return res, nil
}

// falsify checks spec for k goroutines and returns a Violated result with
// the counterexample lifted to g.N goroutines, or nil if k goroutines
// satisfy it (or no verdict was reached for them).
func (g *Program) falsify(ctx context.Context, spec string, prop *split.Property, k int, opts split.Options) (*split.Result, error) {
	small, err := g.withN(k)
	if err != nil {
		return nil, err
	}
	sprop, err := small.Property(spec)
	if err != nil {
		return nil, err
	}
	res, err := split.Check(ctx, small.Program, sprop, opts)
	if err != nil || res.Verdict != split.Violated {
		return nil, err
	}
	t, err := g.lift(small, res.Counterexample)
	if err != nil {
		return nil, fmt.Errorf("gosplit: internal error: lifting the counterexample of %d goroutines: %w", k, err)
	}
	violated, err := g.Program.Violates(t, prop)
	if err != nil {
		return nil, fmt.Errorf("gosplit: internal error: the lifted counterexample does not replay: %w", err)
	}
	if !violated {
		return nil, fmt.Errorf("gosplit: internal error: the lifted counterexample of %d goroutines does not violate %s", k, prop.Name)
	}
	return &split.Result{
		Verdict:        split.Violated,
		Property:       prop,
		Reason:         fmt.Sprintf("%s (found with %d of the %d goroutines; the others do not move)", res.Reason, k, g.N),
		Counterexample: t,
		Refinements:    res.Refinements,
		Exposed:        res.Exposed,
		Invariant:      res.Invariant,
	}, nil
}

// lift maps a trace of small (the same function run by fewer goroutines)
// to g: variables keep their values by name, the goroutines small does not
// have stay in their initial states.
func (g *Program) lift(small *Program, t *split.Trace) (*split.Trace, error) {
	initial := make([]int, len(g.Program.Vars()))
	for _, v := range g.Program.Vars() {
		initial[v.Index()] = v.Lo()
	}
	for _, env := range g.envs {
		for gv, v := range env {
			initial[v.Index()] = gv.init // pc starts at 0, the entry
		}
	}
	var states [][]int
	for _, s := range t.States {
		u := append([]int(nil), initial...)
		for _, v := range small.Program.Vars() {
			w := g.Program.Lookup(v.Name())
			if w == nil {
				return nil, fmt.Errorf("no variable %s", v.Name())
			}
			u[w.Index()] = s[v.Index()]
		}
		states = append(states, u)
	}
	return split.NewTrace(g.Program, states, t.Steps, t.Loop), nil
}
