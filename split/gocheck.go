package split

import (
	"context"
	"fmt"
	"time"
)

// FalsifyGoroutines is the most goroutines GoProgram.Check runs (2, then
// 3, …, fewer than N) to look for a cheap counterexample to an invariant
// before it checks N.
const FalsifyGoroutines = 3

// goInitialNodes is the initial node table of GoProgram.Check's stores
// unless Options.InitialNodes says otherwise: extracted programs are
// small, and tables grow on demand.
const goInitialNodes = 1 << 18

// Check decides the property spec (see Property) for g's N goroutines.
//
// An invariant is first checked for 2, then 3 … up to FalsifyGoroutines
// goroutines (fewer than N). A counterexample there, in which the other
// goroutines do not move, is a computation of the N goroutines too (every
// goroutine starts in the same state and a finite prefix need not
// schedule them all), and the properties of a GoProgram are symmetric, so
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
func (g *GoProgram) Check(ctx context.Context, spec string, opts Options) (*Result, error) {
	start := time.Now()
	prop, err := g.Property(spec)
	if err != nil {
		return nil, err
	}
	for k := 2; prop.Kind == KindInvariant && k <= FalsifyGoroutines && k < g.N; k++ {
		res, err := g.falsify(ctx, spec, prop, k, opts)
		if err != nil {
			return nil, err
		}
		if res != nil {
			res.Duration = time.Since(start)
			return res, nil
		}
	}
	if opts.InitialNodes == 0 {
		opts.InitialNodes = goInitialNodes
	}
	res, err := Check(ctx, g.Program, prop, opts)
	if err != nil {
		return nil, err
	}
	res.Duration = time.Since(start)
	return res, nil
}

// falsify checks spec for k goroutines and returns a Violated result with
// the counterexample lifted to g.N goroutines, or nil if k goroutines
// satisfy it (or no verdict was reached for them).
func (g *GoProgram) falsify(ctx context.Context, spec string, prop *Property, k int, opts Options) (*Result, error) {
	small, err := g.withN(k)
	if err != nil {
		return nil, err
	}
	sprop, err := small.Property(spec)
	if err != nil {
		return nil, err
	}
	sopts := opts
	if sopts.InitialNodes == 0 {
		sopts.InitialNodes = 1 << 16
	}
	res, err := Check(ctx, small.Program, sprop, sopts)
	if err != nil || res.Verdict != Violated {
		return nil, err
	}
	t, err := g.lift(small, res.Counterexample)
	if err != nil {
		return nil, fmt.Errorf("split: internal error: lifting the counterexample of %d goroutines: %w", k, err)
	}
	rep, err := newReplayer(g.Program)
	if err != nil {
		return nil, err
	}
	if err := rep.replay(t); err != nil {
		return nil, fmt.Errorf("split: internal error: the lifted counterexample does not replay: %w", err)
	}
	last := t.States[len(t.States)-1]
	violated := false
	for _, c := range prop.Conjuncts {
		ok, err := rep.holds(c, last)
		if err != nil {
			return nil, err
		}
		violated = violated || !ok
	}
	if !violated {
		return nil, fmt.Errorf("split: internal error: the lifted counterexample of %d goroutines does not violate %s", k, prop.Name)
	}
	return &Result{
		Verdict:        Violated,
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
func (g *GoProgram) lift(small *GoProgram, t *Trace) (*Trace, error) {
	initial := make([]int, len(g.Program.vars))
	for _, v := range g.Program.vars {
		initial[v.index] = v.lo
	}
	for _, env := range g.envs {
		for gv, v := range env {
			initial[v.index] = gv.init // pc starts at 0, the entry
		}
	}
	out := &Trace{prog: g.Program, Loop: t.Loop, Steps: t.Steps}
	for _, s := range t.States {
		u := append([]int(nil), initial...)
		for _, v := range small.Program.vars {
			w := g.Program.Lookup(v.name)
			if w == nil {
				return nil, fmt.Errorf("no variable %s", v.name)
			}
			u[w.index] = s[v.index]
		}
		out.States = append(out.States, u)
	}
	return out, nil
}
