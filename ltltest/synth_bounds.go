package ltltest

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/henceforth-go/henceforth/explore"
	"github.com/henceforth-go/henceforth/synth"
)

// synthRun is one call of a synthesis helper: its options, message and the
// bounds every phase (realizability, extraction, determinization, check,
// enumeration) runs under. ctx ends at the earliest of WithTimeout, shortly
// before the test binary's deadline (go test -timeout), and the end of the
// test; WithMaxMemory (or synth.WithMemoryLimit among WithSynthOptions)
// bounds the BDDs. The caller calls cancel when done.
type synthRun struct {
	ctx    context.Context
	cancel context.CancelFunc
	cfg    config
	msg    []any
	spec   *synth.Spec
	opts   []synth.Option // for Realizable and the checks: cfg.synth.opts and the memory bound

	timeout   time.Duration // WithTimeout (0: none)
	byTimeout bool          // ctx's deadline is WithTimeout's, not the test binary's
	maxMemory int64         // WithMaxMemory (0: none)
}

// newSynthRun parses args and sets up the bounds of one helper call.
func newSynthRun(t TestingT, spec *synth.Spec, args []any) *synthRun {
	cfg, msg := parseArgs(args)
	eo := cfg.explore.options(explore.Options{})
	r := &synthRun{cfg: cfg, msg: msg, spec: spec, timeout: max(eo.Timeout, 0), maxMemory: max(eo.MaxMemory, 0)}
	r.opts = append([]synth.Option(nil), cfg.synth.opts...)
	if r.maxMemory > 0 {
		r.opts = append(r.opts, synth.WithMemoryLimit(r.maxMemory))
	}
	ctx := synthContext(t)
	var deadline time.Time
	if d, ok := t.(interface{ Deadline() (time.Time, bool) }); ok {
		if end, ok := d.Deadline(); ok {
			deadline = end.Add(-time.Until(end) / 10)
		}
	}
	if r.timeout > 0 {
		if end := time.Now().Add(r.timeout); deadline.IsZero() || end.Before(deadline) {
			deadline, r.byTimeout = end, true
		}
	}
	if deadline.IsZero() {
		r.ctx, r.cancel = context.WithCancel(ctx)
	} else {
		r.ctx, r.cancel = context.WithDeadline(ctx, deadline)
	}
	return r
}

// enter starts a phase: a test may end the context there
// (withSynthStopAt), as a bound reached in that phase would.
func (r *synthRun) enter(phase string) {
	if r.cfg.synth.stopAt == phase {
		r.cancel()
	}
}

// withSynthStopAt ends a synthesis helper's context when it enters phase,
// for testing that every phase stops at its bounds.
func withSynthStopAt(phase string) Option {
	return func(c *config) { c.synth.stopAt = phase }
}

// The phases of the synthesis helpers, as failure reports name them.
const (
	phaseRealizability = "realizability"
	phaseExtraction    = "extraction of the strategy"
	phaseDeterminize   = "determinization"
	phaseCheckCircuit  = "check of the circuit"
	phaseEnumerate     = "enumeration of the explicit machine"
	phaseCheckMachine  = "check of the explicit machine"
)

// unknown reports err as an unknown answer when a bound stopped the phase
// (a deadline, the end of the test or the memory bound), and returns whether
// it did.
func (r *synthRun) unknown(t TestingT, phase string, err error) bool {
	t.Helper()
	var reason, hint string
	switch {
	case errors.Is(err, synth.ErrMemoryBound):
		reason, hint = "memory bound reached", "raise the bound of ltltest.WithMaxMemory (or synth.WithMemoryLimit)"
		if r.maxMemory > 0 {
			reason = fmt.Sprintf("memory bound reached (WithMaxMemory %d bytes)", r.maxMemory)
		}
	case errors.Is(err, context.DeadlineExceeded) && r.byTimeout:
		reason, hint = fmt.Sprintf("no answer within WithTimeout %s", r.timeout), "raise ltltest.WithTimeout"
	case errors.Is(err, context.DeadlineExceeded):
		reason, hint = "no answer before the test binary's deadline", "raise go test -timeout"
	case errors.Is(err, context.Canceled):
		reason = "the test ended before the answer"
	default:
		return false
	}
	var b strings.Builder
	b.WriteString(synthSpecLine(r.spec))
	fmt.Fprintf(&b, "phase: %s\nerror: %v", phase, err)
	if hint != "" {
		b.WriteString("\n" + hint)
	}
	fail(t, "ltltest: unknown: "+reason, b.String(), r.msg)
	return true
}

// checkFailed reports a failed check of a synthesized controller: a
// violation of the spec, or a check that could not run.
func (r *synthRun) checkFailed(t TestingT, err error) {
	t.Helper()
	headline := "ltltest: cannot check the synthesized controller"
	var v *synth.Violation
	if errors.Is(err, synth.ErrRefuted) || errors.As(err, &v) {
		headline = "ltltest: the synthesized controller violates the specification"
	}
	fail(t, headline, synthSpecLine(r.spec)+"error: "+err.Error(), r.msg)
}
