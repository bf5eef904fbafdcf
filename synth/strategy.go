package synth

import (
	"context"
	"fmt"

	"github.com/henceforth-go/henceforth/internal/fds"
)

// StepKind says why a controller step was chosen: the three kinds of step of
// the thesis's strategy (§3.1.4.1), plus the initial step.
type StepKind uint8

const (
	// StepInit is the first step: an initial state in the winning region.
	StepInit StepKind = iota
	// StepSwitchGoal (ρ1): the guarantee being pursued holds; move anywhere in
	// the winning region and pursue the next guarantee.
	StepSwitchGoal
	// StepGetCloser (ρ2): move strictly closer to the pursued guarantee.
	StepGetCloser
	// StepStay (ρ3): stay at the same distance while an assumption is
	// violated; doing so forever falsifies that assumption.
	StepStay
)

func (k StepKind) String() string {
	switch k {
	case StepInit:
		return "init"
	case StepSwitchGoal:
		return "switch-goal"
	case StepGetCloser:
		return "get-closer"
	case StepStay:
		return "stay"
	}
	return fmt.Sprintf("StepKind(%d)", k)
}

// Controller is a winning strategy of the system, as the symbolic controller
// of the thesis (Fig. 3.2 and 3.3): a relation over the spec's variables, the
// flags of the implication game, and a counter Zn naming the guarantee being
// pursued, complete with respect to the inputs on the winning region.
//
// Each (state, input) pair uses the first kind of step that applies, in the
// order switch-goal, get-closer, stay — a sub-relation of the thesis's
// ρ1 ∨ ρ2 ∨ ρ3 that is still winning and has fewer choices. The relations
// are built when first needed (by Mealy, Run or Nodes); Circuit determinizes
// the strategy from the fixpoint's iterates without them when the liveness
// conditions are state conditions. A Controller is not safe for concurrent
// use.
type Controller struct {
	res     *Result
	g       *game
	win     fds.BDD
	mem     *memory  // the fixpoint's iterates, which the steps are made of
	init    fds.BDD  // θe ∧ θs ∧ W ∧ Zn = 0
	curCube fds.Cube // the unprimed game variables and the counter
	// frozen: dynamic reordering is off for good (freezeOrder); siftFirst
	// tells whether determinization sifts its inputs first, and ownSpace
	// whether it may work in a Space of its own; sifted: the controller's
	// Space was sifted so (detInputs).
	frozen, siftFirst, ownSpace, sifted bool
	// siblingMade counts the BDD nodes made in the Spaces determinization
	// works in besides the controller's (detInputs, goalFunctionsParallel),
	// for benchmarks.
	siblingMade int

	// Built by relations, when first needed (built is then true).
	built bool
	tr    fds.BDD    // ρe ∧ ρs (transitions)
	rho   [3]fds.BDD // switch-goal, get-closer, stay (prioritised)
	trans fds.BDD    // their union
	// reduced: explicit states are merged as in the thesis's
	// minimization (see reduce).
	reduced bool
}

// newController records the fixpoint memory the strategy is made of; the
// relations ρ1, ρ2 and ρ3 are built when first needed (relations), since
// Circuit does not need them for specs whose liveness conditions are state
// conditions.
func newController(r *Result, g *game, win fds.BDD, mem *memory) *Controller {
	c := &Controller{
		res:  r,
		g:    g,
		win:  win,
		mem:  mem,
		init: g.thetaE.And(g.thetaS).And(win).And(g.counter.Eq(0, false)),
	}
	c.curCube = g.sp.CubeOf(append(append([]*fds.Var(nil), g.all...), g.counter), false)
	c.reduced = true
	for _, J := range g.sysJ {
		if J.DependsOnPrimed() {
			c.reduced = false
		}
	}
	return c
}

// transitions returns ρe ∧ ρs, computing it once; a result computed under
// a Space error (an interruption, which the next bind clears) is not kept.
func (c *Controller) transitions() fds.BDD {
	if c.tr.Space() != nil {
		return c.tr
	}
	tr := c.g.rhoE.And(c.g.rhoS)
	if c.g.sp.Err() == nil {
		c.tr = tr
	}
	return tr
}

// relations builds ρ1, ρ2 and ρ3 from the fixpoint memory, once; errors
// (an interruption, the memory bound) are the Space's.
func (c *Controller) relations(ctx context.Context) error {
	if c.built {
		return c.g.sp.Err()
	}
	g := c.g
	sp := g.sp
	zn := g.counter
	n := len(g.sysJ)
	win := c.win
	tr := c.transitions()
	winNext := win.Prime()

	rho1 := sp.False()
	for j := range n {
		rho1 = rho1.Or(zn.Eq(j, false).And(g.sysJ[j]).And(zn.Eq((j+1)%n, true)))
	}
	rho1 = rho1.And(win).And(winNext).And(tr)

	rho2 := sp.False()
	for j := range n {
		if err := ctx.Err(); err != nil {
			return err
		}
		rho2 = rho2.Or(zn.Eq(j, false).And(zn.Eq(j, true)).And(c.closer(j, tr, sp.True())))
	}

	rho3 := sp.False()
	for j := range n {
		if err := ctx.Err(); err != nil {
			return err
		}
		rho3 = rho3.Or(zn.Eq(j, false).And(zn.Eq(j, true)).And(c.stay(j, tr, sp.True())))
	}

	// Prioritise: a (state, input) pair covered by an earlier kind of step
	// does not use a later one.
	outs := sp.CubeOf(append(append([]*fds.Var(nil), g.sys...), zn), true)
	covered := rho1.Exists(outs)
	rho2 = rho2.Diff(covered)
	covered = covered.Or(rho2.Exists(outs))
	rho3 = rho3.Diff(covered)
	trans := rho1.Or(rho2).Or(rho3)
	// An interruption is not permanent (the next bind clears it): keep
	// nothing computed under one.
	if err := sp.Err(); err != nil {
		return err
	}
	c.rho = [3]fds.BDD{rho1, rho2, rho3}
	c.trans = trans
	c.built = true
	return nil
}

