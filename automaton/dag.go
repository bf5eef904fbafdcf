package automaton

// This file is the decision DAG that stores a DFA's transition function: a
// multi-terminal decision diagram over the alphabet's levels whose leaves
// are states. A reference r >= 0 is the node nodes[r]; r < 0 is the leaf
// state ^r.

// ddNode tests the atom at a level: lo is followed when it is false, hi when
// it is true.
type ddNode struct {
	level  int32
	lo, hi int32
}

// dag is a hash-consed store of ddNodes. Invariants: lo != hi for every
// node, children are at greater levels and were created before their
// parents (so index order is a topological order, children first), and no
// two nodes are equal.
type dag struct {
	nodes []ddNode
	table []int32 // open addressing; slot holds index+1, 0 = empty
}

func newDAG() *dag { return &dag{table: make([]int32, 1<<10)} }

// reset empties g, keeping its memory, and sizes it for about n nodes.
func (g *dag) reset(n int) {
	g.nodes = g.nodes[:0]
	size := 1 << 10
	for size < 2*n {
		size <<= 1
	}
	if size > len(g.table) {
		g.table = make([]int32, size)
		return
	}
	clear(g.table)
}

func leaf(state int32) int32       { return ^state }
func isLeaf(r int32) bool          { return r < 0 }
func leafState(r int32) int32      { return ^r }
func (g *dag) size() int           { return len(g.nodes) }
func (g *dag) node(r int32) ddNode { return g.nodes[r] }

// mk returns the node (level, lo, hi), or lo when lo == hi.
func (g *dag) mk(level, lo, hi int32) int32 {
	if lo == hi {
		return lo
	}
	mask := uint32(len(g.table) - 1)
	i := hash3(level, lo, hi) & mask
	for {
		k := g.table[i]
		if k == 0 {
			break
		}
		n := &g.nodes[k-1]
		if n.level == level && n.lo == lo && n.hi == hi {
			return k - 1
		}
		i = (i + 1) & mask
	}
	r := int32(len(g.nodes))
	g.nodes = append(g.nodes, ddNode{level, lo, hi})
	g.table[i] = r + 1
	if 2*len(g.nodes) > len(g.table) {
		g.table = make([]int32, 2*len(g.table))
		mask = uint32(len(g.table) - 1)
		for k, n := range g.nodes {
			j := hash3(n.level, n.lo, n.hi) & mask
			for g.table[j] != 0 {
				j = (j + 1) & mask
			}
			g.table[j] = int32(k) + 1
		}
	}
	return r
}

// dagLevel is the level of a reference; leaves are below every level.
func dagLevel(nodes []ddNode, r int32) int32 {
	if r < 0 {
		return terminalLevel
	}
	return nodes[r].level
}

// interner numbers distinct keys 0, 1, … in order of first appearance: the
// states of a construction, discovered breadth first.
type interner[K comparable] struct {
	ids  map[K]int32
	keys []K
}

func newInterner[K comparable]() *interner[K] { return &interner[K]{ids: map[K]int32{}} }

// id returns k's number, giving it the next one if k is new.
func (in *interner[K]) id(k K) int32 {
	if id, ok := in.ids[k]; ok {
		return id
	}
	id := int32(len(in.keys))
	in.ids[k] = id
	in.keys = append(in.keys, k)
	return id
}
