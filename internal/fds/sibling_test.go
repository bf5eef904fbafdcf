package fds

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSiblingKeepsOrder reorders a Space, makes a sibling, and requires
// the sibling's order to be the reordered one, the copies of random
// functions to be the same functions (truth tables), the renamings to
// agree, and the copies copied back to be the original BDDs.
func TestSiblingKeepsOrder(t *testing.T) {
	seed := uint64(20261129)
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 3))
	s, vs := pairsSpace(t, 4)
	pool := append(randomPool(r, s, vs, 1, 80), pairsOf(s, vs, true))
	st := s.Reorder(context.Background())
	require.Positive(t, st.Swaps)
	moved := false
	for l := range s.NumLevels() {
		moved = moved || s.Position(l) != l
	}
	require.True(t, moved, "the reordering kept the initial order")

	sib, err := s.Sibling(context.Background())
	require.NoError(t, err)
	for l := range s.NumLevels() {
		assert.Equal(t, s.Position(l), sib.Position(l), "position of level %d", l)
	}
	for _, v := range vs {
		w := sib.Lookup(v.Name())
		require.NotNil(t, w)
		assert.Equal(t, v.Levels(false), w.Levels(false))
		assert.Equal(t, v.Levels(true), w.Levels(true))
	}
	copies, err := sib.Copy(pool...)
	require.NoError(t, err)
	size := 1 << s.NumLevels()
	for i, f := range pool {
		require.Equal(t, truthTable(f, size), truthTable(copies[i], size), "function %d", i)
		assert.Equal(t, f.Size(), copies[i].Size(), "function %d: same order, same size", i)
	}
	// Renaming in the sibling agrees with renaming in the origin.
	cur := pool[len(pool)-1].Exists(s.NextCube())
	primed, err := sib.Copy(cur.Prime())
	require.NoError(t, err)
	sibCur, err := sib.Copy(cur)
	require.NoError(t, err)
	assert.True(t, sibCur[0].Prime().Equal(primed[0]))

	back, err := s.Copy(copies...)
	require.NoError(t, err)
	for i, f := range pool {
		assert.True(t, back[i].Equal(f), "function %d copied back", i)
	}
	require.NoError(t, s.Err())
	require.NoError(t, sib.Err())
}

// pairsSpace declares x1…xn then y1…yn, an order that sifting changes
// for functions pairing xi with yi.
func pairsSpace(t *testing.T, n int) (*Space, []*Var) {
	t.Helper()
	s := NewSpace(WithBackend(func(n int) (Backend, error) { return NewKernel(n, 64, 0), nil }))
	var vs []*Var
	for _, p := range []string{"x", "y"} {
		for i := range n {
			v, err := s.Bool(p + string(rune('1'+i)))
			require.NoError(t, err)
			vs = append(vs, v)
		}
	}
	require.NoError(t, s.Build())
	return s, vs
}

// pairsOf is ∨ xi ∧ yi over pairsSpace's variables (yi primed if
// primed), a function whose best order pairs xi with yi.
func pairsOf(s *Space, vs []*Var, primed bool) BDD {
	n := len(vs) / 2
	f := s.False()
	for i := range n {
		f = f.Or(vs[i].Eq(1, false).And(vs[n+i].Eq(1, primed)))
	}
	return f
}

// TestCopyOtherOrder copies functions into a Space with the same
// variables in the initial order (the kernel's Ite path) and back.
func TestCopyOtherOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(20261129, 4))
	s, vs := pairsSpace(t, 4)
	pool := append(randomPool(r, s, vs, 1, 60), pairsOf(s, vs, false))
	s.Reorder(context.Background())
	other, _ := pairsSpace(t, 4)
	require.NotEqual(t, s.Position(vs[4].Levels(false)[0]), other.Position(vs[4].Levels(false)[0]), "the orders differ")
	copies, err := other.Copy(pool...)
	require.NoError(t, err)
	size := 1 << s.NumLevels()
	for i, f := range pool {
		require.Equal(t, truthTable(f, size), truthTable(copies[i], size), "function %d", i)
	}
	back, err := s.Copy(copies...)
	require.NoError(t, err)
	for i, f := range pool {
		assert.True(t, back[i].Equal(f), "function %d copied back", i)
	}
}

// TestCopyErrors: copying between Spaces of different sizes, or from
// several Spaces at once, is an error; a sibling inherits the node limit,
// and a copy that exceeds it fails with ErrNodeLimit.
func TestCopyErrors(t *testing.T) {
	r := rand.New(rand.NewPCG(20261129, 5))
	s, vs := tinySpace(t, 3, 3)
	small, _ := tinySpace(t, 2, 3)
	f := randomPool(r, s, vs, 3, 40)
	_, err := small.Copy(f...)
	assert.Error(t, err)
	_, err = s.Copy(f[len(f)-1], small.True())
	assert.Error(t, err)

	free, _, fvs := equalities(t, 10, 64, 0)
	left, right := hardConjunction(free, fvs)
	big := left.And(right)
	require.Greater(t, big.Size(), 1024)
	lim, _, _ := equalities(t, 10, 64, 256)
	sib, err := lim.Sibling(context.Background())
	require.NoError(t, err)
	_, err = sib.Copy(big)
	assert.ErrorIs(t, err, ErrNodeLimit)
}
