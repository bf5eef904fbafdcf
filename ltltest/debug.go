package ltltest

import (
	"fmt"

	"github.com/henceforth-go/henceforth/explore"
)

// This file is the temporal debugger in tests (explore.Session): a
// Debugger holds a temporal stack over a body's schedules, and each
// assertion asks for a temporal step from the current state, as a user of
// the debugger would, failing the test when the outcome differs.

// Debugger is a temporal debugging session over a test body: a stack of
// temporal steps (explore.Session) whose methods assert their outcome.
type Debugger struct {
	t     TestingT
	s     *explore.Session
	entry string
}

// Debug starts a temporal debugging session at the initial state of
// body's schedules (see Find for the body and the loading). Trailing
// arguments: explore.Options (Shared, MaxSteps, MaxLoop, Timeout, Seed),
// explore.LoadConfig, and a testify-style message. It returns nil after
// failing the test if body cannot be loaded; the methods of a nil
// Debugger do nothing and return false or nil.
//
//	d := ltltest.Debug(t, dekker.Run)
//	d.Step("F(at(P0, m2) && at(P1, n2))")           // D4: both want to enter
//	d.NoStep("!at(P0, m8) U at(P1, n8)")            // D8: P1 cannot enter first
//	d.Step("!at(P1, n8) U at(P0, m8)")              // D9: P0 can
func Debug(t TestingT, body any, args ...any) *Debugger {
	t.Helper()
	o, lc, rest := exploreArgs[explore.Options](args)
	_, msg := parseArgs(rest)
	p, e, err := findEntry(body, lc)
	if err != nil {
		fail(t, "ltltest: cannot debug the body", err.Error(), msg)
		return nil
	}
	d := &Debugger{t: t, s: p.NewSession(e, o), entry: e.Name}
	t.Cleanup(d.s.Clear) // release the steps' suspended searches
	return d
}

// RequireDebug is Debug, stopping the test when the body cannot be
// loaded.
func RequireDebug(t TestingT, body any, args ...any) *Debugger {
	t.Helper()
	d := Debug(t, body, args...)
	if d == nil {
		t.FailNow()
	}
	return d
}

// Session returns the underlying session (nil for a nil Debugger).
func (d *Debugger) Session() *explore.Session {
	if d == nil {
		return nil
	}
	return d.s
}

// stepArgs splits the trailing arguments of a step assertion.
func stepArgs(args []any) (explore.StepOptions, []any) {
	o, rest := optionArg[explore.StepOptions](args)
	_, msg := parseArgs(rest)
	return o, msg
}

// details describes a step request for a failure message.
func (d *Debugger) details(what string, r *explore.StepResult) string {
	cur := d.s.Current()
	s := fmt.Sprintf("entry:   %s\nrequest: %s\nfrom:    step %d (%d temporal steps on the stack)", d.entry, what, cur.Step, len(d.s.Steps()))
	if r != nil {
		s += fmt.Sprintf("\nsearch:  %s after %d executions, %d states", r.Verdict, r.Nodes, r.States)
		if r.Bound != "" {
			s += fmt.Sprintf("\nbound:   %s (raise it with explore.StepOptions)", r.Bound)
		}
	}
	return s
}

// push pushes a step of formula; ok is false after failing the test on
// an error.
func (d *Debugger) push(formula string, args []any) (r *explore.StepResult, msg []any, ok bool) {
	d.t.Helper()
	o, msg := stepArgs(args)
	ctx, cancel := testContext(d.t)
	defer cancel()
	r, err := d.s.Push(ctx, formula, o)
	if err != nil {
		fail(d.t, "ltltest: cannot search for a temporal step", d.details(formula, nil)+"\nerror:   "+err.Error(), msg)
		return nil, msg, false
	}
	return r, msg, true
}

// Step asserts that a temporal step satisfying formula exists from the
// current state, pushes it and returns it (nil after failing the test).
// Trailing arguments: explore.StepOptions and a testify-style message.
func (d *Debugger) Step(formula string, args ...any) *explore.TemporalStep {
	if d == nil {
		return nil
	}
	d.t.Helper()
	r, msg, ok := d.push(formula, args)
	switch {
	case !ok:
	case r.Verdict == explore.Found:
		return r.Step
	case r.Verdict == explore.None:
		fail(d.t, "ltltest: no temporal step satisfies the formula from the current state", d.details(formula, r), msg)
	default:
		fail(d.t, "ltltest: no temporal step found, but the search was cut by a bound (unknown)", d.details(formula, r), msg)
	}
	return nil
}

// RequireStep is Step, stopping the test when no step is found.
func (d *Debugger) RequireStep(formula string, args ...any) *explore.TemporalStep {
	if d == nil {
		return nil
	}
	d.t.Helper()
	st := d.Step(formula, args...)
	if st == nil {
		d.t.FailNow()
	}
	return st
}

