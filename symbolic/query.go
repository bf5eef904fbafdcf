package symbolic

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/aclements/go-z3/z3"
)

// Branch decides which sides of a branch on the bool c are feasible
// under the path condition: onTrue answers "path condition ∧ c",
// onFalse "path condition ∧ !c". An explorer follows each side whose
// Status is Sat (Push, Assume(c) or Assume(Not(c)), …, Pop), reports
// each Unknown side as inconclusive, and drops Unsat sides. A concrete
// c costs nothing beyond knowing the path is feasible.
//
// The error reports a c that is not a bool, an input name used with two
// types, a canceled ctx, or a failure inside Z3; the Session stays
// usable after any of them.
func (s *Session) Branch(ctx context.Context, c Value) (onTrue, onFalse Result, err error) {
	if c.t != Bool {
		return Result{}, Result{}, fmt.Errorf("symbolic: Branch on a %s value, want bool", c.t)
	}
	if c.e == nil {
		r, err := s.feasible(ctx, MakeBool(true))
		switch {
		case err != nil:
			return Result{}, Result{}, err
		case c.c != 0:
			return r, Result{Status: Unsat}, nil
		}
		return Result{Status: Unsat}, r, nil
	}
	known := !s.cfg.DisableCache && s.pcSat()
	if onTrue, err = s.feasible(ctx, c); err != nil {
		return Result{}, Result{}, err
	}
	if onTrue.Status == Unsat && known {
		// The path condition is satisfiable and implies !c.
		s.stats.Queries++
		return onTrue, Result{Status: Sat}, nil
	}
	if onFalse, err = s.feasible(ctx, Not(c)); err != nil {
		return Result{}, Result{}, err
	}
	return onTrue, onFalse, nil
}

// Feasible answers whether the path condition ∧ c is satisfiable. It
// does not change the path condition. Errors are as for Branch.
func (s *Session) Feasible(ctx context.Context, c Value) (Result, error) {
	if c.t != Bool {
		return Result{}, fmt.Errorf("symbolic: Feasible of a %s value, want bool", c.t)
	}
	return s.feasible(ctx, c)
}

// Check answers whether the path condition itself is satisfiable.
func (s *Session) Check(ctx context.Context) (Result, error) {
	return s.feasible(ctx, MakeBool(true))
}

// Model returns values for every input on the path that satisfy the
// path condition; inputs no constraint mentions are zero. It returns
// ErrInfeasible if the path condition is unsatisfiable and an
// *UnknownError if the solver cannot tell.
func (s *Session) Model(ctx context.Context) (*Model, error) {
	if err := s.ensureModel(ctx); err != nil {
		return nil, err
	}
	m := &Model{vals: make([]binding, 0, len(s.vars))}
	for _, in := range s.vars {
		m.set(in.name, s.model.Eval(Input(in.name, in.t)))
	}
	return m, nil
}

// Concretize returns a concrete value that v takes on the path, and
// adds v == that value to the path condition so the rest of the path is
// consistent with the choice. Use it where the interpreter needs a
// concrete value (an allocation size, a map key, a call into unmodelled
// code). A concrete v is returned as is. Errors are as for Model and
// Assume.
func (s *Session) Concretize(ctx context.Context, v Value) (Value, error) {
	if !v.IsValid() {
		return Value{}, errors.New("symbolic: Concretize of an invalid Value")
	}
	if v.e == nil {
		return v, nil
	}
	if err := s.ensureModel(ctx); err != nil {
		return Value{}, err
	}
	c := s.model.Eval(v)
	if err := s.Assume(mkBinary(opEq, Bool, v, c)); err != nil {
		return Value{}, err
	}
	return c, nil
}

// ensureModel makes s.model a model of the path condition.
func (s *Session) ensureModel(ctx context.Context) error {
	if s.unsatLen <= len(s.path) {
		return ErrInfeasible
	}
	if s.pcSat() {
		return nil
	}
	r, err := s.feasible(ctx, MakeBool(true))
	switch {
	case err != nil:
		return err
	case r.Status == Unsat:
		return ErrInfeasible
	case r.Status == Unknown:
		return &UnknownError{Reason: r.Reason}
	}
	return nil
}

