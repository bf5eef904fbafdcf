package split

import "github.com/henceforth-go/henceforth/internal/fds"

// serial is a BDD taken out of its store: the nodes in an order where every
// node comes after its children, each naming the variable bit it tests, so
// that another store — with its own variable order and its own goroutine —
// can rebuild it. Node ids: 0 is false, 1 true, and 2+i the i-th node.
// A serial is immutable once made and may be read by several goroutines.
// This is how summary transitions are broadcast between the BDD stores of
// the parallel fixpoint ("copied between stores", §4.1.3.2 of the thesis).
type serial struct {
	nodes []serialNode
	root  int32
}

type serialNode struct {
	at     levelVar
	lo, hi int32
}

// size is the number of nodes.
func (x serial) size() int { return len(x.nodes) }

// export serialises f.
func (s *store) export(f fds.BDD) serial {
	ids := map[int]int32{0: 0, 1: 1}
	var out serial
	root := s.be.Walk(f.Node(), func(id, level, low, high int) {
		ids[id] = int32(len(out.nodes) + 2)
		out.nodes = append(out.nodes, serialNode{at: s.level[level], lo: ids[low], hi: ids[high]})
	})
	if c, v := s.be.IsConst(f.Node()); c {
		if v {
			out.root = 1
		}
		return out
	}
	out.root = ids[root]
	return out
}

// load rebuilds x in s; rename maps variables of x to variables of s (nil:
// identity), and prime moves every current-state bit to the next-state
// copy. Variables s lacks are a programming error reported as false.
func (s *store) load(x serial, rename map[*Var]*Var, prime bool) fds.BDD {
	levels := make([]int, len(x.nodes))
	low, high := make([]int32, len(x.nodes)), make([]int32, len(x.nodes))
	for i, n := range x.nodes {
		v := n.at.v
		if w, ok := rename[v]; ok {
			v = w
		}
		f, ok := s.fv[v]
		if !ok {
			// unknown variable: the node is false (a programming error)
			levels[i], low[i], high[i] = 0, 0, 0
			continue
		}
		levels[i] = f.Levels(n.at.next || prime)[n.at.bit]
		low[i], high[i] = n.lo, n.hi
	}
	return s.sp.FromNodes(levels, low, high, x.root)
}

// move copies f from store s to store d (same goroutine).
func (s *store) move(f fds.BDD, d *store) fds.BDD {
	if s == d {
		return f
	}
	return d.load(s.export(f), nil, false)
}

// satCount is the number of assignments of the given levels (the BDD must
// not depend on other levels) that satisfy f.
func (s *store) satCount(f fds.BDD, levels []int) float64 {
	pos := make(map[int]int, len(levels))
	sorted := append([]int(nil), levels...)
	sortInts(sorted)
	for i, l := range sorted {
		pos[l] = i
	}
	n := len(sorted)
	type entry struct {
		at    int // position of the node's level
		count float64
	}
	memo := map[int]entry{0: {n, 0}, 1: {n, 1}}
	lift := func(e entry, from int) float64 { // from position from down to e.at
		c := e.count
		for k := from; k < e.at; k++ {
			c *= 2
		}
		return c
	}
	root := s.be.Walk(f.Node(), func(id, level, low, high int) {
		at := pos[level]
		lo, hi := memo[low], memo[high]
		memo[id] = entry{at, lift(lo, at+1) + lift(hi, at+1)}
	})
	if c, v := s.be.IsConst(f.Node()); c {
		if v {
			return lift(entry{n, 1}, 0)
		}
		return 0
	}
	return lift(memo[root], 0)
}

func sortInts(xs []int) {
	for i := 1; i < len(xs); i++ {
		for j := i; j > 0 && xs[j] < xs[j-1]; j-- {
			xs[j], xs[j-1] = xs[j-1], xs[j]
		}
	}
}
