package synth

import (
	"context"
	"errors"
	"fmt"

	"github.com/henceforth-go/henceforth/internal/fds"
)

// game is a Spec compiled to the GR(1) game structure of the JTLV thesis
// (§3.1.2): G = ⟨V, X, Y, θe, θs, ρe, ρs, ⋀GF Je → ⋀GF Js⟩ over a Space.
//
// Invariants: θe mentions only X; ρe mentions V and X′; ρs mentions V and
// V′; every variable's domain constraint is part of the initial condition
// and transition relation of the player that controls it; envJ and sysJ
// are never empty (an empty list is {true}).
type game struct {
	spec *Spec
	sp   *fds.Space

	inputs  []*fds.Var // X, in Spec.Inputs order
	outputs []*fds.Var // the Spec's outputs, in Spec.Outputs order
	aux     []*fds.Var // system-controlled flags of the implication game
	sys     []*fds.Var // Y: outputs then aux
	all     []*fds.Var // X ∪ Y
	counter *fds.Var   // the controller's memory Zn: the guarantee pursued
	envMem  *fds.Var   // the counterstrategy's memory: the assumption pursued

	clause []fds.BDD // compiled Spec.Clauses, same indexes

	thetaE, thetaS fds.BDD
	rhoE, rhoS     fds.BDD
	envJ, sysJ     []fds.BDD
	dom            fds.BDD // domain constraints of X ∪ Y (unprimed)
	arena          *fds.Arena

	memo     map[walkKey]fds.BDD // compile's memo while compiling
	cluster  int                 // cluster size of the partitioned ρs; 0: monolithic
	maxBytes int64               // bound on an explicit machine's estimated live size (0: none)
	parallel int                 // goroutines for determinization (WithParallelism; 0: GOMAXPROCS)

	// src maps each entry of sysJ and envJ back to its clause (-1 for an
	// implicit true or an implication flag).
	sysJClause, envJClause []int
}

// newGame declares the variables of spec in a fresh Space, in the given order
// of Inputs++Outputs indexes (nil for declaration order), and compiles its
// clauses. assemble must then be called.
func newGame(spec *Spec, order []int, opts *options) (*game, error) {
	return newGameWith(spec, order, opts, nil, nil)
}

// newGameWith is newGame declaring extra Boolean variables: top before the
// spec's variables (right below the goal counter), after[i] right after the
// spec's variable i (an index into Inputs++Outputs).
func newGameWith(spec *Spec, order []int, opts *options, top []string, after map[int][]string) (*game, error) {
	if err := spec.Check(); err != nil {
		return nil, err
	}
	spOpts := []fds.Option{fds.WithBackend(opts.backend)}
	if opts.reorder {
		spOpts = append(spOpts, fds.WithReordering())
	}
	sp := fds.NewSpace(spOpts...)
	g := &game{spec: spec, sp: sp, cluster: opts.cluster, maxBytes: opts.maxBytes / 4, parallel: opts.parallel}
	g.inputs = make([]*fds.Var, len(spec.Inputs))
	g.outputs = make([]*fds.Var, len(spec.Outputs))
	all := append(append([]Var(nil), spec.Inputs...), spec.Outputs...)
	// The goal counter goes on top: the controller's relation is then a
	// case split on the goal with one sub-relation per goal below, instead
	// of the goal's tests repeated under every path. The fixpoints do not
	// mention it.
	n := len(spec.Section(SysLiveness))
	if spec.Semantics == Implication {
		n++ // the system's safety flag is a liveness guarantee too
	}
	g.counter, _ = sp.Int("#goal", 0, max(1, n)-1)
	for _, name := range top {
		if _, err := sp.Bool(name); err != nil {
			return nil, err
		}
	}
	if order == nil {
		order = make([]int, len(all))
		for i := range order {
			order[i] = i
		}
	}
	for _, idx := range order {
		v := all[idx]
		var fv *fds.Var
		var err error
		if v.Bool {
			fv, err = sp.Bool(v.Name)
		} else {
			fv, err = sp.Int(v.Name, v.Lo, v.Hi)
		}
		if err != nil {
			return nil, errorf(v.Pos, ErrType, "%v", err)
		}
		if idx < len(spec.Inputs) {
			g.inputs[idx] = fv
		} else {
			g.outputs[idx-len(spec.Inputs)] = fv
		}
		for _, name := range after[idx] {
			if _, err := sp.Bool(name); err != nil {
				return nil, err
			}
		}
	}
	g.sys = append([]*fds.Var(nil), g.outputs...)
	if spec.Semantics == Implication {
		sfe, _ := sp.Bool("#sf_e")
		sfs, _ := sp.Bool("#sf_s")
		g.aux = []*fds.Var{sfe, sfs}
		g.sys = append(g.sys, g.aux...)
	}
	g.all = append(append([]*fds.Var(nil), g.inputs...), g.sys...)
	m := max(1, len(spec.Section(EnvLiveness))+len(g.aux)/2)
	g.envMem, _ = sp.Int("#assumption", 0, m-1)
	if err := sp.Build(); err != nil {
		return nil, err
	}
	g.memo = map[walkKey]fds.BDD{}
	g.clause = make([]fds.BDD, len(spec.Clauses))
	for i, c := range spec.Clauses {
		b, err := g.compile(c.Expr, false)
		if err != nil {
			return nil, err
		}
		g.clause[i] = b
	}
	g.memo = nil
	g.dom = sp.True()
	for _, v := range g.all {
		g.dom = g.dom.And(v.Dom(false))
	}
	return g, sp.Err()
}

