package ltltest

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/henceforth-go/henceforth/automaton"
	"github.com/henceforth-go/henceforth/ltl"
	"github.com/henceforth-go/henceforth/monitor"
)

// A Recorder records a trace while the code under test runs and checks a
// formula on it: online, with the formula's minimal DFA, failing the test at
// the first event after which no continuation of the trace can satisfy the
// formula; and when the test ends (t.Cleanup), with the final verdict. (A
// formula whose DFA exceeds 16384 states, or checked under
// ltl.RosuHavelund, is checked online only in its G(past) conjuncts.) Its methods are safe for concurrent use, so goroutines
// of the code under test can feed it directly.
//
// Atoms are either events, true at the one position they are stepped in
// (Step("send")), or state, true from the Set that makes them true until the
// Set that makes them false (Set("locked", true)). Each Step or Commit adds
// one position to the trace, at which the state atoms currently true and the
// stepped atoms hold.
type Recorder struct {
	t       TestingT
	formula ltl.Formula
	cfg     config
	msg     []any
	broken  bool // the formula did not parse; record only

	mu       sync.Mutex
	trace    *monitor.Trace
	state    map[string]bool
	dfa      *automaton.Monitor // the whole formula, online; nil if too large or not LTLf
	online   []*onlinePart      // without a DFA: the G(past) conjuncts
	decided  bool               // the verdict is final (satisfied or reported violated)
	reported bool               // a failure has been reported; report once
}

// maxOnlineStates bounds the DFA a Recorder builds for online checking;
// beyond it, the Recorder checks G(past) conjuncts online and the rest at
// the end.
const maxOnlineStates = 1 << 14

// onlinePart is a conjunct G(φ), φ past or propositional, of the formula,
// checked event by event with the past-time DP monitor.
type onlinePart struct {
	formula ltl.Formula // the conjunct G(φ)
	past    *monitor.Past
	atoms   []string
}

// NewMonitor returns a Recorder checking formula. The trailing arguments are
// Options and a testify-style failure message.
//
//	m := ltltest.NewMonitor(t, "G(acquire -> X(!acquire U release))")
//	m.Step("acquire") // from any goroutine
func NewMonitor(t TestingT, formula string, args ...any) *Recorder {
	t.Helper()
	cfg, msg := parseArgs(args)
	r := &Recorder{t: t, cfg: cfg, msg: msg, trace: monitor.NewTrace(), state: map[string]bool{}}
	f, err := resolve(formula, cfg)
	if err != nil {
		fail(t, "ltltest: malformed formula", "formula: "+formula+"\nerror:   "+err.Error(), msg)
		r.broken = true
		return r
	}
	r.formula = f
	if cfg.semantics == ltl.LTLf {
		d, err := automaton.FromFormula(context.Background(), f, automaton.Options{ExactPast: true, MaxStates: maxOnlineStates})
		if err == nil {
			r.dfa = d.Monitor()
		}
	}
	if r.dfa == nil {
		for _, c := range conjuncts(f) {
			if !c.IsPastSafety() {
				continue
			}
			past, err := monitor.NewPast(cfg.semantics, c.Left())
			if err != nil {
				continue // checked at the end instead
			}
			r.online = append(r.online, &onlinePart{formula: c, past: past, atoms: past.Atoms()})
		}
	}
	t.Cleanup(r.finish)
	return r
}

// conjuncts returns the top-level conjuncts of f.
func conjuncts(f ltl.Formula) []ltl.Formula {
	if f.Op() != ltl.OpAnd {
		return []ltl.Formula{f}
	}
	return append(conjuncts(f.Left()), conjuncts(f.Right())...)
}

// Step adds a position at which the given event atoms and the state atoms
// currently set hold.
func (r *Recorder) Step(atoms ...string) {
	r.t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	on := make([]string, 0, len(atoms)+len(r.state))
	for a, v := range r.state {
		if v {
			on = append(on, a)
		}
	}
	sort.Strings(on) // state atoms first seen here join the vocabulary in a fixed order
	on = append(on, atoms...)
	r.trace.Append(on...)
	r.checkOnline()
}

