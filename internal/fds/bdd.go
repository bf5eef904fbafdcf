package fds

// BDD is a Boolean function over the bits of a Space's variables, unprimed
// and primed. BDDs are immutable values; the zero BDD is invalid. Operations
// combine BDDs of the same Space only.
type BDD struct {
	s *Space
	n Node
}

// True returns the constant true.
func (s *Space) True() BDD { return BDD{s, s.backend().True()} }

// False returns the constant false.
func (s *Space) False() BDD { return BDD{s, s.backend().False()} }

// Const returns true or false.
func (s *Space) Const(b bool) BDD {
	if b {
		return s.True()
	}
	return s.False()
}

// Level returns the BDD of the single bit at level l.
func (s *Space) Level(l int) BDD { return BDD{s, s.backend().Var(l)} }

// Space returns the Space that owns f.
func (f BDD) Space() *Space { return f.s }

// Node returns the backend handle of f.
func (f BDD) Node() Node { return f.n }

func (f BDD) with(n Node) BDD { return BDD{f.s, n} }

// Not returns ¬f.
func (f BDD) Not() BDD { return f.with(f.s.be.Not(f.n)) }

// And returns f ∧ g.
func (f BDD) And(g BDD) BDD { return f.with(f.s.be.Apply(OpAnd, f.n, g.n)) }

// Or returns f ∨ g.
func (f BDD) Or(g BDD) BDD { return f.with(f.s.be.Apply(OpOr, f.n, g.n)) }

// Xor returns f ⊕ g.
func (f BDD) Xor(g BDD) BDD { return f.with(f.s.be.Apply(OpXor, f.n, g.n)) }

// Imp returns f → g.
func (f BDD) Imp(g BDD) BDD { return f.with(f.s.be.Apply(OpImp, f.n, g.n)) }

// Iff returns f ↔ g.
func (f BDD) Iff(g BDD) BDD { return f.with(f.s.be.Apply(OpIff, f.n, g.n)) }

// Diff returns f ∧ ¬g.
func (f BDD) Diff(g BDD) BDD { return f.with(f.s.be.Apply(OpDiff, f.n, g.n)) }

// Ite returns (f ∧ g) ∨ (¬f ∧ h).
func (f BDD) Ite(g, h BDD) BDD { return f.with(f.s.be.Ite(f.n, g.n, h.n)) }

// Equal reports whether f and g are the same function.
func (f BDD) Equal(g BDD) bool { return f.s.be.Equal(f.n, g.n) }

// IsFalse reports whether f is unsatisfiable.
func (f BDD) IsFalse() bool {
	c, v := f.s.be.IsConst(f.n)
	return c && !v
}

// IsTrue reports whether f is valid.
func (f BDD) IsTrue() bool {
	c, v := f.s.be.IsConst(f.n)
	return c && v
}

// Implies reports whether f → g is valid.
func (f BDD) Implies(g BDD) bool { return f.Diff(g).IsFalse() }

// Exists quantifies the variables of c existentially.
func (f BDD) Exists(c Cube) BDD { return f.with(f.s.be.Exist(f.n, c.n)) }

// Forall quantifies the variables of c universally.
func (f BDD) Forall(c Cube) BDD {
	be := f.s.be
	return f.with(be.OrForall(f.n, be.False(), c.n))
}

// OrForall returns ∀c. f ∨ g.
func (f BDD) OrForall(g BDD, c Cube) BDD { return f.with(f.s.be.OrForall(f.n, g.n, c.n)) }

// AndExists returns ∃c. f ∧ g (the relational product).
func (f BDD) AndExists(g BDD, c Cube) BDD { return f.with(f.s.be.AndExist(f.n, g.n, c.n)) }

// Prime renames every unprimed variable to its primed copy. f must not depend
// on primed variables.
func (f BDD) Prime() BDD {
	if f.s.prime == nil {
		return f
	}
	return f.with(f.s.be.Rename(f.n, f.s.prime))
}

// Unprime renames every primed variable to its unprimed copy. f must not
// depend on unprimed variables.
func (f BDD) Unprime() BDD {
	if f.s.unprime == nil {
		return f
	}
	return f.with(f.s.be.Rename(f.n, f.s.unprime))
}

// Size is the number of BDD nodes of f.
func (f BDD) Size() int { return f.s.be.Size(f.n) }

// SizeOf is the number of BDD nodes shared by fs.
func (s *Space) SizeOf(fs ...BDD) int {
	ns := make([]Node, len(fs))
	for i, f := range fs {
		ns[i] = f.n
	}
	return s.backend().Size(ns...)
}

// DependsOnPrimed reports whether f depends on some primed variable.
func (f BDD) DependsOnPrimed() bool { return !f.Exists(f.s.NextCube()).Equal(f) }

// DependsOnUnprimed reports whether f depends on some unprimed variable.
func (f BDD) DependsOnUnprimed() bool { return !f.Exists(f.s.CurCube()).Equal(f) }

// And returns the conjunction of fs (true for none).
func (s *Space) And(fs ...BDD) BDD {
	r := s.True()
	for _, f := range fs {
		r = r.And(f)
	}
	return r
}

// Or returns the disjunction of fs (false for none).
func (s *Space) Or(fs ...BDD) BDD {
	r := s.False()
	for _, f := range fs {
		r = r.Or(f)
	}
	return r
}

// Cube is a set of BDD levels to quantify over.
type Cube struct {
	n      Node
	levels []int
}

// Levels returns the levels of the cube.
func (c Cube) Levels() []int { return c.levels }

// CubeOf returns the cube of the given variables' bits, primed if next.
func (s *Space) CubeOf(vars []*Var, next bool) Cube {
	var ls []int
	for _, v := range vars {
		ls = append(ls, v.Levels(next)...)
	}
	return s.CubeOfLevels(ls)
}

// CubeOfLevels returns the cube of the given levels.
func (s *Space) CubeOfLevels(ls []int) Cube {
	return Cube{s.backend().Cube(ls), append([]int(nil), ls...)}
}

// CurCube returns the cube of all unprimed bits.
func (s *Space) CurCube() Cube {
	s.backend()
	return Cube{s.curCube, s.curLevels}
}

// NextCube returns the cube of all primed bits.
func (s *Space) NextCube() Cube {
	s.backend()
	return Cube{s.nextCube, s.nextLevels}
}

// Support returns the levels f depends on, in increasing order.
func (f BDD) Support() []int {
	seen := map[int]bool{}
	f.s.be.Walk(f.n, func(_, level, _, _ int) { seen[level] = true })
	out := make([]int, 0, len(seen))
	for l := range f.s.levels {
		if seen[l] {
			out = append(out, l)
		}
	}
	return out
}

// FromNodes returns the BDD of nodes given children first: node i (id i+2;
// ids 0 and 1 are false and true) tests the variable at levels[i] and has
// cofactors low[i] (variable false) and high[i]. The levels need not
// respect the Space's order (a BDD copied from a Space with another
// order); root is the id of the root.
func (s *Space) FromNodes(levels []int, low, high []int32, root int32) BDD {
	be := s.backend()
	if b, ok := be.(Builder); ok {
		return BDD{s, b.Build(levels, low, high, root)}
	}
	res := make([]BDD, len(levels)+2)
	res[0], res[1] = s.False(), s.True()
	for i, l := range levels {
		res[i+2] = s.Level(l).Ite(res[high[i]], res[low[i]])
	}
	return res[root]
}
