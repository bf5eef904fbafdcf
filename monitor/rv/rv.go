package rv

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"sync"

	"github.com/henceforth-go/henceforth/automaton"
	"github.com/henceforth-go/henceforth/ltl"
	"github.com/henceforth-go/henceforth/monitor"
)

// A Monitor checks one formula on the events a running program reports.
// See the package documentation for the engines, the memory it keeps and
// its limits. Its methods are safe for concurrent use, unless
// Unsynchronized.
type Monitor struct {
	mu sync.Mutex
	// Guarded by mu.
	letter   uint64 // the state atoms currently true, as bits of the vocabulary
	n        int    // events so far
	dstate   int32  // the DFA's state after the events so far (DFA engine)
	done     bool   // the verdict is final: no more engine steps
	verdict  monitor.Verdict
	ring     ring
	full     []uint64 // every event's letter (WithFullTrace)
	names    []string // the vocabulary: bit i of a letter is names[i]
	index    map[string]int
	ignored  int        // uses of atoms beyond the vocabulary's 64
	found    *Violation // the violation reported, if any
	reported bool       // found has been passed to onViolation

	// Immutable after New.
	formula     ltl.Formula
	cfg         config
	onViolation func(*Violation)
	dfa         *automaton.DFA    // DFA engine; nil otherwise
	verdicts    []monitor.Verdict // the DFA's verdict by state
	eng         engine            // the other engines; nil with the DFA
	gen         *generated        // eng when it is a generated monitor
	unlocked    bool              // Unsynchronized: no locking per event
}

// DefaultWindow is how many of the last events a Monitor keeps by default.
const DefaultWindow = 4096

// MaxStates bounds the DFA a Monitor builds by default (WithMaxStates).
const MaxStates = 1 << 14

// ErrNeedsFullTrace is returned by New for a formula that the DFA engine
// cannot monitor (not ltl.LTLf, or a DFA too large) when neither a
// generated engine nor WithFullTrace is given.
var ErrNeedsFullTrace = errors.New("the formula has no DFA engine; WithFullTrace checks it on the whole trace")

// An Option configures New.
type Option func(*config)

type config struct {
	semantics ltl.Semantics
	window    int
	full      bool
	unlocked  bool
	gen       Stepper
	maxStates int
}

// WithSemantics selects the trace semantics (ltl.LTLf by default). The DFA
// engine is LTLf only.
func WithSemantics(s ltl.Semantics) Option { return func(c *config) { c.semantics = s } }

// WithWindow sets how many of the last events a Monitor keeps, for reports
// and explanations: n rounded up to a power of two, at least 8.
func WithWindow(n int) Option { return func(c *config) { c.window = n } }

// WithFullTrace keeps every event (8 bytes each): explanations are then
// computed on the whole trace, and Trace returns it.
func WithFullTrace() Option { return func(c *config) { c.full = true } }

// Unsynchronized drops the critical section per event, for a Monitor fed
// by one goroutine (a request handler's own monitor, an event loop): its
// methods must then not be called concurrently with Step, Commit, Set and
// their Atom and State forms, which do not lock.
func Unsynchronized() Option { return func(c *config) { c.unlocked = true } }

// WithMaxStates bounds the DFA New builds (MaxStates by default).
func WithMaxStates(n int) Option { return func(c *config) { c.maxStates = n } }

// A Stepper is a generated past-time monitor (monitor.Generate, ltl gen):
// StepLetter takes the formula's atoms as bits, bit i for the i-th atom in
// sorted order, and returns the monitored formula's value at the new event.
type Stepper interface {
	StepLetter(l uint64) bool
}

// Generated makes s, a monitor generated for the formula given to New (or
// for φ when that formula is G(φ)), the engine: the verdict is s's, and
// the DFA is not built. s must start at the beginning of a trace (a zero
// value does). The formula must be propositional or pure past, or G of
// one, as Generate requires; New checks that, not that s was generated
// from it.
func Generated(s Stepper) Option { return func(c *config) { c.gen = s } }

