package fds

import "sort"

// PickLevels returns one satisfying assignment of f as a map from level to
// bit value, choosing the low (false) branch whenever it is satisfiable;
// levels f does not test are absent. ok is false when f is unsatisfiable.
func (f BDD) PickLevels() (bitsOf map[int]bool, ok bool) {
	be := f.s.be
	if f.IsFalse() {
		return nil, false
	}
	bitsOf = map[int]bool{}
	n := f.n
	for {
		if c, _ := be.IsConst(n); c {
			return bitsOf, true
		}
		l, lo, hi := be.Branch(n)
		if c, v := be.IsConst(lo); c && !v {
			bitsOf[l] = true
			n = hi
		} else {
			bitsOf[l] = false
			n = lo
		}
	}
}

// Pick returns values for vars (of their primed copies if next) that extend
// to a satisfying assignment of f; ok is false when f is unsatisfiable. Bits
// f does not constrain are 0, so every value is the smallest possible along
// the chosen path. The caller must include the domain constraints of vars in
// f if values outside the ranges matter.
func (f BDD) Pick(vars []*Var, next bool) (vals []int, ok bool) {
	bitsOf, ok := f.PickLevels()
	if !ok {
		return nil, false
	}
	return decode(vars, next, bitsOf), true
}

// ForEach calls fn with every assignment of vars (of their primed copies if
// next), each value within its variable's range, that extends to a
// satisfying assignment of f, in increasing lexicographic order of the
// encoding. It stops early when fn returns false.
func (f BDD) ForEach(vars []*Var, next bool, fn func(vals []int) bool) {
	s := f.s
	var keep []int
	owner := map[int]int{}
	for i, v := range vars {
		for _, l := range v.Levels(next) {
			keep = append(keep, l)
			owner[l] = i
		}
	}
	// The bits in the order the BDD tests them.
	sort.Slice(keep, func(i, j int) bool { return s.Position(keep[i]) < s.Position(keep[j]) })
	keepSet := map[int]bool{}
	for _, l := range keep {
		keepSet[l] = true
	}
	var others []int
	for l := range s.levels {
		if !keepSet[l] {
			others = append(others, l)
		}
	}
	g := f.Exists(s.CubeOfLevels(others))
	for _, v := range vars {
		g = g.And(v.Dom(next))
	}
	be := s.be
	assign := map[int]bool{}
	stopped := false
	var rec func(n Node, k int)
	rec = func(n Node, k int) {
		if stopped {
			return
		}
		if c, val := be.IsConst(n); c && !val {
			return
		}
		if k == len(keep) {
			if !fn(decode(vars, next, assign)) {
				stopped = true
			}
			return
		}
		l := keep[k]
		lo, hi := n, n
		if c, _ := be.IsConst(n); !c {
			if nl, nlo, nhi := be.Branch(n); nl == l {
				lo, hi = nlo, nhi
			}
		}
		assign[l] = false
		rec(lo, k+1)
		assign[l] = true
		rec(hi, k+1)
	}
	rec(g.n, 0)
}

// Count returns the number of assignments ForEach would enumerate, up to
// limit (counting stops there).
func (f BDD) Count(vars []*Var, next bool, limit int) int {
	n := 0
	f.ForEach(vars, next, func([]int) bool {
		n++
		return n < limit
	})
	return n
}

// decode reads the values of vars (primed copies if next) from bit values
// by level; absent levels are 0.
func decode(vars []*Var, next bool, bitsOf map[int]bool) []int {
	vals := make([]int, len(vars))
	for i, v := range vars {
		off := 0
		for b, l := range v.Levels(next) {
			if bitsOf[l] {
				off |= 1 << uint(b)
			}
		}
		vals[i] = v.lo + off
	}
	return vals
}
