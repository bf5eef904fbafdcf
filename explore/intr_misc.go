package explore

import (
	"go/types"
	"sort"
	"strings"
	"unicode/utf8"

	"golang.org/x/tools/go/ssa"
)

// Models of strings.Builder, internal/bytealg (assembly in Go),
// sort.Slice*, and the globals of opaque packages.

func miscIntrinsics() map[string]intrinsicFactory {
	t := map[string]intrinsicFactory{
		"(*strings.Builder).String": simple(func(c *icall) ctrl {
			return c.ret(strV(string(c.builder().buf)))
		}),
		"(*strings.Builder).Len":   simple(func(c *icall) ctrl { return c.ret(intV(int64(len(c.builder().buf)))) }),
		"(*strings.Builder).Cap":   simple(func(c *icall) ctrl { return c.ret(intV(int64(cap(c.builder().buf)))) }),
		"(*strings.Builder).Reset": simple(func(c *icall) ctrl { c.builder().buf = nil; return c.ret(Value{}) }),
		"(*strings.Builder).Grow": simple(func(c *icall) ctrl {
			n := int(c.args[1].Int())
			if n < 0 {
				return c.g.throwPlain("strings.Builder.Grow: negative count")
			}
			b := c.builder()
			if cap(b.buf)-len(b.buf) < n {
				nb := make([]byte, len(b.buf), 2*cap(b.buf)+n)
				copy(nb, b.buf)
				b.buf = nb
			}
			return c.ret(Value{})
		}),
		"(*strings.Builder).WriteString": simple(func(c *icall) ctrl {
			b := c.builder()
			s := c.args[1].Str()
			b.buf = append(b.buf, s...)
			return c.retN(intV(int64(len(s))), Value{})
		}),
		"(*strings.Builder).Write": simple(func(c *icall) ctrl {
			b := c.builder()
			p := sliceBytes(c.args[1])
			b.buf = append(b.buf, p...)
			return c.retN(intV(int64(len(p))), Value{})
		}),
		"(*strings.Builder).WriteByte": simple(func(c *icall) ctrl {
			b := c.builder()
			b.buf = append(b.buf, byte(c.args[1].a))
			return c.ret(Value{})
		}),
		"(*strings.Builder).WriteRune": simple(func(c *icall) ctrl {
			b := c.builder()
			n := len(b.buf)
			b.buf = utf8.AppendRune(b.buf, rune(c.args[1].Int()))
			return c.retN(intV(int64(len(b.buf)-n)), Value{})
		}),
		"unique.Make": func(m *machine, fn *ssa.Function) intrinsic {
			// Handle[T] is struct{ value *T }: equal values share one
			// pointer (per execution).
			t := m.rtypeOf(fn.Signature.Params().At(0).Type())
			return func(c *icall) ctrl {
				k, bad := keyOf(t, c.args[0])
				if bad != nil {
					return c.g.throwRuntime("hash of unhashable type %s", bad)
				}
				x := c.x()
				x.usedUnique = true
				key := ifaceKey{t, k}
				o, ok := x.interned[key]
				if !ok {
					o = &object{cells: make([]Value, t.size), id: c.g.newID(), owner: c.g.key}
					storeValue(t, o, 0, c.args[0])
					if x.interned == nil {
						x.interned = map[any]*object{}
					}
					x.interned[key] = o
				}
				h := newObject(1)
				h.cells[0] = ptrV(o, 0)
				return c.ret(ptrV(h, 0))
			}
		},
		"(unique.Handle[T]).Value": func(m *machine, fn *ssa.Function) intrinsic {
			t := m.rtypeOf(fn.Signature.Results().At(0).Type())
			return func(c *icall) ctrl {
				p := c.args[0].obj().cells[c.args[0].off()]
				if p.p == nil {
					return c.nilPanic()
				}
				return c.ret(loadValue(t, p.obj(), p.off()))
			}
		},
		"sort.Slice":         nests(simple(func(c *icall) ctrl { return sortSlice(c, false) }), false),
		"sort.SliceStable":   nests(simple(func(c *icall) ctrl { return sortSlice(c, true) }), false),
		"sort.SliceIsSorted": nests(simple(sortSliceIsSorted), false),
	}
	for name, f := range bytealgIntrinsics() {
		t["internal/bytealg."+name] = f
	}
	return t
}

