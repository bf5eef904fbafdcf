package explore

import (
	"fmt"
	"strings"

	"github.com/henceforth-go/henceforth/automaton"
	"github.com/henceforth-go/henceforth/ltl"
	"github.com/henceforth-go/henceforth/monitor"
)

// specPath monitors the specs of one execution (see spec.go): one DFA
// monitor per spec, the predicate values at the last position, and the
// positions so far (for the explanation of a violation).
type specPath struct {
	set     *specSet
	mons    []*automaton.Monitor
	done    []bool // decided: satisfied (never violated later) or reported
	vals    []bool
	started bool
	trace   []specPos
	// violated: an Event returned a violation, which stopped the path
	// there (End then adds no final position).
	violated bool
	// lastViolated is the spec whose violation add returned last.
	lastViolated int
}

// specPos is one position of the trace.
type specPos struct {
	step   int
	g      int
	what   string   // "call F", "event m2", "state change"
	events []string // event atoms true here
	vals   []bool   // predicate values
}

func newSpecPath(set *specSet) *specPath {
	sp := &specPath{set: set, done: make([]bool, len(set.checks)), vals: make([]bool, len(set.preds))}
	for _, c := range set.checks {
		sp.mons = append(sp.mons, c.dfa.Monitor())
	}
	return sp
}

// Event implements PathMonitor.
func (sp *specPath) Event(ev *Event, st State) *Violation {
	v := sp.event(ev, st)
	if v != nil {
		sp.violated = true
	}
	return v
}

func (sp *specPath) event(ev *Event, st State) *Violation {
	x := st.(stateView).x
	if sp.allDone() {
		return nil // nothing can change a verdict (and no symbolic fork is needed)
	}
	g := x.goroutine(ev.Goroutine)
	var names []string
	var what string
	switch ev.Kind {
	case EventStep:
		if x.inInit || !sp.set.stateful {
			return nil
		}
		vals, err := sp.eval(x, g)
		if err != nil || vals == nil {
			return err
		}
		if sp.started && equalBools(vals, sp.vals) {
			return nil
		}
		what = "state"
		return sp.add(x, ev, what, nil, vals)
	case EventCall:
		names, what = sp.set.calls[funcObject(ev.Func)], "call "+shortFuncName(ev.Func)
	case EventReturn:
		names, what = sp.set.returns[funcObject(ev.Func)], "return from "+shortFuncName(ev.Func)
	case EventStatement:
		names, what = ev.Labels, "event "+strings.Join(ev.Labels, ",")
	}
	if len(names) == 0 {
		return nil
	}
	vals, err := sp.eval(x, g)
	if err != nil {
		return err
	}
	if vals == nil && len(sp.set.preds) > 0 {
		return nil // the execution stopped while deciding a predicate
	}
	return sp.add(x, ev, what, names, vals)
}

// allDone reports whether every spec of the path is decided.
func (sp *specPath) allDone() bool {
	for _, d := range sp.done {
		if !d {
			return false
		}
	}
	return true
}

// eval evaluates every predicate; a failure is an unsupported violation.
// A symbolic predicate is decided on the path condition, forking at g's
// step when both outcomes are feasible (predicate.go). If deciding stops
// the execution (solver unknown: the path is inconclusive), eval returns
// no values and no violation.
func (sp *specPath) eval(x *execution, g *goroutine) ([]bool, *Violation) {
	if len(sp.set.preds) == 0 {
		return nil, nil
	}
	vals := make([]bool, len(sp.set.preds))
	for i, pr := range sp.set.preds {
		if !sp.set.used[i] {
			continue // a predicate of specs not selected: constant false
		}
		v, err := pr.eval(x, g)
		if err == errPredStopped {
			return nil, nil
		}
		if err != nil {
			return nil, &Violation{Kind: string(KindUnsupported), Message: fmt.Sprintf("ltl: cannot evaluate %s: %v", sp.set.predName[i], err)}
		}
		vals[i] = v
	}
	return vals, nil
}

// goroutine returns the goroutine with the given id (nil if none).
func (x *execution) goroutine(id int) *goroutine {
	if id < 1 || id > len(x.gs) {
		return nil
	}
	return x.gs[id-1]
}

func equalBools(a, b []bool) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return len(a) == len(b)
}

