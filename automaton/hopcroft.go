package automaton

// This file computes the Myhill–Nerode classes of a DFA's states with
// Hopcroft's algorithm, in O(m log m) for m states plus decision-diagram
// nodes.
//
// Hopcroft's algorithm needs one transition per letter, and a DFA over k
// atoms has 2^k letters. So it runs on a binary expansion of the DFA
// instead: the states and the nodes of the decision diagram, made
// quasi-reduced (every path tests every level: where a node skips levels,
// shared pass-through nodes fill them in), read bits. A node at level l
// goes to its lo child on 0 and its hi child on 1; a state goes to the
// level-0 node of its diagram on either bit (or, with no atoms, directly
// to its successor). Quasi-reduced ordered diagrams with equal leaves are
// equal exactly when they are the same function, so two states of the
// expansion are equivalent — starting from the partition accepting states,
// rejecting states, nodes of each level — exactly when the DFA states are.

// binaryExpansion is the DFA read bit by bit: element q < nStates is a
// state; the others are quasi-reduced decision-diagram nodes.
type binaryExpansion struct {
	nStates int
	next    [2][]int32 // next[c][q]: the element after reading bit c
	kind    []int32    // initial class: 0/1 rejecting/accepting state, 2+l node at level l
}

func binaryExpansionOf(d *DFA) *binaryExpansion {
	n := len(d.roots)
	k := int32(len(d.atoms))
	e := &binaryExpansion{nStates: n}
	add := func(kind, lo, hi int32) int32 {
		id := int32(len(e.kind))
		e.kind = append(e.kind, kind)
		e.next[0] = append(e.next[0], lo)
		e.next[1] = append(e.next[1], hi)
		return id
	}
	for s := range n {
		kind := int32(0)
		if d.accept[s] {
			kind = 1
		}
		add(kind, -1, -1) // filled below
	}
	nodeID := make([]int32, len(d.nodes))
	for i := range d.nodes {
		nodeID[i] = add(2+d.nodes[i].level, -1, -1)
	}
	type gap struct{ level, ref int32 }
	pass := map[gap]int32{}
	// at returns the element for reference r read from level j on.
	var at func(j, r int32) int32
	at = func(j, r int32) int32 {
		if r < 0 && j == k {
			return ^r
		}
		if r >= 0 && d.nodes[r].level == j {
			return nodeID[r]
		}
		g := gap{j, r}
		if id, ok := pass[g]; ok {
			return id
		}
		c := at(j+1, r)
		id := add(2+j, c, c)
		pass[g] = id
		return id
	}
	for i, nd := range d.nodes {
		lo, hi := at(nd.level+1, nd.lo), at(nd.level+1, nd.hi)
		e.next[0][nodeID[i]], e.next[1][nodeID[i]] = lo, hi
	}
	for s := range n {
		r := at(0, d.roots[s])
		e.next[0][s], e.next[1][s] = r, r
	}
	return e
}

// partition is a refinable partition of 0…n-1 (Valmari–Lehtinen): the
// elements of block b are elems[first[b]:end[b]], those marked in the
// current round elems[first[b]:mid[b]].
type partition struct {
	elems, loc, block []int32
	first, mid, end   []int32
}

// newPartition groups elements by kind.
func newPartition(kind []int32) *partition {
	n := len(kind)
	p := &partition{elems: make([]int32, n), loc: make([]int32, n), block: make([]int32, n)}
	ids := map[int32]int32{}
	var count []int32
	for _, k := range kind {
		b, ok := ids[k]
		if !ok {
			b = int32(len(count))
			ids[k] = b
			count = append(count, 0)
		}
		count[b]++
	}
	pos := int32(0)
	for b := range count {
		p.first = append(p.first, pos)
		p.mid = append(p.mid, pos)
		pos += count[b]
		p.end = append(p.end, pos)
	}
	fill := append([]int32(nil), p.first...)
	for q, k := range kind {
		b := ids[k]
		p.block[q] = b
		p.loc[q] = fill[b]
		p.elems[fill[b]] = int32(q)
		fill[b]++
	}
	return p
}

func (p *partition) size(b int32) int32 { return p.end[b] - p.first[b] }

// mark marks q; it reports whether q's block had no mark before.
func (p *partition) mark(q int32) bool {
	b := p.block[q]
	i := p.loc[q]
	m := p.mid[b]
	if i < m {
		return false // marked already
	}
	o := p.elems[m]
	p.elems[i], p.elems[m] = o, q
	p.loc[o], p.loc[q] = i, m
	p.mid[b] = m + 1
	return m == p.first[b]
}

// split separates the marked elements of b into a new block, which it
// returns, or returns -1 when all of b was marked (b stays whole). Marks
// are cleared either way.
func (p *partition) split(b int32) int32 {
	m := p.mid[b]
	if m == p.end[b] {
		p.mid[b] = p.first[b]
		return -1
	}
	nb := int32(len(p.first))
	p.first = append(p.first, p.first[b])
	p.mid = append(p.mid, p.first[b])
	p.end = append(p.end, m)
	for _, q := range p.elems[p.first[b]:m] {
		p.block[q] = nb
	}
	p.first[b], p.mid[b] = m, m
	return nb
}

// stateClasses returns the Myhill–Nerode class of every state of d
// (classes numbered from 0, dense) and the number of classes.
func stateClasses(d *DFA) ([]int32, int32) {
	e := binaryExpansionOf(d)
	m := len(e.kind)
	// Predecessors per bit, in compressed rows.
	var predStart [2][]int32
	var preds [2][]int32
	for c := range 2 {
		start := make([]int32, m+1)
		for _, t := range e.next[c] {
			start[t+1]++
		}
		for i := range m {
			start[i+1] += start[i]
		}
		list := make([]int32, m)
		fill := append([]int32(nil), start[:m]...)
		for q, t := range e.next[c] {
			list[fill[t]] = int32(q)
			fill[t]++
		}
		predStart[c], preds[c] = start, list
	}

	p := newPartition(e.kind)
	inWork := make([]bool, len(p.first), m)
	var work []int32
	for b := range p.first {
		work = append(work, int32(b))
		inWork[b] = true
	}
	var splitter, touched []int32
	for len(work) > 0 {
		a := work[len(work)-1]
		work = work[:len(work)-1]
		inWork[a] = false
		splitter = append(splitter[:0], p.elems[p.first[a]:p.end[a]]...)
		for c := range 2 {
			touched = touched[:0]
			for _, q := range splitter {
				for _, r := range preds[c][predStart[c][q]:predStart[c][q+1]] {
					if p.mark(r) {
						touched = append(touched, p.block[r])
					}
				}
			}
			for _, b := range touched {
				nb := p.split(b)
				if nb < 0 {
					continue
				}
				inWork = append(inWork, false)
				switch {
				case inWork[b]:
					work = append(work, nb)
					inWork[nb] = true
				case p.size(nb) < p.size(b):
					work = append(work, nb)
					inWork[nb] = true
				default:
					work = append(work, b)
					inWork[b] = true
				}
			}
		}
	}

	// Number the blocks that contain states densely.
	class := make([]int32, e.nStates)
	dense := map[int32]int32{}
	for s := range class {
		b := p.block[s]
		id, ok := dense[b]
		if !ok {
			id = int32(len(dense))
			dense[b] = id
		}
		class[s] = id
	}
	return class, int32(len(dense))
}
