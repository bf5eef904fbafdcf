package synth

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/henceforth-go/henceforth/internal/fds"
)

// This file traces a woven controller back to its specification, both
// ways (the JTLV thesis, §3.2.7.4): each move the controller makes is
// justified by the modules whose transitions contain it and the aspects
// whose liveness it serves, and each move of the woven system that the
// controller never makes is blamed on the aspects whose safety forbids it,
// or on the strategy keeping liveness.

// Trace is the two-way traceability of a controller of a Weaving. Moves
// are projected on the base's system variables (Vars): a move is a pair of
// their values, before and after a step.
type Trace struct {
	Vars []string
	// Taken are the moves the controller makes (from states it reaches),
	// sorted by From then To.
	Taken []TracedMove
	// Untaken are the moves of the woven system (ρ_B ∨ ⋁ρ_A) that the
	// controller never makes: from states it reaches, with why; and, when
	// Vars have at most 256 valuations, from those it never reaches
	// (Unreached).
	Untaken []TracedMove
	// UntakenSkipped, when not empty, says why Untaken was not computed
	// (it is then empty without meaning that every move is taken).
	UntakenSkipped string
}

// TracedMove is a move with what justifies or forbids it.
type TracedMove struct {
	From, To []int // values of Trace.Vars
	Text     string
	// DefinedBy names the modules (the base and aspects) whose TRANS
	// contains the move: for a taken move, one of the controller's
	// transitions that project on it; for an untaken one, any instance
	// from a state the controller reaches.
	DefinedBy []string
	// Serves names the aspects (or the base) with a liveness goal that
	// one of the controller's transitions on this move reaches: false
	// before, true after (taken moves).
	Serves []string
	// ForbiddenBy names the modules whose safety rules out every instance
	// of an untaken move: each module whose safety alone makes the
	// difference, or, when none does alone, all those that exclude some
	// instance.
	ForbiddenBy []string
	// ForLiveness is set for an untaken move that every safety clause
	// allows but that only leads to states from which the environment can
	// keep a liveness goal from being met: every winning strategy avoids
	// it.
	ForLiveness bool
	// NotChosen is set for an untaken move that every safety clause allows
	// and that can lead to a winning state: another winning strategy could
	// make it, this controller does not.
	NotChosen bool
	// Unreached is set for an untaken move from values of Vars the
	// controller never reaches.
	Unreached bool
	// Edges is the number of the controller's transitions on the move.
	Edges int
}

func (m TracedMove) String() string {
	var why []string
	if len(m.DefinedBy) > 0 {
		why = append(why, "defined by "+strings.Join(m.DefinedBy, ", "))
	}
	if len(m.Serves) > 0 {
		why = append(why, "serves the liveness of "+strings.Join(m.Serves, ", "))
	}
	if len(m.ForbiddenBy) > 0 {
		why = append(why, "forbidden by the safety of "+strings.Join(m.ForbiddenBy, ", "))
	}
	if m.ForLiveness {
		why = append(why, "forbidden by the strategy to keep liveness")
	}
	if m.NotChosen {
		why = append(why, "allowed, but not chosen by this strategy")
	}
	if m.Unreached {
		why = append(why, "never reached: the controller does not get to its source")
	}
	return m.Text + ": " + strings.Join(why, "; ")
}

// Move returns the taken or untaken move whose Text is text ("wait ->
// exit"), or nil.
func (t *Trace) Move(text string) *TracedMove {
	for _, ms := range [][]TracedMove{t.Taken, t.Untaken} {
		for i := range ms {
			if ms[i].Text == text {
				return &ms[i]
			}
		}
	}
	return nil
}

