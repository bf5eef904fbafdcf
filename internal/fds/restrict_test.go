package fds

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestRestrictAgreesOnCare restricts random functions to random care sets
// and checks that the result agrees with the function on the care set and
// is no larger where the care set only tests the function's variables.
func TestRestrictAgreesOnCare(t *testing.T) {
	seed := uint64(20261127)
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 2))
	s, vs := tinySpace(t, 4, 3)
	random := func() BDD {
		f := s.False()
		for range 1 + r.IntN(6) {
			term := s.True()
			for _, v := range vs {
				switch r.IntN(3) {
				case 0:
					term = term.And(v.Eq(r.IntN(4), false))
				case 1:
					term = term.And(v.Eq(r.IntN(4), true).Not())
				}
			}
			f = f.Or(term)
		}
		return f
	}
	shrunk := 0
	for range 200 {
		f, care := random(), random()
		g := f.Restrict(care)
		require.True(t, g.And(care).Equal(f.And(care)), "restrict changed f on the care set")
		if g.Size() < f.Size() {
			shrunk++
		}
	}
	require.NoError(t, s.Err())
	require.Positive(t, shrunk, "restrict never simplified anything")
	require.True(t, s.True().Restrict(s.False()).IsTrue())
}

// tinySpace returns a Space on the native kernel with a 64-node table (so
// that it grows and collects garbage) and n integer variables a, b, … with
// values 0…hi.
func tinySpace(t *testing.T, n, hi int) (*Space, []*Var) {
	t.Helper()
	s := NewSpace(WithBackend(func(n int) (Backend, error) { return NewKernel(n, 64, 0), nil }))
	var vs []*Var
	for i := range n {
		v, err := s.Int(string(rune('a'+i)), 0, hi)
		require.NoError(t, err)
		vs = append(vs, v)
	}
	require.NoError(t, s.Build())
	return s, vs
}
