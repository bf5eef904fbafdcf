package synth

import (
	"context"

	"github.com/henceforth-go/henceforth/internal/fds"
)

// stateGoals reports whether every liveness condition of the game is a
// state condition (mentions no next value). The controller's step can then
// be determinized goal by goal (goalFunctions): whether the pursued
// guarantee holds is known from the latched state alone.
func (c *Controller) stateGoals() bool {
	for _, J := range append(append([]fds.BDD(nil), c.g.sysJ...), c.g.envJ...) {
		if J.DependsOnPrimed() {
			return false
		}
	}
	return true
}

// goalFunctions determinizes the controller's step without building its
// relation ρ1 ∨ ρ2 ∨ ρ3 over every goal: it returns the functions of the
// next values of the system's variables (g.sys's primed levels, sysLevels)
// and of the goal counter (cntLevels) over the latched state and the
// step's inputs. It requires stateGoals.
//
// With goal j pursued in state s, the step is
//
//   - where s meets J^s_j, a switch-goal step: the counter moves to j+1 and
//     the system answers with a move that stays in the winning region W.
//     That move does not depend on j, so the relation W ∧ ρe ∧ ρs ∧ W′ is
//     determinized once for all goals, conjoined with the states meeting
//     some guarantee;
//   - elsewhere a get-closer or stay step of goal j (ρ2 ∨ ρ3 without the
//     counter, determinized per goal and conjoined with where J^s_j does
//     not hold), the counter unchanged.
//
// Conjoining each relation with its care set (instead of simplifying it
// with Restrict) leaves determinize free outside the care set: there no
// bit is forced, and each function is simplified against the states where
// it is. On AMBA n = 3…5 the circuits are 8–37 % smaller for the same
// determinization time.
//
// Each (state, input) pair of the thesis's ρ1 ∨ ρ2 ∨ ρ3 is answered by a
// move of the first kind of step that applies, as with the prioritised
// relations, except that between ρ2 and ρ3 of one goal the move may come
// from either. That is still winning: a get-closer step lowers the ring of
// the μY fixpoint, and a stay step does not raise the (ring, νX piece) rank
// and keeps it only where the piece's assumption does not hold, so a play
// that never switches goal again violates that assumption forever.
func (c *Controller) goalFunctions(ctx context.Context, sysLevels, cntLevels []int) ([]fds.BDD, error) {
	g := c.g
	sp := g.sp
	n := len(g.sysJ)
	tr := c.transitions()
	someGoal := sp.Or(g.sysJ...)

	stay := c.win.And(someGoal).And(tr).And(c.win.Prime())
	switchFns, err := determinize(ctx, sp, stay, sysLevels)
	if err != nil {
		return nil, err
	}
	stay = fds.BDD{}

	fns := make([]fds.BDD, len(sysLevels)+len(cntLevels))
	for k := range fns {
		fns[k] = sp.False()
	}
	for j := range n {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		J := g.sysJ[j]
		notJ := J.Not()
		rel := c.closer(j, tr, notJ).Or(c.stay(j, tr, notJ))
		goalFns, err := determinize(ctx, sp, rel, sysLevels)
		if err != nil {
			return nil, err
		}
		at := g.counter.Eq(j, false)
		for k := range sysLevels {
			fns[k] = fns[k].Or(at.And(J.Ite(switchFns[k], goalFns[k])))
		}
		next := (j + 1) % n
		for b := range cntLevels {
			f := J.Ite(sp.Const(next>>b&1 == 1), sp.Const(j>>b&1 == 1))
			fns[len(sysLevels)+b] = fns[len(sysLevels)+b].Or(at.And(f))
		}
		if err := sp.Err(); err != nil {
			return nil, err
		}
	}
	return fns, nil
}
