package symbolic

import (
	"context"
	"go/token"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var bg = context.Background()

func intc(t Type, v int64) Value { return MakeInt(t, v) }

// leaf is a finished path of a solver-level exploration.
type leaf struct {
	pc     string
	inputs map[string]any
	status Status // Sat: feasible (inputs is a witness); Unsat: infeasible
}

// absDiff explores the thesis's symbolic execution example (§2.6, Fig. 5)
// at solver level:
//
//	if x > y { result = x - y } else { result = y - x }
//	assert(result > 0)
//
// and returns the four paths.
func absDiff(t *testing.T, s *Session, x, y Value) []leaf {
	var leaves []leaf
	cond := bin(token.GTR, x, y)
	onTrue, onFalse, err := s.Branch(bg, cond)
	require.NoError(t, err)
	for _, side := range []struct {
		r      Result
		cond   Value
		result Value
	}{
		{onTrue, cond, bin(token.SUB, x, y)},
		{onFalse, Not(cond), bin(token.SUB, y, x)},
	} {
		require.Equal(t, Sat, side.r.Status)
		s.Push()
		require.NoError(t, s.Assume(side.cond))
		ok := bin(token.GTR, side.result, MakeUint(side.result.Type(), 0))
		holds, fails, err := s.Branch(bg, ok)
		require.NoError(t, err)
		for _, end := range []struct {
			r    Result
			cond Value
		}{{holds, ok}, {fails, Not(ok)}} {
			s.Push()
			require.NoError(t, s.Assume(end.cond))
			l := leaf{pc: s.PathCondition().String(), status: end.r.Status}
			if end.r.Status == Sat {
				m, err := s.Model(bg)
				require.NoError(t, err)
				l.inputs = m.Inputs()
			} else {
				require.Equal(t, Unsat, end.r.Status, l.pc)
			}
			leaves = append(leaves, l)
			s.Pop()
		}
		s.Pop()
	}
	return leaves
}

// goAbsDiff is the example in Go; it reports the branch taken and
// whether the assertion holds.
func goAbsDiff[T int32 | int64](x, y T) (greater, ok bool) {
	var result T
	if x > y {
		result = x - y
	} else {
		result = y - x
	}
	return x > y, result > 0
}

func TestThesisAbsDifferenceBounded(t *testing.T) {
	// With inputs that cannot overflow (int32 values widened to int64)
	// the thesis's claim holds: three feasible paths, one infeasible,
	// and the assertion fails exactly when x == y.
	s := newTestSession(t, Config{})
	x := mustValue(Convert(Input("x", Int32), Int64))
	y := mustValue(Convert(Input("y", Int32), Int64))
	leaves := absDiff(t, s, x, y)
	require.Len(t, leaves, 4)
	assert.Equal(t, Sat, leaves[0].status, leaves[0].pc)
	assert.Equal(t, Unsat, leaves[1].status, "x > y && x-y <= 0 has no solution without overflow")
	assert.Equal(t, "int64(x) > int64(y) && int64(x)-int64(y) <= 0", leaves[1].pc)
	assert.Equal(t, Sat, leaves[2].status, leaves[2].pc)
	assert.Equal(t, Sat, leaves[3].status, leaves[3].pc)
	for i, l := range leaves {
		if l.status != Sat {
			continue
		}
		xv, yv := int64(l.inputs["x"].(int32)), int64(l.inputs["y"].(int32))
		greater, ok := goAbsDiff(xv, yv)
		assert.Equal(t, i < 2, greater, "path %d: %s with %v", i, l.pc, l.inputs)
		assert.Equal(t, i%2 == 0, ok, "path %d: %s with %v", i, l.pc, l.inputs)
	}
	assert.Equal(t, leaves[3].inputs["x"], leaves[3].inputs["y"], "the assertion fails for x == y")
}

func TestThesisAbsDifferenceOverflows(t *testing.T) {
	// With Go's int64 the "infeasible" path is feasible: x - y wraps.
	// Bit-precise semantics find the inputs the thesis's solver missed.
	s := newTestSession(t, Config{})
	leaves := absDiff(t, s, Input("x", Int64), Input("y", Int64))
	require.Len(t, leaves, 4)
	for i, l := range leaves {
		require.Equal(t, Sat, l.status, "path %d: %s", i, l.pc)
		greater, ok := goAbsDiff(l.inputs["x"].(int64), l.inputs["y"].(int64))
		assert.Equal(t, i < 2, greater, "path %d: %s with %v", i, l.pc, l.inputs)
		assert.Equal(t, i%2 == 0, ok, "path %d: %s with %v", i, l.pc, l.inputs)
	}
}

// myMethod is the thesis's Until_Sym example (§4.2, Fig. 15).
func myMethod(field, param int) int {
	if param <= 0 && field > 0 {
		return field - param + 1
	}
	return param
}

func TestThesisUntilSym(t *testing.T) {
	// Concrete mode, myMethod(5) with field 0: one path, z > 0, and
	// no solver call at all.
	s := newTestSession(t, Config{})
	field, param := intc(Int, 0), intc(Int, 5)
	cond := And(bin(token.LEQ, param, intc(Int, 0)), bin(token.GTR, field, intc(Int, 0)))
	onTrue, onFalse, err := s.Branch(bg, cond)
	require.NoError(t, err)
	assert.Equal(t, Unsat, onTrue.Status)
	assert.Equal(t, Sat, onFalse.Status)
	b, _ := bin(token.GTR, param, intc(Int, 0)).Bool()
	assert.True(t, b, "z = 5 > 0: the spec holds on the only path")
	assert.Zero(t, s.Stats().SolverCalls)

	// Symbolic mode: both field and param are inputs; z > 0 can fail.
	// On the else side the witness has param <= 0 (the thesis's
	// comment); on the then side only through overflow of
	// field - param + 1, which Java's SPF could not see.
	field, param = Input("field", Int), Input("param", Int)
	cond = And(bin(token.LEQ, param, intc(Int, 0)), bin(token.GTR, field, intc(Int, 0)))
	onTrue, onFalse, err = s.Branch(bg, cond)
	require.NoError(t, err)
	require.Equal(t, Sat, onTrue.Status)
	require.Equal(t, Sat, onFalse.Status)
	for _, side := range []struct {
		cond Value
		z    Value
	}{
		{cond, bin(token.ADD, bin(token.SUB, field, param), intc(Int, 1))},
		{Not(cond), param},
	} {
		s.Push()
		require.NoError(t, s.Assume(side.cond))
		violated := bin(token.LEQ, side.z, intc(Int, 0))
		r, err := s.Feasible(bg, violated)
		require.NoError(t, err)
		require.Equal(t, Sat, r.Status)
		z, err := s.Concretize(bg, side.z)
		require.NoError(t, err)
		m, err := s.Model(bg)
		require.NoError(t, err)
		in := m.Inputs()
		got := myMethod(in["field"].(int), in["param"].(int))
		zv, _ := z.Int64()
		assert.Equal(t, int(zv), got, "Concretize gives the value Go computes for the model")
		if got <= 0 {
			t.Logf("z = %d for %v", got, in)
		} else {
			// Concretize picked a non-violating value; ask again for one that violates.
			s.Pop()
			s.Push()
			require.NoError(t, s.Assume(side.cond))
			require.NoError(t, s.Assume(violated))
			m, err = s.Model(bg)
			require.NoError(t, err)
			in = m.Inputs()
			assert.LessOrEqual(t, myMethod(in["field"].(int), in["param"].(int)), 0, "witness %v", in)
		}
		s.Pop()
	}
}

func TestMagicNumberAndOverflowCheck(t *testing.T) {
	s := newTestSession(t, Config{})
	n, limit := Input("n", Int), Input("limit", Int)
	magic := bin(token.EQL, bin(token.MUL, n, intc(Int, 3)), bin(token.ADD, limit, intc(Int, 7)))
	require.NoError(t, s.Assume(magic))
	m, err := s.Model(bg)
	require.NoError(t, err)
	in := m.Inputs()
	assert.Equal(t, in["n"].(int)*3, in["limit"].(int)+7, "model %v", in)
	assert.Equal(t, "n*3 == limit+7", s.PathCondition().String())

	s.Reset()
	a, b := Input("a", Int64), Input("b", Int64)
	require.NoError(t, s.Assume(bin(token.GTR, b, intc(Int64, 0))))
	require.NoError(t, s.Assume(bin(token.LSS, bin(token.ADD, a, b), a)))
	m, err = s.Model(bg)
	require.NoError(t, err)
	av, bv := m.Inputs()["a"].(int64), m.Inputs()["b"].(int64)
	assert.Less(t, av+bv, av, "a+b overflows for a=%d b=%d", av, bv)
	assert.Equal(t, "b > 0 && a+b < a", s.PathCondition().String())
}

func TestPushPopAndModels(t *testing.T) {
	s := newTestSession(t, Config{})
	x, err := s.NewInput("x", Int8)
	require.NoError(t, err)
	_, err = s.NewInput("x", Int8)
	assert.EqualError(t, err, `symbolic: input "x" is already on the path`)
	_, err = s.NewInput("", Int8)
	assert.Error(t, err)
	flag, err := s.NewInput("flag", Bool)
	require.NoError(t, err)

	m, err := s.Model(bg)
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"x": int8(0), "flag": false}, m.Inputs(), "unconstrained inputs are zero")

	s.Push()
	require.NoError(t, s.Assume(bin(token.GTR, x, intc(Int8, 100))))
	require.NoError(t, s.Assume(flag))
	s.Push()
	_, err = s.NewInput("y", Uint16)
	require.NoError(t, err)
	require.NoError(t, s.Assume(bin(token.LSS, x, intc(Int8, 101))))
	r, err := s.Check(bg)
	require.NoError(t, err)
	assert.Equal(t, Unsat, r.Status)
	_, err = s.Model(bg)
	assert.ErrorIs(t, err, ErrInfeasible)
	assert.Len(t, s.Inputs(), 3)
	s.Pop()
	assert.Len(t, s.Inputs(), 2, "Pop removes inputs declared since Push")
	m, err = s.Model(bg)
	require.NoError(t, err)
	assert.Greater(t, m.Inputs()["x"].(int8), int8(100))
	assert.Equal(t, true, m.Inputs()["flag"])
	assert.Equal(t, "x > 100 && flag", s.PathCondition().String())
	s.Pop()
	assert.Equal(t, "true", s.PathCondition().String())
	assert.Panics(t, s.Pop, "Pop without Push is a caller bug")

	// Inputs with one name must have one type.
	require.NoError(t, s.Assume(bin(token.GTR, Input("a", Int), intc(Int, 0))))
	err = s.Assume(bin(token.GTR, Input("a", Int8), intc(Int8, 0)))
	assert.EqualError(t, err, `symbolic: input "a" used as int and as int8`)
	_, err = s.Feasible(bg, bin(token.GTR, Input("a", Uint), MakeUint(Uint, 0)))
	assert.EqualError(t, err, `symbolic: input "a" used as int and as uint`)
	assert.Error(t, s.Assume(x), "Assume wants a bool")
	_, _, err = s.Branch(bg, x)
	assert.Error(t, err)

	// A concrete false makes the path infeasible without a solver call.
	s.Reset()
	calls := s.Stats().SolverCalls
	require.NoError(t, s.Assume(MakeBool(false)))
	r, err = s.Check(bg)
	require.NoError(t, err)
	assert.Equal(t, Unsat, r.Status)
	assert.Equal(t, calls, s.Stats().SolverCalls)
	assert.Equal(t, "false", s.PathCondition().String())
}

