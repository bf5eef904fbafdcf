package automaton

import (
	"github.com/henceforth-go/henceforth/monitor"
)

// tableDFA builds a DFA (initial state 0, not minimized) from an explicit
// transition table — table[s][letter] — over like's alphabet and level
// order.
func tableDFA(like *DFA, table [][]int32, accept []bool) *DFA {
	g := newDAG()
	k := len(like.atoms)
	d := &DFA{atoms: like.atoms, order: like.order, inputs: like.atoms, visible: k, formula: like.formula}
	var build func(s, level int, l monitor.Letter) int32
	build = func(s, level int, l monitor.Letter) int32 {
		if level == k {
			return ^table[s][l]
		}
		bit := like.order[level]
		lo := build(s, level+1, l)
		hi := build(s, level+1, l|1<<uint(bit))
		return g.mk(int32(level), lo, hi)
	}
	for s := range table {
		d.roots = append(d.roots, build(s, 0, 0))
	}
	d.nodes = g.nodes
	d.accept = accept
	return d
}

func letterOf(l int) monitor.Letter { return monitor.Letter(l) }