type builderState struct{ buf []byte }

func (c *icall) builder() *builderState {
	o, off, ok := c.ptrArg(0)
	if !ok {
		return &builderState{}
	}
	return c.x().sideState(o, off, func() any { return &builderState{} }).(*builderState)
}

func bytealgIntrinsics() map[string]intrinsicFactory {
	str := func(v Value) string { return v.Str() }
	bs := func(v Value) string { return sliceString(v) }
	return map[string]intrinsicFactory{
		"IndexByte":       simple(func(c *icall) ctrl { return c.ret(intV(int64(strings.IndexByte(bs(c.args[0]), byte(c.args[1].a))))) }),
		"IndexByteString": simple(func(c *icall) ctrl { return c.ret(intV(int64(strings.IndexByte(str(c.args[0]), byte(c.args[1].a))))) }),
		"LastIndexByte": simple(func(c *icall) ctrl {
			return c.ret(intV(int64(strings.LastIndexByte(bs(c.args[0]), byte(c.args[1].a)))))
		}),
		"LastIndexByteString": simple(func(c *icall) ctrl {
			return c.ret(intV(int64(strings.LastIndexByte(str(c.args[0]), byte(c.args[1].a)))))
		}),
		"Count": simple(func(c *icall) ctrl {
			return c.ret(intV(int64(strings.Count(bs(c.args[0]), string([]byte{byte(c.args[1].a)})))))
		}),
		"CountString": simple(func(c *icall) ctrl {
			return c.ret(intV(int64(strings.Count(str(c.args[0]), string([]byte{byte(c.args[1].a)})))))
		}),
		"Equal":   simple(func(c *icall) ctrl { return c.ret(boolV(bs(c.args[0]) == bs(c.args[1]))) }),
		"Compare": simple(func(c *icall) ctrl { return c.ret(intV(int64(strings.Compare(bs(c.args[0]), bs(c.args[1]))))) }),
		"CompareString": simple(func(c *icall) ctrl {
			return c.ret(intV(int64(strings.Compare(str(c.args[0]), str(c.args[1])))))
		}),
		"Index":       simple(func(c *icall) ctrl { return c.ret(intV(int64(strings.Index(bs(c.args[0]), bs(c.args[1]))))) }),
		"IndexString": simple(func(c *icall) ctrl { return c.ret(intV(int64(strings.Index(str(c.args[0]), str(c.args[1]))))) }),
		"Cutover":     simple(func(c *icall) ctrl { return c.ret(intV((c.args[0].Int() + 16) / 8)) }),
		"MakeNoZero": simple(func(c *icall) ctrl {
			n := int(c.args[0].Int())
			o := &object{cells: make([]Value, n), shared: true, id: c.g.newID()}
			return c.ret(sliceV(o, 0, n, n))
		}),
		"IndexRabinKarp": func(m *machine, fn *ssa.Function) intrinsic {
			isStr := m.rtypeOf(fn.Signature.Params().At(0).Type()).kind == kString
			return func(c *icall) ctrl {
				get := bs
				if isStr {
					get = str
				}
				return c.ret(intV(int64(strings.Index(get(c.args[0]), get(c.args[1])))))
			}
		},
		"LastIndexRabinKarp": func(m *machine, fn *ssa.Function) intrinsic {
			isStr := m.rtypeOf(fn.Signature.Params().At(0).Type()).kind == kString
			return func(c *icall) ctrl {
				get := bs
				if isStr {
					get = str
				}
				return c.ret(intV(int64(strings.LastIndex(get(c.args[0]), get(c.args[1])))))
			}
		},
	}
}

// sliceSorter adapts an interpreter slice and a less function value to
// sort.Interface; less runs as a nested call.
type sliceSorter struct {
	c    *icall
	s    Value
	esz  int
	less Value
	cc   ctrl
}

