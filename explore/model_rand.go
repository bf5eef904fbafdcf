package explore

import (
	"go/types"
	"math"

	"golang.org/x/tools/go/ssa"
)

// math/rand and math/rand/v2, deterministic: the top-level functions draw
// from a generator seeded by the execution's seed (randState);
// rand.New(NewSource(s)) generators are seeded by s. Draws are not
// scheduling points.

//
// crypto/rand, deterministic too: crypto/rand.Reader, crypto/rand.Read
// (and so rand.Int, rand.Text, rand.Prime, which read them) draw from a
// second generator seeded by the execution's seed, separate from
// math/rand's so that using one does not change the other's values. The
// bytes are not secret: they repeat with the seed (the replay token), as
// every execution of an exploration must.

// randState is the top-level functions' generator s, crypto/rand's c
// and q, which seeds the generators of testing/quick's calls without a
// Config.Rand (model_quick.go) (splitmix64).
type randState struct{ s, c, q uint64 }

// randSeed is the initial state of the top-level generator of an
// execution with the given seed.
func randSeed(seed int64) uint64 { return uint64(seed)*0x9E3779B97F4A7C15 + 1 }

// cryptoSeed is the initial state of crypto/rand's generator.
func cryptoSeed(seed int64) uint64 { return mix(randSeed(seed), 0x63727970746f) }

// quickSeed is the initial state of testing/quick's seed generator.
func quickSeed(seed int64) uint64 { return mix(randSeed(seed), 0x717569636b) }

func newRandState(x *execution) modelState {
	return &randState{s: randSeed(x.seed), c: cryptoSeed(x.seed), q: quickSeed(x.seed)}
}

// cryptoFill fills the []byte b from crypto/rand's generator.
func (c *icall) cryptoFill(b Value) int {
	n := b.sliceLen()
	if n == 0 {
		return 0
	}
	st := c.x().modelState(randSlot).(*randState)
	cells := b.obj().cells[b.off():]
	var w uint64
	for i := range n {
		if i%8 == 0 {
			w = splitmix(&st.c)
		}
		cells[i] = Value{a: w & 0xff}
		w >>= 8
	}
	return n
}

// snapshot copies the generator: draws made by package initializers are
// carried by the initialization snapshot.
func (st *randState) snapshot() (modelState, bool) { cp := *st; return &cp, true }

func (st *randState) release() {}

// rand64 draws from the top-level generator.
func (x *execution) rand64() uint64 {
	return splitmix(&x.modelState(randSlot).(*randState).s)
}

// randWord is the top-level generator's state, for state fingerprints
// (statehash.go); it does not create the state.
func (x *execution) randWord() uint64 {
	if st, ok := x.models[randSlot].(*randState); ok {
		return mix(mix(st.s, st.c), st.q)
	}
	return mix(mix(randSeed(x.seed), cryptoSeed(x.seed)), quickSeed(x.seed))
}

// randSource returns the generator of a *rand.Rand receiver (or the
// global one).
func (c *icall) randGen(recv bool) func() uint64 {
	x := c.x()
	if !recv {
		return x.rand64
	}
	o, off, ok := c.ptrArg(0)
	if !ok {
		return x.rand64
	}
	return x.rngOf(o, off).next
}

// rngOf returns the generator of the *rand.Rand at cell off of o: the
// one its constructor made, or, for a Rand the model did not make, one
// seeded by the execution's seed.
func (x *execution) rngOf(o *object, off int) *rng {
	return x.sideState(o, off, func() any { return newRNG(uint64(x.seed)) }).(*rng)
}

