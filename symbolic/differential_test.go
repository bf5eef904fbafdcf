package symbolic

import (
	"fmt"
	"go/token"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// condGen draws random branch conditions over a few small inputs, so
// that paths mix independent and linked constraints.
type condGen struct {
	r      *rand.Rand
	inputs []Value
}

func newCondGen(seed uint64) *condGen {
	return &condGen{
		r: rand.New(rand.NewPCG(seed, 7)),
		inputs: []Value{
			Input("a", Int8), Input("b", Int8), Input("c", Uint8),
			Input("d", Uint8), Input("e", Int16), Input("f", Bool),
		},
	}
}

func (g *condGen) term(t Type) Value {
	var ins []Value
	for _, in := range g.inputs {
		if in.Type() == t {
			ins = append(ins, in)
		}
	}
	x := ins[g.r.IntN(len(ins))]
	switch g.r.IntN(4) {
	case 0:
		return x
	case 1:
		return bin(token.ADD, x, ins[g.r.IntN(len(ins))])
	case 2:
		return bin(token.MUL, x, MakeInt(t, int64(g.r.IntN(7))-3))
	}
	return bin(token.XOR, x, MakeInt(t, int64(g.r.IntN(256))))
}

func (g *condGen) cond() Value {
	if g.r.IntN(8) == 0 {
		return g.inputs[5]
	}
	t := []Type{Int8, Uint8, Int16}[g.r.IntN(3)]
	ops := []token.Token{token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ}
	y := MakeInt(t, int64(g.r.IntN(200))-100)
	if g.r.IntN(3) == 0 {
		y = g.term(t)
	}
	c := bin(ops[g.r.IntN(len(ops))], g.term(t), y)
	if t == Int8 && g.r.IntN(3) == 0 {
		// A narrowing conversion: int8(e + 300).
		narrow := mustValue(Convert(bin(token.ADD, g.term(Int16), MakeInt(Int16, 300)), Int8))
		c = bin(ops[g.r.IntN(len(ops))], narrow, y)
	}
	if t == Int16 && g.r.IntN(2) == 0 {
		// Link an int16 with an int8 through a conversion.
		c = And(c, bin(token.LSS, mustValue(Convert(g.inputs[g.r.IntN(2)], Int16)), g.term(Int16)))
	}
	return c
}

// TestOptimizationsAgreeWithPlainZ3 explores random branch trees with
// sessions that use the model, the cache and slicing, and with one that
// sends every question to Z3; every answer must agree, and every model
// must satisfy its path condition when evaluated.
func TestOptimizationsAgreeWithPlainZ3(t *testing.T) {
	seeds, depth := 8, 6
	if testing.Short() {
		seeds, depth = 3, 5
	}
	configs := []Config{{}, {DisableSlicing: true}, {DisableGuessing: true}, {DisableCache: true}}
	for seed := range uint64(seeds) {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) {
			t.Parallel()
			t.Logf("seed %d", seed)
			var sessions []*Session
			for _, cfg := range configs {
				sessions = append(sessions, newTestSession(t, cfg))
			}
			explored := exploreRandomTree(t, newCondGen(seed), sessions, depth)
			// Replay every path from the root with freshly built
			// conditions: all remain feasible.
			for _, conds := range explored {
				for _, s := range sessions {
					s.Reset()
					for _, c := range conds {
						require.NoError(t, s.Assume(rebuild(c)))
					}
					r, err := s.Check(bg)
					require.NoError(t, err)
					require.Equal(t, Sat, r.Status, "replay of %s", s.PathCondition())
				}
			}
			fast, plain := sessions[0].Stats(), sessions[len(sessions)-1].Stats()
			t.Logf("solver calls: optimized %d, plain %d", fast.SolverCalls, plain.SolverCalls)
			assert.Less(t, fast.SolverCalls, plain.SolverCalls)
		})
	}
}

