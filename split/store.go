package split

import (
	"context"
	"fmt"

	"github.com/henceforth-go/henceforth/internal/fds"
)

// store is one BDD store: an fds.Space, the Backend behind it (kept to walk
// BDDs when they are serialised, see transfer.go), and the program
// variables it encodes. A store and its BDDs belong to one goroutine.
type store struct {
	sp    *fds.Space
	be    fds.Backend
	fv    map[*Var]*fds.Var
	order []*Var
	level []levelVar // BDD level → the variable bit it encodes
}

// levelVar names one bit of one copy of a variable.
type levelVar struct {
	v    *Var
	bit  int
	next bool
}

// growNodes is the size below which a store's full node table doubles
// instead of being collected (fds.KernelLimits.GrowUpTo; about 49 bytes a
// node, so up to ~410 MB per store before the first collection): split's
// fixpoints rebuild the intermediate nodes a collection discards. GERMAN
// N = 8's sequential invariant: 71 s with collections from 2^20 nodes on,
// 17 s with this bound (docs/split.md).
const growNodes = 1 << 23

// storeLimits bound a store's node table and its BDD operations.
type storeLimits struct {
	initialNodes int // 0: the kernel's default
	maxNodes     int // 0: unbounded
	// ctx interrupts the store's BDD operations (nil: never): once it is
	// done, the running operation is abandoned, err wraps ctx.Err(), and
	// every later operation returns false — results computed with a done
	// ctx are meaningless (see fds.Space.SetContext).
	ctx context.Context
}

// newStore returns a store encoding vars in the given order (the variable
// order of the BDDs: stores that exchange BDDs over the shared variables
// must declare them first and identically).
func newStore(vars []*Var, lim storeLimits) (*store, error) {
	s := &store{fv: make(map[*Var]*fds.Var, len(vars)), order: vars}
	if lim.maxNodes > 0 && lim.initialNodes > lim.maxNodes {
		lim.initialNodes = lim.maxNodes
	}
	s.sp = fds.NewSpace(fds.WithContext(lim.ctx), fds.WithBackend(func(n int) (fds.Backend, error) {
		s.be = fds.NewKernelLimits(n, fds.KernelLimits{Nodes: lim.initialNodes, MaxNodes: lim.maxNodes, GrowUpTo: growNodes})
		return s.be, nil
	}))
	for _, v := range vars {
		var (
			f   *fds.Var
			err error
		)
		if v.bool {
			f, err = s.sp.Bool(v.name)
		} else {
			f, err = s.sp.Int(v.name, v.lo, v.hi)
		}
		if err != nil {
			return nil, fmt.Errorf("split: store: %w", err)
		}
		s.fv[v] = f
	}
	if err := s.sp.Build(); err != nil {
		return nil, fmt.Errorf("split: store: %w", err)
	}
	s.level = make([]levelVar, s.sp.NumLevels())
	for _, v := range vars {
		f := s.fv[v]
		for b, l := range f.Levels(false) {
			s.level[l] = levelVar{v, b, false}
		}
		for b, l := range f.Levels(true) {
			s.level[l] = levelVar{v, b, true}
		}
	}
	return s, nil
}

// has reports whether the store encodes v.
func (s *store) has(v *Var) bool { _, ok := s.fv[v]; return ok }

// cube returns the cube of vars' bits, of the primed copies if next.
func (s *store) cube(vars []*Var, next bool) fds.Cube {
	return s.sp.CubeOf(s.fdsVars(vars), next)
}

// cube2 returns the cube of both copies of vars.
func (s *store) cube2(vars []*Var) fds.Cube {
	var ls []int
	for _, v := range vars {
		f := s.fv[v]
		ls = append(ls, f.Levels(false)...)
		ls = append(ls, f.Levels(true)...)
	}
	return s.sp.CubeOfLevels(ls)
}

// cubeUnion returns the union of cubes.
func (s *store) cubeUnion(cs ...fds.Cube) fds.Cube {
	var ls []int
	for _, c := range cs {
		ls = append(ls, c.Levels()...)
	}
	return s.sp.CubeOfLevels(ls)
}

func (s *store) fdsVars(vars []*Var) []*fds.Var {
	out := make([]*fds.Var, len(vars))
	for i, v := range vars {
		out[i] = s.fv[v]
	}
	return out
}

// pres returns ⋀ v′ = v over vars.
func (s *store) pres(vars []*Var) fds.BDD {
	r := s.sp.True()
	// Build bottom-up (deepest variables first) so intermediate BDDs stay
	// linear.
	for i := len(vars) - 1; i >= 0; i-- {
		f := s.fv[vars[i]]
		cur, next := f.Levels(false), f.Levels(true)
		for b := range cur {
			r = s.sp.Level(cur[b]).Iff(s.sp.Level(next[b])).And(r)
		}
	}
	return r
}

// dom returns the domain constraints of vars (current or next copies).
func (s *store) dom(vars []*Var, next bool) fds.BDD {
	r := s.sp.True()
	for _, v := range vars {
		r = r.And(s.fv[v].Dom(next))
	}
	return r
}

// eq returns "v = k" (next copy if next).
func (s *store) eq(v *Var, k int, next bool) fds.BDD { return s.fv[v].Eq(k, next) }

// assignment returns the conjunction of v = vals[v] over vars.
func (s *store) assignment(vars []*Var, vals map[*Var]int, next bool) fds.BDD {
	r := s.sp.True()
	for i := len(vars) - 1; i >= 0; i-- {
		r = s.fv[vars[i]].Eq(vals[vars[i]], next).And(r)
	}
	return r
}

// pick returns values of vars (current copies) in one satisfying
// assignment of f, which must constrain their domains; ok is false when f
// is unsatisfiable.
func (s *store) pick(f fds.BDD, vars []*Var, next bool) (map[*Var]int, bool) {
	vals, ok := f.Pick(s.fdsVars(vars), next)
	if !ok {
		return nil, false
	}
	m := make(map[*Var]int, len(vars))
	for i, v := range vars {
		m[v] = vals[i]
	}
	return m, true
}

// nodes is the number of nodes in use by the store.
func (s *store) nodes() int { return s.sp.Stats().Used }

// err is the store's first error (node limit, interruption).
func (s *store) err() error { return s.sp.Err() }