func TestConcretizeRecordsTheChoice(t *testing.T) {
	s := newTestSession(t, Config{})
	x := Input("x", Int8)
	require.NoError(t, s.Assume(bin(token.GTR, x, intc(Int8, 3))))
	require.NoError(t, s.Assume(bin(token.LSS, x, intc(Int8, 6))))
	sq := bin(token.MUL, x, x)
	v, err := s.Concretize(bg, sq)
	require.NoError(t, err)
	n, _ := v.Int64()
	assert.Contains(t, []int64{16, 25}, n)
	assert.Contains(t, s.PathCondition().String(), "x*x == ")
	// The rest of the path agrees with the choice.
	want := int64(4)
	if n == 25 {
		want = 5
	}
	onTrue, onFalse, err := s.Branch(bg, bin(token.EQL, x, intc(Int8, want)))
	require.NoError(t, err)
	assert.Equal(t, Sat, onTrue.Status)
	assert.Equal(t, Unsat, onFalse.Status)

	c, err := s.Concretize(bg, intc(Int8, 7))
	require.NoError(t, err)
	assert.Equal(t, intc(Int8, 7), c)
}

func TestCacheAndReplay(t *testing.T) {
	s := newTestSession(t, Config{})
	a, b := Input("a", Int), Input("b", Int)
	build := func() (Value, Value, Value) {
		return bin(token.EQL, bin(token.MUL, a, intc(Int, 7)), intc(Int, 91)),
			bin(token.GTR, bin(token.ADD, a, b), intc(Int, 1000)),
			bin(token.LSS, b, intc(Int, 5000))
	}
	c1, c2, q := build()
	require.NoError(t, s.Assume(c1))
	require.NoError(t, s.Assume(c2))
	r, err := s.Feasible(bg, q)
	require.NoError(t, err)
	assert.Equal(t, Sat, r.Status)
	calls := s.Stats().SolverCalls

	// Replay from the root with freshly built, identical constraints:
	// the same question is answered from the cache.
	s.Reset()
	c1, c2, q = build()
	require.NoError(t, s.Assume(c1))
	require.NoError(t, s.Assume(c2))
	hits := s.Stats().CacheHits + s.Stats().ModelHits
	r, err = s.Feasible(bg, q)
	require.NoError(t, err)
	assert.Equal(t, Sat, r.Status)
	assert.Equal(t, calls, s.Stats().SolverCalls)
	assert.Equal(t, hits+1, s.Stats().CacheHits+s.Stats().ModelHits)

	// The canonical form ignores order and repetition.
	s.Reset()
	require.NoError(t, s.Assume(c2))
	require.NoError(t, s.Assume(c1))
	require.NoError(t, s.Assume(c2))
	r, err = s.Feasible(bg, q)
	require.NoError(t, err)
	assert.Equal(t, Sat, r.Status)
	assert.Equal(t, calls, s.Stats().SolverCalls)
	assert.Equal(t, "a+b > 1000 && a*7 == 91", s.PathCondition().String())

	// Without the cache every question goes to Z3.
	plain := newTestSession(t, Config{DisableCache: true})
	for range 2 {
		r, err = plain.Feasible(bg, q)
		require.NoError(t, err)
		assert.Equal(t, Sat, r.Status)
	}
	assert.Equal(t, 2, plain.Stats().SolverCalls)
}

