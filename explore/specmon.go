package explore

import (
	"fmt"
	"go/token"
	"strings"

	"github.com/henceforth-go/henceforth/automaton"
	"github.com/henceforth-go/henceforth/ltl"
	"github.com/henceforth-go/henceforth/monitor"
)

// specPath monitors the specs of one execution (see spec.go): one DFA
// monitor per spec, the predicate values at the last position, and the
// positions so far (for the explanation of a violation).
//
// Each spec is judged on its own: a spec whose monitor reaches
// "violated" is reported at once (an ltl finding with the trace up to
// that point) and is decided from then on, but the execution goes on for
// the other specs and the other checks. A spec still undecided when the
// execution stops gets its LTLf verdict only if the path really ended
// (every goroutine done or blocked forever), never on a path cut by a
// bound, an unsupported construct, a replay divergence or a fatal
// finding such as a panic (pathEnded).
type specPath struct {
	set     *specSet
	mons    []*automaton.Monitor
	done    []bool // decided: satisfied (never violated later) or reported
	vals    []bool
	started bool
	trace   []specPos
	// memos are the predicates' last evaluations (predicate.go): a
	// predicate is evaluated again only when something it read changed.
	memos []predMemo
}

// specPos is one position of the trace.
type specPos struct {
	step   int
	g      int
	what   string   // "call F", "event m2", "state", "initial state", "end state"
	by     string   // for a state after a watched write: "write level"
	events []string // event atoms true here
	vals   []bool   // predicate values
}

func newSpecPath(set *specSet) *specPath {
	sp := &specPath{set: set, done: make([]bool, len(set.checks)), vals: make([]bool, len(set.preds)), memos: make([]predMemo, len(set.preds))}
	for _, c := range set.checks {
		sp.mons = append(sp.mons, c.dfa.Monitor())
	}
	return sp
}

