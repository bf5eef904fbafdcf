package explore

import (
	"runtime"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// internal/bytealg, whose functions are written in assembly: strings and
// bytes call them. They run natively.

func bytealgModel() model {
	t := map[string]intrinsicFactory{}
	for name, f := range bytealgIntrinsics() {
		t["internal/bytealg."+name] = f
	}
	return model{funcs: t, globals: map[string]globalFactory{
		// The length up to which bytes.Index and strings.Index call
		// bytealg.Index (whose intrinsic takes any length): the runtime
		// sets it from the CPU's features; here those of a CPU without the
		// features internal/cpu reports (model_big.go).
		"internal/bytealg.MaxLen": func(*machine, *ssa.Global) globalInit {
			maxLen := 0
			switch runtime.GOARCH {
			case "amd64":
				maxLen = 31
			case "arm64":
				maxLen = 32
			}
			return func(_ *execution, o *object) { o.cells[0] = intV(int64(maxLen)) }
		},
	}}
}

// bytealgIntrinsics returns the intrinsics of internal/bytealg by their
// unqualified names.
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
			if n < 0 || n > 1<<31 {
				// the runtime's bound, as for make (makeSlice)
				return c.g.throwRuntime("makeslice: len out of range")
			}
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