func TestUnknownIsNeverAnAnswer(t *testing.T) {
	// x*y == p for a prime p with 1 < x, y < 2^32 has no solution, and
	// proving it means factoring: hard for Z3. Under a 1ms limit the
	// answer must be Unknown or the correct Unsat — never Sat. For the
	// semiprime p*q the answer must be Unknown or Sat with a model that
	// really multiplies to it.
	const prime = 2305843009213693951 // 2^61 - 1
	const semi = 2147483647 * 2147483629
	for _, c := range []struct {
		product uint64
		want    Status
	}{{prime, Unsat}, {semi, Sat}} {
		s := newTestSession(t, Config{Timeout: time.Millisecond})
		x, y := Input("x", Uint64), Input("y", Uint64)
		lim := MakeUint(Uint64, 1<<32)
		one := MakeUint(Uint64, 1)
		require.NoError(t, s.Assume(And(
			bin(token.GTR, x, one), bin(token.LSS, x, lim),
			bin(token.GTR, y, one), bin(token.LSS, y, lim))))
		r, err := s.Feasible(bg, bin(token.EQL, bin(token.MUL, x, y), MakeUint(Uint64, c.product)))
		require.NoError(t, err)
		switch r.Status {
		case Unknown:
			assert.NotEmpty(t, r.Reason)
			assert.Equal(t, 1, s.Stats().Unknowns)
		case Sat:
			require.Equal(t, c.want, Sat, "Z3 claimed %d has factors", c.product)
			require.NoError(t, s.Assume(bin(token.EQL, bin(token.MUL, x, y), MakeUint(Uint64, c.product))))
			m, err := s.Model(bg)
			require.NoError(t, err)
			xv, yv := m.Inputs()["x"].(uint64), m.Inputs()["y"].(uint64)
			assert.Equal(t, c.product, xv*yv)
		default:
			assert.Equal(t, c.want, r.Status)
		}
	}
}

