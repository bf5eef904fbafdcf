package explore

import (
	"context"
	"fmt"
	"go/types"
	"slices"
	"strconv"
	"strings"
)

// This file is what a session shows of a state (Current, Path, Replay,
// Eval) and the single-goroutine step: each re-executes the state's
// schedule prefix and reads the execution where the prefix ends.

// sessionView is what the views show of one state.
type sessionView struct {
	state SessionState
	ws    WitnessState
	// replay is computed by Replay, for the initial state only: a step's
	// last state has its step's token.
	replay string
	err    error
}

// view returns the view of the current state, computing it once.
func (s *Session) view() *sessionView {
	slot := &s.initial
	if len(s.frames) > 0 {
		slot = &s.frames[len(s.frames)-1].view
	}
	if *slot == nil {
		*slot = s.computeView(s.base())
	}
	return *slot
}

// inspect runs the schedule prefix and calls fn on the execution stopped
// at its end (for a terminal state, after the program's end).
func (s *Session) inspect(ctx context.Context, prefix []int, fn func(x *execution, c *findChooser, fp *findPath) error) error {
	f, err := s.newFinder(ctx, "true", prefix, StepOptions{})
	if err != nil {
		return err
	}
	nd, c, x := f.run(prefix, true, false)
	defer x.release()
	switch {
	case nd.err != nil:
		return fmt.Errorf("explore: session: %w", nd.err)
	case nd.bound != "":
		return fmt.Errorf("explore: session: the execution to the state was cut by the %s bound", nd.bound)
	case c.pos < len(prefix):
		return fmt.Errorf("explore: session: the execution ended after %d of the state's %d steps", c.pos, len(prefix))
	}
	return fn(x, c, x.monitor.(*findPath))
}

func (s *Session) computeView(prefix []int) *sessionView {
	v := &sessionView{}
	fset := s.p.Fset
	v.err = s.inspect(context.Background(), prefix, func(x *execution, c *findChooser, fp *findPath) error {
		st := SessionState{Step: x.steps, Terminal: fp.ended, Deadlock: fp.ended && !fp.terminated}
		for _, g := range x.gs {
			gs := GoroutineState{ID: g.id, Name: goroutineName(g), Label: strings.Join(fp.at[g.id], ","), Exited: g.done,
				CanMove: slices.Contains(c.moves, g)}
			if gs.Name == "" {
				gs.Name = fp.names[g.id]
			}
			if gs.Name == "" && g.id == 1 {
				gs.Name = shortFuncName(s.e.Fn)
			}
			if pos := fp.atPos[g.id]; pos.IsValid() {
				gs.LabelPos = fset.Position(pos).String()
			}
			if !g.done {
				if pos := g.blockPos(); pos.IsValid() {
					gs.Pos = fset.Position(pos).String()
				}
			}
			st.Goroutines = append(st.Goroutines, gs)
		}
		v.state = st
		if len(c.states) > 0 {
			v.ws = c.states[len(c.states)-1]
		}
		return nil
	})
	return v
}

// initialReplay is the replay token of an execution through the initial
// state ("" if it cannot be computed); Replay calls it on an empty stack,
// where view is the initial state's.
func (s *Session) initialReplay() string {
	v := s.view()
	if v.err != nil {
		return ""
	}
	if v.replay == "" {
		f, err := s.newFinder(context.Background(), "true", nil, StepOptions{})
		if err != nil {
			return ""
		}
		v.replay = f.replayToken(nil)
	}
	return v.replay
}

// Eval evaluates a Go expression over package-level variables (the forms
// of the search's quoted predicates, of a boolean, numeric or string
// type) in the current state, and formats its value as fmt's %v does.
func (s *Session) Eval(expr string) (string, error) {
	var tpkg *types.Package
	if s.e.Fn.Pkg != nil {
		tpkg = s.e.Fn.Pkg.Pkg
	}
	pr, err := s.p.exprValue(tpkg, expr)
	if err != nil {
		return "", fmt.Errorf("explore: session: eval %q: %w", expr, err)
	}
	var out string
	err = s.inspect(context.Background(), s.base(), func(x *execution, _ *findChooser, _ *findPath) error {
		out, err = pr.format(x)
		return err
	})
	if err != nil {
		return "", fmt.Errorf("explore: session: eval %q: %w", expr, err)
	}
	return out, nil
}