// WriteText prints the trace, one move a line.
func (t *Trace) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "moves of the controller (on %s):\n", strings.Join(t.Vars, ", "))
	for _, m := range t.Taken {
		fmt.Fprintf(&b, "  %s\n", m)
	}
	fmt.Fprintf(&b, "moves the controller never makes:\n")
	if t.UntakenSkipped != "" {
		fmt.Fprintf(&b, "  not computed: %s\n", t.UntakenSkipped)
	} else if len(t.Untaken) == 0 {
		fmt.Fprintf(&b, "  (none)\n")
	}
	for _, m := range t.Untaken {
		fmt.Fprintf(&b, "  %s\n", m)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// maxUnreachedStates bounds the number of valuations of the base's system
// variables for which Trace lists the moves from those never reached.
const maxUnreachedStates = 256

// maxTraceStates bounds the number of valuations of the base's system
// variables Trace enumerates for untaken moves.
const maxTraceStates = 1 << 12

// Trace enumerates the controller of res (a realizable result of w.Spec)
// as an explicit machine of at most maxStates states (0 for
// DefaultMaxStates) and traces its moves. It fails with ErrUnrealizable
// when res is unrealizable.
func (w *Weaving) Trace(ctx context.Context, res *Result, maxStates int) (*Trace, error) {
	if res.Spec != w.Spec {
		return nil, fmt.Errorf("synth: Trace: the result is not of this weaving's Spec")
	}
	c, err := res.Controller(ctx)
	if err != nil {
		return nil, err
	}
	m, err := c.Mealy(ctx, maxStates)
	if err != nil {
		return nil, err
	}
	return w.trace(ctx, res, m)
}

func (w *Weaving) trace(ctx context.Context, res *Result, m *Mealy) (*Trace, error) {
	spec := w.Spec
	t := &Trace{}
	var baseIdx []int // indexes of the base's system variables in Inputs++Outputs
	for _, v := range w.Base.Vars {
		if !v.Env {
			t.Vars = append(t.Vars, v.Name)
			baseIdx = append(baseIdx, len(spec.Inputs)+slices.IndexFunc(spec.Outputs, func(o Var) bool { return o.Name == v.Name }))
		}
	}
	var liveness []int
	for i, c := range spec.Clauses {
		if c.Section == SysLiveness && w.origins[i].module >= 0 {
			liveness = append(liveness, i)
		}
	}
	all := append(append([]Var(nil), spec.Inputs...), spec.Outputs...)
	taken := map[string]*TracedMove{}
	visited := map[string][]int{}
	for q := 1; q < len(m.States); q++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		st := m.States[q]
		cur := namedValues(all, st.Values)
		from := project(st.Values, baseIdx)
		visited[fmt.Sprint(from)] = from
		for _, e := range st.Edges {
			vals := append(append([]int(nil), e.Input...), e.Output...)
			to := project(vals, baseIdx)
			key := fmt.Sprint(from, to)
			tm := taken[key]
			if tm == nil {
				tm = &TracedMove{From: from, To: to, Text: w.moveText(t.Vars, from, to)}
				taken[key] = tm
			}
			tm.Edges++
			nxt := namedValues(all, vals)
			if evalExpr(w.rhoB, cur, nxt) == 1 {
				tm.DefinedBy = addName(tm.DefinedBy, w.Base.Name)
			}
			for i, rho := range w.rhoA {
				if rho != nil && evalExpr(rho, cur, nxt) == 1 {
					tm.DefinedBy = addName(tm.DefinedBy, w.Aspects[i].Name)
				}
			}
			for _, ci := range liveness {
				e := spec.Clauses[ci].Expr
				serves := false
				if hasNext(e) {
					serves = evalExpr(e, cur, nxt) == 1
				} else {
					serves = evalExpr(e, cur, nil) == 0 && evalExpr(e, nxt, nil) == 1
				}
				if serves {
					tm.Serves = addName(tm.Serves, w.moduleName(w.origins[ci].module))
				}
			}
		}
	}
	for _, tm := range taken {
		t.Taken = append(t.Taken, *tm)
	}
	sortMoves(t.Taken)
	n := 1
	for _, v := range t.Vars {
		sv, _, _ := spec.Var(v)
		n *= sv.Hi - sv.Lo + 1
		if n > maxTraceStates {
			t.UntakenSkipped = fmt.Sprintf("the base's system variables have more than %d valuations", maxTraceStates)
			return t, nil
		}
	}
	untaken, err := w.untaken(ctx, res, m, t.Vars, visited, taken)
	if err != nil {
		return nil, err
	}
	t.Untaken = untaken
	return t, nil
}

func project(vals []int, idx []int) []int {
	out := make([]int, len(idx))
	for i, j := range idx {
		out[i] = vals[j]
	}
	return out
}

// addName adds name to a list kept in first-seen order without
// duplicates.
func addName(names []string, name string) []string {
	if slices.Contains(names, name) {
		return names
	}
	return append(names, name)
}

func sortMoves(ms []TracedMove) {
	slices.SortFunc(ms, func(a, b TracedMove) int {
		if c := slices.Compare(a.From, b.From); c != 0 {
			return c
		}
		return slices.Compare(a.To, b.To)
	})
}

// moveText prints a move: "wait -> exit" for one variable, "x=a, y=1 ->
// x=b, y=0" for several.
func (w *Weaving) moveText(vars []string, from, to []int) string {
	side := func(vals []int) string {
		parts := make([]string, len(vars))
		for i, v := range vars {
			parts[i] = w.ValueName(v, vals[i])
			if len(vars) > 1 {
				parts[i] = v + "=" + parts[i]
			}
		}
		return strings.Join(parts, ", ")
	}
	return side(from) + " -> " + side(to)
}