func TestResourceLimitGivesUnknownDeterministically(t *testing.T) {
	// A resource limit of 1 stops every Z3 check at the same point on
	// every machine: the answers are Unknown, reported as such.
	s := newTestSession(t, Config{ResourceLimit: 1})
	x := Input("x", Int)
	// Conditions with x twice: no model can be guessed, Z3 must answer.
	big := bin(token.GTR, bin(token.MUL, x, x), intc(Int, 10))
	square := bin(token.GTR, bin(token.MUL, bin(token.MUL, x, x), x), intc(Int, 100))
	require.NoError(t, s.Assume(big))
	onTrue, onFalse, err := s.Branch(bg, square)
	require.NoError(t, err)
	assert.Equal(t, Result{Status: Unknown, Reason: "resource limit exceeded"}, onTrue)
	assert.Equal(t, Result{Status: Unknown, Reason: "resource limit exceeded"}, onFalse)
	assert.Equal(t, "unknown (resource limit exceeded)", onTrue.String())
	assert.Equal(t, 2, s.Stats().Unknowns)

	_, err = s.Model(bg)
	var unknown *UnknownError
	require.ErrorAs(t, err, &unknown)
	assert.Equal(t, "resource limit exceeded", unknown.Reason)
	assert.EqualError(t, err, "symbolic: solver answered unknown: resource limit exceeded")
	_, err = s.Concretize(bg, x)
	assert.ErrorAs(t, err, &unknown)

	// Unknown answers are cached like any other: asking again costs no
	// solver call and gives the same Unknown.
	s.Reset()
	require.NoError(t, s.Assume(big))
	calls := s.Stats().SolverCalls
	again, _, err := s.Branch(bg, square)
	require.NoError(t, err)
	assert.Equal(t, onTrue, again)
	assert.Equal(t, calls, s.Stats().SolverCalls)
}

