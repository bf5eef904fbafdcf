package synth

import "sort"

// clusteredOrder returns an order of the spec's variables (indexes into
// Inputs++Outputs) computed with the FORCE heuristic (Aloul, Markov and
// Sakallah, 2003): each clause is a hyperedge over the variables it mentions;
// repeatedly, each variable moves to the average centre of gravity of its
// clauses, and variables are re-ranked by that position. The order with the
// smallest total clause span is kept. Variables that share clauses end up
// adjacent, which keeps the BDDs of the transition relations small; the
// order is then oriented so that frequently used variables come first.
func clusteredOrder(spec *Spec) []int {
	all := append(append([]Var(nil), spec.Inputs...), spec.Outputs...)
	nv := len(all)
	index := make(map[string]int, nv)
	for i, v := range all {
		index[v.Name] = i
	}
	var edges [][]int
	for _, c := range spec.Clauses {
		seen := map[int]bool{}
		var e []int
		c.Expr.walk(false, func(x *Expr, _ bool) {
			if x.Op == ExprVar {
				if i, ok := index[x.Name]; ok && !seen[i] {
					seen[i] = true
					e = append(e, i)
				}
			}
		})
		if len(e) > 1 {
			edges = append(edges, e)
		}
	}
	order := make([]int, nv)
	for i := range order {
		order[i] = i
	}
	if len(edges) == 0 || nv < 3 {
		return order
	}
	pos := make([]float64, nv)
	for i := range pos {
		pos[i] = float64(i)
	}
	span := func() float64 {
		total := 0.0
		for _, e := range edges {
			lo, hi := pos[e[0]], pos[e[0]]
			for _, v := range e {
				lo, hi = min(lo, pos[v]), max(hi, pos[v])
			}
			total += hi - lo
		}
		return total
	}
	best := append([]int(nil), order...)
	bestSpan := span()
	for range 40 {
		sum := make([]float64, nv)
		cnt := make([]float64, nv)
		for _, e := range edges {
			cog := 0.0
			for _, v := range e {
				cog += pos[v]
			}
			cog /= float64(len(e))
			for _, v := range e {
				sum[v] += cog
				cnt[v]++
			}
		}
		target := make([]float64, nv)
		for v := range nv {
			if cnt[v] > 0 {
				target[v] = sum[v] / cnt[v]
			} else {
				target[v] = pos[v]
			}
		}
		sort.SliceStable(order, func(a, b int) bool { return target[order[a]] < target[order[b]] })
		for rank, v := range order {
			pos[v] = float64(rank)
		}
		if s := span(); s < bestSpan {
			bestSpan = s
			copy(best, order)
		} else if s == bestSpan {
			break
		}
	}
	// FORCE fixes the neighbourhoods but not the direction. Put the
	// variables that occur in many clauses (the shared control state) at the
	// top and the local ones below: on the AMBA arbiter this orientation
	// makes the fixpoint about twenty times cheaper than the other.
	degree := make([]int, nv)
	for _, e := range edges {
		for _, v := range e {
			degree[v]++
		}
	}
	weight := 0
	for rank, v := range best {
		weight += degree[v] * (2*rank - (nv - 1)) // > 0: high degrees at the bottom
	}
	if weight > 0 {
		for i, j := 0, nv-1; i < j; i, j = i+1, j-1 {
			best[i], best[j] = best[j], best[i]
		}
	}
	return best
}
