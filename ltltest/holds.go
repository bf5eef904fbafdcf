package ltltest

import (
	"context"
	"fmt"
	"strings"

	"github.com/henceforth-go/henceforth/automaton"
	"github.com/henceforth-go/henceforth/ltl"
	"github.com/henceforth-go/henceforth/monitor"
)

// Holds asserts that formula holds on trace. A trace is any ltl.Trace: a
// *monitor.Trace, an ltl.Sets such as ltl.Sets{{"req"}, {"ack"}}, or the
// Trace() of a Recorder. The trailing arguments are Options and a
// testify-style failure message.
//
//	ltltest.Holds(t, "G(req -> F ack)", ltl.Sets{{"req"}, {}, {"ack"}})
func Holds(t TestingT, formula string, trace ltl.Trace, args ...any) bool {
	t.Helper()
	return expect(t, true, formula, trace, args)
}

// RequireHolds is Holds, stopping the test when the formula does not hold.
func RequireHolds(t TestingT, formula string, trace ltl.Trace, args ...any) {
	t.Helper()
	if !Holds(t, formula, trace, args...) {
		t.FailNow()
	}
}

// Violated asserts that formula does not hold on trace: use it to test that
// a specification rejects a bad trace.
func Violated(t TestingT, formula string, trace ltl.Trace, args ...any) bool {
	t.Helper()
	return expect(t, false, formula, trace, args)
}

// RequireViolated is Violated, stopping the test when the formula holds.
func RequireViolated(t TestingT, formula string, trace ltl.Trace, args ...any) {
	t.Helper()
	if !Violated(t, formula, trace, args...) {
		t.FailNow()
	}
}

func expect(t TestingT, want bool, formula string, trace ltl.Trace, args []any) bool {
	t.Helper()
	cfg, msg := parseArgs(args)
	f, err := resolve(formula, cfg)
	if err != nil {
		fail(t, "ltltest: malformed formula", "formula: "+formula+"\nerror:   "+err.Error(), msg)
		return false
	}
	if rec, ok := trace.(*Recorder); ok && !rec.Complete() {
		fail(t, "ltltest: the recorder no longer has the whole trace", fmt.Sprintf("formula: %s\nthe recorder keeps the last %d of %d events; NewMonitor with WithFullTrace() keeps them all", formula, rec.Trace().Len(), rec.Len()), msg)
		return false
	}
	tr := toTrace(trace, f)
	res, err := automaton.Check(context.Background(), f, tr, monitor.Options{Engine: cfg.engine, Semantics: cfg.semantics})
	if err != nil {
		fail(t, "ltltest: cannot check formula", "formula: "+formula+"\nerror:   "+err.Error(), msg)
		return false
	}
	if res.Holds == want {
		return true
	}
	var b strings.Builder
	monitor.WriteReport(&b, f, res, tr)
	headline := "ltltest: formula does not hold"
	if !want {
		headline = "ltltest: formula holds, but a violation was expected"
	}
	fail(t, headline, withLine(b.String(), verdictReport(t, headline, f, tr, res, cfg.semantics)), msg)
	return false
}

// toTrace converts any ltl.Trace into a *monitor.Trace over the atoms of f
// (and, for a *monitor.Trace or ltl.Sets, over its whole vocabulary, so
// reports show every atom).
func toTrace(trace ltl.Trace, f ltl.Formula) *monitor.Trace {
	switch tr := trace.(type) {
	case *monitor.Trace:
		return tr
	case *Recorder:
		return tr.Trace()
	case ltl.Sets:
		out := monitor.NewTrace()
		for _, step := range tr {
			out.Append(step...)
		}
		return out
	}
	atoms := f.Atoms()
	out := monitor.NewTrace(atoms...)
	if trace == nil {
		return out
	}
	for i := 0; i < trace.Len(); i++ {
		var on []string
		for _, a := range atoms {
			if trace.Holds(i, a) {
				on = append(on, a)
			}
		}
		out.Append(on...)
	}
	return out
}
