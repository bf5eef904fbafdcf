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

// muxReadsCap bounds the set of variables muxOrder follows through a gate
// that reads none directly; beyond it the set is cut (an edge lost, never
// a wrong one).
const muxReadsCap = 16

// muxOrder refines ranked, aigOrder's ranking of the check's variables,
// by the precedence a circuit of multiplexers shows: a gate that reads
// variable x directly and continues with a gate g means x above the
// variables g's multiplexer reads (the first read directly on each path
// down from g). A circuit written from decision graphs in one variable
// order (Circuit.AIG: one multiplexer per node) shows the graphs' own
// edges, so any order that keeps them, which this returns when they form
// no cycle, gives the graphs their own sizes: two adjacent variables that
// no edge relates can swap without changing any node count. Among the
// variables free to go next it takes the one ranked first; on a cycle (a
// circuit of another kind) the one ranked first of those left. The
// result lists the items of ranked in a new order, and cut is the number
// of times a cycle made it take a variable an edge still held below
// another (0 for Circuit.AIG's circuits); it affects the check's cost
// only, never its verdict.
func muxOrder(a *AIG, in []aigBit, latchVar []int, ranked []aigItem) (out []aigItem, cut int) {
	nIn, nL := a.Inputs, len(a.Latches)
	rank := make(map[aigItem]int, len(ranked))
	for r, it := range ranked {
		rank[it] = r
	}
	// itemOf is the rank of the item each input and latch (by AIG
	// variable) stands for, or -1 for none (a latch not ranked).
	itemOf := make([]int, nIn+nL+1)
	itemOf[0] = -1
	for i, b := range in {
		itemOf[i+1] = rank[aigItem{v: b.v, latch: -1}]
	}
	for l, v := range latchVar {
		it := aigItem{v: v, latch: -1}
		if v < 0 {
			it = aigItem{v: -1, latch: l}
		}
		r, ok := rank[it]
		if !ok {
			r = -1
		}
		itemOf[nIn+1+l] = r
	}
	n := len(ranked)
	edge := make([]bool, n*n)
	indeg := make([]int, n)
	addEdge := func(x, y int) {
		if x != y && !edge[x*n+y] {
			edge[x*n+y] = true
			indeg[y]++
		}
	}
	// reads[g] is the items the multiplexer at gate g reads first.
	base := nIn + nL + 1
	reads := make([][]int32, len(a.Ands))
	var direct []int32
	for i, g := range a.Ands {
		direct = direct[:0]
		for _, x := range []uint32{g.A, g.B} {
			if u := int(x / 2); u >= 1 && u < base {
				if r := itemOf[u]; r >= 0 && !slices.Contains(direct, int32(r)) {
					direct = append(direct, int32(r))
				}
			}
		}
		if len(direct) > 0 {
			reads[i] = slices.Clone(direct)
			for _, x := range []uint32{g.A, g.B} {
				if u := int(x / 2); u >= base {
					for _, y := range reads[u-base] {
						for _, d := range direct {
							addEdge(int(d), int(y))
						}
					}
				}
			}
			continue
		}
		var below []int32
		for _, x := range []uint32{g.A, g.B} {
			if u := int(x / 2); u >= base {
				for _, y := range reads[u-base] {
					if len(below) < muxReadsCap && !slices.Contains(below, y) {
						below = append(below, y)
					}
				}
			}
		}
		reads[i] = below
	}
	// Kahn's topological sort, the first ranked among the free.
	out = make([]aigItem, 0, n)
	done := make([]bool, n)
	for len(out) < n {
		next := -1
		for r := range n {
			if !done[r] && indeg[r] == 0 {
				next = r
				break
			}
		}
		if next < 0 { // a cycle: the first ranked left
			cut++
			for r := range n {
				if !done[r] {
					next = r
					break
				}
			}
		}
		done[next] = true
		out = append(out, ranked[next])
		for y := range n {
			if edge[next*n+y] {
				edge[next*n+y] = false
				indeg[y]--
			}
		}
	}
	return out, cut
}