func TestCancellation(t *testing.T) {
	s := newTestSession(t, Config{})
	x, y := Input("x", Uint64), Input("y", Uint64)
	lim := MakeUint(Uint64, 1<<32)
	require.NoError(t, s.Assume(And(bin(token.GTR, x, MakeUint(Uint64, 1)), bin(token.LSS, x, lim),
		bin(token.GTR, y, MakeUint(Uint64, 1)), bin(token.LSS, y, lim))))
	hard := bin(token.EQL, bin(token.MUL, x, y), MakeUint(Uint64, 2305843009213693951))

	ctx, cancel := context.WithCancel(bg)
	cancel()
	_, err := s.Feasible(ctx, hard)
	assert.ErrorIs(t, err, context.Canceled, "a canceled context stops before Z3")

	// Canceling while Z3 works interrupts it (the query would otherwise
	// run for up to the 10s default limit).
	ctx, cancel = context.WithCancel(bg)
	go cancel()
	r, err := s.Feasible(ctx, hard)
	if err == nil {
		assert.NotEqual(t, Sat, r.Status, "2^61-1 is prime")
	} else {
		assert.ErrorIs(t, err, context.Canceled)
	}

	// The session still works.
	r, err = s.Feasible(bg, bin(token.EQL, x, MakeUint(Uint64, 7)))
	require.NoError(t, err)
	assert.Equal(t, Sat, r.Status)
}

func TestZ3ErrorsBecomeErrors(t *testing.T) {
	// A malformed term (operands of different widths, which BinOp never
	// builds) makes Z3 fail; the Session reports an error and stays
	// usable.
	s := newZ3Session(t)
	bad := symbolicValue(&node{op: opNe, t: Bool, x: Input("a", Int8), y: Input("b", Int16)})
	_, err := s.Feasible(bg, bad)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "symbolic: z3 failed")

	r, err := s.Feasible(bg, bin(token.GTR, Input("a", Int8), intc(Int8, 0)))
	require.NoError(t, err)
	assert.Equal(t, Sat, r.Status)
}

