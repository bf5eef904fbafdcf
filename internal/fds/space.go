package fds

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
)

// Space owns a BDD backend and the finite-domain variables encoded in it.
//
// Variables are declared first (Bool, Int); the first call of Build fixes the
// variable order and creates the backend, after which no variable can be
// added. Every variable v has an unprimed copy (its value in the current
// state) and a primed copy v′ (its value in the next state). The initial
// order is the declaration order; within a variable, bits go from the most
// significant down, and each unprimed bit is immediately followed by its
// primed twin, so that renaming between the two copies and relational
// products over transition relations stay local in the BDD. Reordering
// (Reorder, WithReordering) moves each bit with its twin; Position gives a
// bit's current place.
//
// A Space and its BDDs are not safe for concurrent use.
type Space struct {
	vars   []*Var
	byName map[string]*Var
	levels int

	be          Backend
	prime       Renaming // unprimed → primed
	unprime     Renaming // primed → unprimed
	curCube     Node
	nextCube    Node
	curLevels   []int
	nextLevels  []int
	newBackend  func(nvars int) (Backend, error)
	ctx         context.Context // given to the backend when it is built
	autoReorder bool
	// order, if not nil, is the variable order Build gives the backend
	// (order[p] is the level at position p): a Sibling's copy of its
	// origin's order.
	order []int
	err   error
}

// Var is a finite-domain variable of a Space: a Boolean or an integer in
// [Lo, Hi], encoded in binary as the offset value-Lo with just enough bits.
type Var struct {
	sp     *Space
	name   string
	lo, hi int
	isBool bool
	cur    []int // levels of the unprimed bits, least significant first
	next   []int // levels of the primed bits, least significant first
}

// Option configures a Space.
type Option func(*Space)

// WithContext is SetContext at creation.
func WithContext(ctx context.Context) Option {
	return func(s *Space) { s.ctx = ctx }
}

// SetContext bounds the Space's BDD operations by ctx. Once ctx is done,
// the running operation is abandoned promptly (its recursion looks at ctx
// every few thousand steps), Err reports an error wrapping ErrInterrupted
// and ctx.Err() (so errors.Is(err, context.DeadlineExceeded) holds for a
// deadline), and every later operation returns false at once: BDDs
// computed after the interruption are meaningless and callers must check
// Err before trusting a result, as after a node-table failure.
//
// The backend stays consistent after an interruption: a later SetContext
// (with a context that is not done) clears the interruption and the Space
// and its earlier BDDs can be used again. It does not clear a node-limit
// failure. Backends that do not implement Interruptible ignore ctx;
// their operations always run to completion.
func (s *Space) SetContext(ctx context.Context) {
	s.ctx = ctx
	if s.be != nil {
		if ib, ok := s.be.(Interruptible); ok {
			ib.SetContext(ctx)
		}
	}
}

// WithBackend replaces the default backend (the native kernel, NewKernel).
func WithBackend(newBackend func(nvars int) (Backend, error)) Option {
	return func(s *Space) { s.newBackend = newBackend }
}

// NewSpace returns an empty Space.
func NewSpace(opts ...Option) *Space {
	s := &Space{byName: map[string]*Var{}}
	for _, o := range opts {
		o(s)
	}
	if s.newBackend == nil {
		s.newBackend = func(n int) (Backend, error) { return NewKernel(n, 0, 0), nil }
	}
	return s
}

// ErrBuilt is returned when a variable is declared after Build.
var ErrBuilt = errors.New("fds: variables cannot be declared after Build")

// Bool declares a Boolean variable.
func (s *Space) Bool(name string) (*Var, error) { return s.declare(name, 0, 1, true) }

// Int declares an integer variable with values lo..hi (inclusive).
func (s *Space) Int(name string, lo, hi int) (*Var, error) {
	if lo > hi {
		return nil, fmt.Errorf("fds: variable %s: empty range %d..%d", name, lo, hi)
	}
	return s.declare(name, lo, hi, false)
}

