package explore

import (
	"fmt"
	"go/types"
	"math"
	"unsafe"

	"golang.org/x/tools/go/ssa"
)

// testing/quick: the package is interpreted (its CheckError,
// CheckEqualError and SetupError, and their Error methods, are Go's), but
// Check, CheckEqual and Value are intrinsics, because Go's versions build
// their arguments with settable reflect.Values and call the property with
// reflect.Value.Call, which the reflect model does not have.
//
// The intrinsics follow Go's code step by step: the same checks of f's
// signature with the same SetupError messages, the same iteration count
// (Config.MaxCount, else Config.MaxCountScale times the default, else
// the default 100: the -quickchecks flag is not read), the same shapes of
// arbitrary values (quickGen mirrors quick's sizedValue: slice and map
// lengths below the size hint, nil pointers one time in size, strings of
// up to 50 code points below 0x10ffff, floats over their whole range),
// Config.Values called when set, and the first failing input returned as
// a *CheckError (*CheckEqualError) with its 1-based count. The property
// runs as a nested call (nested.go): it may block, start goroutines and
// reach scheduling points like any other code.
//
// Values are deterministic: the random numbers come from Config.Rand's
// generator if set (the math/rand model's, seeded by its source), or else
// from a generator seeded by the execution's seed and the count of the
// execution's earlier Check, CheckEqual and Value calls without a Rand,
// where Go seeds from the clock; so a replay token replays the same
// inputs. The values differ from go test's (math/rand's model does not
// reproduce Go's sequences).
//
// An argument whose type implements quick.Generator is drawn by its
// Generate method, called nested with the same *rand.Rand. Not modelled
// (unsupported findings): variadic functions.

// quickDefaultMaxCount is quick's default iteration count (the default of
// its -quickchecks flag).
const quickDefaultMaxCount = 100

// quickComplexSize is quick's complexSize: the size hint of a top-level
// value and the bound of string lengths.
const quickComplexSize = 50

// quickGen draws quick's arbitrary values for one goroutine's call.
type quickGen struct {
	c    *icall
	next func() uint64
	// randV is the *rand.Rand the values are drawn from, passed to
	// Config.Values and to Generate methods.
	randV Value
	// gen is quick.Generator (nil if not loaded).
	gen *types.Interface
}

// errQuickUnexported is quick's panic on a struct with an unexported
// field (reflect's message for setting it).
const errQuickUnexported = "reflect: reflect.Value.Set using value obtained using unexported field"

// quickFail says why a value could not be drawn: noValue (quick's
// "cannot create arbitrary value"), a panic message, an unsupported
// construct, or the ctrl of a Generate method's call that did not return
// (a panic, the end of the execution).
type quickFail struct {
	noValue     bool
	panicMsg    string
	unsupported string
	cc          ctrl
}

// result ends an intrinsic after the failure f.
func (f *quickFail) result(c *icall) ctrl {
	switch {
	case f.panicMsg != "":
		return c.g.throwPlain(f.panicMsg)
	case f.unsupported != "":
		return c.g.unsupported(c.pos, "%s", f.unsupported)
	}
	return f.cc
}

func (q *quickGen) intn(n int) int {
	if n <= 0 {
		return 0 // quick never asks for Intn(0): sizes stay >= 1
	}
	return int(q.next() % uint64(n))
}

func (q *quickGen) float64() float64 { return float64(q.next()>>11) / (1 << 53) }

// randFloat is quick's randFloat32/randFloat64: the whole range, either
// sign.
func (q *quickGen) randFloat(max float64) float64 {
	f := q.float64() * max
	if q.next()&1 == 1 {
		f = -f
	}
	return f
}

func (q *quickGen) alloc(n int) *object {
	return &object{cells: make([]Value, max(1, n)), id: q.c.g.newID(), owner: q.c.g.key}
}