// New parses formula and returns a Monitor of it that calls onViolation
// (when not nil) once, with the report, when the formula is violated: at
// the first event after which no continuation can satisfy it, or at
// Finish. The error is a parse error with its byte offset, or says why
// the formula cannot be monitored as configured.
func New(formula string, onViolation func(*Violation), opts ...Option) (*Monitor, error) {
	f, err := ltl.Parse(formula)
	if err != nil {
		return nil, fmt.Errorf("rv: %w", err)
	}
	return NewFormula(f, onViolation, opts...)
}

// NewFormula is New for a parsed formula.
func NewFormula(f ltl.Formula, onViolation func(*Violation), opts ...Option) (*Monitor, error) {
	if f.IsZero() {
		return nil, errors.New("rv: invalid (zero) formula")
	}
	var cfg config
	for _, o := range opts {
		o(&cfg)
	}
	if cfg.maxStates <= 0 {
		cfg.maxStates = MaxStates
	}
	if cfg.window <= 0 {
		cfg.window = DefaultWindow
	}
	cfg.window = 1 << bits.Len(uint(max(cfg.window, 8)-1))
	m := &Monitor{formula: f, cfg: cfg, onViolation: onViolation, index: map[string]int{}, verdict: monitor.CurrentlyTrue, unlocked: cfg.unlocked}
	var atoms []string
	switch {
	case cfg.gen != nil:
		g, err := newGenerated(f, cfg.gen, cfg.window/2)
		if err != nil {
			return nil, err
		}
		m.eng, m.gen, atoms = g, g, f.Atoms()
	case cfg.semantics == ltl.LTLf:
		d, err := automaton.FromFormula(context.Background(), f, automaton.Options{ExactPast: true, MaxStates: cfg.maxStates})
		if err == nil {
			m.dfa, atoms = d, d.Atoms()
			m.dstate = int32(d.Initial())
			for s := 0; s < d.NumStates(); s++ {
				m.verdicts = append(m.verdicts, d.Verdict(s))
			}
			break
		}
		if !cfg.full {
			return nil, fmt.Errorf("rv: %s: %w (%v)", f, ErrNeedsFullTrace, err)
		}
		m.eng, atoms = newPastParts(f, cfg.semantics), f.Atoms()
	default:
		if !cfg.full {
			return nil, fmt.Errorf("rv: %s: %w (the DFA engine is LTLf only)", f, ErrNeedsFullTrace)
		}
		m.eng, atoms = newPastParts(f, cfg.semantics), f.Atoms()
	}
	if len(atoms) > monitor.MaxAtoms {
		return nil, fmt.Errorf("rv: %s has %d atoms; a Monitor tracks at most %d", f, len(atoms), monitor.MaxAtoms)
	}
	for _, a := range atoms {
		m.lookup(a)
	}
	if m.dfa != nil {
		m.verdict = m.verdicts[m.dstate]
	}
	m.ring = newRing(cfg.window)
	if cfg.full {
		m.full = make([]uint64, 0, 1024)
	}
	return m, nil
}

// Formula is the formula the Monitor checks.
func (m *Monitor) Formula() ltl.Formula { return m.formula }

// An Atom is an atom resolved once (Monitor.Atom), so that stepping it
// costs no lookup. The zero Atom is not usable.
type Atom struct {
	m   *Monitor
	bit uint64 // 0 for an atom beyond the vocabulary's 64
}

// Step adds an event at which this atom and the state atoms currently set
// hold.
func (a Atom) Step() { a.m.step(a.bit) }

// Atom resolves an event atom by name.
func (m *Monitor) Atom(name string) Atom {
	m.mu.Lock()
	defer m.mu.Unlock()
	return Atom{m: m, bit: m.lookup(name)}
}

// A State is a state atom resolved once (Monitor.State). The zero State is
// not usable.
type State struct {
	m   *Monitor
	bit uint64
}

// Set changes the state atom's value; it takes effect at the next event.
func (s State) Set(value bool) { s.m.set(s.bit, value) }

