package fds

// MultiWalker is implemented by backends that walk several roots at once
// with one visited set (the native kernel).
type MultiWalker interface {
	// WalkAll is Walk for every root in roots, in order, with one visited
	// set: every internal node reachable from some root is visited exactly
	// once, children before parents, with the ids Walk gives it (so a
	// node's id names one function throughout the call). It returns the
	// roots' ids.
	WalkAll(roots []Node, visit func(id, level, low, high int)) []int
}

// WalkAll implements MultiWalker. The visited set is a bit table indexed by
// ref (two per node: its two polarities, which Walk presents as two
// nodes), allocated once per call, instead of Walk's hash set per root; the
// visit order is the one successive Walks give, less the nodes an earlier
// root reached.
func (k *kernel) WalkAll(roots []Node, visit func(id, level, low, high int)) []int {
	ext := walkID
	seen := make([]uint64, (2*len(k.nodes)+63)/64)
	var rec func(r int32)
	rec = func(r int32) {
		if r>>1 == 0 || seen[r>>6]&(1<<(r&63)) != 0 {
			return
		}
		seen[r>>6] |= 1 << (r & 63)
		lo, hi := k.cof(r)
		rec(lo)
		rec(hi)
		visit(ext(r), int(k.level2var[k.level(r)]), ext(lo), ext(hi))
	}
	ids := make([]int, len(roots))
	for i, root := range roots {
		r := id(root)
		rec(r)
		ids[i] = ext(r)
	}
	return ids
}