// value draws a value of type t with size hint size (quick's sizedValue),
// in register form (a view for structs and arrays).
func (q *quickGen) value(t *rtype, size int) (Value, *quickFail) {
	if q.gen != nil && types.Implements(t.T, q.gen) {
		return q.generate(t, size)
	}
	switch k := t.kind; {
	case k == kBool:
		return boolV(q.next()&1 == 0), nil
	case k == kFloat32:
		return floatV(float64(float32(q.randFloat(math.MaxFloat32)))), nil
	case k == kFloat64:
		return floatV(q.randFloat(math.MaxFloat64)), nil
	case k == kComplex64:
		re := float32(q.randFloat(math.MaxFloat32))
		im := float32(q.randFloat(math.MaxFloat32))
		return complexV(complex(float64(re), float64(im))), nil
	case k == kComplex128:
		re := q.randFloat(math.MaxFloat64)
		return complexV(complex(re, q.randFloat(math.MaxFloat64))), nil
	case k.isInteger():
		return Value{a: normValue(k, q.next())}, nil // reflect's SetInt/SetUint truncate
	case k == kString:
		n := q.intn(quickComplexSize)
		rs := make([]rune, n)
		for i := range rs {
			rs[i] = rune(q.intn(0x10ffff))
		}
		return strV(string(rs)), nil
	case k == kMap:
		n := q.intn(size)
		mo := newMap(t.key, t.elem)
		mo.id, mo.owner = q.c.g.newID(), q.c.g.key
		for range n {
			kv, f := q.value(t.key, size)
			if f != nil {
				return Value{}, f
			}
			vv, f := q.value(t.elem, size)
			if f != nil {
				return Value{}, f
			}
			if bad := mo.set(kv, vv); bad != nil {
				return Value{}, &quickFail{panicMsg: "runtime error: hash of unhashable type " + bad.String()}
			}
		}
		return mapV(mo), nil
	case k == kPtr:
		if q.intn(size) == 0 {
			return Value{}, nil
		}
		v, f := q.value(t.elem, size)
		if f != nil {
			return Value{}, f
		}
		o := q.alloc(t.elem.size)
		storeValue(t.elem, o, 0, v)
		return ptrV(o, 0), nil
	case k == kSlice:
		n := q.intn(size)
		left := size - n
		o := q.alloc(n * t.elem.size)
		for i := range n {
			v, f := q.value(t.elem, left)
			if f != nil {
				return Value{}, f
			}
			storeValue(t.elem, o, i*t.elem.size, v)
		}
		return sliceV(o, 0, n, n), nil
	case k == kArray:
		o := q.alloc(t.size)
		for i := range t.len {
			v, f := q.value(t.elem, size)
			if f != nil {
				return Value{}, f
			}
			storeValue(t.elem, o, i*t.elem.size, v)
		}
		return ptrV(o, 0), nil
	case k == kStruct:
		n := len(t.fields)
		left := size
		if n > left {
			left = 1
		} else if n > 0 {
			left /= n
		}
		st := t.T.Underlying().(*types.Struct)
		o := q.alloc(t.size)
		for i, fi := range t.fields {
			v, f := q.value(fi.t, left)
			if f != nil {
				return Value{}, f
			}
			if !st.Field(i).Exported() {
				return Value{}, &quickFail{panicMsg: errQuickUnexported}
			}
			storeValue(fi.t, o, fi.off, v)
		}
		return ptrV(o, 0), nil
	}
	return Value{}, &quickFail{noValue: true}
}

