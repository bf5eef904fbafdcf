package fds

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// forBackends runs a test against every backend.
func forBackends(t *testing.T, test func(t *testing.T, newSpace func() *Space)) {
	backends := map[string]func(int) (Backend, error){
		"kernel": func(n int) (Backend, error) { return NewKernel(n, 0, 0), nil },
	}
	for name, b := range backends {
		t.Run(name, func(t *testing.T) {
			test(t, func() *Space { return NewSpace(WithBackend(b)) })
		})
	}
}

// holds evaluates f at a complete assignment of the unprimed and primed
// copies of vars.
func holds(f BDD, vars []*Var, cur, next []int) bool {
	s := f.Space()
	return !f.And(s.Assign(vars, cur, false)).And(s.Assign(vars, next, true)).IsFalse()
}

func TestIntEncodingAndDomain(t *testing.T) {
	forBackends(t, func(t *testing.T, newSpace func() *Space) {
		s := newSpace()
		x, err := s.Int("x", 3, 9)
		require.NoError(t, err)
		b, err := s.Bool("b")
		require.NoError(t, err)
		require.NoError(t, s.Build())
		_, err = s.Bool("late")
		require.ErrorIs(t, err, ErrBuilt)

		assert.Equal(t, 3, x.Width(), "3..9 has 7 values: 3 bits")
		vars := []*Var{x, b}
		for v := 3; v <= 9; v++ {
			assert.True(t, holds(x.Eq(v, false), vars, []int{v, 0}, []int{3, 0}), "x=%d", v)
			assert.False(t, holds(x.Eq(v, false), vars, []int{(v-3+1)%7 + 3, 0}, []int{3, 0}))
			assert.True(t, holds(x.Dom(false), vars, []int{v, 1}, []int{3, 0}))
		}
		assert.True(t, x.Eq(2, false).IsFalse(), "out of range")
		assert.True(t, x.Eq(10, true).IsFalse(), "out of range")
		// The encoding has 8 patterns; exactly one is outside the domain.
		assert.Equal(t, 7, s.True().Count([]*Var{x}, false, 100))
		allOnes := x.Bit(0, false).And(x.Bit(1, false)).And(x.Bit(2, false))
		assert.True(t, x.Dom(false).Not().Equal(allOnes), "offset 7 (value 10) is the one pattern outside 3..9")
	})
}

func TestVecArithmeticMatchesIntegers(t *testing.T) {
	forBackends(t, func(t *testing.T, newSpace func() *Space) {
		seed := uint64(7)
		t.Logf("seed %d", seed)
		r := rand.New(rand.NewPCG(seed, seed))
		s := newSpace()
		x, _ := s.Int("x", -4, 5)
		y, _ := s.Int("y", 2, 12)
		vars := []*Var{x, y}
		type cmp struct {
			name string
			bdd  func(a, b Vec) BDD
			want func(a, b int) bool
		}
		cmps := []cmp{
			{"=", Vec.Eq, func(a, b int) bool { return a == b }},
			{"<", Vec.Lt, func(a, b int) bool { return a < b }},
			{"<=", Vec.Le, func(a, b int) bool { return a <= b }},
		}
		for range 60 {
			k := r.IntN(21) - 10
			c := cmps[r.IntN(len(cmps))]
			// x + k  cmp  y' - x
			lhs := x.Vec(false).Add(s.ConstVec(k))
			rhs := y.Vec(true).Sub(x.Vec(false))
			f := c.bdd(lhs, rhs)
			for xv := -4; xv <= 5; xv++ {
				for yv := 2; yv <= 12; yv++ {
					want := c.want(xv+k, yv-xv)
					got := holds(f, vars, []int{xv, 2}, []int{-4, yv})
					require.Equal(t, want, got, "x=%d y'=%d: x+%d %s y'-x", xv, yv, k, c.name)
				}
			}
		}
	})
}

func TestQuantifiersAndRenaming(t *testing.T) {
	forBackends(t, func(t *testing.T, newSpace func() *Space) {
		s := newSpace()
		a, _ := s.Bool("a")
		n, _ := s.Int("n", 0, 3)
		vars := []*Var{a, n}
		f := a.True(false).And(n.Eq(2, false)).Or(n.Eq(1, false))
		// ∃a. f = n=2 ∨ n=1
		ex := f.Exists(s.CubeOf([]*Var{a}, false))
		assert.True(t, ex.Equal(n.Eq(2, false).Or(n.Eq(1, false))))
		// ∀a. f = n=1
		all := f.Forall(s.CubeOf([]*Var{a}, false))
		assert.True(t, all.Equal(n.Eq(1, false)))
		// Prime then Unprime is the identity, and priming moves to the next copy.
		p := f.Prime()
		assert.True(t, p.Unprime().Equal(f))
		assert.True(t, holds(p, vars, []int{0, 0}, []int{1, 2}))
		assert.False(t, holds(p, vars, []int{1, 2}, []int{0, 0}))
		assert.True(t, p.DependsOnPrimed())
		assert.False(t, p.DependsOnUnprimed())
		// AndExists is the relational product.
		tr := n.Vec(true).Eq(n.Vec(false).Add(s.ConstVec(1))) // n' = n+1
		img := tr.AndExists(n.Eq(1, false), s.CubeOf(vars, false)).Unprime()
		assert.True(t, img.Equal(n.Eq(2, false)))
	})
}

