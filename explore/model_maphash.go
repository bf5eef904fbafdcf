package explore

import (
	"encoding/binary"
	"go/types"
	"math"

	"golang.org/x/tools/go/ssa"
)

// hash/maphash, deterministic: a Seed is drawn from the execution's
// generator (math/rand's, randState), as Go draws it from the runtime's,
// and the hash function is one fixed function of the seed and the bytes
// (FNV-1a over the bytes, then a finalizer), not Go's. Go's hashes differ
// from process to process anyway; what the package promises holds:
// equal seeds and equal bytes give equal hashes however the bytes were
// written (Hash.Write in pieces, String, Bytes), and Comparable gives
// equal hashes for == values. Hash.Sum64 etc. are not scheduling points
// and their cells are not reported to the race detector.
//
// Memory: Seed is struct{ s uint64 } (one cell); a Hash keeps its seed in
// the seed field and the running hash in the state field (Go's buffer and
// length stay unused).

const (
	fnvOffset = 0xcbf29ce484222325
	fnvPrime  = 0x100000001b3
)

func maphashModel() model {
	seedOf := func(v Value) uint64 { return v.obj().cells[v.off()].a }
	seedV := func(s uint64) Value {
		o := newObject(1)
		o.cells[0] = uintV(s)
		return ptrV(o, 0)
	}
	// hashCells returns, for pt the type *Hash of a parameter,
	// the cells of the argument's seed and state (nil: a nil pointer); a
	// zero Hash gets a seed on first use, as in Go.
	hashCells := func(m *machine, pt types.Type) func(c *icall, p Value) (seed, state *Value) {
		var seedOff, stateOff int
		for _, f := range m.rtypeOf(pt.(*types.Pointer).Elem()).fields {
			switch f.name {
			case "seed":
				seedOff = f.off
			case "state":
				stateOff = f.off
			}
		}
		return func(c *icall, p Value) (*Value, *Value) {
			if p.p == nil {
				return nil, nil
			}
			seed, state := &p.obj().cells[p.off()+seedOff], &p.obj().cells[p.off()+stateOff]
			if seed.a == 0 {
				seed.a = newMaphashSeed(c.x())
				state.a = seed.a
			}
			return seed, state
		}
	}
	method := func(f func(c *icall, seed, state *Value) ctrl) intrinsicFactory {
		return func(m *machine, fn *ssa.Function) intrinsic {
			cells := hashCells(m, fn.Signature.Recv().Type())
			return func(c *icall) ctrl {
				seed, state := cells(c, c.args[0])
				if seed == nil {
					return c.nilPanic()
				}
				return f(c, seed, state)
			}
		}
	}
	return model{funcs: map[string]intrinsicFactory{
		"hash/maphash.MakeSeed": simple(func(c *icall) ctrl { return c.ret(seedV(newMaphashSeed(c.x()))) }),
		"hash/maphash.String": simple(func(c *icall) ctrl {
			return c.ret(uintV(maphashSum(fnvString(seedOf(c.args[0]), c.args[1].Str()))))
		}),
		"hash/maphash.Bytes": simple(func(c *icall) ctrl {
			return c.ret(uintV(maphashSum(fnvBytes(seedOf(c.args[0]), sliceBytes(c.args[1])))))
		}),
		"hash/maphash.Comparable": func(m *machine, fn *ssa.Function) intrinsic {
			t := m.rtypeOf(fn.Signature.Params().At(1).Type())
			return func(c *icall) ctrl {
				h, ok := hashComparable(c.x(), seedOf(c.args[0]), t, c.args[1])
				if !ok {
					return c.g.throwRuntime("hash of unhashable type %s", t)
				}
				return c.ret(uintV(maphashSum(h)))
			}
		},
		"hash/maphash.WriteComparable": func(m *machine, fn *ssa.Function) intrinsic {
			t := m.rtypeOf(fn.Signature.Params().At(1).Type())
			cells := hashCells(m, fn.Signature.Params().At(0).Type())
			return func(c *icall) ctrl {
				_, state := cells(c, c.args[0])
				if state == nil {
					return c.nilPanic()
				}
				h, ok := hashComparable(c.x(), state.a, t, c.args[1])
				if !ok {
					return c.g.throwRuntime("hash of unhashable type %s", t)
				}
				state.a = h
				return c.ret(Value{})
			}
		},
		"(*hash/maphash.Hash).WriteByte": method(func(c *icall, _, state *Value) ctrl {
			state.a = fnvBytes(state.a, []byte{byte(c.args[1].a)})
			return c.ret(Value{})
		}),
		"(*hash/maphash.Hash).Write": method(func(c *icall, _, state *Value) ctrl {
			b := sliceBytes(c.args[1])
			state.a = fnvBytes(state.a, b)
			return c.retN(intV(int64(len(b))), Value{})
		}),
		"(*hash/maphash.Hash).WriteString": method(func(c *icall, _, state *Value) ctrl {
			s := c.args[1].Str()
			state.a = fnvString(state.a, s)
			return c.retN(intV(int64(len(s))), Value{})
		}),
		"(*hash/maphash.Hash).Seed": method(func(c *icall, seed, _ *Value) ctrl { return c.ret(seedV(seed.a)) }),
		"(*hash/maphash.Hash).SetSeed": method(func(c *icall, seed, state *Value) ctrl {
			s := seedOf(c.args[1])
			if s == 0 {
				return c.g.throw(ifaceV(c.m().stringType, strV("maphash: use of uninitialized Seed")))
			}
			seed.a, state.a = s, s
			return c.ret(Value{})
		}),
		"(*hash/maphash.Hash).Reset": method(func(c *icall, seed, state *Value) ctrl {
			state.a = seed.a
			return c.ret(Value{})
		}),
		"(*hash/maphash.Hash).Sum64": method(func(c *icall, _, state *Value) ctrl { return c.ret(uintV(maphashSum(state.a))) }),
		"(*hash/maphash.Hash).Sum": method(func(c *icall, _, state *Value) ctrl {
			b := binary.BigEndian.AppendUint64(sliceBytes(c.args[1]), maphashSum(state.a))
			return c.ret(bytesToSlice(b))
		}),
		"(*hash/maphash.Hash).Size":      simple(func(c *icall) ctrl { return c.ret(intV(8)) }),
		"(*hash/maphash.Hash).BlockSize": simple(func(c *icall) ctrl { return c.ret(intV(128)) }),
	}}
}