// State resolves a state atom by name.
func (m *Monitor) State(name string) State {
	m.mu.Lock()
	defer m.mu.Unlock()
	return State{m: m, bit: m.lookup(name)}
}

// Step adds an event at which the given atoms and the state atoms
// currently set hold.
func (m *Monitor) Step(atoms ...string) {
	m.lock()
	var on uint64
	for _, a := range atoms {
		on |= m.lookup(a)
	}
	v := m.stepLocked(on)
	m.unlock()
	if v != nil {
		m.report(v)
	}
}

// Set changes the value of a state atom; it takes effect at the next event.
func (m *Monitor) Set(name string, value bool) {
	m.lock()
	m.setLocked(m.lookup(name), value)
	m.unlock()
}

// Commit adds an event at which the state atoms currently set hold.
func (m *Monitor) Commit() { m.step(0) }

// lock and unlock guard one event's work unless the Monitor is
// Unsynchronized.
func (m *Monitor) lock() {
	if !m.unlocked {
		m.mu.Lock()
	}
}

func (m *Monitor) unlock() {
	if !m.unlocked {
		m.mu.Unlock()
	}
}

func (m *Monitor) set(bit uint64, value bool) {
	m.lock()
	m.setLocked(bit, value)
	m.unlock()
}

// setLocked changes the state atoms' letter. m.mu is held (or the Monitor
// is Unsynchronized).
func (m *Monitor) setLocked(bit uint64, value bool) {
	if value {
		m.letter |= bit
	} else {
		m.letter &^= bit
	}
}

func (m *Monitor) step(on uint64) {
	m.lock()
	v := m.stepLocked(on)
	m.unlock()
	if v != nil {
		m.report(v)
	}
}

// stepLocked adds an event with the atoms on and the state atoms set, and
// returns the violation it reveals, if any. m.mu is held.
func (m *Monitor) stepLocked(on uint64) *Violation {
	l := m.letter | on
	i := m.n
	m.n++
	m.ring.put(i, l, m.dstate)
	if m.cfg.full {
		m.full = append(m.full, l)
	}
	if m.done {
		return nil
	}
	switch {
	case m.dfa != nil:
		m.dstate = int32(m.dfa.Next(int(m.dstate), monitor.Letter(l)))
		m.verdict = m.verdicts[m.dstate]
	case m.gen != nil:
		m.gen.checkpoint(i)
		m.verdict = m.gen.step(l)
	default:
		m.verdict = m.eng.step(l)
	}
	if m.verdict == monitor.Violated || m.verdict == monitor.Satisfied {
		return m.decide(i)
	}
	return nil
}

// decide makes the verdict final after event i and returns the violation
// when it is one. m.mu is held.
func (m *Monitor) decide(i int) *Violation {
	m.done = true
	if m.verdict != monitor.Violated {
		return nil
	}
	m.found = m.snapshot(m.formula, i, false)
	if p, ok := m.eng.(*pastParts); ok {
		m.found.Conjunct = p.violated
	}
	return m.found
}

// lookup returns the bit of atom name, adding it to the vocabulary when it
// is new: 0 beyond 64 atoms. m.mu is held (or m is not shared yet).
func (m *Monitor) lookup(name string) uint64 {
	if i, ok := m.index[name]; ok {
		return 1 << uint(i)
	}
	if len(m.names) == monitor.MaxAtoms {
		m.ignored++
		return 0
	}
	m.index[name] = len(m.names)
	m.names = append(m.names, name)
	return 1 << uint(len(m.names)-1)
}

// Verdict is the verdict after the events so far: Violated or Satisfied
// once decided, otherwise CurrentlyTrue or CurrentlyFalse, the verdict if
// the run ended now (as far as the engine knows before Finish: the
// generated and G(past) engines report CurrentlyTrue until violated).
func (m *Monitor) Verdict() monitor.Verdict {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.verdict
}

// Len is the number of events so far.
func (m *Monitor) Len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.n
}