// assemble builds θe, θs, ρe, ρs and the justice lists from the compiled
// clauses, keeping only the guarantees with keep[i] (nil keeps all), under
// the Spec's semantics.
func (g *game) assemble(keep []bool) {
	sp := g.sp
	sect := [numSections]fds.BDD{}
	for i := range sect {
		sect[i] = sp.True()
	}
	var envJ, sysJ []fds.BDD
	var envJC, sysJC []int
	var sysParts []fds.BDD
	for i, c := range g.spec.Clauses {
		if keep != nil && c.Section.IsGuarantee() && !keep[i] {
			continue
		}
		switch c.Section {
		case EnvLiveness:
			envJ = append(envJ, g.clause[i])
			envJC = append(envJC, i)
		case SysLiveness:
			sysJ = append(sysJ, g.clause[i])
			sysJC = append(sysJC, i)
		default:
			sect[c.Section] = sect[c.Section].And(g.clause[i])
			if c.Section == SysTrans {
				sysParts = append(sysParts, g.clause[i])
			}
		}
	}
	domX, domXn := sp.True(), sp.True()
	for _, v := range g.inputs {
		domX = domX.And(v.Dom(false))
		domXn = domXn.And(v.Dom(true))
	}
	domY, domYn := sp.True(), sp.True()
	for _, v := range g.sys {
		domY = domY.And(v.Dom(false))
		domYn = domYn.And(v.Dom(true))
	}
	thetaE := sect[EnvInit]
	thetaS := sect[SysInit]
	rhoE := sect[EnvTrans]
	rhoS := sect[SysTrans]
	if g.spec.Semantics == Implication {
		// Theorem 3.5: the system keeps flags sf_e and sf_s recording whether
		// each side's initial and safety parts still hold; the environment
		// is unconstrained.
		sfe, sfs := g.aux[0], g.aux[1]
		thetaS = thetaE.Iff(sfe.True(false)).And(thetaS.Iff(sfs.True(false)))
		rhoS = rhoE.And(sfe.True(false)).Iff(sfe.True(true)).
			And(rhoS.And(sfs.True(false)).Iff(sfs.True(true)))
		thetaE, rhoE = sp.True(), sp.True()
		sysParts = []fds.BDD{rhoS}
		envJ = append([]fds.BDD{sfe.True(false)}, envJ...)
		envJC = append([]int{-1}, envJC...)
		sysJ = append([]fds.BDD{sfs.True(false)}, sysJ...)
		sysJC = append([]int{-1}, sysJC...)
	}
	if len(envJ) == 0 {
		envJ, envJC = []fds.BDD{sp.True()}, []int{-1}
	}
	if len(sysJ) == 0 {
		sysJ, sysJC = []fds.BDD{sp.True()}, []int{-1}
	}
	g.thetaE = thetaE.And(domX)
	g.thetaS = thetaS.And(domY)
	g.rhoE = rhoE.And(domXn)
	g.rhoS = rhoS.And(domYn)
	g.envJ, g.sysJ = envJ, sysJ
	g.envJClause, g.sysJClause = envJC, sysJC
	if g.cluster > 0 {
		g.arena = sp.NewPartitionedArena(g.rhoE, append(sysParts, domYn), g.inputs, g.sys, g.cluster)
	} else {
		g.arena = sp.NewArena(g.rhoE, g.rhoS, g.inputs, g.sys)
	}
}

// initialWin reports whether the system can start in the set win whatever
// initial input the environment picks: ∀X. θe → ∃Y. θs ∧ win.
func (g *game) initialWin(win fds.BDD) bool {
	sp := g.sp
	ys := sp.CubeOf(g.sys, false)
	xs := sp.CubeOf(g.inputs, false)
	return g.thetaE.Imp(g.thetaS.AndExists(win, ys)).Forall(xs).IsTrue()
}

// compile translates a Boolean expression to a BDD over the game's
// variables, primed inside next.
func (g *game) compile(e *Expr, next bool) (fds.BDD, error) {
	k := walkKey{e, next}
	if b, ok := g.memo[k]; ok {
		return b, nil
	}
	b, err := g.compileNode(e, next)
	if err == nil {
		g.memo[k] = b
	}
	return b, err
}

