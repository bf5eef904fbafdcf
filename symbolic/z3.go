package symbolic

import (
	"fmt"

	"github.com/aclements/go-z3/z3"
)

// encoder translates Values into Z3 terms of one Z3 context. Integers
// become bit-vectors of their type's width, bools Z3 booleans.
type encoder struct {
	ctx    *z3.Context
	sorts  map[int]z3.Sort       // bit-vector sorts by width
	inputs map[inputKey]z3.Value // Z3 constants of inputs
	terms  map[*node]z3.Value    // terms of nodes encoded for the current query
}

// inputKey identifies an input: one name with two types is two Z3
// constants (the Session rejects such mixtures within one query).
type inputKey struct {
	name string
	t    Type
}

func newEncoder(ctx *z3.Context) *encoder {
	return &encoder{
		ctx:    ctx,
		sorts:  make(map[int]z3.Sort),
		inputs: make(map[inputKey]z3.Value),
	}
}

func (enc *encoder) sort(bits int) z3.Sort {
	s, ok := enc.sorts[bits]
	if !ok {
		s = enc.ctx.BVSort(bits)
		enc.sorts[bits] = s
	}
	return s
}

// input returns the Z3 constant of the input called name, of type t.
func (enc *encoder) input(name string, t Type) z3.Value {
	k := inputKey{name, t}
	c, ok := enc.inputs[k]
	if !ok {
		// The type is part of the Z3 name, so inputs that share a name
		// never share a constant.
		sym := name + "|" + t.String()
		if t == Bool {
			c = enc.ctx.BoolConst(sym)
		} else {
			c = enc.ctx.BVConst(sym, t.Bits())
		}
		enc.inputs[k] = c
	}
	return c
}

// boolean encodes the bool c.
func (enc *encoder) boolean(c Value) z3.Bool {
	enc.terms = make(map[*node]z3.Value)
	defer func() { enc.terms = nil }()
	return enc.encode(c).(z3.Bool)
}

func (enc *encoder) bv(v Value) z3.BV { return enc.encode(v).(z3.BV) }

func (enc *encoder) encode(v Value) z3.Value {
	n := v.e
	if n == nil {
		if v.t == Bool {
			return enc.ctx.FromBool(v.c != 0)
		}
		return enc.ctx.FromInt(int64(v.c), enc.sort(v.t.Bits()))
	}
	if n.op == opInput {
		return enc.input(n.name, n.t)
	}
	if r, ok := enc.terms[n]; ok {
		return r
	}
	r := enc.encodeNode(n)
	enc.terms[n] = r
	return r
}

func (enc *encoder) encodeNode(n *node) z3.Value {
	if n.x.t == Bool {
		x := enc.encode(n.x).(z3.Bool)
		switch n.op {
		case opNot:
			return x.Not()
		case opLAnd:
			return x.And(enc.encode(n.y).(z3.Bool))
		case opLOr:
			return x.Or(enc.encode(n.y).(z3.Bool))
		case opEq:
			return x.Eq(enc.encode(n.y).(z3.Bool))
		case opNe:
			return x.NE(enc.encode(n.y).(z3.Bool))
		}
		panic(fmt.Sprintf("symbolic: cannot encode bool op %d", n.op)) // unreachable for Values built by this package
	}
	x := enc.bv(n.x)
	signed := n.x.t.Signed()
	switch n.op {
	case opNeg:
		return x.Neg()
	case opCompl:
		return x.Not()
	case opConv:
		from, to := n.x.t.Bits(), n.t.Bits()
		switch {
		case to < from:
			return x.Extract(to-1, 0)
		case to > from && signed:
			return x.SignExtend(to - from)
		case to > from:
			return x.ZeroExtend(to - from)
		}
		return x
	case opShl, opShr:
		amt := enc.shiftAmount(n.y, n.x.t.Bits())
		switch {
		case n.op == opShl:
			return x.Lsh(amt)
		case signed:
			return x.SRsh(amt)
		}
		return x.URsh(amt)
	}
	y := enc.bv(n.y)
	switch n.op {
	case opAdd:
		return x.Add(y)
	case opSub:
		return x.Sub(y)
	case opMul:
		return x.Mul(y)
	case opQuo:
		if signed {
			return x.SDiv(y) // truncates toward zero; MinInt / -1 wraps to MinInt
		}
		return x.UDiv(y)
	case opRem:
		if signed {
			return x.SRem(y) // sign of the dividend, as Go's %
		}
		return x.URem(y)
	case opAnd:
		return x.And(y)
	case opOr:
		return x.Or(y)
	case opXor:
		return x.Xor(y)
	case opAndNot:
		return x.And(y.Not())
	case opMin:
		return enc.less(signed, x, y).IfThenElse(x, y)
	case opMax:
		return enc.less(signed, x, y).IfThenElse(y, x)
	case opEq:
		return x.Eq(y)
	case opNe:
		return x.NE(y)
	case opLt:
		return enc.less(signed, x, y)
	case opLe:
		return enc.less(signed, y, x).Not()
	case opGt:
		return enc.less(signed, y, x)
	case opGe:
		return enc.less(signed, x, y).Not()
	}
	panic(fmt.Sprintf("symbolic: cannot encode op %d", n.op)) // unreachable for Values built by this package
}

func (enc *encoder) less(signed bool, x, y z3.BV) z3.Bool {
	if signed {
		return x.SLT(y)
	}
	return x.ULT(y)
}

// shiftAmount encodes the count of a shift of a width-bit operand as a
// width-bit vector with the same shift result: the count's bits read
// unsigned, with every count >= width mapped to width. (A negative
// signed count panics in Go; see PanicCondition.)
func (enc *encoder) shiftAmount(count Value, width int) z3.BV {
	y := enc.bv(count)
	cw := count.t.Bits()
	switch {
	case cw == width:
		return y
	case cw < width:
		return y.ZeroExtend(width - cw)
	}
	w := enc.ctx.FromInt(int64(width), enc.sort(cw)).(z3.BV)
	big := y.UGE(w)
	return big.IfThenElse(enc.ctx.FromInt(int64(width), enc.sort(width)), y.Extract(width-1, 0)).(z3.BV)
}

// concrete reads the value of input in a Z3 model.
func (enc *encoder) concrete(m *z3.Model, name string, t Type) (Value, error) {
	v := m.Eval(enc.input(name, t), true)
	switch v := v.(type) {
	case z3.Bool:
		if b, ok := v.AsBool(); ok {
			return MakeBool(b), nil
		}
	case z3.BV:
		if u, lit, ok := v.AsUint64(); lit && ok {
			return MakeUint(t, u), nil
		}
	}
	return Value{}, fmt.Errorf("symbolic: z3 model has no value for %s %s", name, t)
}

// z3Failure converts a panic raised inside go-z3 (whose error handler
// panics with Z3's message) into an error.
func z3Failure(op string, r any) error {
	return fmt.Errorf("symbolic: z3 failed during %s: %v", op, r)
}
