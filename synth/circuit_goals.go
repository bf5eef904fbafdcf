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
//   - elsewhere a step of goal j (goalMoves: its get-closer and stay steps
//     and more, without the counter, from where J^s_j does not hold),
//     determinized per goal, the counter unchanged.
//
// Conjoining each relation with its care set (instead of simplifying it
// with Restrict) leaves determinize free outside the care set: there no
// bit is forced, and each function is simplified against the states where
// it is. On AMBA n = 3…5 the circuits are 8–37 % smaller for the same
// determinization time.
//
// Each (state, input) pair of the thesis's ρ1 ∨ ρ2 ∨ ρ3 is answered by a
// move of the first kind of step that applies, as with the prioritised
// relations, except that goal j's steps are goalMoves, which contain its
// get-closer and stay steps (ρ2 ∨ ρ3 of goal j) and more: every move that
// lowers the (ring, νX piece) rank of the goal's fixpoint, and the moves
// that keep it where the piece's assumption does not hold (goalMoves
// states why that is winning).
//
// The switch relation's determinization and each goal's are independent:
// with more than one worker (WithParallelism) they run on several
// goroutines (goalFunctionsParallel), and their functions, the same
// whichever goroutine made them, are combined in goal order as here.
// in holds what the jobs read, in the Space where the functions are made
// and combined (detInputs).
func (c *Controller) goalFunctions(ctx context.Context, in *goalInputs, sysLevels, cntLevels []int) ([]fds.BDD, error) {
	sp := in.sp
	n := len(in.sysJ)
	counter := sp.Lookup(c.g.counter.Name())

	// With several workers the switch relation's functions and every
	// goal's are computed first, in parallel (goalFunctionsParallel);
	// with one, each goal's as its turn comes.
	var switchFns []fds.BDD
	var goalFnsOf [][]fds.BDD
	if w := c.workers(n + 1); w > 1 {
		var err error
		switchFns, goalFnsOf, err = c.goalFunctionsParallel(ctx, w, in, sysLevels)
		if err != nil {
			return nil, err
		}
	} else {
		var err error
		switchFns, err = in.job(ctx, 0, sysLevels)
		if err != nil {
			return nil, err
		}
	}

	fns := make([]fds.BDD, len(sysLevels)+len(cntLevels))
	for k := range fns {
		fns[k] = sp.False()
	}
	for j := range n {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		J := in.sysJ[j]
		var goalFns []fds.BDD
		if goalFnsOf != nil {
			goalFns = goalFnsOf[j]
		} else {
			var err error
			goalFns, err = in.job(ctx, j+1, sysLevels)
			if err != nil {
				return nil, err
			}
		}
		at := counter.Eq(j, false)
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

// switchFunctions determinizes the switch-goal steps of every goal: the
// moves of tr from W where some guarantee of sysJ holds that stay in W
// (win), over sysLevels. Its BDDs are all of sp.
func switchFunctions(ctx context.Context, sp *fds.Space, win fds.BDD, sysJ []fds.BDD, tr fds.BDD, sysLevels []int) ([]fds.BDD, error) {
	stay := win.And(sp.Or(sysJ...)).And(tr).And(win.Prime())
	return determinize(ctx, sp, stay, sysLevels)
}

// goalStepFunctions determinizes goal J's steps where it does not hold
// (goalMoves, with x the goal's νX pieces and envJ the assumptions), over
// sysLevels. Its BDDs are all of sp.
func goalStepFunctions(ctx context.Context, sp *fds.Space, x [][]fds.BDD, envJ []fds.BDD, tr, J fds.BDD, sysLevels []int) ([]fds.BDD, error) {
	rel := goalMoves(sp, x, envJ, tr, J.Not())
	return determinize(ctx, sp, rel, sysLevels)
}

// goalMoves is goal j's steps where the goal is not met, without the
// counter, from the states of within: with the rank of a state the first
// (ring r, assumption i) in the order of the fixpoint's νX pieces
// c.mem.x[j][r][i] that contains it, a move from a state of rank k either
// lowers the rank (goes to a state of a piece before k) or, from a state
// where assumption i of k does not hold, goes to a state of rank at most
// k; over V, X′ and Y′, and tr is ρe ∧ ρs.
//
// It contains closer ∨ stay: a get-closer move goes to a ring below,
// whose pieces all come before k, and a stay move of piece k stays in it
// where its assumption does not hold. So every (state, input) of W where
// the goal does not hold still has a move. It is winning for the same
// reason: no move raises the rank, which has finitely many values, so on a
// play that never meets the goal again the rank is eventually constant, at
// some k, and from then on every move keeps it, which only a state where
// k's assumption does not hold allows: the environment violates that
// assumption forever. Every target is in a piece, so in W.
//
// It is cheaper to build than closer ∨ stay (one conjunction per piece
// instead of a get-closer piece per ring and a stay piece per νX piece),
// and the freedom makes the relation and the circuit slightly smaller
// (AMBA n = 3: 6,056 decision nodes against 6,091, n = 12: 62,346 against
// 63,386).
//
// The pieces come as xj (c.mem.x[j]) and the assumptions as envJ
// (g.envJ), BDDs of sp like tr and within, so that the relation can be
// built in a sibling of the controller's Space (goalFunctionsParallel).
func goalMoves(sp *fds.Space, xj [][]fds.BDD, envJ []fds.BDD, tr, within fds.BDD) fds.BDD {
	rel := sp.False()
	below := sp.False() // the states of rank before k
	for r := range xj {
		for i, x := range xj[r] {
			upTo := below.Or(x) // rank at most k
			to := below.Prime().Or(envJ[i].Not().And(upTo.Prime()))
			rel = rel.Or(x.Diff(below).And(within).And(tr).And(to))
			below = upTo
		}
	}
	return rel
}
