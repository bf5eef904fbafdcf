package main

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/henceforth-go/henceforth/explore"
)

// check evaluates an expectation and prints "ok" or why it failed;
// a failure counts towards the exit status.
func (d *debugger) check(x *expectation) {
	if msg := d.expectFailure(x); msg != "" {
		d.failed++
		d.printf("FAILED: %s\n", msg)
		return
	}
	d.printf("ok\n")
}

// expectFailure returns why x does not hold ("" when it does).
func (d *debugger) expectFailure(x *expectation) string {
	switch x.kind {
	case expectVerdict, expectPopped, expectChain:
		r := d.last
		if r == nil {
			return "no search has run yet"
		}
		switch {
		case x.kind == expectVerdict && r.Verdict != x.verdict:
			return fmt.Sprintf("the last search's verdict is %s, not %s", describeVerdict(r), x.verdict)
		case x.kind == expectPopped && !r.Popped:
			return fmt.Sprintf("the last search did not pop its step (verdict %s)", describeVerdict(r))
		case x.kind == expectChain && !r.InfiniteChain:
			return fmt.Sprintf("the last search found no infinite chain (verdict %s)", describeVerdict(r))
		}
	case expectAt:
		cur := d.s.Current()
		if cur.Err != nil {
			return cur.Err.Error()
		}
		g, err := pickGoroutine(cur.Goroutines, x.goroutine)
		if err != "" {
			return err
		}
		want := x.label
		if want == "-" {
			want = ""
		}
		if g.Label != want {
			got := g.Label
			if got == "" {
				got = "no label"
			}
			return fmt.Sprintf("goroutine %s is at %s, not %s", x.goroutine, got, x.label)
		}
	case expectHolds, expectValue:
		v, err := d.s.Eval(x.expr)
		if err != nil {
			return err.Error()
		}
		want := x.value
		if x.kind == expectHolds {
			want = "true"
		}
		if v != want {
			return fmt.Sprintf("%s = %s, not %s", x.expr, v, want)
		}
	case expectMoves, expectLabels, expectSteps:
		steps := d.s.Steps()
		if len(steps) == 0 {
			return "the stack is empty"
		}
		top := steps[len(steps)-1]
		switch x.kind {
		case expectSteps:
			if top.Steps != x.n {
				return fmt.Sprintf("the latest step has %s, not %d", plural(top.Steps, "move"), x.n)
			}
		case expectMoves:
			if got := d.moves(top); !slices.Equal(got, x.moves) {
				return fmt.Sprintf("the latest step's moves are [%s], not [%s]", strings.Join(got, " "), strings.Join(x.moves, " "))
			}
		case expectLabels:
			got, msg := stepLabels(top, x.goroutine)
			if msg != "" {
				return msg
			}
			if !slices.Equal(got, x.labels) {
				return fmt.Sprintf("in the latest step goroutine %s reaches {%s}, not {%s}", x.goroutine, strings.Join(got, " "), strings.Join(x.labels, " "))
			}
		}
	case expectDepth:
		if n := len(d.s.Steps()); n != x.n {
			return fmt.Sprintf("the stack holds %s, not %d", plural(n, "step"), x.n)
		}
	}
	return ""
}

// describeVerdict is a result's verdict with its bound or pop.
func describeVerdict(r *explore.StepResult) string {
	v := r.Verdict
	if r.Bound != "" {
		v += " (" + r.Bound + " bound)"
	}
	if r.Popped {
		v += ", step popped"
	}
	return v
}

// pickGoroutine returns the one goroutine of gs that g names, or why
// there is none.
func pickGoroutine(gs []explore.GoroutineState, g string) (explore.GoroutineState, string) {
	var match []explore.GoroutineState
	for _, s := range gs {
		if s.Named(g) {
			match = append(match, s)
		}
	}
	switch len(match) {
	case 1:
		return match[0], ""
	case 0:
		return explore.GoroutineState{}, fmt.Sprintf("no goroutine %s in the current state", g)
	}
	ids := make([]string, len(match))
	for i, m := range match {
		ids[i] = strconv.Itoa(m.ID)
	}
	return explore.GoroutineState{}, fmt.Sprintf("%s names %d goroutines (%s): use a number", g, len(match), strings.Join(ids, ", "))
}

// stepLabels returns, sorted, the labels goroutine g reaches by its moves
// in step st.
func stepLabels(st *explore.TemporalStep, g string) ([]string, string) {
	if st.Witness == nil {
		return nil, "the latest step has no states"
	}
	var ids []int
	for id, name := range st.Goroutines {
		if (explore.GoroutineState{ID: id, Name: name}).Named(g) {
			ids = append(ids, id)
		}
	}
	if len(ids) != 1 {
		if n, err := strconv.Atoi(g); err == nil {
			ids = []int{n}
		} else if len(ids) == 0 {
			return nil, fmt.Sprintf("no goroutine %s in the latest step", g)
		} else {
			return nil, fmt.Sprintf("%s names %d goroutines: use a number", g, len(ids))
		}
	}
	var out []string
	for _, s := range st.States[1:] {
		if s.Goroutine == ids[0] {
			if l := s.At[ids[0]]; l != "" && !slices.Contains(out, l) {
				out = append(out, l)
			}
		}
	}
	slices.Sort(out)
	return out, ""
}
