package symbolic

import (
	"fmt"
	"math"
	"time"

	"github.com/aclements/go-z3/z3"
)

// Config tunes a Session. The zero Config is the recommended one.
type Config struct {
	// Timeout bounds every solver query (Z3 counts whole
	// milliseconds, rounding up); a query that runs out answers
	// Unknown with Reason "timeout". Zero means DefaultTimeout.
	Timeout time.Duration
	// ResourceLimit, if not zero, also bounds every query by Z3's
	// deterministic resource counter ("rlimit"): unlike Timeout, the
	// same query gives up at the same point on every machine.
	ResourceLimit uint
	// DisableIncremental makes every query use a fresh solver given
	// the whole query. By default queries go to an incremental solver
	// whose assertion stack follows the path (a push per constraint,
	// pops on backtrack), and only those it does not answer within
	// 50ms go to a fresh solver.
	DisableIncremental bool
	// DisableCache turns off the result cache, the reuse of models
	// (answering Sat when a known model satisfies the query), and with
	// them guessing and slicing: every query goes to Z3. For
	// measurements.
	DisableCache bool
	// DisableGuessing turns off guessing: repairing the current model
	// into one that satisfies the query (see guess.go) before asking
	// Z3.
	DisableGuessing bool
	// DisableSlicing turns off constraint independence: queries include
	// the whole path condition, not just the constraints that share
	// inputs with the condition asked about.
	DisableSlicing bool
	// CacheSize bounds the number of cached results (the cache starts
	// over when full). Zero means DefaultCacheSize.
	CacheSize int
}

// Defaults for the zero fields of Config.
const (
	DefaultTimeout   = 10 * time.Second
	DefaultCacheSize = 1 << 16
)

// Session holds a path condition and answers questions about it with
// Z3: is the path feasible with one more condition, which values do the
// inputs take, what does a symbolic value concretely equal. It owns one
// Z3 context, so an explorer uses one Session per worker.
//
// A Session is not safe for concurrent use. The Values and Models it
// hands out are, and may outlive it.
//
// The path condition is a stack: Push marks a choice point, Assume adds
// constraints, Pop returns to the mark. The solver follows the stack
// lazily: before a query it pops back to the longest prefix it already
// holds and pushes the rest, so depth-first exploration (push, assume,
// pop) and replay from the root (Reset, assume the same constraints
// again) both reuse the solver's work.
type Session struct {
	cfg Config
	z3  *z3.Context
	enc *encoder

	main    *z3.Solver // incremental solver following the path; nil until needed
	levels  []level    // main's assertion stack, one constraint per push level
	scratch *z3.Solver // solves slices, one push level per query; nil until needed

	path    []entry
	marks   []int            // len(path) at each Push
	vars    []inputKey       // the inputs on the path, in order of appearance
	varIdx  map[string]int   // input name → index in vars (and element of uf)
	uf      unionFind        // components of vars linked by constraints
	byHash  map[uint64][]int // hash → indices in path of active constraints
	nactive int              // active constraints on the path

	// model satisfies the first modelLen entries of the path; it is a
	// model of the path condition when modelLen == len(path).
	model    *Model
	modelLen int
	// unsatLen: the first unsatLen entries of the path are known to be
	// unsatisfiable (math.MaxInt when not known).
	unsatLen int

	cache     resultCache
	stats     Stats
	serial    uint64
	recent    [2]answer     // the last answers of feasible (both sides of a Branch)
	timeoutMS uint          // the Z3 context's current time limit
	budget    time.Duration // for incremental attempts: incrementalBudget (tests shorten it)
}