// query is one satisfiability question: the constraints of the path
// condition that matter (all of them, or a slice), and c.
type query struct {
	entries []int      // indices in path of the path constraints asked about
	c       Value      // the condition; concrete true to ask about the path condition alone
	cActive bool       // c is symbolic and not among the path constraints
	conds   []Value    // the path constraints, then c if cActive: the canonical set
	key     uint64     // set key of conds
	vars    []inputKey // the inputs of conds
	full    bool       // entries are all active constraints of the path
}

// query builds the question about path condition ∧ c, where ins are
// c's inputs. With slice set (the path condition must then be known
// satisfiable) only the constraints sharing a component with c's inputs
// are included.
func (s *Session) query(c Value, ins []inputKey, slice bool) *query {
	q := &query{c: c}
	var roots []int
	if slice {
		for _, in := range ins {
			if i, ok := s.varIdx[in.name]; ok {
				if r := s.uf.find(i); !slices.Contains(roots, r) {
					roots = append(roots, r)
				}
			}
		}
	}
	seen := make([]bool, len(s.vars))
	for i := range s.path {
		e := &s.path[i]
		if !e.active || (slice && !slices.Contains(roots, s.uf.find(int(e.vars[0])))) {
			continue
		}
		q.entries = append(q.entries, i)
		q.conds = append(q.conds, e.cond)
		q.key += setKey(e.hash)
		for _, v := range e.vars {
			if !seen[v] {
				seen[v] = true
				q.vars = append(q.vars, s.vars[v])
			}
		}
	}
	q.full = len(q.entries) == s.nactive
	if c.e != nil {
		h := hashValue(c)
		if q.cActive = !s.onPath(c, h); q.cActive {
			q.conds = append(q.conds, c)
			q.key += setKey(h)
		}
		for _, in := range ins {
			if i, ok := s.varIdx[in.name]; !ok || !seen[i] {
				q.vars = append(q.vars, in)
			}
		}
	}
	return q
}

// feasible answers path condition ∧ c for a bool c: from what is known
// (an infeasible path, the current model, the cache), by guessing a
// model, or from Z3.
func (s *Session) feasible(ctx context.Context, c Value) (Result, error) {
	s.stats.Queries++
	if s.unsatLen <= len(s.path) || (c.e == nil && c.c == 0) {
		return Result{Status: Unsat}, nil
	}
	useModel := !s.cfg.DisableCache && s.pcSat()
	if useModel && s.model.holds(c) {
		s.stats.ModelHits++
		return Result{Status: Sat}, nil
	}
	ins, err := s.inputsOf(c)
	if err != nil {
		return Result{}, err
	}
	q := s.query(c, ins, useModel && !s.cfg.DisableSlicing)
	if len(q.conds) == 0 {
		// No symbolic constraint: any inputs do, the current model too.
		s.learn(q, Result{Status: Sat}, s.model)
		return Result{Status: Sat}, nil
	}
	if e, guessed, ok := s.known(q); ok {
		if !guessed {
			s.stats.CacheHits++
		}
		s.learn(q, e.res, e.model)
		s.remember(c, q, e.res, e.model)
		return e.res, nil
	}
	res, m, err := s.solve(ctx, q)
	if err != nil {
		return Result{}, err
	}
	if !s.cfg.DisableCache {
		s.cache.store(q.key, &cacheEntry{conds: q.conds, res: res, model: m})
		s.remember(c, q, res, m)
	}
	s.learn(q, res, m)
	return res, nil
}

// known answers q without Z3: from the cache or, failing that, by
// guessing a model (the guess is cached too). ok is false if neither
// knows.
func (s *Session) known(q *query) (e *cacheEntry, guessed, ok bool) {
	if s.cfg.DisableCache {
		return nil, false, false
	}
	if e, ok := s.cache.lookup(q.key, q.conds); ok {
		return e, false, true
	}
	if s.cfg.DisableGuessing {
		return nil, false, false
	}
	m, ok := s.guess(q)
	if !ok {
		return nil, false, false
	}
	s.stats.Guesses++
	e = &cacheEntry{conds: q.conds, res: Result{Status: Sat}, model: m}
	s.cache.store(q.key, e)
	return e, true, true
}