// Violation returns the violation found so far, with its explanation, or
// nil.
func (m *Monitor) Violation() *Violation {
	m.mu.Lock()
	v := m.found
	m.mu.Unlock()
	if v != nil {
		v.explain()
	}
	return v
}

// Finish ends the run: it decides the verdict on the events so far (an
// open obligation such as F ack is then violated), calls onViolation if
// that reveals a violation not reported yet, and returns the violation of
// the run, nil when the formula holds. Events after Finish are recorded and
// not checked.
func (m *Monitor) Finish() *Violation {
	m.mu.Lock()
	var v *Violation
	if !m.done {
		m.done = true
		holds, conjunct, err := m.finalVerdict()
		if err != nil {
			m.verdict = monitor.CurrentlyFalse
			v = m.snapshot(m.formula, m.n-1, true)
			v.Err = err
			m.found = v
		} else if !holds {
			m.verdict = monitor.Violated
			v = m.snapshot(m.formula, m.n-1, true)
			v.Conjunct = conjunct
			m.found = v
		} else {
			m.verdict = monitor.Satisfied
		}
	}
	found := m.found
	m.mu.Unlock()
	if v != nil {
		m.report(v)
	}
	if found != nil {
		found.explain()
	}
	return found
}

// finalVerdict is the verdict at the end of the events so far. m.mu is
// held.
func (m *Monitor) finalVerdict() (holds bool, conjunct ltl.Formula, err error) {
	if m.dfa != nil {
		return m.verdicts[m.dstate] == monitor.CurrentlyTrue, ltl.Formula{}, nil
	}
	return m.eng.final(m)
}

// report explains v and passes it to onViolation, once.
func (m *Monitor) report(v *Violation) {
	m.mu.Lock()
	first := !m.reported
	m.reported = true
	m.mu.Unlock()
	if !first {
		return
	}
	v.explain()
	if m.onViolation != nil {
		m.onViolation(v)
	}
}

// Stats describes what a Monitor has seen and kept.
type Stats struct {
	Events  int // events so far
	Kept    int // events kept for reports: the window, or all with WithFullTrace
	Atoms   int // atoms in the vocabulary
	Ignored int // uses of atoms beyond the vocabulary's 64, not recorded
}

// Stats returns what m has seen and kept so far.
func (m *Monitor) Stats() Stats {
	m.mu.Lock()
	defer m.mu.Unlock()
	first, _ := m.keptRange()
	return Stats{Events: m.n, Kept: m.n - first, Atoms: len(m.names), Ignored: m.ignored}
}

// Trace returns the events kept so far and the position of the first of
// them: the whole trace (first = 0) with WithFullTrace, otherwise the last
// events, up to the window.
func (m *Monitor) Trace() (first int, t *monitor.Trace) {
	m.mu.Lock()
	defer m.mu.Unlock()
	first, letters := m.kept()
	return first, m.traceOf(letters)
}

// keptRange is the range of kept events [first, m.n). m.mu is held.
func (m *Monitor) keptRange() (first, end int) {
	if m.cfg.full {
		return 0, m.n
	}
	return max(0, m.n-len(m.ring.letters)), m.n
}

// kept copies the letters of the kept events. m.mu is held.
func (m *Monitor) kept() (first int, letters []uint64) {
	if m.cfg.full {
		return 0, append([]uint64(nil), m.full...)
	}
	first, end := m.keptRange()
	letters = make([]uint64, 0, end-first)
	for i := first; i < end; i++ {
		letters = append(letters, m.ring.letter(i))
	}
	return first, letters
}

// traceOf names letters over the vocabulary (every atom of the vocabulary
// is in the trace's, so reports show them all). m.mu is held.
func (m *Monitor) traceOf(letters []uint64) *monitor.Trace {
	t := monitor.NewTrace(m.names...)
	on := make([]string, 0, len(m.names))
	for _, l := range letters {
		on = on[:0]
		for l != 0 {
			b := bits.TrailingZeros64(l)
			on = append(on, m.names[b])
			l &^= 1 << uint(b)
		}
		t.Append(on...)
	}
	return t
}