func TestMinIntEdgeCasesAreFound(t *testing.T) {
	// The only int64 x other than 0 with -x == x is MinInt64, and the
	// only negative x with x / -1 still negative is MinInt64 too.
	s := newTestSession(t, Config{})
	x := Input("x", Int64)
	neg := mustValue(UnOp(token.SUB, x))
	require.NoError(t, s.Assume(bin(token.EQL, neg, x)))
	require.NoError(t, s.Assume(bin(token.NEQ, x, intc(Int64, 0))))
	m, err := s.Model(bg)
	require.NoError(t, err)
	assert.Equal(t, int64(math.MinInt64), m.Inputs()["x"])

	s.Reset()
	require.NoError(t, s.Assume(bin(token.LSS, bin(token.QUO, x, intc(Int64, -1)), intc(Int64, 0))))
	require.NoError(t, s.Assume(bin(token.LSS, x, intc(Int64, 0))))
	m, err = s.Model(bg)
	require.NoError(t, err)
	assert.Equal(t, int64(math.MinInt64), m.Inputs()["x"], "MinInt64 / -1 is MinInt64, still negative")
}

func TestConcretePathsNeverReachZ3(t *testing.T) {
	for _, cfg := range []Config{{}, {DisableCache: true}, {DisableIncremental: true, DisableCache: true}} {
		s := newTestSession(t, cfg)
		x := intc(Int, 41)
		for i := range 10 {
			c := bin(token.LSS, x, intc(Int, int64(40+i)))
			onTrue, onFalse, err := s.Branch(bg, c)
			require.NoError(t, err)
			b, _ := c.Bool()
			assert.Equal(t, b, onTrue.Status == Sat)
			assert.Equal(t, !b, onFalse.Status == Sat)
			s.Push()
			if !b {
				c = Not(c)
			}
			require.NoError(t, s.Assume(c))
		}
		require.NoError(t, s.Assume(bin(token.LSS, x, intc(Int, 40))))
		r, err := s.Check(bg)
		require.NoError(t, err)
		assert.Equal(t, Unsat, r.Status, "41 < 40 was assumed")
		assert.Zero(t, s.Stats().SolverCalls, "%+v", cfg)
	}
}

func TestGuessingAvoidsTheSolver(t *testing.T) {
	// Both programs of the benchmarks: every branch can go both ways,
	// and the side the current model does not take is one repair away.
	for _, p := range benchPrograms {
		s := newTestSession(t, Config{})
		xs := benchInputs(6)
		var paths []string
		n := exploreAll(t, s, p, xs, func() {
			m, err := s.Model(bg)
			require.NoError(t, err)
			for _, c := range s.PathCondition() {
				b, _ := m.Eval(c).Bool()
				require.True(t, b, "%s: model %s violates %s", p.name, m, c)
			}
			paths = append(paths, s.PathCondition().String())
		})
		assert.Equal(t, 64, n, p.name)
		assert.Zero(t, s.Stats().SolverCalls, "%s: %+v", p.name, s.Stats())
		assert.Positive(t, s.Stats().Guesses, p.name)
		slices.Sort(paths)
		assert.Len(t, slices.Compact(paths), 64, "%s: every path has its own path condition", p.name)
	}

	// x*x == 49 cannot be repaired (x occurs twice): Z3 decides.
	s := newTestSession(t, Config{})
	x := Input("x", Int8)
	r, err := s.Feasible(bg, bin(token.EQL, bin(token.MUL, x, x), intc(Int8, 49)))
	require.NoError(t, err)
	assert.Equal(t, Sat, r.Status)
	assert.Equal(t, 1, s.Stats().SolverCalls)
}

func TestInverse(t *testing.T) {
	for _, a := range []uint64{1, 3, 5, 0xffffffffffffffff, 0x9e3779b97f4a7c15, 12345678901} {
		assert.Equal(t, uint64(1), a*inverse(a), "inverse of %d", a)
	}
}