// learn records what the answer res (with model m) to q says about the
// path condition. A model the Session already has is kept: it answers
// the other side of a Branch (the new one satisfies the side just
// asked), and Assume finds the new one in the cache when needed.
func (s *Session) learn(q *query, res Result, m *Model) {
	if !q.full {
		return
	}
	switch {
	case res.Status == Sat && !s.pcSat():
		s.setModel(m)
	case res.Status == Unsat && !q.cActive:
		s.unsatLen = len(s.path)
	}
}

// incrementalBudget bounds an incremental solver's attempt at a query
// when Config.Timeout allows more: Z3's incremental core is quick on
// easy bit-vector queries but can take orders of magnitude longer than
// solving afresh (bit-blasting + SAT) on arithmetic ones, so after the
// budget the query is solved afresh with the rest of the time (as Z3's
// own combined solver does with solver2_timeout).
const incrementalBudget = 50 * time.Millisecond

// solve asks Z3 the question q. A panic inside go-z3 (Z3 reports
// errors that way) becomes an error, and the solvers are dropped so the
// next query starts from a clean state.
func (s *Session) solve(ctx context.Context, q *query) (res Result, m *Model, err error) {
	if err := ctx.Err(); err != nil {
		return Result{}, nil, err
	}
	defer func() {
		if r := recover(); r != nil {
			s.main, s.levels, s.scratch = nil, nil, nil
			res, m, err = Result{}, nil, z3Failure("check", r)
		}
	}()
	start := time.Now()
	fresh, limit := s.cfg.DisableIncremental, s.cfg.Timeout
	if !fresh && limit > s.budget {
		limit = s.budget
	}
	sat, zm, cerr := s.check(ctx, q, fresh, limit)
	var unknown *z3.ErrSatUnknown
	if !fresh && limit < s.cfg.Timeout && errors.As(cerr, &unknown) &&
		s.unknownReason(unknown.Reason, time.Since(start), limit) == "timeout" {
		if rest := s.cfg.Timeout - time.Since(start); rest > 0 {
			s.stats.Fallbacks++
			sat, zm, cerr = s.check(ctx, q, true, rest)
		}
	}
	switch {
	case errors.As(cerr, &unknown):
		s.stats.Unknowns++
		return Result{Status: Unknown, Reason: s.unknownReason(unknown.Reason, time.Since(start), s.cfg.Timeout)}, nil, nil
	case cerr != nil:
		return Result{}, nil, cerr
	case !sat:
		return Result{Status: Unsat}, nil, nil
	}
	m = &Model{vals: make([]binding, 0, len(q.vars))}
	for _, in := range q.vars {
		v, err := s.enc.concrete(zm, in.name, in.t)
		if err != nil {
			return Result{}, nil, err
		}
		m.set(in.name, v)
	}
	return Result{Status: Sat}, m, nil
}

// check runs one Z3 check of q within limit, on a fresh solver or an
// incremental one, and returns Z3's model if the answer is sat. The
// error is ctx's if ctx ended during the check, and Z3's
// *z3.ErrSatUnknown otherwise.
func (s *Session) check(ctx context.Context, q *query, fresh bool, limit time.Duration) (sat bool, m *z3.Model, err error) {
	s.setTimeout(limit)
	solver := s.prepare(q, fresh)
	if solver == s.scratch {
		defer func() {
			if solver == s.scratch {
				solver.Pop()
			}
		}()
	}
	interrupted := s.interruptOn(ctx)
	start := time.Now()
	sat, err = solver.Check()
	s.stats.SolverTime += time.Since(start)
	s.stats.SolverCalls++
	if interrupted() {
		s.renew() // the old context and its solvers are dropped whole
		return false, nil, ctx.Err()
	}
	switch {
	case err == nil && sat:
		return true, solver.Model(), nil
	}
	return sat, nil, err
}