// closer is goal j's get-closer steps (ρ2 without the counter): from the
// states of each ring of the μY fixpoint that are in within to the rings
// below it, over V, X′ and Y′; tr is ρe ∧ ρs.
func (c *Controller) closer(j int, tr, within fds.BDD) fds.BDD {
	sp := c.g.sp
	ys := c.mem.y[j]
	part := sp.False()
	if len(ys) == 0 {
		return part
	}
	low := ys[0]
	for r := 1; r < len(ys); r++ {
		// Conjoining the transition relation piece by piece keeps the
		// intermediate disjunctions small; conjoining the source with the
		// target first would build their product, which the interleaved
		// order of current and next copies makes large (4× slower on
		// AMBA n = 3).
		part = part.Or(ys[r].Diff(low).And(within).And(tr).And(low.Prime()))
		low = low.Or(ys[r])
	}
	return part
}

// stay is goal j's stay steps (ρ3 without the counter): from the states of
// each νX fixpoint, first met, that are in within, back into it while the
// assumption it waits for does not hold; tr is ρe ∧ ρs.
func (c *Controller) stay(j int, tr, within fds.BDD) fds.BDD {
	g := c.g
	part := g.sp.False()
	low := g.sp.False()
	for r := range c.mem.x[j] {
		for i, x := range c.mem.x[j][r] {
			part = part.Or(x.Diff(low).And(within).Diff(g.envJ[i]).And(tr).And(x.Prime()))
			low = low.Or(x)
		}
	}
	return part
}

// Nodes returns the number of BDD nodes of the controller's transition
// relation: the size of the symbolic strategy.
// It builds the relation if Circuit did not need it, and returns 0 if that
// fails.
func (c *Controller) Nodes() int {
	if err := c.relations(context.Background()); err != nil {
		return 0
	}
	return c.trans.Size()
}

// Spec returns the specification the controller realizes.
func (c *Controller) Spec() *Spec { return c.res.Spec }

// state is a complete state of a controller or counterstrategy: values of
// X ∪ Y (the game's variables, including implication flags) and memory.
type state struct {
	vals []int // indexed like game.all
	mem  int   // the controller's goal counter, or the counterstrategy's assumption counter
}

func (s state) key() string { return fmt.Sprint(s.vals, s.mem) }

// first returns the controller's initial state for the initial inputs in
// (values of the spec's inputs), or ok=false when in violates θe.
func (c *Controller) first(in []int) (st state, ok bool) {
	g := c.g
	f := c.init.And(g.sp.Assign(g.inputs, in, false))
	sys, ok := f.Pick(g.sys, false)
	if !ok {
		return state{}, false
	}
	return c.reduce(state{vals: append(append([]int(nil), in...), sys...), mem: 0}), true
}

// view is a controller restricted to one current state: each kind of step
// as a relation over X′, Y′ and Zn′ only.
type view [3]fds.BDD

// at restricts the controller to the state st.
func (c *Controller) at(st state) view {
	g := c.g
	sp := g.sp
	var v view
	if c.relations(context.Background()) != nil {
		return v // the Space's error is reported by the caller
	}
	here := sp.Assign(g.all, st.vals, false).And(g.counter.Eq(st.mem, false))
	for k, rho := range c.rho {
		v[k] = rho.AndExists(here, c.curCube)
	}
	return v
}

// step returns the successor of st for the next inputs in, and the kind of
// step taken; ok=false when in is not a legal input (it violates ρe) — the
// controller is complete on legal inputs. v is c.at(st).
func (c *Controller) step(st state, v view, in []int) (next state, kind StepKind, ok bool) {
	g := c.g
	if v[0].Space() == nil {
		return state{}, 0, false // at failed
	}
	input := g.sp.Assign(g.inputs, in, true)
	for k := range v {
		f := v[k].And(input)
		if f.IsFalse() {
			continue
		}
		vars := append(append([]*fds.Var(nil), g.sys...), g.counter)
		vals, _ := f.Pick(vars, true)
		nv := append(append([]int(nil), in...), vals[:len(g.sys)]...)
		return c.reduce(state{vals: nv, mem: vals[len(g.sys)]}), StepKind(k + 1), true
	}
	return state{}, 0, false
}

// reduce applies the strategy minimization of the thesis (§3.1.4.2, Fig.
// 3.4) on the fly: a state (v, j) whose values already satisfy guarantee j
// is merged into (v, j⊕1) — the controller could move there by a
// switch-goal step without changing any variable — so the counter advances
// past every guarantee v meets. It removes explicit states that differ only
// in the counter. It applies when the liveness guarantees are state
// conditions (for conditions on transitions there is no such step) and
// when it is enabled.
func (c *Controller) reduce(st state) state {
	g := c.g
	if !c.reduced {
		return st
	}
	n := len(g.sysJ)
	for range n {
		if !g.member(g.sysJ[st.mem], st.vals) {
			break
		}
		st.mem = (st.mem + 1) % n
	}
	return st
}

// legalInputs calls fn with every input the environment may give next in st
// (every valuation of X′ allowed by ρe), or initially (θe) when st is nil.
func (g *game) legalInputs(st *state, fn func(in []int) bool) {
	if st == nil {
		g.thetaE.ForEach(g.inputs, false, fn)
		return
	}
	g.rhoE.And(g.sp.Assign(g.all, st.vals, false)).ForEach(g.inputs, true, fn)
}
