package fds

// Restricter is implemented by backends that simplify a function with
// respect to a care set (the native kernel).
type Restricter interface {
	// Restrict returns a function that agrees with f wherever care holds,
	// chosen to have a small BDD (Coudert and Madre's restrict operator:
	// it is never larger than f when care does not mention variables f
	// does not, and usually much smaller).
	Restrict(f, care Node) Node
}

// Restrict returns a function that agrees with f wherever care holds and is
// usually smaller than f elsewhere (Coudert and Madre's restrict). With a
// backend that cannot restrict it returns f, which also agrees with f.
func (f BDD) Restrict(care BDD) BDD {
	if r, ok := f.s.be.(Restricter); ok {
		return f.with(r.Restrict(f.n, care.n))
	}
	return f
}

func (k *kernel) Restrict(f, care Node) Node {
	return k.run(func() int32 { return k.restrict(id(f), id(care)) })
}

// restrict is Coudert and Madre's operator: a variable at the top of c that
// f does not test is quantified out of c, and a cofactor of c that is
// false lets f take its other cofactor.
func (k *kernel) restrict(f, c int32) int32 {
	switch {
	case c == refTrue || f>>1 == 0:
		return f
	case c == refFalse:
		return refFalse
	case f == c:
		return refTrue
	case f == c^1:
		return refFalse
	}
	if r, ok := k.lookup(opRestrict, f, c, 0); ok {
		return r
	}
	var r int32
	if lf, lc := k.level(f), k.level(c); lc < lf {
		c0, c1 := k.cof(c)
		r = k.restrict(f, k.or(c0, c1))
	} else {
		lvl, f0, f1, c0, c1 := k.split(f, c)
		switch {
		case c0 == refFalse:
			r = k.restrict(f1, c1)
		case c1 == refFalse:
			r = k.restrict(f0, c0)
		default:
			r = k.mk(lvl, k.restrict(f0, c0), k.restrict(f1, c1))
		}
	}
	return k.store(opRestrict, f, c, 0, r)
}
