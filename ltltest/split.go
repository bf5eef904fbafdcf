package ltltest

import (
	"context"
	"fmt"
	"strings"

	"github.com/henceforth-go/henceforth/split"
	"github.com/henceforth-go/henceforth/split/smv"
)

// This file holds the compositional helpers: Split and SplitViolated check
// a property of a split.Program (an asynchronous composition of processes)
// with split invariants, refinement and the FLL liveness algorithms of
// package split.

// splitOptions is the configuration Split passes to split.Check; an alias
// so that ltltest.go needs no import of package split (whose name is also
// the name of this package's argument splitter).
type splitOptions = split.Options

// WithSplitOptions configures Split and SplitViolated: the number of
// workers (each with its own BDD store), the refinement limit, the FLL
// variant for LTL properties, the BDD node limit. The zero split.Options is
// the default (sequential, 32 refinements, variant B).
//
//	ltltest.Split(t, prog, "mutex", ltltest.WithSplitOptions(split.Options{Workers: 2}))
func WithSplitOptions(o split.Options) Option {
	return func(c *config) { c.split = o }
}

// SplitProperty is what Split accepts as the property: a *split.Property
// (split.NewInvariant, split.NewLTL, smv.ParseProperty), or a string that
// names one of the program's properties (INVARSPEC NAME mutex := …) or is a
// property in the text format ("LTLSPEC G(P[1].loc = 1 -> F P[1].loc = 2)",
// or an invariant expression).
type SplitProperty interface {
	*split.Property | string
}

// Split asserts that program satisfies property, proved compositionally by
// package split. It fails with the counterexample (the interleaving: which
// process moved by which command, the states, and where a liveness
// counterexample loops) when the property is violated, and with "unknown"
// and the reason when split reaches no verdict (refinement limit, BDD node
// limit, unsupported property, test context cancelled): an unknown is never
// a pass. The trailing arguments are Options (WithSplitOptions) and a
// testify-style failure message.
//
//	p, err := smv.ParseFile("testdata/muxsem.smv", 64)
//	require.NoError(t, err)
//	ltltest.Split(t, p, "mutex")
func Split[P SplitProperty](t TestingT, program *split.Program, property P, args ...any) bool {
	t.Helper()
	_, ok := checkSplit(t, split.Proved, program, property, args)
	return ok
}

// RequireSplit is Split, stopping the test unless the property is proved.
func RequireSplit[P SplitProperty](t TestingT, program *split.Program, property P, args ...any) {
	t.Helper()
	if !Split(t, program, property, args...) {
		t.FailNow()
	}
}

// SplitViolated asserts that program violates property: split must find a
// counterexample, replayed on the program, and SplitViolated returns it
// (nil when the assertion failed). A proof or an unknown fails the test.
// Use it to test that a specification catches a bad protocol.
//
//	cex := ltltest.SplitViolated(t, p, "starvation")
//	t.Log(cex) // the lasso: P[2] request, P[2] critical, …
func SplitViolated[P SplitProperty](t TestingT, program *split.Program, property P, args ...any) *split.Trace {
	t.Helper()
	res, ok := checkSplit(t, split.Violated, program, property, args)
	if !ok {
		return nil
	}
	return res.Counterexample
}

// RequireSplitViolated is SplitViolated, stopping the test unless a
// counterexample is found.
func RequireSplitViolated[P SplitProperty](t TestingT, program *split.Program, property P, args ...any) *split.Trace {
	t.Helper()
	cex := SplitViolated(t, program, property, args...)
	if cex == nil {
		t.FailNow()
	}
	return cex
}

// checkSplit resolves the property, runs split.Check and reports unless the
// verdict is want. A Violated result is replayed once more on the program
// before it is trusted, so a report never shows a trace that is not a
// computation.
func checkSplit[P SplitProperty](t TestingT, want split.Verdict, program *split.Program, property P, args []any) (*split.Result, bool) {
	t.Helper()
	cfg, msg := parseArgs(args)
	if program == nil {
		fail(t, "ltltest: split: nil program", "", msg)
		return nil, false
	}
	prop, err := resolveSplitProperty(program, property)
	if err != nil {
		fail(t, "ltltest: split: bad property", "program:  "+program.Name()+"\nerror:    "+err.Error(), msg)
		return nil, false
	}
	ctx := context.Background()
	if c, ok := t.(interface{ Context() context.Context }); ok {
		ctx = c.Context()
	}
	res, err := split.Check(ctx, program, prop, cfg.split)
	if err != nil {
		fail(t, "ltltest: split: cannot check", "program:  "+program.Name()+"\nproperty: "+prop.String()+"\nerror:    "+err.Error(), msg)
		return nil, false
	}
	if res.Verdict == split.Violated {
		if err := program.Replay(res.Counterexample); err != nil {
			fail(t, "ltltest: split: the counterexample does not replay (a bug in package split)", splitDetails(program, res)+"\nreplay:   "+err.Error(), msg)
			return nil, false
		}
	}
	if res.Verdict == want {
		return res, true
	}
	var headline string
	switch {
	case res.Verdict == split.Unknown:
		headline = "ltltest: split: unknown: no verdict, which is not a pass"
	case want == split.Proved:
		headline = "ltltest: split: property violated"
	default:
		headline = "ltltest: split: property proved, but a violation was expected"
	}
	fail(t, headline, splitDetails(program, res), msg)
	return nil, false
}

// resolveSplitProperty turns the property argument into a *split.Property.
func resolveSplitProperty[P SplitProperty](program *split.Program, property P) (*split.Property, error) {
	switch p := any(property).(type) {
	case *split.Property:
		if p == nil {
			return nil, fmt.Errorf("nil property")
		}
		return p, nil
	case string:
		for _, q := range program.Properties() {
			if q.Name != "" && q.Name == strings.TrimSpace(p) {
				return q, nil
			}
		}
		return smv.ParseProperty(program, p)
	}
	return nil, fmt.Errorf("property of type %T", property) // unreachable: P is constrained
}

// splitDetails renders a result for a failure report: the property, the
// verdict and why, the refinements, and the counterexample as the
// interleaving of moves (for a lasso, where the loop starts).
func splitDetails(program *split.Program, res *split.Result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "program:  %s (%d processes)\n", program.Name(), len(program.Processes()))
	if res.Property != nil {
		fmt.Fprintf(&b, "property: %s\n", res.Property)
	}
	fmt.Fprintf(&b, "verdict:  %s\n", res.Verdict)
	if res.Reason != "" {
		fmt.Fprintf(&b, "why:      %s\n", res.Reason)
	}
	if res.Refinements > 0 {
		fmt.Fprintf(&b, "refined:  %d predicates exposed: %s\n", res.Refinements, strings.Join(res.Exposed, "; "))
	}
	if cex := res.Counterexample; cex != nil {
		if cex.Loop >= 0 {
			fmt.Fprintf(&b, "counterexample: a lasso of %d moves, looping back to state %d forever\n", len(cex.Steps), cex.Loop)
		} else {
			fmt.Fprintf(&b, "counterexample: %d moves to a state that violates the property\n", len(cex.Steps))
		}
		b.WriteString(cex.String())
	}
	return b.String()
}