// Set changes the value of a state atom; it takes effect at the next Step or
// Commit.
func (r *Recorder) Set(name string, value bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.state[name] = value
}

// Commit adds a position at which the state atoms currently set hold.
func (r *Recorder) Commit() {
	r.t.Helper()
	r.Step()
}

// Len is the number of positions recorded so far.
func (r *Recorder) Len() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.trace.Len()
}

// Holds reports whether atom holds at position i of the recorded trace, so a
// Recorder is an ltl.Trace that Holds and Violated accept.
func (r *Recorder) Holds(i int, atom string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.trace.Holds(i, atom)
}

// Trace returns a copy of the trace recorded so far.
func (r *Recorder) Trace() *monitor.Trace {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.trace.Slice(0, r.trace.Len())
}

// checkOnline steps the online monitors over the newest position and
// reports the first violation. r.mu is held.
func (r *Recorder) checkOnline() {
	if r.broken || r.decided {
		return
	}
	i := r.trace.Len() - 1
	if r.dfa != nil {
		switch r.dfa.Step(letterAt(r.trace, i, r.dfa.Atoms())) {
		case monitor.Violated:
			r.decided, r.reported = true, true
			r.report(r.formula, i, fmt.Sprintf("ltltest: property violated at event %d: no continuation of the trace can satisfy it", i))
		case monitor.Satisfied:
			r.decided = true
		}
		return
	}
	for _, p := range r.online {
		if p.past.Step(letterAt(r.trace, i, p.atoms))&1 == 0 {
			r.decided, r.reported = true, true
			r.report(p.formula, i, fmt.Sprintf("ltltest: property violated at event %d", i))
			return
		}
	}
}

// letterAt is the valuation of atoms at position i of t.
func letterAt(t *monitor.Trace, i int, atoms []string) monitor.Letter {
	var l monitor.Letter
	for j, a := range atoms {
		if t.Holds(i, a) {
			l |= 1 << uint(j)
		}
	}
	return l
}

// finish checks the final verdict when the test ends.
func (r *Recorder) finish() {
	r.t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.broken || r.decided {
		return
	}
	res, err := automaton.Check(context.Background(), r.formula, r.trace, monitor.Options{Engine: r.cfg.engine, Semantics: r.cfg.semantics})
	if err != nil {
		fail(r.t, "ltltest: cannot check formula", "formula: "+r.formula.String()+"\nerror:   "+err.Error(), r.msg)
		return
	}
	if !res.Holds {
		r.reported = true
		var b strings.Builder
		monitor.WriteReport(&b, r.formula, res, r.trace)
		headline := "ltltest: property violated by the end of the test"
		fail(r.t, headline, withLine(b.String(), verdictReport(r.t, headline, r.formula, r.trace, res, r.cfg.semantics)), r.msg)
	}
}

// report fails the test for a violation of part (a conjunct of the
// formula, or the formula) decided at position i: the report explains why
// the prefix up to i violates it. r.mu is held.
func (r *Recorder) report(part ltl.Formula, i int, headline string) {
	r.t.Helper()
	var b strings.Builder
	if part != r.formula {
		b.WriteString("property: " + r.formula.String() + "\n")
		b.WriteString("violated conjunct below\n")
	}
	res, err := automaton.Check(context.Background(), part, r.trace, monitor.Options{Semantics: r.cfg.semantics})
	if err == nil && !res.Holds {
		if res.Violation < 0 {
			res.Violation = i
		}
		monitor.WriteReport(&b, part, res, r.trace)
		b.WriteString(verdictReport(r.t, headline, part, r.trace, res, r.cfg.semantics) + "\n")
	} else {
		b.WriteString("formula: " + part.String() + "\n")
		monitor.WriteWindow(&b, r.trace, i)
	}
	fail(r.t, headline, b.String(), r.msg)
}