// NoStep asserts that no temporal step satisfying formula exists from the
// current state (a complete search: a bound fails the test as unknown);
// it pushes nothing. A step found fails the test with the step.
func (d *Debugger) NoStep(formula string, args ...any) bool {
	if d == nil {
		return false
	}
	d.t.Helper()
	r, msg, ok := d.push(formula, args)
	switch {
	case !ok:
	case r.Verdict == explore.None:
		return true
	case r.Verdict == explore.Found:
		_ = d.s.Pop()
		fail(d.t, "ltltest: a temporal step satisfies the formula from the current state", d.details(formula, r)+"\n"+r.Step.Witness.String(), msg)
	default:
		fail(d.t, "ltltest: the search was cut by a bound (unknown): cannot conclude that no temporal step satisfies the formula", d.details(formula, r), msg)
	}
	return false
}

// Next backtracks the latest step to its next alternative and returns it;
// when no alternative is left it returns nil and the step is popped. It
// fails the test on an empty stack and when a bound cut the search.
func (d *Debugger) Next(msgAndArgs ...any) *explore.TemporalStep {
	if d == nil {
		return nil
	}
	d.t.Helper()
	_, msg := parseArgs(msgAndArgs)
	ctx, cancel := testContext(d.t)
	defer cancel()
	r, err := d.s.Backtrack(ctx)
	if err != nil {
		fail(d.t, "ltltest: cannot backtrack", d.details("backtrack", nil)+"\nerror:   "+err.Error(), msg)
		return nil
	}
	if r.Verdict == explore.Unknown {
		fail(d.t, "ltltest: backtrack: the search was cut by a bound (unknown)", d.details("backtrack", r), msg)
	}
	return r.Step
}

// Single asserts that goroutine g (a number or the function it was
// started with) can move, and pushes its move.
func (d *Debugger) Single(g string, msgAndArgs ...any) *explore.TemporalStep {
	if d == nil {
		return nil
	}
	d.t.Helper()
	_, msg := parseArgs(msgAndArgs)
	ctx, cancel := testContext(d.t)
	defer cancel()
	r, err := d.s.Single(ctx, g)
	switch {
	case err != nil:
		fail(d.t, "ltltest: cannot step the goroutine", d.details("single "+g, nil)+"\nerror:   "+err.Error(), msg)
	case r.Verdict != explore.Found:
		fail(d.t, "ltltest: the goroutine cannot move", d.details("single "+g, r), msg)
	default:
		return r.Step
	}
	return nil
}

// Pop asserts that the stack is not empty and pops its latest step.
func (d *Debugger) Pop(msgAndArgs ...any) bool {
	if d == nil {
		return false
	}
	d.t.Helper()
	if err := d.s.Pop(); err != nil {
		_, msg := parseArgs(msgAndArgs)
		fail(d.t, "ltltest: cannot pop", err.Error(), msg)
		return false
	}
	return true
}

// Clear empties the stack: the current state is the initial state.
func (d *Debugger) Clear() {
	if d != nil {
		d.s.Clear()
	}
}

// Holds asserts that a Go boolean expression over package-level
// variables is true in the current state.
func (d *Debugger) Holds(expr string, msgAndArgs ...any) bool {
	if d == nil {
		return false
	}
	d.t.Helper()
	_, msg := parseArgs(msgAndArgs)
	v, err := d.s.Eval(expr)
	switch {
	case err != nil:
		fail(d.t, "ltltest: cannot evaluate the expression", d.details(expr, nil)+"\nerror:   "+err.Error(), msg)
	case v != "true":
		fail(d.t, "ltltest: the expression does not hold in the current state", d.details(expr, nil)+"\nvalue:   "+v, msg)
	default:
		return true
	}
	return false
}

// At asserts that goroutine g (a number or the function it was started
// with) last executed the //ltl:event label in the current state.
func (d *Debugger) At(g, label string, msgAndArgs ...any) bool {
	if d == nil {
		return false
	}
	d.t.Helper()
	_, msg := parseArgs(msgAndArgs)
	cur := d.s.Current()
	if cur.Err != nil {
		fail(d.t, "ltltest: cannot compute the current state", cur.Err.Error(), msg)
		return false
	}
	var at []string
	for _, gs := range cur.Goroutines {
		if gs.Named(g) {
			if gs.Label == label {
				return true
			}
			at = append(at, fmt.Sprintf("goroutine %d (%s) at %q", gs.ID, gs.Name, gs.Label))
		}
	}
	if at == nil {
		at = []string{"no such goroutine"}
	}
	fail(d.t, fmt.Sprintf("ltltest: goroutine %s is not at %s", g, label), d.details(fmt.Sprintf("at(%s, %s)", g, label), nil)+fmt.Sprintf("\nfound:   %v", at), msg)
	return false
}
