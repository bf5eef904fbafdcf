package synth

import (
	"context"
	"fmt"

	"github.com/henceforth-go/henceforth/internal/fds"
)

// envMemory keeps the iterates of the environment's fixpoint, indexed from
// rank k = 1: z[k] is the k-th iterate of μZ (z[0] = ∅), y[k][j] the value of
// νY for guarantee j at rank k, and x[k][j][i][l] the l-th iterate of μX for
// assumption i inside it (x[k][j][i][0] = ∅).
type envMemory struct {
	z []fds.BDD
	y [][]fds.BDD
	x [][][][]fds.BDD
}

// solveEnv computes the environment's winning region, the dual of the
// system's fixpoint (the thesis's ¬W_s written with the environment's
// forcing predecessor, on transitions so that one choice of input meets all
// conjuncts at once):
//
//	μZ. ⋁_j νY. ⋀_i μX. ⊚( (¬J^s_j ∨ Z′) ∧ Y′ ∧ (J^e_i ∨ X′) )
//
// It stops as soon as the environment wins the initial condition inside Z.
func (g *game) solveEnv(ctx context.Context) (*envMemory, error) {
	sp := g.sp
	n, m := len(g.sysJ), len(g.envJ)
	em := &envMemory{z: []fds.BDD{sp.False()}, y: [][]fds.BDD{nil}, x: [][][][]fds.BDD{nil}}
	z := sp.False()
	for {
		zNext := z.Prime()
		ys := make([]fds.BDD, n)
		xs := make([][][]fds.BDD, n)
		for j := range n {
			avoid := g.sysJ[j].Not().Or(zNext)
			y := g.dom
			for {
				yNext := y.Prime()
				ynew := g.dom
				xj := make([][]fds.BDD, m)
				for i := range m {
					if err := ctx.Err(); err != nil {
						return nil, err
					}
					base := avoid.And(yNext)
					x := sp.False()
					iters := []fds.BDD{x}
					for {
						t := base.And(g.envJ[i].Or(x.Prime()))
						nx := g.arena.EnvForceT(t).And(g.dom).Or(x)
						if nx.Equal(x) {
							break
						}
						x = nx
						iters = append(iters, x)
					}
					xj[i] = iters
					ynew = ynew.And(x)
				}
				if ynew.Equal(y) {
					xs[j] = xj
					break
				}
				y = ynew
			}
			ys[j] = y
		}
		zn := z
		for _, y := range ys {
			zn = zn.Or(y)
		}
		if err := sp.Err(); err != nil {
			return nil, err
		}
		if zn.Equal(z) {
			return em, nil
		}
		z = zn
		em.z = append(em.z, z)
		em.y = append(em.y, ys)
		em.x = append(em.x, xs)
		if g.envWinsInitially(z) {
			return em, nil
		}
	}
}

// envWinsInitially reports ∃X. θe ∧ ∀Y. θs → lost.
func (g *game) envWinsInitially(lost fds.BDD) bool {
	return !g.envInitialMoves(lost).IsFalse()
}

// envInitialMoves returns the initial inputs (over X) from which every
// initial choice of the system is in lost.
func (g *game) envInitialMoves(lost fds.BDD) fds.BDD {
	sp := g.sp
	ys := sp.CubeOf(g.sys, false)
	return g.thetaE.And(g.thetaS.Imp(lost).Forall(ys))
}

// Counterstrategy is a winning strategy of the environment for an
// unrealizable spec: it gives inputs such that, whatever a system answers,
// the system eventually violates a safety guarantee or has no legal answer,
// or the play meets every liveness assumption while some liveness
// guarantee is met only finitely often. Its memory is the index of the
// liveness assumption it is working to meet next. It is not safe for
// concurrent use.
type Counterstrategy struct {
	res *Result
	g   *game
	em  *envMemory
}

func newCounterstrategy(ctx context.Context, r *Result, g *game) (*Counterstrategy, error) {
	em, err := g.solveEnv(ctx)
	if err != nil {
		return nil, err
	}
	if !g.envWinsInitially(em.z[len(em.z)-1]) {
		// The two fixpoints disagree: this would be a bug in one of them.
		return nil, fmt.Errorf("synth: %s: the environment's fixpoint does not win the initial condition although the system's does not either", r.Spec.Name)
	}
	return &Counterstrategy{res: r, g: g, em: em}, nil
}

// Spec returns the specification the counterstrategy defeats.
func (cs *Counterstrategy) Spec() *Spec { return cs.res.Spec }

// member reports whether the game state with values vals is in f.
func (g *game) member(f fds.BDD, vals []int) bool {
	return !f.And(g.sp.Assign(g.all, vals, false)).IsFalse()
}

// firstMove picks the environment's initial inputs.
func (cs *Counterstrategy) firstMove() ([]int, bool) {
	g := cs.g
	lost := cs.em.z[len(cs.em.z)-1]
	return g.envInitialMoves(lost).Pick(g.inputs, false)
}

// rank locates a state in the environment's memory: its rank k, the
// guarantee j it starves and its distance l to assumption i.
func (cs *Counterstrategy) rank(vals []int, i int) (k, j, l int, ok bool) {
	g, em := cs.g, cs.em
	for k = 1; k < len(em.z); k++ {
		if g.member(em.z[k], vals) {
			break
		}
	}
	if k == len(em.z) {
		return 0, 0, 0, false
	}
	for j = range em.y[k] {
		if g.member(em.y[k][j], vals) {
			break
		}
	}
	if j == len(em.y[k]) || !g.member(em.y[k][j], vals) {
		return 0, 0, 0, false
	}
	iters := em.x[k][j][i]
	for l = 1; l < len(iters); l++ {
		if g.member(iters[l], vals) {
			return k, j, l, true
		}
	}
	return 0, 0, 0, false
}

// move picks the environment's next inputs in the state vals with memory i.
func (cs *Counterstrategy) move(vals []int, i int) ([]int, bool) {
	g, em := cs.g, cs.em
	k, j, l, ok := cs.rank(vals, i)
	if !ok {
		return nil, false
	}
	target := g.sysJ[j].Not().Or(em.z[k-1].Prime()).
		And(em.y[k][j].Prime()).
		And(g.envJ[i].Or(em.x[k][j][i][l-1].Prime()))
	moves := g.arena.EnvMoves(target).And(g.sp.Assign(g.all, vals, false))
	return moves.Pick(g.inputs, true)
}

// nextMemory advances the assumption counter when assumption i holds on
// the step from cur to next.
func (cs *Counterstrategy) nextMemory(cur, next []int, i int) int {
	g := cs.g
	sp := g.sp
	if g.envJ[i].And(sp.Assign(g.all, cur, false)).And(sp.Assign(g.all, next, true)).IsFalse() {
		return i
	}
	return (i + 1) % len(g.envJ)
}

// responses calls fn with every answer of the system (values of Y, including
// implication flags) that its transition relation allows after the inputs in
// from the state cur (or initially, when cur is nil).
func (g *game) responses(cur []int, in []int, fn func(sys []int) bool) {
	sp := g.sp
	if cur == nil {
		g.thetaS.And(sp.Assign(g.inputs, in, false)).ForEach(g.sys, false, fn)
		return
	}
	g.rhoS.And(sp.Assign(g.all, cur, false)).And(sp.Assign(g.inputs, in, true)).ForEach(g.sys, true, fn)
}