// entry is one step of the path: a constraint, or the declaration of an
// input (cond invalid).
type entry struct {
	cond Value
	hash uint64
	// active: cond is symbolic and not already on the path, so it is
	// a member of the path condition's constraint set.
	active bool
	key    uint64  // set key of the active constraints up to this entry
	vars   []int32 // indices in Session.vars of cond's inputs
	nvars  int     // len(Session.vars) before this entry
	nhist  int     // len(Session.uf.hist) before this entry
	serial uint64  // unique in the Session, to match solver levels quickly
	z      z3.Bool // cond encoded, once encoded is set
	isEnc  bool
	// model is a model of the path up to this entry, if hasModel; Pop
	// back to here restores it (it is the one that answered the other
	// side of the branch, typically).
	model    *Model
	hasModel bool
}

// answer remembers what feasible found for a condition on a path, so
// that the Assume that follows a Branch (the explorer entering a side)
// needs no second cache lookup.
type answer struct {
	cond   Value
	n      int    // path length when asked
	serial uint64 // serial of the path's top entry then (0 for the empty path)
	status Status
	model  *Model // for Sat: a model of the query's inputs
	full   bool   // the query was the whole path condition (else a slice)
}

// level is a push level of the main solver: the constraint asserted
// there and the serial of the path entry it was matched to (0 for the
// condition of a query).
type level struct {
	serial uint64
	cond   Value
}

// NewSession returns a Session with an empty path condition and a new
// Z3 context configured by cfg.
func NewSession(cfg Config) (s *Session, err error) {
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.CacheSize <= 0 {
		cfg.CacheSize = DefaultCacheSize
	}
	defer func() {
		if r := recover(); r != nil {
			s, err = nil, z3Failure("context creation", r)
		}
	}()
	ctx := newZ3Context(cfg)
	return &Session{
		cfg:      cfg,
		z3:       ctx,
		enc:      newEncoder(ctx),
		varIdx:   make(map[string]int),
		byHash:   make(map[uint64][]int),
		unsatLen: math.MaxInt,
		cache:    resultCache{max: cfg.CacheSize},
		budget:   incrementalBudget,
	}, nil
}

// newZ3Context makes the Z3 context of a session with configuration cfg.
func newZ3Context(cfg Config) *z3.Context {
	zc := z3.NewContextConfig()
	if cfg.ResourceLimit > 0 {
		zc.SetUint("rlimit", cfg.ResourceLimit)
	}
	return z3.NewContext(zc)
}

// renew replaces the session's Z3 context with a new one. Z3 keeps an
// interrupt that lands as a check ends pending in the context, where it
// makes a later push fail ("push canceled"); after an interrupted check
// the session therefore continues on a fresh context. The path, the
// cache and the model are Z3-independent and stay; the encodings and
// the solvers are rebuilt on demand.
func (s *Session) renew() {
	s.z3 = newZ3Context(s.cfg)
	s.enc = newEncoder(s.z3)
	s.main, s.levels, s.scratch = nil, nil, nil
	s.timeoutMS = 0
	for i := range s.path {
		s.path[i].z, s.path[i].isEnc = z3.Bool{}, false
	}
}

// Push marks a choice point: the next Pop returns the path condition
// (and the inputs declared on the path) to what they are now.
func (s *Session) Push() {
	s.marks = append(s.marks, len(s.path))
}

// Pop undoes every Assume and NewInput since the matching Push. Pop
// without a matching Push is a bug in the caller and panics.
func (s *Session) Pop() {
	if len(s.marks) == 0 {
		panic("symbolic: Session.Pop without a matching Push")
	}
	n := s.marks[len(s.marks)-1]
	s.marks = s.marks[:len(s.marks)-1]
	s.truncate(n)
}

// Reset empties the path condition and forgets every mark, as for a new
// run from the root. The solver state, the cache and the statistics are
// kept: replaying the same constraints costs no solver work.
func (s *Session) Reset() {
	s.marks = s.marks[:0]
	s.truncate(0)
}

