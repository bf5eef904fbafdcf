package synth

import (
	"cmp"
	"slices"
)

// aigItem is a variable of the check's space, as aigOrder ranks it: a spec
// variable (an index into inputs then outputs) or a latch of the circuit
// that names none (latch ≥ 0).
type aigItem struct {
	v, latch int
}

// aigOrder ranks the check's variables by where the circuit reads them:
// each and-gate's height is one more than its operands' highest (inputs
// and latches are 0), and a variable's score is the height of the highest
// gate that reads it directly. A circuit written from a decision graph
// reads the graph's upper variables in its upper multiplexers, so this
// recovers the graph's variable order, under which the gates' BDDs are
// as small as the graph; for other circuits it is the usual depth-first
// heuristic of placing what the outputs read first on top.
//
// base is the order to keep among variables of equal score (the spec's
// clustered or declared order, indices into inputs then outputs);
// latchVar[l] is the spec variable latch l names, or -1. The result lists
// every spec variable once and every latch with latchVar -1 once, highest
// score first; the order affects the check's cost only, never its verdict.
func aigOrder(a *AIG, in []aigBit, base []int, latchVar []int) []aigItem {
	nIn, nL := a.Inputs, len(a.Latches)
	height := make([]int32, a.MaxVar+1)
	score := make([]int32, nIn+nL+1) // by AIG variable: inputs and latches
	for i, g := range a.Ands {
		v := nIn + nL + 1 + i
		h := max(height[g.A/2], height[g.B/2]) + 1
		height[v] = h
		for _, x := range []uint32{g.A, g.B} {
			if u := int(x / 2); u >= 1 && u <= nIn+nL {
				score[u] = max(score[u], h)
			}
		}
	}
	varScore := map[int]int32{}
	for i, b := range in {
		varScore[b.v] = max(varScore[b.v], score[i+1])
	}
	var items []aigItem
	pos := map[aigItem]int{}
	for p, v := range base {
		items = append(items, aigItem{v: v, latch: -1})
		pos[items[len(items)-1]] = p
	}
	itemScore := map[aigItem]int32{}
	for l, v := range latchVar {
		s := score[nIn+1+l]
		if v >= 0 {
			// A latch that names a spec variable holds that variable's
			// value: its reads count for the variable.
			varScore[v] = max(varScore[v], s)
			continue
		}
		it := aigItem{v: -1, latch: l}
		items = append(items, it)
		pos[it] = -1 // the circuit's own latches go first on a tie
		itemScore[it] = s
	}
	for _, it := range items {
		if it.latch < 0 {
			itemScore[it] = varScore[it.v]
		}
	}
	slices.SortStableFunc(items, func(x, y aigItem) int {
		if c := cmp.Compare(itemScore[y], itemScore[x]); c != 0 {
			return c
		}
		return cmp.Compare(pos[x], pos[y])
	})
	return items
}