func TestPickAndForEach(t *testing.T) {
	forBackends(t, func(t *testing.T, newSpace func() *Space) {
		s := newSpace()
		a, _ := s.Bool("a")
		n, _ := s.Int("n", 1, 6)
		f := n.Vec(false).Le(s.ConstVec(3)).And(a.True(true))
		vals, ok := f.Pick([]*Var{n}, false)
		require.True(t, ok)
		assert.Equal(t, []int{1}, vals, "lowest value first")
		var seen [][]int
		f.ForEach([]*Var{a, n}, false, func(v []int) bool {
			seen = append(seen, append([]int(nil), v...))
			return true
		})
		// a (unprimed) is unconstrained, n ∈ {1,2,3}.
		assert.ElementsMatch(t, [][]int{{0, 1}, {0, 2}, {0, 3}, {1, 1}, {1, 2}, {1, 3}}, seen)
		_, ok = s.False().Pick([]*Var{n}, false)
		assert.False(t, ok)
		assert.Equal(t, 2, f.Count([]*Var{a, n}, false, 2), "limit stops counting")
	})
}

// TestArenaPredecessors checks ⊙ and ⊚ against their definitions on a small
// game, state by state.
func TestArenaPredecessors(t *testing.T) {
	forBackends(t, func(t *testing.T, newSpace func() *Space) {
		s := newSpace()
		x, _ := s.Int("x", 0, 2) // input
		y, _ := s.Int("y", 0, 2) // output
		vars := []*Var{x, y}
		// Environment: x' ≠ x. System: y' ≠ x' and y' ≥ y unless y = 2.
		envTr := x.Vec(true).Eq(x.Vec(false)).Not().And(x.Dom(true))
		sysTr := y.Vec(true).Eq(x.Vec(true)).Not().And(y.Dom(true)).
			And(y.Eq(2, false).Or(y.Vec(false).Le(y.Vec(true))))
		ar := s.NewArena(envTr, sysTr, []*Var{x}, []*Var{y})
		target := y.Eq(1, false).Or(x.Eq(0, false))
		cox := ar.Cox(target)
		force := ar.EnvForce(target.Not())
		for xv := range 3 {
			for yv := range 3 {
				want := true
				forceWant := false
				for xn := range 3 {
					if xn == xv {
						continue
					}
					some := false
					allBad := true
					for yn := range 3 {
						legal := yn != xn && (yv == 2 || yv <= yn)
						if !legal {
							continue
						}
						in := yn == 1 || xn == 0
						some = some || in
						allBad = allBad && !in
					}
					want = want && some
					forceWant = forceWant || allBad
				}
				assert.Equal(t, want, holds(cox, vars, []int{xv, yv}, []int{0, 0}), "cox x=%d y=%d", xv, yv)
				assert.Equal(t, forceWant, holds(force, vars, []int{xv, yv}, []int{0, 0}), "force x=%d y=%d", xv, yv)
				assert.NotEqual(t, holds(cox, vars, []int{xv, yv}, []int{0, 0}), holds(force, vars, []int{xv, yv}, []int{0, 0}), "determinacy")
			}
		}
	})
}

func TestStatsAndSize(t *testing.T) {
	forBackends(t, func(t *testing.T, newSpace func() *Space) {
		s := newSpace()
		a, _ := s.Bool("a")
		b, _ := s.Bool("b")
		f := a.True(false).Xor(b.True(false))
		assert.Contains(t, []int{2, 3}, f.Size(), "3 nodes, or 2 with complement edges")
		assert.Equal(t, 0, s.True().Size())
		st := s.Stats()
		assert.Positive(t, st.Allocated)
		assert.NoError(t, s.Err())
		v, prime := s.VarAt(b.Levels(true)[0])
		assert.Equal(t, b, v)
		assert.True(t, prime)
	})
}

// TestPartitionedArena compares the predecessors of a partitioned arena with
// those of the monolithic one, for clusters of every size.
func TestPartitionedArena(t *testing.T) {
	forBackends(t, func(t *testing.T, newSpace func() *Space) {
		s := newSpace()
		x, _ := s.Int("x", 0, 2)
		y, _ := s.Int("y", 0, 3)
		z, _ := s.Bool("z")
		envTr := x.Dom(true)
		parts := []BDD{
			y.Dom(true),
			y.Vec(true).Eq(x.Vec(true)).Not(),
			z.True(true).Iff(y.Eq(2, false)),
			y.Vec(false).Le(y.Vec(true)).Or(x.Eq(0, false)),
		}
		mono := s.NewArena(envTr, s.And(parts...), []*Var{x}, []*Var{y, z})
		targets := []BDD{y.Eq(1, false).Or(z.True(false)), x.Eq(2, false), s.True(), s.False(), y.Eq(3, false).And(z.True(false))}
		for _, size := range []int{1, 5, 50, 1000} {
			part := s.NewPartitionedArena(envTr, parts, []*Var{x}, []*Var{y, z}, size)
			assert.Positive(t, part.Parts())
			for i, tg := range targets {
				assert.True(t, mono.Cox(tg).Equal(part.Cox(tg)), "cluster %d target %d", size, i)
				assert.True(t, mono.EnvForce(tg).Equal(part.EnvForce(tg)), "cluster %d target %d", size, i)
				tr := tg.And(x.Eq(1, true))
				assert.True(t, mono.EnvMoves(tr).Equal(part.EnvMoves(tr)), "cluster %d target %d", size, i)
			}
		}
		// Quantifying over no variables is the identity.
		empty := s.CubeOfLevels(nil)
		f := x.Eq(1, false)
		assert.True(t, f.Exists(empty).Equal(f))
		assert.True(t, f.AndExists(z.True(false), empty).Equal(f.And(z.True(false))))
		assert.True(t, f.OrForall(z.True(false), empty).Equal(f.Or(z.True(false))))
	})
}
