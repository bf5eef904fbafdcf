package automaton

// This file minimizes DFAs: it merges the Myhill–Nerode classes that
// Hopcroft's algorithm finds (hopcroft.go) and renumbers the states
// canonically.

// minimize returns the minimal DFA of d's language, with states renumbered
// breadth-first from the initial state and unreachable states dropped.
func minimize(d *DFA) *DFA {
	class, nclasses := stateClasses(d)
	if int(nclasses) == len(d.roots) {
		// Every state is its own class: d is minimal already.
		return renumber(d)
	}
	// Relabel the decision diagram with classes as leaves; hash-consing
	// merges the nodes that become equal and removes those whose
	// children do.
	g := newDAG()
	sig := make([]int32, len(d.nodes))
	ref := func(r int32) int32 {
		if r < 0 {
			return ^class[^r]
		}
		return sig[r]
	}
	for i, nd := range d.nodes {
		sig[i] = g.mk(nd.level, ref(nd.lo), ref(nd.hi))
	}
	q := &DFA{}
	*q = *d
	q.roots = make([]int32, nclasses)
	q.accept = make([]bool, nclasses)
	for s := range d.roots {
		q.roots[class[s]] = ref(d.roots[s])
		q.accept[class[s]] = d.accept[s]
	}
	q.nodes = g.nodes
	q.initial = class[d.initial]
	return renumber(q)
}

// renumber returns a copy of d whose states are those reachable from the
// initial state, numbered in breadth-first order (successors of a state in
// the lo-first order of its decision diagram), with a compacted decision
// DAG.
func renumber(d *DFA) *DFA {
	roots, nodes, accept := d.roots, d.nodes, d.accept
	newID := make([]int32, len(roots))
	for i := range newID {
		newID[i] = -1
	}
	var order []int32
	visit := func(s int32) {
		if newID[s] < 0 {
			newID[s] = int32(len(order))
			order = append(order, s)
		}
	}
	visit(d.initial)
	nodeSeen := make([]bool, len(nodes))
	var stack []int32
	for i := 0; i < len(order); i++ {
		stack = append(stack[:0], roots[order[i]])
		for len(stack) > 0 {
			r := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if r < 0 {
				visit(^r)
				continue
			}
			if nodeSeen[r] {
				continue
			}
			nodeSeen[r] = true
			stack = append(stack, nodes[r].hi, nodes[r].lo)
		}
	}
	// Rebuild the DAG over the new numbering, children first (index order
	// of the old DAG is topological).
	g := newDAG()
	remap := make([]int32, len(nodes))
	ref := func(r int32) int32 {
		if r < 0 {
			return ^newID[^r]
		}
		return remap[r]
	}
	for i, nd := range nodes {
		if nodeSeen[i] {
			remap[i] = g.mk(nd.level, ref(nd.lo), ref(nd.hi))
		}
	}
	out := &DFA{}
	*out = *d
	out.nodes = g.nodes
	out.roots = make([]int32, len(order))
	out.accept = make([]bool, len(order))
	for i, s := range order {
		out.roots[i] = ref(roots[s])
		out.accept[i] = accept[s]
	}
	out.initial = 0
	out.verdicts, out.walk, out.flat = nil, nil, nil
	return out
}

// maxMooreRounds bounds the rounds of Moore refinement that
// minimizeProduct tries before it hands over to Hopcroft's algorithm.
const maxMooreRounds = 8

// minimizeProduct returns the minimal DFA of d's language for a DFA whose
// states are numbered breadth-first (as product numbers them). Products of
// minimal DFAs are often minimal already, and a few rounds of Moore
// refinement prove it in time linear in the diagram: then d itself is
// returned. Otherwise, or when the rounds run out, it minimizes d.
func minimizeProduct(d *DFA) *DFA {
	if mooreDistinct(d, maxMooreRounds) {
		return d
	}
	return minimize(d)
}

// mooreDistinct reports whether at most rounds rounds of Moore refinement
// (a state's class is its acceptance, then its class with its decision
// diagram over the previous round's classes) separate every state of d.
// It reports false when the refinement becomes stable with fewer classes
// than states, or when the rounds run out.
func mooreDistinct(d *DFA, rounds int) bool {
	n := len(d.roots)
	class := make([]int32, n)
	var classes int32
	seen := [2]bool{}
	for s, a := range d.accept {
		if a {
			class[s] = 1
		}
		if !seen[class[s]] {
			seen[class[s]] = true
			classes++
		}
	}
	g := newDAG()
	sig := make([]int32, len(d.nodes))
	next := make([]int32, n)
	ref := func(r int32) int32 {
		if r < 0 {
			return ^class[^r]
		}
		return sig[r]
	}
	for range rounds {
		if int(classes) == n {
			return true
		}
		g.reset(len(d.nodes))
		for i, nd := range d.nodes {
			sig[i] = g.mk(nd.level, ref(nd.lo), ref(nd.hi))
		}
		ids := newPairMap(2 * n)
		var count int32
		for s, r := range d.roots {
			k := pairKey(class[s], ref(r))
			id, ok := ids.get(k)
			if !ok {
				id = count
				count++
				ids.put(k, id)
			}
			next[s] = id
		}
		class, next = next, class
		if count == classes {
			return false // stable
		}
		classes = count
	}
	return int(classes) == n
}
