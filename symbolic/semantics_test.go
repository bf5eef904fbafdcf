package symbolic

import (
	"context"
	"fmt"
	"go/token"
	"maps"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var integerTypes = []Type{Int, Int8, Int16, Int32, Int64, Uint, Uint8, Uint16, Uint32, Uint64, Uintptr}

// gen builds random expression trees three ways at once: over symbolic
// inputs, over the inputs' concrete values (folded by this package), and
// evaluated natively by Go.
type gen struct {
	r      *rand.Rand
	inputs map[string]any // native value of each input used
	panics []panicSite    // operations that may panic, in evaluation order
}

type panicSite struct {
	cond Value
	msg  string
}

// sample is one expression.
type sample struct {
	sym      Value  // over symbolic inputs
	conc     Value  // the same tree over the inputs' values
	native   any    // Go's result, unless Go panicked
	panicMsg string // Go's panic, if evaluation panicked
}

func newGen(seed uint64) *gen {
	return &gen{r: rand.New(rand.NewPCG(seed, seed^0x5eed))}
}

func (g *gen) reset() {
	g.inputs = make(map[string]any)
	g.panics = nil
}

// value returns a random Go value of type t, biased to edge cases and to
// small magnitudes (shift counts).
func (g *gen) value(t Type) any {
	if t == Bool {
		return g.r.IntN(2) == 0
	}
	var u uint64
	sign := uint64(1) << (t.Bits() - 1)
	switch g.r.IntN(6) {
	case 0:
		u = []uint64{0, 1, 2, t.mask(), t.mask() - 1, sign, sign - 1, sign + 1}[g.r.IntN(8)]
	case 1, 2:
		u = uint64(g.r.IntN(70))
	case 3:
		u = -uint64(g.r.IntN(70))
	default:
		u = g.r.Uint64()
	}
	x, _ := MakeUint(t, u).Concrete()
	return x
}

func mustValue(v Value, err error) Value {
	if err != nil {
		panic(err)
	}
	return v
}

func concreteOf(x any) Value { return mustValue(FromGo(x)) }

func (g *gen) leaf(t Type) sample {
	if g.r.IntN(3) > 0 {
		name := fmt.Sprintf("%c_%s", 'a'+g.r.IntN(2), t)
		x, ok := g.inputs[name]
		if !ok {
			x = g.value(t)
			g.inputs[name] = x
		}
		return sample{sym: Input(name, t), conc: concreteOf(x), native: x}
	}
	x := g.value(t)
	return sample{sym: concreteOf(x), conc: concreteOf(x), native: x}
}

func (g *gen) randomType() Type { return integerTypes[g.r.IntN(len(integerTypes))] }

// expr returns an integer expression of type t.
func (g *gen) expr(t Type, depth int) sample {
	if depth == 0 {
		return g.leaf(t)
	}
	switch g.r.IntN(11) {
	case 0, 1, 2, 3, 4:
		ops := []token.Token{token.ADD, token.SUB, token.MUL, token.QUO, token.REM, token.AND, token.OR, token.XOR, token.AND_NOT}
		tok := ops[g.r.IntN(len(ops))]
		return g.binary(tok, g.expr(t, depth-1), g.expr(t, depth-1))
	case 5:
		tok := []token.Token{token.SHL, token.SHR}[g.r.IntN(2)]
		return g.binary(tok, g.expr(t, depth-1), g.expr(g.randomType(), depth/2))
	case 6:
		tok := []token.Token{token.SUB, token.XOR}[g.r.IntN(2)]
		x := g.expr(t, depth-1)
		s := sample{sym: mustValue(UnOp(tok, x.sym)), conc: mustValue(UnOp(tok, x.conc)), panicMsg: x.panicMsg}
		if s.panicMsg == "" {
			s.native = nativeUnary(tok, x.native)
		}
		return s
	case 7, 8:
		x := g.expr(g.randomType(), depth-1)
		s := sample{sym: mustValue(Convert(x.sym, t)), conc: mustValue(Convert(x.conc, t)), panicMsg: x.panicMsg}
		if s.panicMsg == "" {
			s.native = nativeConvert(x.native, t)
		}
		return s
	case 9:
		isMax := g.r.IntN(2) == 0
		x, y := g.expr(t, depth-1), g.expr(t, depth-1)
		f := Min
		if isMax {
			f = Max
		}
		s := sample{sym: f(x.sym, y.sym), conc: f(x.conc, y.conc), panicMsg: cmp(x.panicMsg, y.panicMsg)}
		if s.panicMsg == "" {
			s.native = nativeMinMax(isMax, x.native, y.native)
		}
		return s
	}
	return g.leaf(t)
}

// boolExpr returns a bool expression; comparisons are mostly of type
// prefer.
func (g *gen) boolExpr(prefer Type, depth int) sample {
	if depth == 0 {
		return g.leaf(Bool)
	}
	switch g.r.IntN(6) {
	case 0, 1, 2:
		t := prefer
		if g.r.IntN(3) == 0 {
			t = g.randomType()
		}
		ops := []token.Token{token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ}
		return g.binary(ops[g.r.IntN(len(ops))], g.expr(t, depth-1), g.expr(t, depth-1))
	case 3:
		x := g.boolExpr(prefer, depth-1)
		s := sample{sym: mustValue(UnOp(token.NOT, x.sym)), conc: Not(x.conc), panicMsg: x.panicMsg}
		if s.panicMsg == "" {
			s.native = nativeUnary(token.NOT, x.native)
		}
		return s
	}
	ops := []token.Token{token.LAND, token.LOR, token.EQL, token.NEQ}
	return g.binary(ops[g.r.IntN(len(ops))], g.boolExpr(prefer, depth-1), g.boolExpr(prefer, depth-1))
}

// binary combines two samples with tok, recording where Go may panic.
func (g *gen) binary(tok token.Token, x, y sample) sample {
	if cond, msg := PanicCondition(tok, x.sym, y.sym); msg != "" {
		g.panics = append(g.panics, panicSite{cond, msg})
	}
	s := sample{
		sym:      mustValue(BinOp(tok, x.sym, y.sym)),
		conc:     mustValue(BinOp(tok, x.conc, y.conc)),
		panicMsg: cmp(x.panicMsg, y.panicMsg),
	}
	if s.panicMsg == "" {
		s.native, s.panicMsg = nativeBinary(tok, x.native, y.native)
	}
	return s
}

// cmp returns the first non-empty string.
func cmp(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// checkSample compares, for one expression, Go's result with the folded
// result, with Z3's value of the expression (the inputs pinned to their
// values by the path condition; s must send every question to Z3) and
// with the package's own evaluation in the model; and Go's panic with
// PanicCondition.
func checkSample(t *testing.T, s *Session, g *gen, sm sample, what string) {
	t.Helper()
	ctx := context.Background()
	desc := fmt.Sprintf("%s: %s with inputs %v", what, sm.sym, g.inputs)
	panicked := sm.panicMsg != ""
	if !panicked {
		got, ok := sm.conc.Concrete()
		require.True(t, ok, "%s: folded value is not concrete: %s", desc, sm.conc)
		require.Equal(t, sm.native, got, "%s: folded value", desc)
	}

	s.Push()
	defer s.Pop()
	for _, name := range slices.Sorted(maps.Keys(g.inputs)) {
		in := Input(name, concreteOf(g.inputs[name]).Type())
		require.NoError(t, s.Assume(mustValue(BinOp(token.EQL, in, concreteOf(g.inputs[name])))))
	}
	r, err := s.NewInput("r", sm.sym.Type())
	require.NoError(t, err)
	require.NoError(t, s.Assume(mustValue(BinOp(token.EQL, r, sm.sym))))
	conds := make([]Value, len(g.panics))
	for i, p := range g.panics {
		conds[i] = p.cond
	}
	p, err := s.NewInput("p", Bool)
	require.NoError(t, err)
	require.NoError(t, s.Assume(mustValue(BinOp(token.EQL, p, Or(conds...)))))
	m, err := s.Model(ctx)
	require.NoError(t, err, desc)

	z3Value, _ := m.Value("r")
	z3Panics, _ := m.Value("p")
	assert.Equal(t, MakeBool(panicked), z3Panics, "%s: Go panicked = %v (%s)", desc, panicked, sm.panicMsg)
	assert.Equal(t, z3Value, m.Eval(sm.sym), "%s: Z3 and Model.Eval disagree", desc)
	if !panicked {
		got, _ := z3Value.Concrete()
		assert.Equal(t, sm.native, got, "%s: Z3's value", desc)
		return
	}
	for _, site := range g.panics {
		if b, _ := m.Eval(site.cond).Bool(); b {
			assert.Equal(t, sm.panicMsg, site.msg, "%s: first panic", desc)
			return
		}
	}
}

// TestSemanticsMatchGo compares random expression trees of every integer
// type with Go: folding, Z3 and model evaluation must all give Go's
// result, and PanicCondition must hold exactly when Go panics.
func TestSemanticsMatchGo(t *testing.T) {
	n := 400
	if testing.Short() {
		n = 60
	}
	for _, typ := range integerTypes {
		t.Run(typ.String(), func(t *testing.T) {
			t.Parallel()
			seed := 1000 + uint64(typ)
			t.Logf("seed %d", seed)
			s := newZ3Session(t)
			g := newGen(seed)
			for i := range n {
				g.reset()
				var sm sample
				if i%3 == 0 {
					sm = g.boolExpr(typ, 3)
				} else {
					sm = g.expr(typ, 1+i%4)
				}
				checkSample(t, s, g, sm, fmt.Sprintf("seed %d #%d", seed, i))
				if t.Failed() {
					return
				}
			}
		})
	}
}

// newZ3Session returns a Session that sends every question to Z3 (no
// model reuse, cache or guessing), so answers and models are Z3's.
func newZ3Session(t testing.TB) *Session {
	return newTestSession(t, Config{DisableCache: true})
}

func newTestSession(t testing.TB, cfg Config) *Session {
	t.Helper()
	s, err := NewSession(cfg)
	require.NoError(t, err)
	return s
}
