package explore

import (
	"context"
	"slices"
	"strings"
	"time"
)

// The Auto strategy: DPOR first, sampling when DPOR cannot complete.
//
// DPOR proves the absence of bugs but may need more executions than any
// budget allows (50 goroutines taking turns at a lock); PCT samples
// schedules and finds bugs of small depth in them quickly, but never
// proves anything. Auto spends DPOR's share of the budget on DPOR; if
// DPOR completes or finds a bug, that is the result. If its share runs
// out (the time or executions bound), PCT samples for the rest of the
// budget. The split:
//
//   - with a deadline (Options.Timeout, or the context's), DPOR gets half
//     of the time left, PCT the rest;
//   - without one, DPOR gets autoShare, then PCT autoShare, then, if PCT
//     found nothing, DPOR runs again from the start with no time bound
//     (its executions bound only), so that an exploration DPOR can
//     complete still passes (the first autoShare of DPOR is repeated);
//   - in either case, the first DPOR phase gives up as soon as its own
//     pace shows that it cannot complete within its share (more than
//     autoMargin times it: dporChooser.tooLarge, checked after its
//     executions 1, 2, 4, 8, …), with the bound "schedules": the schedule
//     space is too large to enumerate. PCT then samples for the rest of
//     the budget (autoShare without a deadline) and DPOR runs again (as
//     above, without a deadline) only if it estimated it needs at most
//     autoRerun. The report says so (Report.Bound "schedules", the DPOR
//     phase's Phase.Reason, the suggestion): a verdict by sampling is
//     never complete.
//
// Each phase has the executions bound of Options.MaxExecutions, or
// DPOR's default. The result is complete only if a DPOR phase completed:
// a pass proves as much as DPOR's. Report.Phases lists what ran.

// autoShare is DPOR's and PCT's share of an Auto exploration without a
// deadline: DPOR completes most tests well within it.
const autoShare = 10 * time.Second

// autoRerun is the longest DPOR estimate (tooLarge) for which Auto
// without a deadline still runs DPOR again after PCT: beyond it the
// schedule space is taken as too large to enumerate.
const autoRerun = time.Minute

// exploreAuto runs the phases of Auto into r.
func (p *Program) exploreAuto(ctx context.Context, e *Entry, opts *Options, r *Report) error {
	d, deadline := ctx.Deadline()
	share := autoShare
	if deadline {
		share = time.Until(d) / 2
	}
	var phases []*Report
	run := func(s Strategy, limit time.Duration, probe bool) (*Report, error) {
		pr, err := p.autoPhase(ctx, e, opts, s, limit, probe, r)
		phases = append(phases, pr)
		return pr, err
	}
	pr, err := run(DPOR, share, !opts.symbolic)
	if err != nil {
		return err
	}
	if ctx.Err() == nil && (pr.Bound == "time" || pr.Bound == "executions" || pr.Bound == "schedules") && !opts.symbolic && !stopsAuto(pr) {
		limit := time.Duration(0) // the rest of the deadline
		if !deadline {
			limit = autoShare
		}
		sr, err := run(PCT, limit, false)
		if err != nil {
			return err
		}
		rerun := pr.Bound == "time" || pr.Bound == "schedules" && pr.estimate <= autoRerun
		if !deadline && rerun && ctx.Err() == nil && len(sr.Findings) == 0 && sr.Bound != "memory" {
			if _, err := run(DPOR, 0, false); err != nil {
				return err
			}
		}
	}
	mergePhases(r, phases)
	return nil
}

// stopsAuto reports whether the first DPOR phase ends the exploration: a
// finding (a bug, or a program the explorer cannot run) or a memory bound.
func stopsAuto(pr *Report) bool {
	return len(pr.Findings) > 0 || pr.Bound == "memory"
}

// autoPhase runs strategy s (DPOR or PCT) for at most limit (0: until
// ctx is done). With probe, a DPOR phase gives up early, with the bound
// "schedules", when its pace says it cannot complete within limit
// (dporChooser.tooLarge).
func (p *Program) autoPhase(ctx context.Context, e *Entry, opts *Options, s Strategy, limit time.Duration, probe bool, r *Report) (*Report, error) {
	if limit > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, limit)
		defer cancel()
	}
	o := *opts
	o.Strategy = s
	o.done, o.ctx = ctx.Done(), ctx
	if probe && s == DPOR && limit > 0 {
		o.autoShare = limit
	}
	if o.MaxExecutions <= 0 {
		o.MaxExecutions = defaultExecutions
	}
	pr := &Report{Entry: r.Entry, Strategy: string(s), Seed: r.Seed}
	explore, err := s.driver()
	if err != nil {
		return pr, err
	}
	return pr, explore(p, ctx, e, &o, pr)
}

// mergePhases fills r from the reports of Auto's phases: the findings of
// all (execution numbers counted across phases), complete if the last
// DPOR phase was.
func mergePhases(r *Report, phases []*Report) {
	var set findingSet
	var names []string
	offset := 0
	r.Phases = nil
	for _, pr := range phases {
		for _, f := range pr.Findings {
			f.Execution += offset
			set.add(f)
		}
		offset += pr.Executions
		r.Phases = append(r.Phases, Phase{Strategy: pr.Strategy, Executions: pr.Executions, Complete: pr.Complete, Bound: pr.Bound, Reason: pr.boundReason})
		names = append(names, pr.Strategy)
		r.Executions += pr.Executions
		r.MaxSteps = max(r.MaxSteps, pr.MaxSteps)
		r.Goroutines = max(r.Goroutines, pr.Goroutines)
		r.Classes = max(r.Classes, pr.Classes)
		r.Pruned += pr.Pruned
		r.Skipped += pr.Skipped
		r.Inconclusive += pr.Inconclusive
		r.Infeasible += pr.Infeasible
		for _, w := range pr.Warnings {
			if !slices.Contains(r.Warnings, w) {
				r.Warnings = append(r.Warnings, w)
			}
		}
		for _, c := range pr.Concretized {
			if !slices.Contains(r.Concretized, c) {
				r.Concretized = append(r.Concretized, c)
			}
		}
		if pr.Strategy == string(DPOR) {
			r.Complete, r.Bound, r.boundReason = pr.Complete, pr.Bound, pr.boundReason
		}
	}
	for _, pr := range phases {
		if pr.Bound == "memory" {
			r.Complete, r.Bound = false, "memory"
		}
	}
	r.Findings = set.sorted()
	r.Strategy = strings.Join(names, ", then ")
	if len(phases) < 2 {
		r.Phases = nil
	}
}