// newMaphashSeed draws a non-zero seed from the execution's generator.
func newMaphashSeed(x *execution) uint64 {
	for {
		if s := x.rand64(); s != 0 {
			return s
		}
	}
}

func fnvBytes(h uint64, b []byte) uint64 {
	for _, c := range b {
		h = (h ^ uint64(c)) * fnvPrime
	}
	return h
}

func fnvString(h uint64, s string) uint64 {
	for i := 0; i < len(s); i++ {
		h = (h ^ uint64(s[i])) * fnvPrime
	}
	return h
}

func fnvWord(h, w uint64) uint64 {
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], w)
	return fnvBytes(h, b[:])
}

// maphashSum finalizes a running hash (splitmix64's mixer).
func maphashSum(h uint64) uint64 {
	h ^= fnvOffset
	h = (h ^ h>>30) * 0xbf58476d1ce4e5b9
	h = (h ^ h>>27) * 0x94d049bb133111eb
	return h ^ h>>31
}

// hashComparable feeds v (of type t) into the running hash h so that ==
// values feed the same bytes: it hashes v's map key (keyOf), which walks v
// as == does. It reports false for an uncomparable dynamic type.
func hashComparable(x *execution, h uint64, t *rtype, v Value) (uint64, bool) {
	key, bad := keyOf(t, v)
	if bad != nil {
		return h, false
	}
	return hashKey(x, h, key), true
}

// hashKey feeds a map key of keyOf into h: -0 and +0 alike, a NaN a fresh
// random word (NaN != NaN), an interface its dynamic type's name, pointers
// and channels their object's identity (stable across executions that
// allocated it in the same prefix; 0 for private objects, which only adds
// collisions), nil 0.
func hashKey(x *execution, h uint64, key any) uint64 {
	switch k := key.(type) {
	case uint64:
		return fnvWord(h, k)
	case string:
		return fnvString(h, k)
	case float64:
		return fnvWord(h, floatHashWord(x, k))
	case complex128:
		return fnvWord(fnvWord(h, floatHashWord(x, real(k))), floatHashWord(x, imag(k)))
	case ifaceKey:
		return hashKey(x, fnvString(h, k.t.String()), k.k)
	case consKey:
		return hashKey(x, hashKey(x, h, k.h), k.t)
	case chanMapKey:
		if k.p == nil {
			return fnvWord(h, 0)
		}
		return fnvWord(h, (*chanObject)(k.p).key)
	case ptrKey:
		if k.p == nil {
			return fnvWord(h, 0)
		}
		return fnvWord(h, (*object)(k.p).id<<16^k.a)
	}
	return fnvWord(h, 0) // nilKey: a nil interface, the end of a cons list
}

func floatHashWord(x *execution, f float64) uint64 {
	switch {
	case f == 0:
		return 0
	case math.IsNaN(f):
		return x.rand64()
	}
	return math.Float64bits(f)
}
