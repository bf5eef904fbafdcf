package split

import (
	"context"
	"fmt"
	"time"

	"github.com/henceforth-go/henceforth/internal/fds"
)

// InvariantStats describes a split-invariant computation.
type InvariantStats struct {
	Components  int           // processes, one θ_i each
	Workers     int           // 1 for the sequential algorithm
	Rounds      int           // fixpoint rounds (the most of any worker)
	Images      int           // relational products computed
	Nodes       int           // BDD nodes of the θ vector (shared nodes once)
	PeakNodes   int           // nodes in use in the stores (summed over workers)
	Messages    int           // summaries delivered between workers
	CopiedNodes int           // BDD nodes copied between stores
	CopyTime    time.Duration // time spent serialising and rebuilding BDDs
	Duration    time.Duration
}

// Invariant is a computed strongest split invariant θ = (θ_1, …, θ_N) of a
// program (Theorem 4.1: the least simultaneous fixpoint of the
// split-invariance conditions, Listing 4.3). It belongs to the goroutine
// that computed it.
type Invariant struct {
	m       *model
	theta   []fds.BDD
	sums    []fds.BDD // T̄_k = ∃L_k,L_k′: T_k ∧ θ_k
	eng     *engine   // sequential computation, kept to resume a partial one
	partial bool      // stopped before the fixpoint (see computeInvariantUntil)
	Stats   InvariantStats
}

// advance performs one more round of a partial invariant; it reports
// whether the fixpoint has been reached (the invariant is then complete).
func (inv *Invariant) advance(ctx context.Context) (bool, error) {
	if !inv.partial {
		return true, nil
	}
	start := time.Now()
	e := inv.eng
	changed, err := e.step(ctx)
	if err != nil {
		return false, err
	}
	if !changed {
		changed = e.activate()
	}
	inv.theta, inv.sums = e.theta, e.sum
	inv.Stats.Rounds, inv.Stats.Images = e.rounds, e.nimages
	inv.Stats.PeakNodes = max(inv.Stats.PeakNodes, inv.m.st.nodes())
	inv.Stats.Duration += time.Since(start)
	if !changed {
		inv.partial = false
		inv.Stats.Nodes = inv.m.st.sp.SizeOf(inv.theta...)
	}
	return !changed, nil
}

// resume completes a partial invariant.
func (inv *Invariant) resume(ctx context.Context) error {
	if !inv.partial {
		return nil
	}
	start := time.Now()
	e := inv.eng
	if err := e.stabilize(ctx); err != nil {
		return err
	}
	inv.partial = false
	inv.theta, inv.sums = e.theta, e.sum
	inv.Stats.Rounds, inv.Stats.Images = e.rounds, e.nimages
	inv.Stats.PeakNodes = max(inv.Stats.PeakNodes, inv.m.st.nodes())
	inv.Stats.Nodes = inv.m.st.sp.SizeOf(inv.theta...)
	inv.Stats.Duration += time.Since(start)
	return nil
}

// InvariantOptions configure ComputeInvariant.
type InvariantOptions struct {
	// Workers is the number of goroutines, each with its own BDD store;
	// 0 or 1 runs the sequential algorithm.
	Workers int
	// Schedule is how parallel workers interleave (Rounds by default).
	Schedule Schedule
	// MaxNodes bounds each store's node table (0: unbounded).
	MaxNodes int
	// Staged lets the processes start moving one at a time, each stage a
	// fixpoint whose rounds close every component under the current
	// interference (engine.activate). The result is the same; the
	// intermediate sets are those of fewer moving processes, which keeps
	// them small when the breadth-first ones are irregular: PETERSON N = 5
	// sequential over 120 s → 17 CPU s (docs/split.md). It costs rounds
	// per process (MUX-SEM N = 1024: over 60 s instead of 1.3 s) and
	// closing on stale interference can cost more images (SZYMANSKI N = 9:
	// 2×).
	// Sequential and Rounds only; the Chaotic schedule ignores it.
	Staged bool
}

// ComputeInvariant computes the strongest split invariant of p.
func ComputeInvariant(ctx context.Context, p *Program, opts InvariantOptions) (*Invariant, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	lay := newLayout(p, nil, nil)
	inv, err := computeInvariant(ctx, lay, fixpoint{opts.Workers, opts.Schedule, opts.Staged}, storeLimits{maxNodes: opts.MaxNodes, initialNodes: defaultNodes, ctx: ctx})
	if cerr := ctx.Err(); cerr != nil {
		return nil, cerr // the result means nothing
	}
	if err != nil {
		return nil, err
	}
	// The Invariant outlives ctx (callers query it after a deferred
	// cancel): detach its store.
	inv.m.st.sp.SetContext(nil)
	return inv, nil
}

