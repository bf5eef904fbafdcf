package synth

import (
	"context"
	"time"

	"github.com/henceforth-go/henceforth/internal/fds"
)

// memory keeps the iterates of the last computation of each goal j (the
// thesis's mem, Fig. 3.1), 0-based: y[j][r] is the r-th iterate of the least
// fixpoint over Y for guarantee j, and x[j][r][i] the greatest fixpoint over X
// for assumption i inside it. y[j][r] = ⋃_i x[j][r][i], and y[j] increases
// with r.
type memory struct {
	y [][]fds.BDD
	x [][][]fds.BDD
}

// Stats describes one realizability check.
type Stats struct {
	Vars            int           // BDD variables (bits, primed and unprimed)
	OuterIterations int           // goal computations (one per guarantee per pass of νZ)
	MiddleSteps     int           // iterations of the μY fixpoints
	InnerSteps      int           // iterations of the νX fixpoints
	Duration        time.Duration // wall time of the fixpoint computation
	PeakNodes       int           // size of the BDD node table at the end (it only grows)
	WinningNodes    int           // BDD nodes of the winning region
}

// solve computes the system's winning region W_s by the three-nested fixpoint
// of the thesis (Equation 3.3, Fig. 3.1):
//
//	νZ. ⋀_j μY. ⋁_i νX. (J^s_j ∧ ⊙Z) ∨ ⊙Y ∨ (¬J^e_i ∧ ⊙X)
//
// with these refinements, none of which changes the result:
//
//   - Z is updated after each goal (Gauss–Seidel, as in the printed code) and
//     the computation stops after n consecutive goals leave Z unchanged.
//   - Every iterate is restricted to Z, which only removes states that are
//     lost anyway (W_s ⊆ Z throughout).
//   - The νX fixpoint for (j, r, i) starts from its value in the previous
//     computation of goal j instead of from Z: Z and the Y iterates only
//     shrink from one computation to the next, so the old value is an upper
//     bound of the new greatest fixpoint (reuse of the innermost fixpoint).
//   - Early termination: as soon as the initial condition cannot be met
//     inside Z the game is lost (Z only shrinks), and a μY fixpoint stops
//     when it has reached Z.
//   - A justice condition that refers to next values (as Slugs allows) is a
//     condition on transitions. For a goal where some justice condition is
//     one, the body is the single predecessor
//     ⊙((J^s_j ∧ Z′) ∨ Y′ ∨ (¬J^e_i ∧ X′)) of a set of transitions, as in
//     Slugs: different inputs may then be answered by different disjuncts,
//     which the thesis's state formula cannot express for such conditions.
//     Both forms have W_s as their fixpoint.
//
// realizable reports ∀X. θe → ∃Y. θs ∧ W_s. When the game is lost early, win
// is the current over-approximation of W_s and mem is incomplete.
func (g *game) solve(ctx context.Context, o *options) (win fds.BDD, mem *memory, realizable bool, st Stats, err error) {
	start := time.Now()
	defer func() {
		st.Duration = time.Since(start)
		st.Vars = g.sp.NumLevels()
		st.PeakNodes = g.sp.Stats().Allocated
		if win.Space() != nil {
			st.WinningNodes = win.Size()
		}
	}()
	sp := g.sp
	n, m := len(g.sysJ), len(g.envJ)
	sysTrans := make([]bool, n)
	for j, J := range g.sysJ {
		sysTrans[j] = J.DependsOnPrimed()
	}
	envTrans := make([]bool, m)
	for i, J := range g.envJ {
		envTrans[i] = J.DependsOnPrimed()
	}
	mem = &memory{y: make([][]fds.BDD, n), x: make([][][]fds.BDD, n)}
	z := g.dom
	if !o.noEarly && !g.initialWin(z) {
		return z, mem, false, st, nil
	}
	unchanged := 0
	for j := 0; unchanged < n; j = (j + 1) % n {
		if err := ctx.Err(); err != nil {
			return z, mem, false, st, err
		}
		st.OuterIterations++
		// A goal whose justice conditions all refer to single states uses the
		// thesis's formula; otherwise one predecessor of the whole transition
		// target, so that different inputs may be answered by different
		// disjuncts.
		transitional := sysTrans[j]
		for _, t := range envTrans {
			transitional = transitional || t
		}
		var startJ, goalT fds.BDD
		if transitional {
			goalT = g.sysJ[j].And(z.Prime())
		} else {
			startJ = g.sysJ[j].And(g.arena.Cox(z))
		}
		prevX := mem.x[j]
		var ys []fds.BDD
		var xs [][]fds.BDD
		y := sp.False()
		for r := 0; ; r++ {
			st.MiddleSteps++
			var front, frontT fds.BDD
			if transitional {
				frontT = goalT.Or(y.Prime())
			} else {
				front = startJ.Or(g.arena.Cox(y)).And(z)
			}
			ynew := sp.False()
			xr := make([]fds.BDD, m)
			for i := range m {
				x := z
				if !o.noReuse && r < len(prevX) {
					x = prevX[r][i].And(z)
				}
				notJ := g.envJ[i].Not()
				for {
					if err := ctx.Err(); err != nil {
						return z, mem, false, st, err
					}
					st.InnerSteps++
					var nx fds.BDD
					if transitional {
						nx = g.arena.CoxT(frontT.Or(notJ.And(x.Prime()))).And(x)
					} else {
						nx = front.Or(notJ.And(g.arena.Cox(x))).And(x)
					}
					if nx.Equal(x) {
						break
					}
					x = nx
				}
				xr[i] = x
				ynew = ynew.Or(x)
			}
			if err := sp.Err(); err != nil {
				return z, mem, false, st, err
			}
			if ynew.Equal(y) {
				break
			}
			ys = append(ys, ynew)
			xs = append(xs, xr)
			y = ynew
			if y.Equal(z) {
				break // μY has reached its bound
			}
		}
		mem.y[j], mem.x[j] = ys, xs
		if y.Equal(z) {
			unchanged++
			continue
		}
		z = y
		unchanged = 0
		if !o.noEarly && !g.initialWin(z) {
			return z, mem, false, st, nil
		}
	}
	return z, mem, g.initialWin(z), st, sp.Err()
}