// generate calls the Generate method of t, which implements
// quick.Generator, on t's zero value, as quick does.
func (q *quickGen) generate(t *rtype, size int) (Value, *quickFail) {
	fc := q.c.m().stringMethodAny(t, "Generate")
	if fc == nil {
		return Value{}, &quickFail{unsupported: fmt.Sprintf("testing/quick: the Generate method of %s", t)}
	}
	res, cc := q.c.g.callNested(funcV(fc.self), []Value{t.zero, q.randV, intV(int64(size))})
	if cc != ctrlNext {
		return Value{}, &quickFail{cc: cc}
	}
	rt, v := reflectOf(res)
	v, ok := assignReflect(rt, v, t)
	if !ok {
		got := "the zero Value"
		if rt != nil {
			got = "a " + rt.String()
		}
		return Value{}, &quickFail{unsupported: fmt.Sprintf("testing/quick: the Generate method of %s returned %s", t, got)}
	}
	return v, nil
}

// assignReflect converts the payload v of a reflect.Value of type rt
// (nil: the zero Value) to a value of type t, as reflect.Value.Call
// assigns an argument: it reports false if rt is not assignable to t.
func assignReflect(rt *rtype, v Value, t *rtype) (Value, bool) {
	switch {
	case rt == nil || !types.AssignableTo(rt.T, t.T):
		return Value{}, false
	case t.kind == kIface && rt.kind != kIface:
		return ifaceV(rt, v), true
	}
	return v, true
}

// toAny is reflect.Value.Interface of a value of type t: the value in an
// interface (an interface-typed value is its own dynamic value).
func toAny(t *rtype, v Value) Value {
	if t.kind == kIface {
		return v
	}
	return ifaceV(t, v)
}

// quickCall is one call of Check, CheckEqual or Value.
type quickCall struct {
	*quickGen
	m *machine
	// maxCount and values are the configuration's.
	maxCount int
	values   Value
}

// quickGenerator returns the interface quick.Generator (nil if the
// program does not have it).
func quickGenerator(m *machine) *types.Interface {
	gt := m.named("testing/quick", "Generator")
	if gt == nil {
		return nil
	}
	it, _ := gt.Underlying().(*types.Interface)
	return it
}

// newQuickCall reads the configuration cfg (a *quick.Config, nil for the
// default) and sets up the random source.
func newQuickCall(c *icall, cfg Value) *quickCall {
	m := c.m()
	q := &quickCall{quickGen: &quickGen{c: c, gen: quickGenerator(m)}, m: m, maxCount: quickDefaultMaxCount}
	var randV Value
	if cfg.p != nil {
		ct := m.rtypeOf(m.named("testing/quick", "Config"))
		cells := cfg.obj().cells[cfg.off():]
		field := func(name string) Value { return cells[fieldOff(ct, name)] }
		if n := int(field("MaxCount").Int()); n != 0 {
			q.maxCount = n
		} else if s := field("MaxCountScale").Float(); s != 0 {
			q.maxCount = int(s * quickDefaultMaxCount)
		}
		randV = field("Rand")
		q.values = field("Values")
	}
	x := c.x()
	if randV.p == nil {
		// a new *rand.Rand, seeded by the execution's quick generator
		rt := m.rtypeOf(m.named("math/rand", "Rand"))
		o := q.alloc(rt.size)
		seed := splitmix(&x.modelState(randSlot).(*randState).q)
		x.sideState(o, 0, func() any { return newRNG(seed) })
		randV = ptrV(o, 0)
	}
	q.next, q.randV = x.rngOf(randV.obj(), randV.off()).next, randV
	return q
}