func (s *Space) declare(name string, lo, hi int, isBool bool) (*Var, error) {
	if s.be != nil {
		return nil, ErrBuilt
	}
	if _, dup := s.byName[name]; dup {
		return nil, fmt.Errorf("fds: variable %s declared twice", name)
	}
	width := bits.Len(uint(hi - lo))
	if width == 0 {
		width = 1 // a constant still gets a bit so that it has a BDD variable
	}
	if width > 30 {
		return nil, fmt.Errorf("fds: variable %s: range %d..%d too large", name, lo, hi)
	}
	v := &Var{sp: s, name: name, lo: lo, hi: hi, isBool: isBool}
	v.cur = make([]int, width)
	v.next = make([]int, width)
	for b := width - 1; b >= 0; b-- {
		v.cur[b] = s.levels
		v.next[b] = s.levels + 1
		s.levels += 2
	}
	s.vars = append(s.vars, v)
	s.byName[name] = v
	return v, nil
}

// Build fixes the variable order and creates the backend. It is called
// implicitly by the first operation that needs a BDD; calling it again does
// nothing.
func (s *Space) Build() error {
	if s.be != nil || s.err != nil {
		return s.err
	}
	be, err := s.newBackend(max(s.levels, 2))
	if err != nil {
		s.err = err
		return err
	}
	if s.order != nil {
		setter, ok := be.(OrderSetter)
		if !ok {
			err = fmt.Errorf("fds: the backend cannot take a variable order")
		} else {
			err = setter.SetOrder(s.order)
		}
		if err != nil {
			s.err = err
			return err
		}
	}
	var cur, next []int
	for _, v := range s.vars {
		cur = append(cur, v.cur...)
		next = append(next, v.next...)
	}
	if len(cur) > 0 {
		if s.prime, err = be.NewRenaming(cur, next); err == nil {
			s.unprime, err = be.NewRenaming(next, cur)
		}
		if err != nil {
			s.err = err
			return err
		}
	}
	if r, ok := be.(Reorderer); ok {
		if err := r.SetGroups(s.reorderGroups()); err != nil {
			s.err = err
			return err
		}
		if s.autoReorder {
			r.SetAutoReorder(true)
		}
	}
	s.be = be
	if ib, ok := be.(Interruptible); ok && s.ctx != nil {
		ib.SetContext(s.ctx)
	}
	s.curLevels, s.nextLevels = cur, next
	s.curCube = be.Cube(cur)
	s.nextCube = be.Cube(next)
	return nil
}

// backend returns the backend, building the Space if needed. If building
// fails the error is kept and a failing stub is never returned: callers check
// Err.
func (s *Space) backend() Backend {
	if s.be == nil {
		if err := s.Build(); err != nil {
			// Build the smallest backend so operations stay well defined.
			s.be = NewKernel(2, 0, 0)
		}
	}
	return s.be
}

// Err returns the first error of the Space: a failed Build or a failed BDD
// operation (for instance an exhausted node table). Operations after an
// error return meaningless BDDs; long computations check Err periodically.
func (s *Space) Err() error {
	if s.err != nil {
		return s.err
	}
	if s.be != nil {
		return s.be.Err()
	}
	return nil
}

// Lookup returns the variable called name, or nil.
func (s *Space) Lookup(name string) *Var { return s.byName[name] }

// NumLevels is the number of BDD variables (bits, primed and unprimed).
func (s *Space) NumLevels() int { return s.levels }

// Stats returns the backend's node-table statistics.
func (s *Space) Stats() Stats { return s.backend().Stats() }

// VarAt returns the variable owning BDD level l and whether l is a primed bit.
func (s *Space) VarAt(l int) (*Var, bool) {
	for _, v := range s.vars {
		for b := range v.cur {
			if v.cur[b] == l {
				return v, false
			}
			if v.next[b] == l {
				return v, true
			}
		}
	}
	return nil, false
}

// Name returns the variable's name.
func (v *Var) Name() string { return v.name }

// IsBool reports whether v is Boolean.
func (v *Var) IsBool() bool { return v.isBool }

// Lo returns the smallest value of v (0 for a Boolean).
func (v *Var) Lo() int { return v.lo }

// Hi returns the largest value of v (1 for a Boolean).
func (v *Var) Hi() int { return v.hi }

// Width returns the number of bits of v.
func (v *Var) Width() int { return len(v.cur) }

// Levels returns the BDD levels of v's bits, least significant first, of the
// primed copy if next.
func (v *Var) Levels(next bool) []int {
	if next {
		return v.next
	}
	return v.cur
}

func (v *Var) String() string { return v.name }

// Backend returns the Space's BDD backend (building the Space if needed),
// for walking BDD nodes.
func (s *Space) Backend() Backend { return s.backend() }