func TestFreshSolversAgree(t *testing.T) {
	// Fresh solvers throughout, and incremental attempts whose budget
	// is so short that most queries fall back to a fresh solver.
	hurried := newTestSession(t, Config{DisableCache: true})
	hurried.budget = time.Nanosecond
	sessions := []*Session{
		newTestSession(t, Config{}),
		newTestSession(t, Config{DisableIncremental: true, DisableCache: true}),
		hurried,
	}
	exploreRandomTree(t, newCondGen(99), sessions, 3)
	t.Logf("fallbacks: %d of %d solver calls", hurried.Stats().Fallbacks, hurried.Stats().SolverCalls)
}

// exploreRandomTree walks a random branch tree depth deep in all
// sessions in lockstep, requiring equal answers, and returns the
// constraints of every leaf path.
func exploreRandomTree(t *testing.T, g *condGen, sessions []*Session, depth int) [][]Value {
	var leaves [][]Value
	var path []Value
	var walk func(d int)
	walk = func(d int) {
		lead := sessions[0]
		if d == 0 {
			m, err := lead.Model(bg)
			require.NoError(t, err)
			for _, c := range path {
				b, _ := m.Eval(c).Bool()
				require.True(t, b, "model %s violates %s on %s", m, c, lead.PathCondition())
			}
			leaves = append(leaves, append([]Value(nil), path...))
			return
		}
		c := g.cond()
		onTrue, onFalse, err := lead.Branch(bg, c)
		require.NoError(t, err)
		for _, s := range sessions[1:] {
			t2, f2, err := s.Branch(bg, c)
			require.NoError(t, err)
			require.Equal(t, onTrue, t2, "true side of %s on %s", c, lead.PathCondition())
			require.Equal(t, onFalse, f2, "false side of %s on %s", c, lead.PathCondition())
		}
		require.NotEqual(t, Unknown, onTrue.Status)
		require.NotEqual(t, Unknown, onFalse.Status)
		for _, side := range []struct {
			r Result
			c Value
		}{{onTrue, c}, {onFalse, Not(c)}} {
			if side.r.Status != Sat {
				// Entering an infeasible side anyway: every session
				// must find the path condition unsatisfiable.
				for _, s := range sessions {
					s.Push()
					require.NoError(t, s.Assume(side.c))
					r, err := s.Check(bg)
					require.NoError(t, err)
					require.Equal(t, Unsat, r.Status, "%s", s.PathCondition())
					s.Pop()
				}
				continue
			}
			for _, s := range sessions {
				s.Push()
				require.NoError(t, s.Assume(side.c))
			}
			path = append(path, side.c)
			walk(d - 1)
			path = path[:len(path)-1]
			for _, s := range sessions {
				s.Pop()
			}
		}
	}
	walk(depth)
	return leaves
}

// rebuild returns a copy of v made of new nodes, as a replay builds it.
func rebuild(v Value) Value {
	if v.e == nil {
		return v
	}
	n := *v.e
	n.x, n.y = rebuild(n.x), rebuild(n.y)
	return symbolicValue(&n)
}

func TestFallbackToFreshSolverAnswersCorrectly(t *testing.T) {
	// Sums of 64-bit inputs are slow for Z3's incremental core; with a
	// 1ns budget the incremental attempt gives way to a fresh solver.
	// Either way the answers must be right and the model must work.
	s := newTestSession(t, Config{DisableCache: true})
	s.budget = time.Nanosecond
	xs := benchInputs(8)
	var conds []Value
	for i := range xs {
		c := benchPrograms[1].cond(xs, i)
		conds = append(conds, c)
		require.NoError(t, s.Assume(c))
	}
	m, err := s.Model(bg)
	require.NoError(t, err)
	for _, c := range conds {
		b, _ := m.Eval(c).Bool()
		assert.True(t, b, "model %s violates %s", m, c)
	}
	sum := bin(token.ADD, bin(token.ADD, xs[0], xs[1]), xs[2])
	r, err := s.Feasible(bg, And(bin(token.EQL, sum, MakeInt(Int64, 2)), bin(token.EQL, xs[2], MakeInt(Int64, 0))))
	require.NoError(t, err)
	assert.Equal(t, Unsat, r.Status, "x0+x1 > 1 and x0+x1+x2 > 2 rule out x2 == 0 with the sum 2")
	t.Logf("fallbacks: %d of %d solver calls", s.Stats().Fallbacks, s.Stats().SolverCalls)
}