func (s *sliceSorter) Len() int { return s.s.sliceLen() }
func (s *sliceSorter) Swap(i, j int) {
	if s.cc != ctrlNext {
		return // less panicked or the execution stops: sort leaves at once in Go
	}
	cells := s.s.obj().cells[s.s.off():]
	for k := range s.esz {
		cells[i*s.esz+k], cells[j*s.esz+k] = cells[j*s.esz+k], cells[i*s.esz+k]
	}
}
func (s *sliceSorter) Less(i, j int) bool {
	if s.cc != ctrlNext {
		return false
	}
	res, cc := s.c.g.callNested(s.less, []Value{intV(int64(i)), intV(int64(j))})
	if cc != ctrlNext {
		s.cc = cc
		return false
	}
	return res.Bool()
}

func (c *icall) sliceArg(i int) (Value, *rtype, bool) {
	a := c.args[i]
	if a.p == nil {
		return Value{}, nil, false
	}
	it := a.iface()
	if it.t.kind != kSlice {
		return Value{}, nil, false
	}
	return it.v, it.t, true
}

func sortSlice(c *icall, stable bool) ctrl {
	s, t, ok := c.sliceArg(0)
	if !ok {
		return c.g.throwPlain("reflect: call of Swapper on non-slice value")
	}
	ss := &sliceSorter{c: c, s: s, esz: t.elem.size, less: c.args[1]}
	if stable {
		sort.Stable(ss)
	} else {
		sort.Sort(ss)
	}
	if ss.cc != ctrlNext {
		return ss.cc
	}
	return c.ret(Value{})
}

func sortSliceIsSorted(c *icall) ctrl {
	s, t, ok := c.sliceArg(0)
	if !ok {
		return c.g.throwPlain("reflect: call of ValueOf(x).Len on non-slice value")
	}
	ss := &sliceSorter{c: c, s: s, esz: t.elem.size, less: c.args[1]}
	sorted := sort.IsSorted(ss)
	if ss.cc != ctrlNext {
		return ss.cc
	}
	return c.ret(boolV(sorted))
}

// Globals of opaque packages that interpreted code may use.

type globalModel func(x *execution, o *object)

func (m *machine) globalModel(g *ssa.Global) globalModel {
	name := g.Pkg.Pkg.Path() + "." + g.Name()
	switch name {
	case "os.Stdout", "os.Stderr", "os.Stdin":
		ft := m.rtypeOf(g.Type().(*types.Pointer).Elem()).elem
		stream := stdStream(1)
		if name == "os.Stderr" {
			stream = 2
		}
		return func(x *execution, o *object) {
			f := &object{cells: make([]Value, max(1, ft.size))}
			if x.side == nil {
				x.side = map[objKey]any{}
			}
			x.side[objKeyOf(f, -1)] = stream
			o.cells[0] = ptrV(f, 0)
		}
	case "os.Args":
		return func(x *execution, o *object) {
			so := newObject(1)
			so.cells[0] = strV(x.entry.Name)
			o.cells[0] = sliceV(so, 0, 1, 1)
		}
	case "strconv.ErrRange", "strconv.ErrSyntax":
		msg := "value out of range"
		if name == "strconv.ErrSyntax" {
			msg = "invalid syntax"
		}
		return func(x *execution, o *object) { o.cells[0] = x.m.newErrorString(msg) }
	}
	return nil
}

// newErrorString makes an error value like errors.New(msg).
func (m *machine) newErrorString(msg string) Value {
	if et := m.ptrTo("errors", "errorString"); et != nil {
		so := newObject(1)
		so.cells[0] = strV(msg)
		return ifaceV(et, ptrV(so, 0))
	}
	return ifaceV(m.stringErrorType(), strV(msg))
}

// globalUnsupported reports whether reading g is unsupported: its package
// is opaque and the variable is not modelled.
func (m *machine) globalUnsupported(g *ssa.Global) bool {
	if g.Pkg == nil || m.prog.isInterpreted(g.Pkg.Pkg) {
		return false
	}
	return m.globalModel(g) == nil
}