func randModel() model {
	t := map[string]intrinsicFactory{}
	type op func(c *icall, next func() uint64, args []Value) ctrl
	ops := map[string]op{
		"Int":    func(c *icall, next func() uint64, a []Value) ctrl { return c.ret(intV(int64(next() >> 1))) },
		"Int63":  func(c *icall, next func() uint64, a []Value) ctrl { return c.ret(intV(int64(next() >> 1))) },
		"Int64":  func(c *icall, next func() uint64, a []Value) ctrl { return c.ret(intV(int64(next() >> 1))) },
		"Int31":  func(c *icall, next func() uint64, a []Value) ctrl { return c.ret(intV(int64(next() >> 33))) },
		"Int32":  func(c *icall, next func() uint64, a []Value) ctrl { return c.ret(intV(int64(next() >> 33))) },
		"Uint32": func(c *icall, next func() uint64, a []Value) ctrl { return c.ret(uintV(next() >> 32)) },
		"Uint64": func(c *icall, next func() uint64, a []Value) ctrl { return c.ret(uintV(next())) },
		"Float64": func(c *icall, next func() uint64, a []Value) ctrl {
			return c.ret(floatV(float64(next()>>11) / (1 << 53)))
		},
		"Float32": func(c *icall, next func() uint64, a []Value) ctrl {
			return c.ret(floatV(float64(float32(next()>>40) / (1 << 24))))
		},
		"Intn": intn, "IntN": intn, "Int63n": intn, "Int64N": intn, "Int31n": intn, "Int32N": intn,
		"Uint64N": intn, "Uint32N": intn, "UintN": intn, "N": intn,
		"Perm": func(c *icall, next func() uint64, a []Value) ctrl {
			n := int(a[0].Int())
			if n < 0 {
				return c.g.throwPlain("invalid argument to Perm")
			}
			o := newObject(n)
			for i := range n {
				j := int(next() % uint64(i+1))
				o.cells[i] = o.cells[j]
				o.cells[j] = intV(int64(i))
			}
			return c.ret(sliceV(o, 0, n, n))
		},
		"Shuffle": func(c *icall, next func() uint64, a []Value) ctrl {
			n := int(a[0].Int())
			if n < 0 {
				return c.g.throwPlain("invalid argument to Shuffle")
			}
			for i := n - 1; i > 0; i-- {
				j := int(next() % uint64(i+1))
				if _, cc := c.g.callNested(a[1], []Value{intV(int64(i)), intV(int64(j))}); cc != ctrlNext {
					return cc
				}
			}
			return c.ret(Value{})
		},
		"Seed": func(c *icall, next func() uint64, a []Value) ctrl { return c.ret(Value{}) },
	}
	for _, pkg := range []string{"math/rand", "math/rand/v2"} {
		for name, f := range ops {
			f := f
			t[pkg+"."+name] = simple(func(c *icall) ctrl { return f(c, c.randGen(false), c.args) })
			t["(*"+pkg+".Rand)."+name] = simple(func(c *icall) ctrl { return f(c, c.randGen(true), c.args[1:]) })
			if name == "Shuffle" { // calls swap
				t[pkg+"."+name] = nests(t[pkg+"."+name], false)
				t["(*"+pkg+".Rand)."+name] = nests(t["(*"+pkg+".Rand)."+name], false)
			}
		}
	}
	// rand.New(src) and rand.NewSource(seed): a *Rand whose generator is
	// seeded by the source's seed.
	t["math/rand.NewSource"] = func(m *machine, fn *ssa.Function) intrinsic {
		st := m.ptrTo("math/rand", "rngSource")
		return func(c *icall) ctrl {
			o := newObject(max(1, st.elem.size))
			o.cells[0] = c.args[0]
			return c.ret(ifaceV(st, ptrV(o, 0)))
		}
	}
	// math/rand/v2 sources: PCG and ChaCha8 generators seeded from their
	// arguments; rand.New(src) draws from a generator seeded by the
	// source's seed. (The sequences differ from Go's, but equal seeds give
	// equal sequences.)
	newSource := func(m *machine, fn *ssa.Function) intrinsic {
		st := m.rtypeOf(fn.Signature.Results().At(0).Type().(*types.Pointer).Elem())
		return func(c *icall) ctrl {
			o := newObject(max(2, st.size))
			seed := uint64(0)
			for _, a := range c.args {
				if a.p == nil { // integers
					seed = mix(seed, a.a)
				} else if a.obj() != nil && len(c.args) == 1 { // [32]byte seed
					for _, cell := range a.obj().cells[a.off():] {
						seed = mix(seed, cell.a)
					}
				}
			}
			c.x().sideState(o, 0, func() any { return newRNG(seed) })
			return c.ret(ptrV(o, 0))
		}
	}
	t["math/rand/v2.NewPCG"] = newSource
	t["math/rand/v2.NewChaCha8"] = newSource
	for _, src := range []string{"PCG", "ChaCha8"} {
		t["(*math/rand/v2."+src+").Uint64"] = simple(func(c *icall) ctrl { return c.ret(uintV(c.randGen(true)())) })
	}
	t["math/rand/v2.New"] = func(m *machine, fn *ssa.Function) intrinsic {
		rt := m.rtypeOf(fn.Signature.Results().At(0).Type().(*types.Pointer).Elem())
		return func(c *icall) ctrl {
			o := newObject(max(1, rt.size))
			seed := uint64(1)
			if src := c.args[0]; src.p != nil {
				if v := src.iface().v; v.p != nil {
					if r, ok := c.x().side[objKeyOf(v.obj(), v.off())].(*rng); ok {
						seed = r.next()
					}
				}
			}
			c.x().sideState(o, 0, func() any { return newRNG(seed) })
			return c.ret(ptrV(o, 0))
		}
	}
	t["math/rand.New"] = func(m *machine, fn *ssa.Function) intrinsic {
		rt := m.rtypeOf(fn.Signature.Results().At(0).Type().(*types.Pointer).Elem())
		return func(c *icall) ctrl {
			o := newObject(max(1, rt.size))
			seed := uint64(0)
			if src := c.args[0]; src.p != nil {
				if v := src.iface().v; v.p != nil {
					seed = v.obj().cells[v.off()].a
				}
			}
			c.x().sideState(o, 0, func() any { return newRNG(seed) })
			return c.ret(ptrV(o, 0))
		}
	}
	// crypto/rand: Read, and the Read method of the default Reader
	// (crypto/internal/rand.Reader, a reader{}); drbg.Read is what Read
	// calls for the default Reader.
	cryptoRead := simple(func(c *icall) ctrl { return c.retN(intV(int64(c.cryptoFill(c.args[0]))), Value{}) })
	t["crypto/rand.Read"] = cryptoRead
	t["(crypto/internal/rand.reader).Read"] = simple(func(c *icall) ctrl {
		return c.retN(intV(int64(c.cryptoFill(c.args[1]))), Value{})
	})
	t["crypto/internal/fips140/drbg.Read"] = simple(func(c *icall) ctrl { c.cryptoFill(c.args[0]); return c.ret(Value{}) })
	// rand.Text: 26 characters of the base32 alphabet, as crypto/rand's.
	t["crypto/rand.Text"] = simple(func(c *icall) ctrl {
		const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
		o := newObject(26)
		c.cryptoFill(sliceV(o, 0, 26, 26))
		b := make([]byte, 26)
		for i, cell := range o.cells {
			b[i] = alphabet[cell.a%32]
		}
		return c.ret(strV(string(b)))
	})
	// crypto/rand is interpreted (its Int and Prime are pure Go over
	// math/big and the Reader) with the intrinsics above. The functions
	// of the opaque packages it calls: FIPS 140-only mode is off, and
	// CustomReader returns the default Reader (as Go does unless
	// GODEBUG=cryptocustomrand=1, which the explorer does not read).
	defaultReader := func(m *machine) Value {
		rt := m.rtypeOf(m.named("crypto/internal/rand", "reader"))
		return ifaceV(rt, rt.zero)
	}
	t["crypto/internal/fips140only.Enforced"] = simple(func(c *icall) ctrl { return c.ret(boolV(false)) })
	t["crypto/internal/rand.CustomReader"] = func(m *machine, fn *ssa.Function) intrinsic {
		r := defaultReader(m)
		return func(c *icall) ctrl { return c.ret(r) }
	}
	return model{funcs: t, slot: randSlot, newState: newRandState, globals: map[string]globalFactory{
		// the default Reader (which crypto/rand.Reader is initialized
		// to): a crypto/internal/rand.reader{}, whose Read method is
		// modelled
		"crypto/internal/rand.Reader": func(m *machine, g *ssa.Global) globalInit {
			r := defaultReader(m)
			return func(x *execution, o *object) { o.cells[0] = r }
		},
	}}
}

func intn(c *icall, next func() uint64, a []Value) ctrl {
	n := a[0].a
	if int64(n) <= 0 && n < math.MaxInt64 {
		return c.g.throwPlain("invalid argument to Intn")
	}
	return c.ret(uintV(next() % n))
}
