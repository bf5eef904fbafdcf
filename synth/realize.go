package synth

import (
	"context"
	"fmt"
	"sync"

	"github.com/henceforth-go/henceforth/internal/fds"
)

// Result is the answer of a realizability check, and the entry point to what
// follows from it: a controller when the spec is realizable, a
// counterstrategy and an unrealizable core when it is not.
//
// A Result and everything obtained from it (controllers, counterstrategies,
// their runs) share one BDD space: use them from one goroutine at a time.
// The explicit machines (Mealy, Moore) are plain data and may be shared once
// built.
type Result struct {
	Spec       *Spec
	Realizable bool
	Stats      Stats

	mu   sync.Mutex
	g    *game
	win  fds.BDD
	mem  *memory
	opts *options
	ctrl *Controller
	cs   *Counterstrategy
	core *Core
}

// Realizable decides whether some system meets the spec against every
// environment (under the spec's Semantics), by the three-nested fixpoint of
// the JTLV thesis. An invalid spec gives its Check error; a cancelled ctx its
// error.
func (s *Spec) Realizable(ctx context.Context, opts ...Option) (*Result, error) {
	o := newOptions(opts)
	g, err := s.compileGame(o)
	if err != nil {
		return nil, interrupted(ctx, err)
	}
	release := g.bind(ctx)
	g.assemble(nil)
	win, mem, ok, st, err := g.solve(ctx, o)
	if err == nil {
		// A failed BDD operation returns false, which the fixpoint could
		// read as a lost game.
		err = g.sp.Err()
	}
	release()
	if err := interrupted(ctx, err); err != nil {
		return nil, err
	}
	return &Result{Spec: s, Realizable: ok, Stats: st, g: g, win: win, mem: mem, opts: o}, nil
}

func (s *Spec) compileGame(o *options) (*game, error) {
	if err := s.Check(); err != nil {
		return nil, err
	}
	var order []int
	if o.order == OrderClustered {
		order = clusteredOrder(s)
	}

	return newGame(s, order, o)
}

// String returns "realizable" or "unrealizable".
func (r *Result) String() string {
	if r.Realizable {
		return "realizable"
	}
	return "unrealizable"
}

// Controller extracts the winning strategy (§3.1.4 of the thesis) as a
// symbolic controller. It fails with ErrUnrealizable when there is none.
func (r *Result) Controller(ctx context.Context) (*Controller, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.Realizable {
		return nil, fmt.Errorf("synth: %s: no controller: %w", r.Spec.Name, ErrUnrealizable)
	}
	if r.ctrl == nil {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		r.ctrl = newController(r, r.g, r.win, r.mem)
	}
	return r.ctrl, nil
}

// Counterstrategy extracts a winning strategy of the environment, which
// forces every system to violate the spec. It fails with ErrRealizable when
// the spec is realizable.
func (r *Result) Counterstrategy(ctx context.Context) (*Counterstrategy, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.Realizable {
		return nil, fmt.Errorf("synth: %s: no counterstrategy: %w", r.Spec.Name, ErrRealizable)
	}
	if r.cs == nil {
		release := r.g.bind(ctx)
		cs, err := newCounterstrategy(ctx, r, r.g)
		release()
		if err := interrupted(ctx, err); err != nil {
			return nil, err
		}
		r.cs = cs
	}
	return r.cs, nil
}

// Core computes an unrealizable core: a set of guarantees that is still
// unrealizable together with all assumptions, and minimal — dropping any one
// of its guarantees makes it realizable. It fails with ErrRealizable when the
// spec is realizable.
func (r *Result) Core(ctx context.Context) (*Core, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.Realizable {
		return nil, fmt.Errorf("synth: %s: no unrealizable core: %w", r.Spec.Name, ErrRealizable)
	}
	if r.core == nil {
		c, err := computeCore(ctx, r.Spec, r.g, r.opts)
		if err := interrupted(ctx, err); err != nil {
			return nil, err
		}
		r.core = c
	}
	return r.core, nil
}