// args draws the arguments of a function with parameter types in (quick's
// arbitraryValues). A non-nil ctrl ends the intrinsic (a panic, a yield
// of Config.Values, an unsupported construct); a non-empty setup is a
// SetupError to return.
func (q *quickCall) args(in []*rtype) ([]Value, string, ctrl) {
	c := q.c
	args := make([]Value, len(in))
	if q.values.p != nil {
		vt := q.m.reflectValueType()
		o := q.alloc(len(in) * vt.size)
		if _, cc := c.g.callNested(q.values, []Value{sliceV(o, 0, len(in), len(in)), q.randV}); cc != ctrlNext {
			return nil, "", cc
		}
		for i, t := range in {
			rt, v := reflectOf(ptrV(o, i*vt.size))
			v, ok := assignReflect(rt, v, t)
			if !ok {
				// reflect.Value.Call's check of an argument's type
				got := "zero Value"
				if rt != nil {
					got = rt.String()
				}
				return nil, "", c.g.throwPlain(fmt.Sprintf("reflect: Call using %s as type %s", got, t))
			}
			args[i] = v
		}
		return args, "", ctrlNext
	}
	for i, t := range in {
		v, f := q.value(t, quickComplexSize)
		switch {
		case f == nil:
			args[i] = v
		case f.noValue:
			return nil, fmt.Sprintf("cannot create arbitrary value of type %s for argument %d", t, i), ctrlNext
		default:
			return nil, "", f.result(c)
		}
	}
	return args, "", ctrlNext
}

// funcOf decodes a function argument (an any): its closure value, its
// parameter and result types, or false if it is not a function.
func (q *quickCall) funcOf(f Value) (fv Value, t *rtype, in, out []*rtype, ok bool) {
	if f.p == nil {
		return Value{}, nil, nil, nil, false
	}
	i := f.iface()
	sig, isFunc := i.t.T.Underlying().(*types.Signature)
	if !isFunc {
		return Value{}, nil, nil, nil, false
	}
	for p := range sig.Params().Variables() {
		in = append(in, q.m.rtypeOf(p.Type()))
	}
	for r := range sig.Results().Variables() {
		out = append(out, q.m.rtypeOf(r.Type()))
	}
	return i.v, i.t, in, out, true
}

// call calls the property fv and returns its results.
func (q *quickCall) call(fv Value, out []*rtype, args []Value) ([]Value, ctrl) {
	res, cc := q.c.g.callNested(fv, args)
	if cc != ctrlNext {
		return nil, cc
	}
	switch len(out) {
	case 0:
		return nil, ctrlNext
	case 1:
		return []Value{res}, ctrlNext
	}
	return append([]Value(nil), res.obj().cells[:len(out)]...), ctrlNext
}

// anys builds a []any of the values vs of types ts.
func (q *quickCall) anys(ts []*rtype, vs []Value) Value {
	o := q.alloc(len(vs))
	for i, v := range vs {
		o.cells[i] = toAny(ts[i], v)
	}
	return sliceV(o, 0, len(vs), len(vs))
}

// setupError returns a quick.SetupError as an error.
func (q *quickCall) setupError(msg string) ctrl {
	return q.c.ret(ifaceV(q.m.rtypeOf(q.m.named("testing/quick", "SetupError")), strV(msg)))
}

// checkError returns a *quick.CheckError (outs nil) or a
// *quick.CheckEqualError as an error.
func (q *quickCall) checkError(count int, in []*rtype, args []Value, out []*rtype, outs ...[]Value) ctrl {
	name := "CheckError"
	if outs != nil {
		name = "CheckEqualError"
	}
	pt := q.m.ptrTo("testing/quick", name)
	o := q.alloc(pt.elem.size)
	// CheckError{Count, In}, and CheckEqualError{CheckError, Out1, Out2}
	// flattened: the cells are Count, In, Out1, Out2.
	o.cells[0] = intV(int64(count))
	o.cells[1] = q.anys(in, args)
	for i, vs := range outs {
		o.cells[2+i] = q.anys(out, vs)
	}
	return q.c.ret(ifaceV(pt, ptrV(o, 0)))
}

// forArgs runs the checks of Check and CheckEqual: for each of
// q.maxCount draws of arguments of types in, check(i, args) runs the
// functions on them; the first check that reports done ends the run with
// its ctrl. A run without such a check returns nil.
func (q *quickCall) forArgs(in []*rtype, check func(i int, args []Value) (ctrl, bool)) ctrl {
	for i := range q.maxCount {
		args, setup, cc := q.args(in)
		if cc != ctrlNext {
			return cc
		}
		if setup != "" {
			return q.setupError(setup)
		}
		if cc, done := check(i, args); done {
			return cc
		}
	}
	return q.c.ret(Value{})
}

