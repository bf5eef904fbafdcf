package fds

// Intersecter is implemented by backends that decide whether two functions
// share a satisfying assignment without building their conjunction (the
// native kernel).
type Intersecter interface {
	// Intersects reports whether f ∧ g is satisfiable.
	Intersects(f, g Node) bool
}

// Intersects reports whether f ∧ g is satisfiable: !f.And(g).IsFalse(),
// without building f ∧ g where the backend can (Intersecter), so it makes
// no node and stops at the first common assignment found.
func (f BDD) Intersects(g BDD) bool {
	if in, ok := f.s.be.(Intersecter); ok {
		return in.Intersects(f.n, g.n)
	}
	return !f.And(g).IsFalse()
}

// opIntersects caches intersects in the kernel's operation cache, with
// refTrue or refFalse as the result (constants, which a collection keeps).
// It is far from the kernel's own codes.
const opIntersects int32 = 1 << 20

// Intersects implements Intersecter. After a failure (Err) it reports
// false, as the conjunction would be the constant false.
func (k *kernel) Intersects(f, g Node) bool {
	return k.run(func() int32 {
		if k.intersects(id(f), id(g)) {
			return refTrue
		}
		return refFalse
	}).(*handle).id == refTrue
}

// intersects is and(a, b) ≠ false, computed like and without making nodes:
// a pair of cofactors that intersects ends the search. It looks at the
// context as mk does, every pollEvery steps that miss the cache.
func (k *kernel) intersects(a, b int32) bool {
	switch {
	case a == refFalse || b == refFalse || a == b^1:
		return false
	case a == refTrue || b == refTrue || a == b:
		return true
	}
	if a > b {
		a, b = b, a
	}
	if r, ok := k.lookup(opIntersects, a, b, 0); ok {
		return r == refTrue
	}
	k.poll--
	if k.poll <= 0 {
		k.lookAtContext()
	}
	_, a0, a1, b0, b1 := k.split(a, b)
	r := k.intersects(a0, b0) || k.intersects(a1, b1)
	res := refFalse
	if r {
		res = refTrue
	}
	k.store(opIntersects, a, b, 0, res)
	return r
}