// fixpoint says how to compute a split invariant.
type fixpoint struct {
	workers int
	sched   Schedule
	staged  bool // see InvariantOptions.Staged
}

func computeInvariant(ctx context.Context, lay *layout, fp fixpoint, lim storeLimits) (*Invariant, error) {
	return computeInvariantUntil(ctx, lay, fp, lim, nil)
}

// computeInvariantUntil is computeInvariant that, in the sequential
// algorithm, stops early after a round where stop (given the components
// so far) holds; the Invariant is then partial (its components are below
// the least fixpoint) until resume completes it.
func computeInvariantUntil(ctx context.Context, lay *layout, fp fixpoint, lim storeLimits, stop func(m *model, theta []fds.BDD) bool) (*Invariant, error) {
	workers := fp.workers
	start := time.Now()
	m, err := compileModel(lay, nil, lim)
	if err != nil {
		return nil, err
	}
	inv := &Invariant{m: m}
	if workers <= 1 || len(lay.prog.procs) == 1 {
		e, err := newEngine(m, m.procs, m.st.sp.True())
		if err != nil {
			return nil, err
		}
		e.staged = fp.staged
		inv.eng = e
		for {
			changed, err := e.step(ctx)
			if err != nil {
				return nil, err
			}
			if !changed && !e.activate() {
				break
			}
			if stop != nil && stop(m, e.theta) {
				inv.partial = true
				break
			}
		}
		inv.theta, inv.sums = e.theta, e.sum
		inv.Stats = InvariantStats{Workers: 1, Rounds: e.rounds, Images: e.nimages, PeakNodes: m.st.nodes()}
	} else {
		theta, sums, st, err := parallelInvariant(ctx, m, workers, fp.sched, fp.staged, lim)
		if err != nil {
			return nil, err
		}
		inv.theta, inv.sums, inv.Stats = theta, sums, st
	}
	inv.Stats.Components = len(inv.theta)
	inv.Stats.Nodes = m.st.sp.SizeOf(inv.theta...)
	inv.Stats.Duration = time.Since(start)
	return inv, nil
}

// Len returns the number of components.
func (inv *Invariant) Len() int { return len(inv.theta) }

// Equal reports whether two invariants of the same program have equal
// components.
func (inv *Invariant) Equal(other *Invariant) bool {
	if len(inv.theta) != len(other.theta) {
		return false
	}
	for k := range inv.theta {
		if !inv.theta[k].Equal(other.m.st.move(other.theta[k], inv.m.st)) {
			return false
		}
	}
	return true
}

// Equivalent reports whether component k is equivalent to e (an
// expression over the shared variables and process k's locals).
func (inv *Invariant) Equivalent(k int, e Expr) (bool, error) {
	b, err := inv.pred(k, e)
	if err != nil {
		return false, err
	}
	return inv.theta[k].Equal(b), nil
}

// Implies reports whether component k implies e.
func (inv *Invariant) Implies(k int, e Expr) (bool, error) {
	b, err := inv.pred(k, e)
	if err != nil {
		return false, err
	}
	return inv.theta[k].Implies(b), nil
}

func (inv *Invariant) pred(k int, e Expr) (fds.BDD, error) {
	if k < 0 || k >= len(inv.theta) {
		return fds.BDD{}, fmt.Errorf("split: no component %d", k)
	}
	if err := e.CheckBool("predicate"); err != nil {
		return fds.BDD{}, err
	}
	// Within θ_k's domain: the domains of X and L_k.
	lay := inv.m.lay
	dom := inv.m.st.dom(lay.shared, false).And(inv.m.st.dom(lay.locals[k], false))
	b, err := inv.m.c.boolean(e.n)
	return b.And(dom), err
}

// States counts the states (valuations of X ∪ L_k) of component k, up to
// limit.
func (inv *Invariant) States(k int, limit int) int {
	lay := inv.m.lay
	vars := append(append([]*Var(nil), lay.shared...), lay.locals[k]...)
	return inv.theta[k].Count(inv.m.st.fdsVars(vars), false, limit)
}

// countStates is the number of states (valuations of X ∪ L_k) of component
// k, counted symbolically.
func (inv *Invariant) countStates(k int) float64 {
	lay := inv.m.lay
	vars := append(append([]*Var(nil), lay.shared...), lay.locals[k]...)
	return inv.m.st.satCount(inv.theta[k], inv.m.st.cube(vars, false).Levels())
}