// NewInput declares a fresh symbolic input on the path and returns it.
// Models of the path give every declared input a value (zero if no
// constraint mentions it). The declaration is undone by Pop. It is an
// error to declare a name already on the path, or an invalid type.
func (s *Session) NewInput(name string, t Type) (Value, error) {
	v := Input(name, t)
	if !v.IsValid() {
		return Value{}, fmt.Errorf("symbolic: invalid input %q of type %s", name, t)
	}
	if _, ok := s.varIdx[name]; ok {
		return Value{}, fmt.Errorf("symbolic: input %q is already on the path", name)
	}
	valid := s.pcSat()
	e := entry{key: s.key(), nvars: len(s.vars), nhist: len(s.uf.hist)}
	s.addVar(inputKey{name, t})
	s.push(e)
	if valid {
		s.setModel(s.model)
	}
	return v, nil
}

// Assume adds the bool c to the path condition, as on entering one side
// of a branch. Assume does not ask the solver whether the path stays
// feasible (Branch or Feasible do); assuming a concrete false makes the
// path infeasible. The error reports a c that is not a bool, or an
// input name used with two types.
func (s *Session) Assume(c Value) error {
	if c.t != Bool {
		return fmt.Errorf("symbolic: Assume of a %s value, want bool", c.t)
	}
	e := entry{cond: c, key: s.key(), nvars: len(s.vars), nhist: len(s.uf.hist)}
	if c.e == nil {
		if c.c == 0 {
			s.unsatLen = min(s.unsatLen, len(s.path)+1)
		}
		valid := s.pcSat()
		s.push(e)
		if valid {
			s.setModel(s.model)
		}
		return nil
	}
	ins, err := s.inputsOf(c)
	if err != nil {
		return err
	}
	e.hash = hashValue(c)
	e.active = !s.onPath(c, e.hash)
	if e.active {
		e.key += setKey(e.hash)
	}
	next, known := s.modelAfter(c, ins)
	for _, in := range ins {
		i, ok := s.varIdx[in.name]
		if !ok {
			i = s.addVar(in)
		}
		e.vars = append(e.vars, int32(i))
	}
	for _, i := range e.vars[1:] {
		s.uf.union(int(e.vars[0]), int(i))
	}
	s.push(e)
	switch known {
	case Sat:
		s.setModel(next)
	case Unsat:
		s.unsatLen = min(s.unsatLen, len(s.path))
	}
	return nil
}

// modelAfter returns what is known about the path condition with c
// added without asking the solver: Sat with a model (the current model
// if it satisfies c, one from the cache, or a guess), Unsat from the
// cache, or Unknown.
func (s *Session) modelAfter(c Value, ins []inputKey) (*Model, Status) {
	if s.pcSat() && s.model.holds(c) {
		return s.model, Sat
	}
	if s.cfg.DisableCache {
		return nil, Unknown
	}
	for _, a := range s.recent {
		if a.n != len(s.path) || a.serial != s.topSerial() || !Identical(a.cond, c) {
			continue
		}
		switch {
		case a.status == Unsat:
			return nil, Unsat
		case a.status != Sat:
		case a.full:
			return a.model, Sat
		case s.pcSat():
			return s.model.with(a.model), Sat
		}
	}
	q := s.query(c, ins, s.pcSat() && !s.cfg.DisableSlicing)
	e, _, ok := s.known(q)
	switch {
	case !ok || e.res.Status == Unknown:
		return nil, Unknown
	case e.res.Status == Unsat:
		return nil, Unsat
	case q.full:
		return e.model, Sat
	}
	return s.model.with(e.model), Sat
}

// PathCondition returns the constraints on the path, without
// repetitions and trivially true ones, in the order they were assumed.
func (s *Session) PathCondition() PathCondition {
	var pc PathCondition
	for i := range s.path {
		e := &s.path[i]
		if e.active || (e.cond.t == Bool && e.cond.e == nil && e.cond.c == 0) {
			pc = append(pc, e.cond)
		}
	}
	return pc
}

// Inputs returns the inputs on the path — declared with NewInput or
// mentioned by a constraint — in order of appearance.
func (s *Session) Inputs() []Value {
	r := make([]Value, len(s.vars))
	for i, in := range s.vars {
		r[i] = Input(in.name, in.t)
	}
	return r
}