// add appends a position and steps every undecided monitor.
func (sp *specPath) add(x *execution, ev *Event, what string, events []string, vals []bool) *Violation {
	sp.started = true
	sp.vals = vals
	sp.trace = append(sp.trace, specPos{step: ev.Step, g: ev.Goroutine, what: what, events: events, vals: vals})
	for i, c := range sp.set.checks {
		if sp.done[i] {
			continue
		}
		m := sp.mons[i]
		var l monitor.Letter
		for j, a := range m.Atoms() {
			if pi := c.pred[j]; pi >= 0 {
				if vals[pi] {
					l |= 1 << uint(j)
				}
			} else if contains(events, a) {
				l |= 1 << uint(j)
			}
		}
		switch m.Step(l) {
		case monitor.Violated:
			sp.done[i] = true
			sp.lastViolated = i
			v := sp.violation(i, fmt.Sprintf("violated at event %d (%s, step %d, goroutine %d): no continuation can satisfy it", len(sp.trace)-1, what, ev.Step, ev.Goroutine))
			if ev.Kind == EventStep && x.lastG != nil {
				// where the goroutine that changed the state stopped
				v.Pos = x.lastG.sourcePos()
			}
			return v
		case monitor.Satisfied:
			sp.done[i] = true
		}
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// End implements PathMonitor: the LTLf verdict at the end of the path.
// For specs with state predicates the final state is a position of its
// own when the predicates changed since the last one (or no position was
// recorded: an entry without scheduling steps), so a state the path ends
// in is never missed.
func (sp *specPath) End(st State) *Violation {
	x := st.(stateView).x
	if x.bound != "" || x.replayErr != "" {
		return nil // a truncated path has no final verdict
	}
	if sp.set.stateful && !x.inInit && !sp.violated && !sp.allDone() {
		g := x.lastG
		if g == nil && len(x.gs) > 0 {
			g = x.gs[0]
		}
		vals, err := sp.eval(x, g)
		if err != nil {
			return err
		}
		if x.bound != "" || x.replayErr != "" || vals == nil {
			return nil // stopped while deciding a symbolic predicate
		}
		if !sp.started || !equalBools(vals, sp.vals) {
			gid := 0
			if g != nil {
				gid = g.id
			}
			// (an Event of no kind: the violation's position is the
			// spec's, the path has no current instruction)
			if v := sp.add(x, &Event{Goroutine: gid, Step: x.steps}, "end state", nil, vals); v != nil {
				if !v.Pos.IsValid() {
					v.Pos = sp.set.checks[sp.lastViolated].spec.Pos
				}
				return v
			}
		}
	}
	var first *Violation
	for i := range sp.set.checks {
		if sp.done[i] || sp.mons[i].Verdict().Holds() {
			continue
		}
		sp.done[i] = true
		v := sp.violation(i, fmt.Sprintf("the path ended after %d events with the spec false", len(sp.trace)))
		v.Pos = sp.set.checks[i].spec.Pos // the path has no current instruction
		if first == nil {
			first = v
		} else {
			x.addViolation(v, v.Pos)
		}
	}
	return first
}

// violation builds the finding of spec i: the message names the spec; the
// explanation lists the events and the monitor's reasons.
func (sp *specPath) violation(i int, how string) *Violation {
	c := sp.set.checks[i]
	s := c.spec
	var b strings.Builder
	fmt.Fprintf(&b, "spec %s: %s (%s)\n", s.Name, s.Source, shortPos(sp.set.prog.Fset.Position(s.Pos)))
	fmt.Fprintf(&b, "%s\n", how)
	atoms := sp.mons[i].Atoms()
	tr := monitor.NewTrace(atoms...)
	b.WriteString("events:\n")
	for k, p := range sp.trace {
		var hold []string
		for j, a := range atoms {
			if pi := c.pred[j]; pi >= 0 && p.vals[pi] || pi < 0 && contains(p.events, a) {
				hold = append(hold, a)
			}
		}
		tr.Append(hold...)
		fmt.Fprintf(&b, "  %3d  step %-4d goroutine %-3d %-28s {%s}\n", k, p.step, p.g, p.what, strings.Join(hold, ", "))
	}
	if reasons, err := monitor.Explain(s.Formula, tr, 0, ltl.LTLf); err == nil {
		b.WriteString("why:\n")
		for _, r := range reasons {
			b.WriteString("  " + r.Why + "\n")
		}
	}
	return &Violation{
		Message:     fmt.Sprintf("ltl:spec %s violated: %s", s.Name, s.Source),
		Explanation: strings.TrimSuffix(b.String(), "\n"),
	}
}
