package explore

import (
	"context"
	"errors"
	"fmt"
	"go/token"
	"go/types"
	"strings"
	"time"
	"unsafe"

	"github.com/henceforth-go/henceforth/symbolic"
)

// Symbolic inputs (issue 6). An exploration is symbolic when its entry
// is a //ltl:symbolic function (its parameters are inputs), when the
// entry's package has //ltl:symbolic variables, when the program calls
// ltltest.Symbolic, or when Options.SymbolicGlobals is set. Then:
//
//   - a symbolic scalar Value carries a *SymbolicTerm whose Term is a
//     symbolic.Value (its concrete part a is meaningless);
//   - BinOp, UnOp and Convert on booleans and integers build terms
//     (symbolic.BinOp…), forking a panicking path where Go panics
//     (division by a possibly-zero divisor, a possibly negative shift);
//   - an If on a symbolic condition asks the machine's symbolic.Session
//     which sides are feasible and forks when both are (a choice point of
//     kind branch, recorded in replay tokens);
//   - indexing with a symbolic index forks the out-of-range panic;
//   - where a concrete value is needed (allocation sizes, map keys,
//     slice bounds, interface conversions, calls of intrinsics and
//     builtins) the value is concretized from a model, the equality is
//     added to the path condition, and the execution records it.
//
// Every execution re-runs from the root (the explorer is stateless), so
// it resets the Session and assumes its branch conditions again; the
// Session reuses its solver stack and caches, so a replayed prefix costs
// no solver work. One Session per machine, i.e. per worker.
//
// An Unknown answer (solver time limit) never counts as feasible or
// infeasible: the side is not explored, the execution is marked
// inconclusive, and the report's Bound is "solver" (Verdict unknown).

// Input is the value a symbolic input takes on a finding's path.
type Input struct {
	Name string
	// Type is the Go type ("int", "uint8", "bool").
	Type string
	// Value is a Go value of that type (int, uint8, bool…).
	Value any
}

// String formats "name = value".
func (in Input) String() string { return fmt.Sprintf("%s = %v", in.Name, in.Value) }

// symbolicMode reports whether code is compiled for symbolic values.
func (m *machine) symbolicMode() bool { return m.opts != nil && m.opts.symbolic }

// symEngine reports whether the symbolic engine (not a Brancher) decides
// branches and builds terms.
func (m *machine) symEngine() bool { return m.symbolicMode() && m.opts.Brancher == nil }

// symState is the symbolic part of one execution.
type symState struct {
	sess   *symbolic.Session
	inputs []symInput
	// byName maps input names to indices in inputs.
	byName      map[string]int
	concretized []string
	// inconclusive lists why parts of this path's subtree were not
	// explored (solver unknowns and errors).
	inconclusive []string
	infeasible   int // branch sides proved infeasible
}

type symInput struct {
	name string
	t    symbolic.Type
	// gotype is the Go type as written (for EmitTest and Input.Type).
	gotype types.Type
}

// sym returns the execution's symbolic state, starting the machine's
// Session on first use. The error (Z3 could not start) becomes an
// unsupported finding at the caller.
func (x *execution) sym() (*symState, error) {
	if x.symst != nil {
		return x.symst, nil
	}
	m := x.m
	if m.sym == nil {
		cfg := symbolic.Config{Timeout: x.opts.SolverTimeout}
		s, err := symbolic.NewSession(cfg)
		if err != nil {
			return nil, err
		}
		m.sym = &symSessions{paths: s}
	}
	m.sym.paths.Reset()
	x.symst = &symState{sess: m.sym.paths, byName: map[string]int{}}
	return x.symst, nil
}

// symSessions are a machine's (a worker's) Sessions.
type symSessions struct {
	paths *symbolic.Session // follows the explored paths
}

// findingPath is what a finding needs to compute its inputs: the path
// condition and the inputs declared on the path.
type findingPath struct {
	inputs  []symInput
	pc      symbolic.PathCondition
	timeout time.Duration
}