// Event implements pathMonitor. Spec violations are recorded as findings
// here and never stop the execution; the returned violation is a
// predicate that cannot be evaluated (unsupported), which does.
func (sp *specPath) Event(ev *obsEvent, st obsState) *violation {
	x := st.(stateView).x
	if sp.allDone() {
		return nil // nothing can change a verdict (and no symbolic fork is needed)
	}
	g := x.goroutine(ev.Goroutine)
	var names []string
	var what string
	switch ev.Kind {
	case obsStep:
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
		pos := token.NoPos
		if x.lastG != nil {
			// where the goroutine that changed the state stopped
			pos = x.lastG.sourcePos()
		}
		sp.add(x, ev.Step, ev.Goroutine, pos, "state", "", nil, vals)
		return nil
	case obsCall:
		names, what = sp.set.calls[funcObject(ev.Func)], "call "+shortFuncName(ev.Func)
	case obsReturn:
		names, what = sp.set.returns[funcObject(ev.Func)], "return from "+shortFuncName(ev.Func)
	case obsStatement:
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
	sp.add(x, ev.Step, ev.Goroutine, ev.Pos, what, "", names, vals)
	return nil
}

// entryStart records the initial state: the first position of a path
// of state-predicate specs is the state in which the entry starts (after
// package initialization).
func (sp *specPath) entryStart(x *execution, g *goroutine) *violation {
	if sp.started || x.inInit || !sp.set.stateful || sp.allDone() {
		return nil
	}
	vals, err := sp.eval(x, g)
	if err != nil || vals == nil {
		return err
	}
	sp.add(x, x.steps, g.id, g.sourcePos(), "initial state", "", nil, vals)
	return nil
}

// written observes the state after a watched write (predwatch.go): a
// position of its own when a predicate changed value.
func (sp *specPath) written(x *execution, g *goroutine, pos token.Pos, what string) *violation {
	if x.inInit || !sp.set.stateful || sp.allDone() {
		return nil
	}
	vals, err := sp.eval(x, g)
	if err != nil || vals == nil {
		return err
	}
	if sp.started && equalBools(vals, sp.vals) {
		return nil
	}
	sp.add(x, x.steps, g.id, pos, "state", what, nil, vals)
	return nil
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
func (sp *specPath) eval(x *execution, g *goroutine) ([]bool, *violation) {
	if len(sp.set.preds) == 0 {
		return nil, nil
	}
	vals := make([]bool, len(sp.set.preds))
	for i, pr := range sp.set.preds {
		if !sp.set.used[i] {
			continue // a predicate of specs not selected: constant false
		}
		v, err := pr.evalMemo(x, g, &sp.memos[i])
		if err == errPredStopped {
			return nil, nil
		}
		if err != nil {
			return nil, &violation{Kind: string(KindUnsupported), Message: fmt.Sprintf("ltl: cannot evaluate %s: %v", sp.set.predName[i], err)}
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

// add appends a position and steps every undecided monitor; a monitor
// that reaches "violated" is reported with pos (the spec's position if
// pos is invalid). by is the watched write after which a state is
// observed.
func (sp *specPath) add(x *execution, step, g int, pos token.Pos, what, by string, events []string, vals []bool) {
	sp.started = true
	sp.vals = vals
	sp.trace = append(sp.trace, specPos{step: step, g: g, what: what, by: by, events: events, vals: vals})
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
			sp.report(x, i, fmt.Sprintf("violated at event %d (%s, step %d, goroutine %d): no continuation can satisfy it", len(sp.trace)-1, what, step, g), pos, false)
		case monitor.Satisfied:
			sp.done[i] = true
		}
	}
}

// report records the violation of spec i as a finding of the execution.
// Findings of one spec (name and declaration) are one finding
// (findingSet keeps the one with the fewest steps), wherever the
// violation happened. atEnd says the verdict was decided when the path
// ended rather than at its last event.
func (sp *specPath) report(x *execution, i int, how string, pos token.Pos, atEnd bool) {
	c := sp.set.checks[i]
	if !pos.IsValid() {
		pos = c.spec.Pos
	}
	v := sp.specViolation(i, how)
	f := x.addFinding(KindLTL, v.Message, pos, v.Explanation)
	f.Spec = sp.specTrace(i)
	if atEnd {
		f.Spec.Violation = -1
	}
	f.specKey = c.spec.Name + "\x00" + sp.set.prog.Fset.Position(c.spec.Pos).String()
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// pathEnded reports whether the execution's path really ended: every
// goroutine done or blocked forever. A path stopped early (a bound, an
// unsupported construct, a fatal finding such as a panic, a replay
// divergence, DPOR's sleep-set block) or one whose goroutines timers
// still woke up when the explorer gave up is truncated.
func (x *execution) pathEnded() bool {
	return !x.stopped && x.bound == "" && x.replayErr == "" && !x.sleepBlocked && x.postAdvances <= postEntryAdvances
}

// End implements pathMonitor: the LTLf verdict of every undecided spec
// where the path really ended. For specs with state predicates the final
// state is a position of its own when the predicates changed since the
// last one (or no position was recorded), so a state the path ends in is
// never missed. On a truncated path undecided specs are not judged; if a
// panic cut it, its finding says so.
func (sp *specPath) End(st obsState) *violation {
	x := st.(stateView).x
	if !x.pathEnded() {
		sp.noteUnjudged(x)
		return nil
	}
	if sp.set.stateful && !x.inInit && !sp.allDone() {
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
			// (the violation's position is the spec's: the path has
			// no current instruction)
			sp.add(x, x.steps, gid, token.NoPos, "end state", "", nil, vals)
		}
	}
	for i := range sp.set.checks {
		if sp.done[i] || sp.mons[i].Verdict().Holds() {
			continue
		}
		sp.done[i] = true
		sp.report(x, i, fmt.Sprintf("the path ended after %d events with the spec false", len(sp.trace)), token.NoPos, true)
	}
	return nil
}

// noteUnjudged adds to the panic finding that cut the path which specs
// were left undecided (not judged on this path).
func (sp *specPath) noteUnjudged(x *execution) {
	var names []string
	for i, c := range sp.set.checks {
		if !sp.done[i] {
			names = append(names, c.spec.Name)
		}
	}
	if len(names) == 0 {
		return
	}
	for i := len(x.findings) - 1; i >= 0; i-- {
		if f := x.findings[i]; f.Kind == KindPanic {
			if f.Explanation != "" {
				f.Explanation += "\n"
			}
			f.Explanation += fmt.Sprintf("ltl: not judged on this path (the panic stopped it before it ended): %s", strings.Join(names, ", "))
			return
		}
	}
}

// specTrace is the trace of spec i's atoms so far, for Finding.Spec; the
// last event is where the violation was decided.
func (sp *specPath) specTrace(i int) *SpecTrace {
	c := sp.set.checks[i]
	atoms := sp.mons[i].Atoms()
	st := &SpecTrace{Name: c.spec.Name, Formula: c.spec.Formula.String(), Pos: sp.set.prog.Fset.Position(c.spec.Pos),
		Atoms: append([]string(nil), atoms...), Events: make([]SpecEvent, len(sp.trace)), Violation: len(sp.trace) - 1}
	for k, p := range sp.trace {
		ev := SpecEvent{Step: p.step, Goroutine: p.g, What: p.what}
		if p.by != "" {
			ev.What += " after " + p.by
		}
		for j, a := range atoms {
			if pi := c.pred[j]; pi >= 0 && p.vals[pi] || pi < 0 && contains(p.events, a) {
				ev.Atoms = append(ev.Atoms, a)
			}
		}
		st.Events[k] = ev
	}
	return st
}

// specViolation builds the finding of spec i: the message names the spec; the
// explanation lists the events and the monitor's reasons.
func (sp *specPath) specViolation(i int, how string) *violation {
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
		what := p.what
		if p.by != "" {
			what += " after " + p.by
		}
		fmt.Fprintf(&b, "  %3d  step %-4d goroutine %-3d %-28s {%s}\n", k, p.step, p.g, what, strings.Join(hold, ", "))
	}
	if reasons, err := monitor.Explain(s.Formula, tr, 0, ltl.LTLf); err == nil {
		b.WriteString("why:\n")
		for _, r := range reasons {
			b.WriteString("  " + r.Why + "\n")
		}
	}
	return &violation{
		Message:     fmt.Sprintf("ltl:spec %s violated: %s", s.Name, s.Source),
		Explanation: strings.TrimSuffix(b.String(), "\n"),
	}
}
