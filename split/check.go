package split

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/henceforth-go/henceforth/internal/fds"
)

// Verdict is the answer of Check.
type Verdict uint8

const (
	// Unknown: no answer (refinement limit, node limit, cancelled, or an
	// unsupported property). Never a pass.
	Unknown Verdict = iota
	// Proved: the property holds of every (fair) computation.
	Proved
	// Violated: Result.Counterexample is a real computation violating it.
	Violated
)

func (v Verdict) String() string {
	switch v {
	case Proved:
		return "proved"
	case Violated:
		return "violated"
	}
	return "unknown"
}

// Variant selects the fair-local-liveness algorithm (§4.2.4.3).
type Variant uint8

const (
	// VariantB checks one abstract process: does it satisfy the property
	// under the abstract fairness? The default (faster in the thesis).
	VariantB Variant = iota
	// VariantA checks every abstract process: is there no computation in
	// which that process moves infinitely often from an accepting state?
	VariantA
)

func (v Variant) String() string {
	if v == VariantA {
		return "A"
	}
	return "B"
}

// Options configure Check.
type Options struct {
	// Workers is the number of goroutines (each with its own BDD store)
	// computing split invariants; 0 or 1 is sequential.
	Workers int
	// Schedule is how parallel workers interleave (Rounds by default).
	Schedule Schedule
	// Staged computes every split invariant in stages, one more moving
	// process per stage (InvariantOptions.Staged).
	Staged bool
	// MaxRefinements bounds the exposed predicates; reaching it gives
	// Unknown. 0 means 32; a negative value allows none.
	MaxRefinements int
	// MaxNodes bounds each BDD store (0: unbounded); exceeding it gives
	// Unknown.
	MaxNodes int
	// InitialNodes is the initial node table of each store of the split
	// invariant (0: 2^16). Tables double on demand, without a garbage
	// collection, up to 2^23 nodes; a larger first table saves those
	// copies, but allocating it costs CPU time in every refinement round
	// (~0.1 s for 2^20 nodes), which dominates the check of a small
	// program.
	InitialNodes int
	// Variant is the liveness algorithm (FLL variant B by default).
	Variant Variant
	// MaxUnroll bounds how often the cycle of an abstract liveness
	// counterexample is unrolled to find a concrete lasso (0 means 64).
	MaxUnroll int
}

func (o Options) initialNodes() int {
	if o.InitialNodes > 0 {
		return o.InitialNodes
	}
	return defaultNodes
}

func (o Options) maxRefinements() int {
	switch {
	case o.MaxRefinements == 0:
		return 32
	case o.MaxRefinements < 0:
		return 0
	}
	return o.MaxRefinements
}

// Result is the outcome of Check.
type Result struct {
	Verdict  Verdict
	Property *Property
	// Reason says how the verdict was reached, or why there is none.
	Reason string
	// Counterexample is a computation of the program (replayed on the real
	// composition before it is returned) that violates the property: a
	// finite trace for an invariant, a lasso for an LTL property.
	Counterexample *Trace
	// Refinements is the number of refinement steps; Exposed describes the
	// predicates they exposed as auxiliary shared variables.
	Refinements int
	Exposed     []string
	// Invariant describes the split invariant of the last round.
	Invariant InvariantStats
	Duration  time.Duration
}

func (r *Result) String() string {
	s := fmt.Sprintf("%s: %s", r.Verdict, r.Reason)
	if r.Counterexample != nil {
		s += "\n" + r.Counterexample.String()
	}
	return s
}

// Check decides prop for p compositionally. Errors report malformed
// programs or properties; a verdict that cannot be reached is Unknown with
// a Reason, not an error.
func Check(ctx context.Context, p *Program, prop *Property, opts Options) (*Result, error) {
	start := time.Now()
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if prop == nil {
		return nil, errors.New("split: Check: nil property")
	}
	if err := prop.Validate(); err != nil {
		return nil, err
	}
	var (
		res *Result
		err error
	)
	switch prop.Kind {
	case KindInvariant:
		res, err = checkSafety(ctx, p, prop, opts)
	default:
		res, err = checkLiveness(ctx, p, prop, opts)
	}
	if cerr := ctx.Err(); cerr != nil && (err != nil || res.Verdict != Unknown) {
		// The stores' BDD operations stop when ctx is done and return
		// false from then on, so nothing computed after that point can be
		// trusted (a verdict, or an error caused by a meaningless BDD);
		// ctx's error replaces it. Only a done ctx interrupts them: with
		// ctx live, every operation ran to completion.
		err, res = cerr, nil
	}
	if err != nil {
		if reason, ok := unknownReason(err); ok {
			res = &Result{Verdict: Unknown, Reason: reason}
			err = nil
		} else {
			return nil, err
		}
	}
	res.Property = prop
	res.Duration = time.Since(start)
	return res, nil
}

// unknownReason classifies errors that mean "no answer" rather than "bad
// input": cancellation and exhausted node tables.
func unknownReason(err error) (string, bool) {
	switch {
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return "stopped: " + err.Error(), true
	case errors.Is(err, fds.ErrNodeLimit):
		return "BDD node limit reached: " + err.Error(), true
	}
	return "", false
}