// model computes a model of the path condition in a new Session (a new
// Z3 context): the inputs then depend only on the path condition, not on
// which paths the worker explored before, so a replay, another strategy
// or another worker report the same inputs. It runs once per finding of
// the report (collector.fill), not per execution.
func (fp *findingPath) model() (*symbolic.Model, error) {
	ms, err := symbolic.NewSession(symbolic.Config{Timeout: fp.timeout, DisableCache: true, DisableIncremental: true})
	if err != nil {
		return nil, err
	}
	for _, in := range fp.inputs {
		if _, err := ms.NewInput(in.name, in.t); err != nil {
			return nil, err
		}
	}
	for _, c := range fp.pc {
		if err := ms.Assume(c); err != nil {
			return nil, err
		}
	}
	return ms.Model(solverCtx())
}

// solverCtx is the context of solver queries: each is bounded by the
// Session's time limit (Options.SolverTimeout).
func solverCtx() context.Context { return context.Background() }

// symOf returns the symbolic.Value of a bool or integer Value of type t.
func symOf(v Value, t symbolic.Type) (symbolic.Value, bool) {
	if v.p != nil {
		s, ok := (*SymbolicTerm)(v.p).Term.(symbolic.Value)
		return s, ok && s.Type() == t
	}
	if t == symbolic.Bool {
		return symbolic.MakeBool(v.a != 0), true
	}
	return symbolic.MakeUint(t, v.a), true
}

// valueOfSym converts a symbolic.Value to the interpreter's
// representation: concrete values as usual (integers sign- or
// zero-extended), symbolic ones as a *SymbolicTerm.
func valueOfSym(s symbolic.Value) Value {
	if s.IsSymbolic() {
		return Value{p: unsafe.Pointer(&SymbolicTerm{Term: s})}
	}
	if b, ok := s.Bool(); ok {
		return boolV(b)
	}
	if s.Type().Signed() {
		n, _ := s.Int64()
		return Value{a: uint64(n)}
	}
	n, _ := s.Uint64()
	return Value{a: n}
}

// newInput declares a fresh input (or returns the one of that name
// already declared on the path: one name is one input).
func (x *execution) newInput(g *goroutine, pos token.Pos, name string, gt types.Type) (Value, ctrl) {
	t, ok := symbolic.TypeOf(gt)
	if !ok {
		return Value{}, g.unsupported(pos, "symbolic input %s of type %s (only booleans and integers)", name, gt)
	}
	if vals := x.opts.Inputs; vals != nil || !x.m.symEngine() {
		// A concrete run with given inputs (missing ones are zero).
		v, err := concreteInput(vals[name], t)
		if err != nil {
			return Value{}, g.unsupported(pos, "input %s: %v", name, err)
		}
		return v, ctrlNext
	}
	st, err := x.sym()
	if err != nil {
		return Value{}, g.unsupported(pos, "symbolic input %s: %v", name, err)
	}
	if i, ok := st.byName[name]; ok {
		in := st.inputs[i]
		if in.t != t {
			return Value{}, g.unsupported(pos, "symbolic input %s used with types %s and %s", name, in.gotype, gt)
		}
		return valueOfSym(symbolic.Input(name, t)), ctrlNext
	}
	v, err := st.sess.NewInput(name, t)
	if err != nil {
		return Value{}, g.unsupported(pos, "symbolic input %s: %v", name, err)
	}
	st.byName[name] = len(st.inputs)
	st.inputs = append(st.inputs, symInput{name: name, t: t, gotype: gt})
	return valueOfSym(v), ctrlNext
}

// concreteInput converts a value given in Options.Inputs (any Go integer
// or bool, or a float64 from JSON) to the interpreter's representation
// of type t.
func concreteInput(x any, t symbolic.Type) (Value, error) {
	if x == nil {
		return valueOfSym(symbolic.MakeUint(t, 0)), nil
	}
	if f, ok := x.(float64); ok {
		if f != float64(int64(f)) {
			return Value{}, fmt.Errorf("value %v is not an integer", f)
		}
		x = int64(f)
	}
	v, err := symbolic.FromGo(x)
	if err != nil {
		return Value{}, err
	}
	if t == symbolic.Bool || v.Type() == symbolic.Bool {
		if v.Type() != t {
			return Value{}, fmt.Errorf("value %v (%T) for a %s", x, x, t)
		}
		return valueOfSym(v), nil
	}
	c, err := symbolic.Convert(v, t)
	if err != nil {
		return Value{}, err
	}
	return valueOfSym(c), nil
}

