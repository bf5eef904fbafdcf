package synth

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestGoalMovesContainStrategy cross-checks goalMoves against the thesis's
// get-closer and stay steps (closer ∨ stay) on AMBA n = 2, 3 and the small
// specs with state liveness conditions: it must contain them, so have a
// move wherever they do and nowhere else, keep ρe ∧ ρs and stay in the
// winning region; and each of its moves must lower the rank of the goal's
// νX pieces or keep it at most where the piece's assumption does not hold,
// which is checked here piece by piece from the fixpoint's memory. A
// mutant goalMoves that let a state whose assumption holds stay at its
// rank, or that lost a get-closer move, fails here.
func TestGoalMovesContainStrategy(t *testing.T) {
	specs := append([]*Spec{ambaForTest(t, 2), ambaForTest(t, 3)}, circuitSpecs(t)...)
	checked := 0
	for _, spec := range specs {
		c := controllerOf(t, spec)
		if !c.stateGoals() {
			continue
		}
		checked++
		g := c.g
		sp := g.sp
		tr := c.transitions()
		outs := sp.CubeOf(g.sys, true)
		for j, J := range g.sysJ {
			notJ := J.Not()
			moves := goalMoves(sp, c.mem.x[j], g.envJ, tr, notJ)
			old := c.closer(j, tr, notJ).Or(c.stay(j, tr, notJ))
			require.True(t, old.Implies(moves), "%s goal %d: a get-closer or stay move is missing", spec.Name, j)
			require.True(t, moves.Exists(outs).Equal(old.Exists(outs)), "%s goal %d: moves where the strategy has none", spec.Name, j)
			require.True(t, moves.Implies(c.win.And(notJ).And(tr).And(c.win.Prime())), "%s goal %d: a move leaves W or breaks ρe ∧ ρs", spec.Name, j)
			// Piece by piece: from rank k, to a rank before k, or to rank
			// k itself only where k's assumption does not hold.
			below := sp.False()
			for r := range c.mem.x[j] {
				for i, x := range c.mem.x[j][r] {
					from := moves.And(x.Diff(below))
					require.True(t, from.Implies(below.Or(x).Prime()), "%s goal %d piece (%d, %d): a move raises the rank", spec.Name, j, r, i)
					keep := from.And(below.Prime().Not())
					require.True(t, keep.Implies(g.envJ[i].Not()), "%s goal %d piece (%d, %d): the rank kept where the assumption holds", spec.Name, j, r, i)
					below = below.Or(x)
				}
			}
			require.True(t, moves.Implies(below), "%s goal %d: a move from a state of no piece", spec.Name, j)
		}
		require.NoError(t, sp.Err())
	}
	require.Positive(t, checked)
}