func (g *game) compileNode(e *Expr, next bool) (fds.BDD, error) {
	sp := g.sp
	switch e.Op {
	case ExprTrue:
		return sp.True(), nil
	case ExprFalse:
		return sp.False(), nil
	case ExprVar:
		v := sp.Lookup(e.Name)
		if v == nil || !v.IsBool() {
			return fds.BDD{}, errorf(e.Pos, ErrType, "%s is not a Boolean variable", e.Name)
		}
		return v.True(next), nil
	case ExprNext:
		return g.compile(e.Args[0], true)
	case ExprNot:
		a, err := g.compile(e.Args[0], next)
		return a.Not(), err
	case ExprAnd, ExprOr, ExprXor, ExprImp, ExprIff:
		a, b, err := g.operands(e, next)
		if err != nil {
			return a, err
		}
		switch e.Op {
		case ExprAnd:
			return a.And(b), nil
		case ExprOr:
			return a.Or(b), nil
		case ExprXor:
			return a.Xor(b), nil
		case ExprImp:
			return a.Imp(b), nil
		}
		return a.Iff(b), nil
	case ExprEq, ExprNe, ExprLt, ExprLe, ExprGt, ExprGe:
		if t, _ := g.spec.typeOf(e.Args[0], next); t == typeBool {
			a, b, err := g.operands(e, next)
			if err != nil {
				return a, err
			}
			if e.Op == ExprNe {
				return a.Xor(b), nil
			}
			return a.Iff(b), nil
		}
		a, b, err := g.intOperands(e, next)
		if err != nil {
			return fds.BDD{}, err
		}
		switch e.Op {
		case ExprEq:
			return a.Eq(b), nil
		case ExprNe:
			return a.Eq(b).Not(), nil
		case ExprLt:
			return a.Lt(b), nil
		case ExprLe:
			return a.Le(b), nil
		case ExprGt:
			return b.Lt(a), nil
		}
		return b.Le(a), nil
	}
	return fds.BDD{}, errorf(e.Pos, ErrNotGR1, "operator %s cannot be compiled", opName(e))
}

func (g *game) compileInt(e *Expr, next bool) (fds.Vec, error) {
	sp := g.sp
	switch e.Op {
	case ExprInt:
		return sp.ConstVec(e.Val), nil
	case ExprVar:
		v := sp.Lookup(e.Name)
		if v == nil || v.IsBool() {
			return fds.Vec{}, errorf(e.Pos, ErrType, "%s is not an integer variable", e.Name)
		}
		return v.Vec(next), nil
	case ExprNext:
		return g.compileInt(e.Args[0], true)
	case ExprAdd, ExprSub:
		a, b, err := g.intOperands(e, next)
		if err != nil {
			return a, err
		}
		if e.Op == ExprAdd {
			return a.Add(b), nil
		}
		return a.Sub(b), nil
	}
	return fds.Vec{}, errorf(e.Pos, ErrType, "%s is not an integer expression", e)
}

// operands compiles the two Boolean operands of e.
func (g *game) operands(e *Expr, next bool) (a, b fds.BDD, err error) {
	if a, err = g.compile(e.Args[0], next); err == nil {
		b, err = g.compile(e.Args[1], next)
	}
	return a, b, err
}

// intOperands compiles the two integer operands of e.
func (g *game) intOperands(e *Expr, next bool) (a, b fds.Vec, err error) {
	if a, err = g.compileInt(e.Args[0], next); err == nil {
		b, err = g.compileInt(e.Args[1], next)
	}
	return a, b, err
}

// bind makes the BDD operations of g's Space stop once ctx is done
// (fds.Space.SetContext): a computation then fails promptly with an error
// wrapping ctx.Err() instead of finishing its current BDD operation, which
// could take minutes. The returned function detaches ctx; g is then usable
// again (BDDs made before the interruption are intact). Results computed
// while ctx was done are meaningless: callers pass them through interrupted.
func (g *game) bind(ctx context.Context) (release func()) {
	g.sp.SetContext(ctx)
	return func() { g.sp.SetContext(nil) }
}

// interrupted returns err, or ctx's error if ctx is done (then nothing
// computed under bind(ctx) can be trusted, not even an error it caused);
// an error that already wraps ctx's error is kept.
//
// A node table that reached its limit (WithMemoryLimit) becomes an error
// wrapping ErrMemoryBound.
func interrupted(ctx context.Context, err error) error {
	if errors.Is(err, fds.ErrNodeLimit) && !errors.Is(err, ErrMemoryBound) {
		err = fmt.Errorf("synth: %w: %w", ErrMemoryBound, err)
	}
	cerr := ctx.Err()
	if cerr == nil || (err != nil && errors.Is(err, cerr)) {
		return err
	}
	return cerr
}