// symFork decides a branch on the symbolic bool cond: it returns the
// outcome this path takes. When the solver finds both outcomes feasible
// the path forks at a choice point; the condition of the taken side is
// assumed. what names the branch in notes ("if", "index bounds").
func (x *execution) symFork(fr *frame, pos token.Pos, cond symbolic.Value, what string) (bool, ctrl) {
	taken, _, cc := x.symDecide(fr.g, pos, cond, what)
	return taken, cc
}

// symDecide is symFork for any goroutine g (the one at whose step the
// decision is made; a choice point needs one): it also reports whether
// the path forked (both outcomes feasible).
func (x *execution) symDecide(g *goroutine, pos token.Pos, cond symbolic.Value, what string) (taken, forked bool, cc ctrl) {
	st, err := x.sym()
	if err != nil {
		return false, false, g.unsupported(pos, "symbolic branch: %v", err)
	}
	onT, onF, err := st.sess.Branch(solverCtx(), cond)
	if err != nil {
		return false, false, x.symInconclusive(g, pos, "solver error at %s %s: %v", what, cond, err)
	}
	canT, canF := onT.Status == symbolic.Sat, onF.Status == symbolic.Sat
	for _, side := range []struct {
		r       symbolic.Result
		outcome bool
	}{{onT, true}, {onF, false}} {
		switch side.r.Status {
		case symbolic.Unknown:
			st.inconclusive = append(st.inconclusive, fmt.Sprintf("%s: the %v side of %s %s was not explored: the solver answered %s",
				shortPos(x.m.prog.Fset.Position(pos)), side.outcome, what, cond, side.r))
		case symbolic.Unsat:
			st.infeasible++
		}
	}
	switch {
	case canT && canF:
		i, cc := x.chooseBranch(g)
		if cc != ctrlNext {
			return false, false, cc
		}
		taken, forked = i == 1, true
	case canT:
		taken = true
	case canF:
		taken = false
	case onT.Status == symbolic.Unknown || onF.Status == symbolic.Unknown:
		return false, false, x.symInconclusive(g, pos, "neither side of %s %s is known to be feasible", what, cond)
	default:
		// The path itself is infeasible (cannot happen after a feasible
		// fork; kept as a guard).
		return false, false, x.symInconclusive(g, pos, "the path condition became infeasible at %s %s", what, cond)
	}
	// The taken side needs no assumption when the other is infeasible
	// (the path condition implies it).
	other := onF
	c := cond
	if !taken {
		other, c = onT, symbolic.Not(cond)
	}
	if other.Status != symbolic.Unsat {
		if err := st.sess.Assume(c); err != nil {
			return false, false, x.symInconclusive(g, pos, "solver error at %s: %v", what, err)
		}
	}
	return taken, forked, ctrlNext
}

// symInconclusive ends the execution: the solver could not decide. The
// report's Bound becomes "solver".
func (x *execution) symInconclusive(g *goroutine, pos token.Pos, format string, args ...any) ctrl {
	msg := fmt.Sprintf(format, args...)
	if st := x.symst; st != nil {
		st.inconclusive = append(st.inconclusive, shortPos(x.m.prog.Fset.Position(pos))+": "+msg)
	}
	x.note(g, pos, "inconclusive: %s", msg)
	x.bound = "solver"
	x.stopped = true
	return ctrlStop
}