// Stats returns the Session's counters.
func (s *Session) Stats() Stats { return s.stats }

// topSerial returns the serial of the last path entry (0 for the empty
// path): with the path's length it identifies the path.
func (s *Session) topSerial() uint64 {
	if len(s.path) == 0 {
		return 0
	}
	return s.path[len(s.path)-1].serial
}

// remember records feasible's answer about c (with the query's model).
func (s *Session) remember(c Value, q *query, res Result, m *Model) {
	s.recent[1] = s.recent[0]
	s.recent[0] = answer{cond: c, n: len(s.path), serial: s.topSerial(), status: res.Status, model: m, full: q.full}
}

// setModel records m as a model of the path condition.
func (s *Session) setModel(m *Model) {
	s.model, s.modelLen = m, len(s.path)
	if len(s.path) > 0 {
		top := &s.path[len(s.path)-1]
		top.model, top.hasModel = m, true
	}
}

// pcSat reports whether s.model is a model of the path condition.
func (s *Session) pcSat() bool { return s.modelLen == len(s.path) }

// key returns the set key of the path condition.
func (s *Session) key() uint64 {
	if len(s.path) == 0 {
		return 0
	}
	return s.path[len(s.path)-1].key
}

func (s *Session) push(e entry) {
	s.serial++
	e.serial = s.serial
	if e.active {
		s.byHash[e.hash] = append(s.byHash[e.hash], len(s.path))
		s.nactive++
	}
	s.path = append(s.path, e)
}

func (s *Session) addVar(in inputKey) int {
	i := s.uf.add()
	s.vars = append(s.vars, in)
	s.varIdx[in.name] = i
	return i
}

// truncate shortens the path to n entries.
func (s *Session) truncate(n int) {
	for len(s.path) > n {
		e := &s.path[len(s.path)-1]
		if e.active {
			idx := s.byHash[e.hash]
			if len(idx) == 1 {
				delete(s.byHash, e.hash)
			} else {
				s.byHash[e.hash] = idx[:len(idx)-1]
			}
			s.nactive--
		}
		s.uf.undo(e.nhist, e.nvars)
		for _, in := range s.vars[e.nvars:] {
			delete(s.varIdx, in.name)
		}
		s.vars = s.vars[:e.nvars]
		s.path[len(s.path)-1] = entry{} // release the Value and the Z3 term
		s.path = s.path[:len(s.path)-1]
	}
	switch {
	case n == 0:
		s.model, s.modelLen = nil, 0 // the empty path condition holds for any inputs
	case s.path[n-1].hasModel:
		s.model, s.modelLen = s.path[n-1].model, n
	default:
		s.modelLen = min(s.modelLen, n)
	}
	if s.unsatLen > n {
		s.unsatLen = math.MaxInt
	}
}

// onPath reports whether an active constraint identical to c (whose
// hash is h) is on the path.
func (s *Session) onPath(c Value, h uint64) bool {
	for _, i := range s.byHash[h] {
		if Identical(s.path[i].cond, c) {
			return true
		}
	}
	return false
}

// inputsOf returns the distinct inputs of c. The error reports a name
// used with two types, in c or between c and the path.
func (s *Session) inputsOf(c Value) ([]inputKey, error) {
	var ins []inputKey
	err := forEachInput(c, func(n *node) error {
		for _, in := range ins {
			if in.name == n.name {
				if in.t != n.t {
					return fmt.Errorf("symbolic: input %q used as %s and as %s", n.name, in.t, n.t)
				}
				return nil
			}
		}
		if i, ok := s.varIdx[n.name]; ok && s.vars[i].t != n.t {
			return fmt.Errorf("symbolic: input %q used as %s and as %s", n.name, s.vars[i].t, n.t)
		}
		ins = append(ins, inputKey{n.name, n.t})
		return nil
	})
	return ins, err
}