// untaken finds the moves of the woven system from visited base states
// that the controller never makes, symbolically in res's game: a move's
// instances are the full transitions from states the controller reaches
// (R), within the variables' domains and the environment's assumptions,
// that project on it.
func (w *Weaving) untaken(ctx context.Context, res *Result, m *Mealy, vars []string, visited map[string][]int, taken map[string]*TracedMove) ([]TracedMove, error) {
	g := res.g
	sp := g.sp
	release := g.bind(ctx)
	defer release()
	g.memo = map[walkKey]fds.BDD{}
	defer func() { g.memo = nil }()
	compile := func(e *Expr) (fds.BDD, error) {
		if e == nil {
			return sp.False(), nil
		}
		return g.compile(e, false)
	}
	rhoB, err := compile(w.rhoB)
	if err != nil {
		return nil, err
	}
	rhoA := make([]fds.BDD, len(w.rhoA))
	woven := rhoB
	for i, e := range w.rhoA {
		if rhoA[i], err = compile(e); err != nil {
			return nil, err
		}
		woven = woven.Or(rhoA[i])
	}
	// Each module's safety: its SYS_TRANS clauses (strict: the stated
	// ones, without helper definitions; all: with them).
	nmod := len(w.Aspects) + 1
	strict := make([]fds.BDD, nmod)
	safety := make([]fds.BDD, nmod)
	for i := range safety {
		strict[i], safety[i] = sp.True(), sp.True()
	}
	for i, c := range w.Spec.Clauses {
		o := w.origins[i]
		if c.Section != SysTrans || o.module < 0 {
			continue
		}
		safety[o.module] = safety[o.module].And(g.clause[i])
		if o.part == partSafety {
			strict[o.module] = strict[o.module].And(g.clause[i])
		}
	}
	reached := sp.False()
	inOut := append(append([]*fds.Var(nil), g.inputs...), g.outputs...)
	for q := 1; q < len(m.States); q++ {
		reached = reached.Or(sp.Assign(inOut, m.States[q].Values, false))
	}
	domN := g.dom.Prime()
	winN := res.win.Prime()
	base := make([]*fds.Var, len(vars))
	for i, v := range vars {
		base[i] = sp.Lookup(v)
	}
	legal := reached.And(g.rhoE).And(domN)
	var out []TracedMove
	var keys []string
	for k := range visited {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		from := visited[k]
		here := legal.And(sp.Assign(base, from, false))
		forEachValuation(base, func(to []int) {
			if taken[fmt.Sprint(from, to)] != nil {
				return
			}
			inst := here.And(sp.Assign(base, to, true)).And(woven)
			if inst.IsFalse() {
				return
			}
			tm := TracedMove{From: slices.Clone(from), To: slices.Clone(to), Text: w.moveText(vars, from, to)}
			if !inst.And(rhoB).IsFalse() {
				tm.DefinedBy = append(tm.DefinedBy, w.Base.Name)
			}
			for i, r := range rhoA {
				if !inst.And(r).IsFalse() {
					tm.DefinedBy = append(tm.DefinedBy, w.Aspects[i].Name)
				}
			}
			allSafe := inst
			for _, s := range safety {
				allSafe = allSafe.And(s)
			}
			if !allSafe.IsFalse() {
				tm.ForLiveness = allSafe.And(winN).IsFalse()
				tm.NotChosen = !tm.ForLiveness
				out = append(out, tm)
				return
			}
			for i := range safety {
				others := inst
				for j, s := range safety {
					if j != i {
						others = others.And(s)
					}
				}
				if !others.IsFalse() {
					tm.ForbiddenBy = append(tm.ForbiddenBy, w.moduleName(i))
				}
			}
			if len(tm.ForbiddenBy) == 0 {
				for i, s := range strict {
					if !inst.Diff(s).IsFalse() {
						tm.ForbiddenBy = append(tm.ForbiddenBy, w.moduleName(i))
					}
				}
			}
			out = append(out, tm)
		})
	}
	// Moves from values the controller never reaches (any instance within
	// the domains and the assumptions).
	n := 1
	for _, v := range base {
		n *= v.Hi() - v.Lo() + 1
	}
	anywhere := g.dom.And(g.rhoE).And(domN).And(woven)
	forEachValuation(base, func(from []int) {
		if n > maxUnreachedStates || visited[fmt.Sprint(from)] != nil {
			return
		}
		here := anywhere.And(sp.Assign(base, from, false))
		if here.IsFalse() {
			return
		}
		forEachValuation(base, func(to []int) {
			inst := here.And(sp.Assign(base, to, true))
			if inst.IsFalse() {
				return
			}
			tm := TracedMove{From: slices.Clone(from), To: slices.Clone(to), Text: w.moveText(vars, from, to), Unreached: true}
			if !inst.And(rhoB).IsFalse() {
				tm.DefinedBy = append(tm.DefinedBy, w.Base.Name)
			}
			for i, r := range rhoA {
				if !inst.And(r).IsFalse() {
					tm.DefinedBy = append(tm.DefinedBy, w.Aspects[i].Name)
				}
			}
			out = append(out, tm)
		})
	})
	if err := interrupted(ctx, sp.Err()); err != nil {
		return nil, err
	}
	sortMoves(out)
	return out, nil
}

// forEachValuation calls fn with every valuation of vars (the slice is
// reused).
func forEachValuation(vars []*fds.Var, fn func(vals []int)) {
	vals := make([]int, len(vars))
	for i, v := range vars {
		vals[i] = v.Lo()
	}
	for {
		fn(vals)
		i := len(vars) - 1
		for ; i >= 0; i-- {
			if vals[i] < vars[i].Hi() {
				vals[i]++
				break
			}
			vals[i] = vars[i].Lo()
		}
		if i < 0 {
			return
		}
	}
}