// concretize replaces the symbolic value *vp (of type t) by a concrete
// value it can take on this path, adding the equality to the path
// condition. why says what needed a concrete value.
func (x *execution) concretize(g *goroutine, pos token.Pos, vp *Value, t symbolic.Type, why string) ctrl {
	v := *vp
	if v.p == nil {
		return ctrlNext
	}
	sv, ok := symOf(v, t)
	if !ok {
		return g.unsupported(pos, "%s: a symbolic value of another engine", why)
	}
	st, err := x.sym()
	if err != nil {
		return g.unsupported(pos, "%s: %v", why, err)
	}
	c, err := st.sess.Concretize(solverCtx(), sv)
	if err != nil {
		var unk *symbolic.UnknownError
		if errors.As(err, &unk) || !errors.Is(err, symbolic.ErrInfeasible) {
			return x.symInconclusive(g, pos, "concretizing %s (%s): %v", sv, why, err)
		}
		return x.symInconclusive(g, pos, "concretizing %s (%s): the path is infeasible", sv, why)
	}
	note := fmt.Sprintf("%s concretized to %s (%s)", sv, c, why)
	st.concretized = append(st.concretized, shortPos(x.m.prog.Fset.Position(pos))+": "+note)
	x.note(g, pos, "%s", note)
	*vp = valueOfSym(c)
	return ctrlNext
}

// symbolicFinding adds the inputs, the path condition and the
// concretizations of the path to a finding.
func (x *execution) symbolicFinding(f *Finding) {
	st := x.symst
	if st == nil {
		return
	}
	f.Concretized = append([]string(nil), st.concretized...)
	if len(st.inputs) == 0 {
		return
	}
	pc := st.sess.PathCondition()
	f.PathCondition = pc.String()
	f.path = &findingPath{inputs: append([]symInput(nil), st.inputs...), pc: pc, timeout: x.opts.SolverTimeout}
}

// findInputs computes the inputs of a report's finding (see
// findingPath.model). A model the solver cannot find makes the report
// inconclusive.
func (c *collector) findInputs(f *Finding) {
	fp := f.path
	if fp == nil || f.Inputs != nil {
		return
	}
	model, err := fp.model()
	if err != nil {
		f.Explanation = strings.TrimSpace(f.Explanation + "\ninputs unknown: " + err.Error())
		c.inconclusive++
		c.bounds["solver"] = true
		if c.warns == nil {
			c.warns = map[string]bool{}
		}
		c.warns[fmt.Sprintf("inconclusive: %s: no inputs for the finding: %v", shortPos(f.Pos), err)] = true
		return
	}
	for _, in := range fp.inputs {
		v, _ := model.Value(in.name)
		if !v.IsValid() {
			v = symbolic.MakeUint(in.t, 0)
			if in.t == symbolic.Bool {
				v = symbolic.MakeBool(false)
			}
		}
		gv, _ := v.Concrete()
		f.Inputs = append(f.Inputs, Input{Name: in.name, Type: types.TypeString(in.gotype, shortQualifier), Value: gv})
	}
}

// shortQualifier prints package names, not paths.
func shortQualifier(p *types.Package) string { return p.Name() }

// InputMap returns the finding's inputs as a map (for Options.Inputs).
func (f *Finding) InputMap() map[string]any {
	if len(f.Inputs) == 0 {
		return nil
	}
	m := make(map[string]any, len(f.Inputs))
	for _, in := range f.Inputs {
		m[in.Name] = in.Value
	}
	return m
}

// formatInputs prints "a = 1, b = -2".
func formatInputs(ins []Input) string {
	parts := make([]string, len(ins))
	for i, in := range ins {
		parts[i] = in.String()
	}
	return strings.Join(parts, ", ")
}

// addSymbolic records an execution's inconclusive branches (with c.mu
// held).
func (c *collector) addSymbolic(x *execution) {
	st := x.symst
	if st == nil {
		return
	}
	c.infeasible += st.infeasible
	if len(st.inconclusive) == 0 {
		return
	}
	c.inconclusive++
	c.bounds["solver"] = true
	if c.warns == nil {
		c.warns = map[string]bool{}
	}
	for _, w := range st.inconclusive {
		c.warns["inconclusive: "+w] = true
	}
}