// setTimeout sets the Z3 context's time limit for the next checks.
func (s *Session) setTimeout(d time.Duration) {
	ms := max(uint((d+time.Millisecond-1)/time.Millisecond), 1)
	if ms != s.timeoutMS {
		s.z3.Config().SetUint("timeout", ms)
		s.timeoutMS = ms
	}
}

// unknownReason names why a check that took elapsed of its limit ended
// Unknown. Z3 words it differently by solver: a timeout is "timeout" or
// "canceled" (our own interrupts are reported as ctx's error before
// this), the resource limit "max. resource limit exceeded" or just
// "unknown".
func (s *Session) unknownReason(z3Reason string, elapsed, limit time.Duration) string {
	switch {
	case strings.Contains(z3Reason, "resource limit"):
		return "resource limit exceeded"
	case z3Reason == "timeout" || z3Reason == "canceled" || elapsed >= limit:
		return "timeout"
	case s.cfg.ResourceLimit > 0 && (z3Reason == "unknown" || z3Reason == ""):
		return "resource limit exceeded"
	case z3Reason == "":
		return "unknown"
	}
	return z3Reason
}

// prepare returns a solver that holds exactly the constraints of q:
// a new one (fresh), the scratch solver with one new push level (a
// slice; the caller pops it), or the main solver synced to the path
// plus a level for q.c.
func (s *Session) prepare(q *query, fresh bool) *z3.Solver {
	var solver *z3.Solver
	switch {
	case fresh:
		solver = z3.NewSolver(s.z3)
	case !q.full:
		if s.scratch == nil {
			s.scratch = z3.NewSolver(s.z3)
		}
		solver = s.scratch
		solver.Push()
	default:
		if s.main == nil {
			s.main = z3.NewSolver(s.z3)
		}
		solver = s.main
		s.sync()
		if q.cActive {
			solver.Push()
			s.levels = append(s.levels, level{cond: q.c})
			solver.Assert(s.enc.boolean(q.c))
		}
		return solver
	}
	for _, i := range q.entries {
		solver.Assert(s.encoded(i))
	}
	if q.cActive {
		solver.Assert(s.enc.boolean(q.c))
	}
	return solver
}

// sync brings the main solver's assertion stack to the active
// constraints of the path: it keeps the longest prefix it already
// holds (matched by serial, or structurally after a replay), pops the
// rest, and pushes one level per missing constraint.
func (s *Session) sync() {
	j := 0
	for i := range s.path {
		e := &s.path[i]
		if !e.active {
			continue
		}
		if j < len(s.levels) {
			l := &s.levels[j]
			if l.serial == e.serial || Identical(l.cond, e.cond) {
				l.serial = e.serial
				j++
				continue
			}
			for len(s.levels) > j {
				s.main.Pop()
				s.levels = s.levels[:len(s.levels)-1]
			}
		}
		s.main.Push()
		s.main.Assert(s.encoded(i))
		s.levels = append(s.levels, level{serial: e.serial, cond: e.cond})
		j++
	}
	for len(s.levels) > j {
		s.main.Pop()
		s.levels = s.levels[:len(s.levels)-1]
	}
}

// encoded returns the Z3 term of the constraint path[i].
func (s *Session) encoded(i int) z3.Bool {
	e := &s.path[i]
	if !e.isEnc {
		e.z, e.isEnc = s.enc.boolean(e.cond), true
	}
	return e.z
}

// interruptOn arranges for Z3 to be interrupted when ctx is done, until
// the returned function is called; that function reports whether ctx
// ended during the query. Z3 ignores an interrupt that comes before its
// check starts, so the interrupt repeats until the check has ended; the
// returned function waits for the last one, so none reaches a later
// query.
func (s *Session) interruptOn(ctx context.Context) (interrupted func() bool) {
	if ctx.Done() == nil {
		return func() bool { return false }
	}
	finished, done := make(chan struct{}), make(chan struct{})
	stop := context.AfterFunc(ctx, func() {
		defer close(done)
		for {
			s.z3.Interrupt()
			select {
			case <-finished:
				return
			case <-time.After(time.Millisecond):
			}
		}
	})
	return func() bool {
		close(finished)
		if stop() {
			return false
		}
		<-done
		return true
	}
}
