package explore

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"go/token"
	"go/types"
	"slices"
	"strings"
	"time"
	"unsafe"

	"github.com/henceforth-go/henceforth/symbolic"
)

// Symbolic inputs. An exploration is symbolic when its entry
// is a //ltl:symbolic function (its parameters are inputs), when the
// entry's package has //ltl:symbolic variables, or when the program calls
// ltltest.Symbolic. Then:
//
//   - a symbolic scalar Value carries a *symTerm whose Term is a
//     symbolic.Value (its concrete part a is meaningless);
//   - BinOp, UnOp and Convert on booleans and integers build terms
//     (symbolic.BinOp…), forking a panicking path where Go panics
//     (division by a possibly-zero divisor, a possibly negative shift);
//   - an If on a symbolic condition asks the machine's symbolic.Session
//     which sides are feasible and forks when both are (a choice point of
//     kind branch, recorded in replay tokens);
//   - indexing with a symbolic index forks the out-of-range panic;
//   - a map operation with a symbolic key, or on a map holding symbolic
//     keys, forks over the keys present it may equal and "none of them"
//     (symbolic_maps.go), so map keys stay symbolic;
//   - allocation sizes and slice bounds fork Go's panic (as indexes do);
//   - where a concrete value is needed (allocation sizes, in-range
//     indexes, slice bounds, interface conversions, conversions to floats
//     and strings, calls of intrinsics and builtins, memory a modelled
//     function reads) the value is split: every value it can take on the
//     path (at most Options.MaxSplit) is explored on its own path (a
//     choice of kind branch), so all inputs stay covered. A value that
//     can take more is fixed to one (concretized): the execution records
//     it, and the report is incomplete (Bound "concretized", Verdict
//     unknown, Warnings list what was fixed). A value fixed only to word
//     the message of a panic that ends the path is covered by that
//     finding.
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

