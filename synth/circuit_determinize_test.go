package synth

import (
	"context"
	"testing"

	"github.com/henceforth-go/henceforth/internal/fds"
	"github.com/stretchr/testify/require"
)

// TestDeterminizeMatchesBitByBit compares determinize, which chooses its
// bits a window at a time from one projection of the relation and the
// window's fixes, with the plain procedure it stands for: one bit at a
// time from the top of the order, each chosen from the relation with
// every later bit quantified, then fixed in the relation itself. The
// functions must be the same BDDs, for the switch-goal relation and every
// goal's relation of AMBA n = 2 and of the small specs with state
// liveness conditions, and together they must be a move wherever the
// relation has one. A determinize that lost a window's fix, or chose a
// bit from a projection that did not fix the bits before it, fails here.
func TestDeterminizeMatchesBitByBit(t *testing.T) {
	ctx := context.Background()
	specs := append([]*Spec{ambaForTest(t, 2)}, circuitSpecs(t)...)
	checked := 0
	for _, spec := range specs {
		c := controllerOf(t, spec)
		if !c.stateGoals() {
			continue
		}
		_, err := c.detInputs(ctx, false) // sifts the controller's Space if it never was
		require.NoError(t, err)
		g := c.g
		sp := g.sp
		var outs []int
		for _, v := range g.sys {
			outs = append(outs, v.Levels(true)...)
		}
		tr := c.transitions()
		rels := []fds.BDD{c.win.And(sp.Or(g.sysJ...)).And(tr).And(c.win.Prime())}
		for j, J := range g.sysJ {
			rels = append(rels, goalMoves(sp, c.mem.x[j], g.envJ, tr, J.Not()))
		}
		for r, rel := range rels {
			fns, err := determinize(ctx, sp, rel, outs)
			require.NoError(t, err)
			want := determinizeBitByBit(sp, rel, outs)
			for k := range outs {
				require.True(t, fns[k].Equal(want[k]), "%s relation %d: bit %d's function", spec.Name, r, k)
			}
			moves := rel
			for k, l := range outs {
				moves = moves.And(sp.Level(l).Iff(fns[k]))
			}
			outCube := sp.CubeOfLevels(outs)
			require.True(t, moves.Exists(outCube).Equal(rel.Exists(outCube)), "%s relation %d: no move where the relation has one", spec.Name, r)
			checked++
		}
		require.NoError(t, sp.Err())
	}
	require.Positive(t, checked)
}

// determinizeBitByBit is determinize's reference: each bit, in
// determinize's order (choiceOrder), takes the value the relation forces given
// the bits chosen before it (restricted to where it is forced), and is
// then fixed in the relation.
func determinizeBitByBit(sp *fds.Space, rel fds.BDD, outs []int) []fds.BDD {
	order := choiceOrder(sp, outs)
	fns := make([]fds.BDD, len(outs))
	for n, k := range order {
		var later []int
		for _, m := range order[n+1:] {
			later = append(later, outs[m])
		}
		bit := sp.CubeOfLevels([]int{outs[k]})
		proj := rel.Exists(sp.CubeOfLevels(later))
		v := sp.Level(outs[k])
		one := proj.AndExists(v, bit)
		zero := proj.AndExists(v.Not(), bit)
		fns[k] = one.Diff(zero).Restrict(one.Xor(zero))
		rel = rel.AndExists(v.Iff(fns[k]), bit)
	}
	return fns
}
