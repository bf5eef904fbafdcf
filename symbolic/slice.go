package symbolic

// Constraint independence ("slicing"): inputs linked by a common
// constraint form a component. When the path condition PC is known to
// be satisfiable, PC ∧ c is satisfiable exactly when c together with the
// constraints of the components c's inputs belong to is: the other
// components are satisfied by the current model, whatever values c's
// components take. So a query only needs that slice, and its answer
// (cached under the slice) serves every path whose unrelated
// constraints differ.

// unionFind partitions a path's inputs into components. It supports
// undo, as the path shrinks on Pop: no path compression, union by size,
// and a history of the roots it attached.
type unionFind struct {
	parent []int32
	size   []int32
	hist   []int32 // roots attached to another root, in order
}

// add appends a singleton element and returns its index.
func (u *unionFind) add() int {
	i := len(u.parent)
	u.parent = append(u.parent, int32(i))
	u.size = append(u.size, 1)
	return i
}

func (u *unionFind) find(i int) int {
	for int(u.parent[i]) != i {
		i = int(u.parent[i])
	}
	return i
}

func (u *unionFind) union(a, b int) {
	a, b = u.find(a), u.find(b)
	if a == b {
		return
	}
	if u.size[a] < u.size[b] {
		a, b = b, a
	}
	u.parent[b] = int32(a)
	u.size[a] += u.size[b]
	u.hist = append(u.hist, int32(b))
}

// undo reverts the unions made after the history had length h and drops
// the elements added after there were n.
func (u *unionFind) undo(h, n int) {
	for len(u.hist) > h {
		b := u.hist[len(u.hist)-1]
		u.hist = u.hist[:len(u.hist)-1]
		a := u.parent[b]
		u.size[a] -= u.size[b]
		u.parent[b] = b
	}
	u.parent = u.parent[:n]
	u.size = u.size[:n]
}