func quickModel() model {
	check := func(m *machine, fn *ssa.Function) intrinsic {
		return func(c *icall) ctrl {
			q := newQuickCall(c, c.args[1])
			fv, ft, in, out, ok := q.funcOf(c.args[0])
			switch {
			case !ok:
				return q.setupError("argument is not a function")
			case len(out) != 1:
				return q.setupError("function does not return one value")
			case out[0].kind != kBool:
				return q.setupError("function does not return a bool")
			}
			if ft.T.Underlying().(*types.Signature).Variadic() {
				return c.g.unsupported(c.pos, "testing/quick.Check of a variadic function")
			}
			return q.forArgs(in, func(i int, args []Value) (ctrl, bool) {
				res, cc := q.call(fv, out, args)
				if cc != ctrlNext {
					return cc, true
				}
				if !res[0].Bool() {
					return q.checkError(i+1, in, args, nil), true
				}
				return ctrlNext, false
			})
		}
	}
	checkEqual := func(m *machine, fn *ssa.Function) intrinsic {
		return func(c *icall) ctrl {
			q := newQuickCall(c, c.args[2])
			xv, xt, in, out, ok := q.funcOf(c.args[0])
			if !ok {
				return q.setupError("f is not a function")
			}
			yv, yt, _, _, ok := q.funcOf(c.args[1])
			if !ok {
				return q.setupError("g is not a function")
			}
			if xt != yt {
				return q.setupError("functions have different types")
			}
			if xt.T.Underlying().(*types.Signature).Variadic() {
				return c.g.unsupported(c.pos, "testing/quick.CheckEqual of variadic functions")
			}
			return q.forArgs(in, func(i int, args []Value) (ctrl, bool) {
				xs, cc := q.call(xv, out, args)
				if cc != ctrlNext {
					return cc, true
				}
				ys, cc := q.call(yv, out, args)
				if cc != ctrlNext {
					return cc, true
				}
				for j, t := range out {
					if !deepEqualIface(toAny(t, xs[j]), toAny(t, ys[j]), map[[2]unsafe.Pointer]bool{}) {
						return q.checkError(i+1, in, args, out, xs, ys), true
					}
				}
				return ctrlNext, false
			})
		}
	}
	// quick.Value(t reflect.Type, rand *rand.Rand) (reflect.Value, bool)
	value := func(m *machine, fn *ssa.Function) intrinsic {
		gen := quickGenerator(m)
		return func(c *icall) ctrl {
			tv := c.args[0]
			if tv.p == nil || tv.iface().t != m.reflectType() {
				return c.g.unsupported(c.pos, "testing/quick.Value of a reflect.Type the reflect model did not make")
			}
			t := (*rtype)(tv.iface().v.p)
			q := &quickGen{c: c, randV: c.args[1], gen: gen}
			nilRand := false
			if rv := c.args[1]; rv.p == nil {
				// Go panics when it first draws from the nil *rand.Rand
				q.next = func() uint64 { nilRand = true; return 0 }
			} else {
				q.next = c.x().rngOf(rv.obj(), rv.off()).next
			}
			v, f := q.value(t, quickComplexSize)
			switch {
			case nilRand:
				return c.g.throwRuntime("invalid memory address or nil pointer dereference")
			case f == nil:
				return c.retN(m.newReflectValue(t, v), boolV(true))
			case f.noValue:
				return c.retN(m.newReflectValue(nil, Value{}), boolV(false))
			}
			return f.result(c)
		}
	}
	return model{funcs: map[string]intrinsicFactory{
		"testing/quick.Check":      nests(check, false),
		"testing/quick.CheckEqual": nests(checkEqual, false),
		"testing/quick.Value":      nests(value, false),
	}}
}