// symState is the symbolic part of one execution.
type symState struct {
	sess *symbolic.Session
	// ctx is the exploration's context (nil: none): a query ends when
	// the exploration's time is up.
	ctx    context.Context
	inputs []symInput
	// byName maps input names to indices in inputs.
	byName map[string]int
	// concretized lists the values the path split or fixed (for
	// findings); uncovered those fixed without covering the other values
	// (the report becomes incomplete); panicFixed those fixed for the
	// message of a panic (uncovered unless the path ends with a panic).
	concretized, uncovered, panicFixed []string
	// mapKeys holds, per map, the slots of entries with symbolic keys
	// (symbolic_maps.go).
	mapKeys map[*mapObject][]int
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
	x.symst = &symState{sess: m.sym.paths, byName: map[string]int{}, ctx: x.opts.context()}
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
func (fp *findingPath) model(ctx context.Context) (*symbolic.Model, error) {
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
	return ms.Model(ctx)
}

// solverCtx is the context of the queries of an exploration: each is
// bounded by the Session's time limit and by the exploration's context.
func (st *symState) solverCtx() context.Context { return st.ctx }

// symOf returns the symbolic.Value of a bool or integer Value of type t.
func symOf(v Value, t symbolic.Type) (symbolic.Value, bool) {
	if v.p != nil {
		s, ok := (*symTerm)(v.p).Term.(symbolic.Value)
		return s, ok && s.Type() == t
	}
	if t == symbolic.Bool {
		return symbolic.MakeBool(v.a != 0), true
	}
	return symbolic.MakeUint(t, v.a), true
}

// valueOfSym converts a symbolic.Value to the interpreter's
// representation: concrete values as usual (integers sign- or
// zero-extended), symbolic ones as a *symTerm.
func valueOfSym(s symbolic.Value) Value {
	if s.IsSymbolic() {
		return Value{p: unsafe.Pointer(&symTerm{Term: s})}
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
	if vals := x.opts.Inputs; vals != nil || !x.m.symbolicMode() {
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
	onT, onF, err := st.sess.Branch(st.solverCtx(), cond)
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

// concretize makes the symbolic value *vp (of type t) concrete where the
// interpreter needs a concrete value: it splits the path over every value
// *vp can take (at most Options.MaxSplit: a choice of kind branch, the
// equality assumed on each side), or, if it can take more, fixes it to
// one and records that the other values are not covered (the report's
// Bound becomes "concretized"). why says what needed a concrete value.
func (x *execution) concretize(g *goroutine, pos token.Pos, vp *Value, t symbolic.Type, why string) ctrl {
	return x.split(g, pos, vp, t, why, false)
}

// concretizeSize is concretize for an allocation size: a value that is
// not covered is preferably small (an arbitrary model value could
// allocate gigabytes).
func (x *execution) concretizeSize(g *goroutine, pos token.Pos, vp *Value, t symbolic.Type, why string) ctrl {
	return x.split(g, pos, vp, t, why, true)
}

// symOperand prepares the concretization of v (of type t): it returns
// its symbolic value, the path's symbolic state, and the position to
// report (pos, or the goroutine's for an implicit conversion). st is nil
// if there is nothing to concretize (v is nil) or v cannot be
// concretized: the caller then returns cc.
func (x *execution) symOperand(g *goroutine, pos token.Pos, v Value, t symbolic.Type, why string) (sv symbolic.Value, st *symState, at token.Pos, cc ctrl) {
	if v.p == nil {
		return sv, nil, pos, ctrlNext
	}
	if !pos.IsValid() {
		pos = g.sourcePos() // an implicit conversion
	}
	sv, ok := symOf(v, t)
	if !ok {
		return sv, nil, pos, g.unsupported(pos, "%s: a symbolic value of another engine", why)
	}
	st, err := x.sym()
	if err != nil {
		return sv, nil, pos, g.unsupported(pos, "%s: %v", why, err)
	}
	return sv, st, pos, ctrlNext
}

// infeasible reports whether a solver error says that the path is
// infeasible (and not that the solver gave up).
func infeasible(err error) bool {
	var unk *symbolic.UnknownError
	return !errors.As(err, &unk) && errors.Is(err, symbolic.ErrInfeasible)
}

// concretizeFailed ends the execution as inconclusive: the solver failed
// to give a value of sv.
func (x *execution) concretizeFailed(g *goroutine, pos token.Pos, sv symbolic.Value, why string, err error) ctrl {
	if infeasible(err) {
		return x.symInconclusive(g, pos, "concretizing %s (%s): the path is infeasible", sv, why)
	}
	return x.symInconclusive(g, pos, "concretizing %s (%s): %v", sv, why, err)
}

func (x *execution) split(g *goroutine, pos token.Pos, vp *Value, t symbolic.Type, why string, size bool) ctrl {
	sv, st, pos, cc := x.symOperand(g, pos, *vp, t, why)
	if st == nil {
		return cc
	}
	limit := x.opts.maxSplit()
	vals, err := st.values(sv, limit+1)
	if err != nil && !infeasible(err) {
		return x.concretizeFailed(g, pos, sv, why, err)
	}
	if len(vals) == 0 {
		return x.concretizeFailed(g, pos, sv, why, symbolic.ErrInfeasible)
	}
	at := shortPos(x.m.prog.Fset.Position(pos)) + ": "
	var c symbolic.Value
	var note string
	switch {
	case len(vals) == 1:
		// The path determines the value: nothing is fixed.
		*vp = valueOfSym(vals[0])
		return ctrlNext
	case len(vals) > limit:
		c = vals[0]
		if size {
			if s, ok := st.small(sv); ok {
				c = s
			}
		}
		note = fmt.Sprintf("%s concretized to %s (%s): not covered, it can take more than %d values (Options.MaxSplit)", sv, c, why, limit)
		st.uncovered = append(st.uncovered, at+note)
	default:
		i, cc := x.chooseLocal(g, len(vals), choiceBranch)
		if cc != ctrlNext {
			return cc
		}
		c = vals[i]
		note = fmt.Sprintf("%s split into its %d possible values (%s): %s here", sv, len(vals), why, c)
	}
	eq, err := symbolic.BinOp(token.EQL, sv, c)
	if err == nil {
		err = st.sess.Assume(eq)
	}
	if err != nil {
		return x.symInconclusive(g, pos, "concretizing %s (%s): %v", sv, why, err)
	}
	st.concretized = append(st.concretized, at+note)
	x.note(g, pos, "%s", note)
	*vp = valueOfSym(c)
	return ctrlNext
}

// concretizeForPanic fixes the symbolic value *vp to one value the path
// allows, where it only words the message of the panic that follows (an
// index out of range, bad slice bounds or sizes). The panic is the path's
// finding whatever the value; if the program recovers it and goes on, the
// other values are not covered (collector.addSymbolic).
func (x *execution) concretizeForPanic(g *goroutine, pos token.Pos, vp *Value, t symbolic.Type, why string) ctrl {
	sv, st, pos, cc := x.symOperand(g, pos, *vp, t, why)
	if st == nil {
		return cc
	}
	if vals, err := st.values(sv, 2); err == nil && len(vals) == 1 {
		*vp = valueOfSym(vals[0]) // determined by the path
		return ctrlNext
	}
	c, err := st.sess.Concretize(st.solverCtx(), sv)
	if err != nil {
		return x.concretizeFailed(g, pos, sv, why, err)
	}
	note := fmt.Sprintf("%s concretized to %s (%s)", sv, c, why)
	st.concretized = append(st.concretized, shortPos(x.m.prog.Fset.Position(pos))+": "+note)
	st.panicFixed = append(st.panicFixed, shortPos(x.m.prog.Fset.Position(pos))+": "+note+": the panic was recovered")
	x.note(g, pos, "%s", note)
	*vp = valueOfSym(c)
	return ctrlNext
}

// values returns up to n distinct values sv can take on the path, in
// increasing order (so that a choice among them picks the same value in
// every execution through the path). It does not change the path
// condition.
func (st *symState) values(sv symbolic.Value, n int) ([]symbolic.Value, error) {
	s := st.sess
	s.Push()
	defer s.Pop()
	var vals []symbolic.Value
	for len(vals) < n {
		m, err := s.Model(st.solverCtx())
		if errors.Is(err, symbolic.ErrInfeasible) {
			break
		}
		if err != nil {
			return vals, err
		}
		c := m.Eval(sv)
		vals = append(vals, c)
		ne, err := symbolic.BinOp(token.NEQ, sv, c)
		if err != nil {
			return vals, err
		}
		if err := s.Assume(ne); err != nil {
			return vals, err
		}
	}
	slices.SortFunc(vals, compareSym)
	return vals, nil
}

// compareSym orders concrete values of one type numerically.
func compareSym(a, b symbolic.Value) int {
	if x, ok := a.Bool(); ok {
		y, _ := b.Bool()
		return cmp.Compare(b2i(x), b2i(y))
	}
	if a.Type().Signed() {
		x, _ := a.Int64()
		y, _ := b.Int64()
		return cmp.Compare(x, y)
	}
	x, _ := a.Uint64()
	y, _ := b.Uint64()
	return cmp.Compare(x, y)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// small returns a value of sv on the path no larger than 4096, if there
// is one (for allocation sizes).
func (st *symState) small(sv symbolic.Value) (symbolic.Value, bool) {
	s := st.sess
	w, err := symbolic.Convert(sv, symbolic.Uint64)
	if err != nil {
		return symbolic.Value{}, false
	}
	le, err := symbolic.BinOp(token.LEQ, w, symbolic.MakeUint(symbolic.Uint64, 4096))
	if err != nil {
		return symbolic.Value{}, false
	}
	s.Push()
	defer s.Pop()
	if s.Assume(le) != nil {
		return symbolic.Value{}, false
	}
	m, err := s.Model(st.solverCtx())
	if err != nil {
		return symbolic.Value{}, false
	}
	return m.Eval(sv), true
}

// maxSplit is Options.MaxSplit with its default.
func (o *Options) maxSplit() int {
	if o.MaxSplit > 0 {
		return o.MaxSplit
	}
	return 16
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
	// the inputs are computed even if the exploration's time ran out:
	// each query is bounded by Options.SolverTimeout
	model, err := fp.model(context.WithoutCancel(c.opts.context()))
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

// addSymbolic records an execution's inconclusive branches and the
// values it fixed without covering the others (with c.mu held).
func (c *collector) addSymbolic(x *execution) {
	st := x.symst
	if st == nil {
		return
	}
	c.infeasible += st.infeasible
	uncovered := st.uncovered
	if len(st.panicFixed) > 0 && !x.hasKind(KindPanic) && !x.sleepBlocked && !x.hasFatalFinding() {
		uncovered = append(uncovered, st.panicFixed...)
	}
	if len(uncovered) > 0 {
		c.bounds["concretized"] = true
		if c.warns == nil {
			c.warns = map[string]bool{}
		}
		if c.concretized == nil {
			c.concretized = map[string]bool{}
		}
		for _, w := range uncovered {
			c.warns["concretized: "+w] = true
			c.concretized[w] = true
		}
	}
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