// format evaluates the expression in the current state of x and formats
// its value.
func (pr *predicate) format(x *execution) (out string, err error) {
	ev := &predEval{x: x}
	defer func() {
		if r := recover(); r != nil {
			switch r := r.(type) {
			case predErr:
				err = fmt.Errorf("%s", r.msg)
			case unsupportedErr:
				err = fmt.Errorf("unsupported: %s", r.msg)
			default:
				panic(r)
			}
		}
	}()
	t := pr.expr.Info.TypeOf(pr.expr.AST)
	b, ok := t.Underlying().(*types.Basic)
	if !ok || b.Info()&(types.IsBoolean|types.IsNumeric|types.IsString) == 0 || b.Info()&types.IsComplex != 0 {
		return "", fmt.Errorf("a value of type %s cannot be shown (booleans, integers, floats and strings can)", t)
	}
	v := pr.value(ev, pr.expr.AST)
	if _, sym := pr.symbolic(v); sym {
		return "", fmt.Errorf("the value is symbolic")
	}
	switch info := b.Info(); {
	case info&types.IsBoolean != 0:
		return strconv.FormatBool(v.v.Bool()), nil
	case info&types.IsUnsigned != 0:
		return strconv.FormatUint(v.v.Uint(), 10), nil
	case info&types.IsInteger != 0:
		return strconv.FormatInt(v.v.Int(), 10), nil
	case info&types.IsFloat != 0:
		return fmt.Sprint(v.v.Float()), nil
	}
	return v.v.Str(), nil
}

// Single pushes a step of one move of goroutine g: a goroutine number as
// the trace prints it, or the name of the function it was started with
// (every goroutine started with it). Backtrack enumerates the other
// moves: those of the other goroutines of that name, a select's other
// cases. Verdict None when g cannot move, Unknown when a bound cut the
// run to the state; an error when no goroutine of the current state is
// named g.
func (s *Session) Single(ctx context.Context, g string) (*StepResult, error) {
	cur := s.Current()
	if cur.Err != nil {
		return nil, cur.Err
	}
	var names []string
	known := false
	for _, gs := range cur.Goroutines {
		names = append(names, fmt.Sprintf("%d %s", gs.ID, gs.Name))
		known = known || goroutineMatches(gs.ID, gs.Name, g)
	}
	if !known {
		return nil, fmt.Errorf("explore: session: single: no goroutine %q (goroutines: %s)", g, strings.Join(names, ", "))
	}
	o := StepOptions{Search: BFS, Size: Minimal, MaxLength: 1}
	if err := o.validate(); err != nil {
		return nil, err
	}
	return s.push(ctx, "", o, g)
}

// goroutineMatches reports whether goroutine id, started with function
// name, is the goroutine g names.
func goroutineMatches(id int, name, g string) bool {
	if n, err := strconv.Atoi(g); err == nil {
		return n == id
	}
	return name != "" && matchGoroutineName(name, g)
}

// singleMoves yields each move of the goroutines named ss.single from the
// step's start.
func (ss *stepSearch) singleMoves(yield func(stepHit) bool) {
	nd, c, x := ss.f.run(ss.f.base, false, false)
	var moves []int
	for i, g := range c.moves {
		if goroutineMatches(g.id, goroutineName(g), ss.single) {
			moves = append(moves, i)
		}
	}
	x.release()
	switch {
	case nd.err != nil:
		yield(stepHit{err: nd.err})
		return
	case nd.bound != "":
		// the run stopped before the state: its moves are unknown
		ss.cut = nd.bound
		return
	}
	ss.states++
	for _, i := range moves {
		if !yield(stepHit{prefix: append(slices.Clip(ss.f.base), i), loopFrom: -1}) {
			return
		}
	}
}

// Named reports whether name designates the goroutine: its number as the
// trace prints it, or the function it was started with ("P0" or
// "pkg.P0").
func (g GoroutineState) Named(name string) bool {
	return goroutineMatches(g.ID, g.Name, name)
}
