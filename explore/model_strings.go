package explore

import (
	"strings"
	"unicode/utf8"
)

// The strings package: its pure functions run natively (natives.go), and
// strings.Builder, whose code uses unsafe, is modelled: its bytes live in
// the side table (builderState). The functions of internal/bytealg that
// strings calls are in model_bytealg.go.

func stringsModel() model {
	return model{
		funcs: map[string]intrinsicFactory{
			"(*strings.Builder).String": simple(func(c *icall) ctrl {
				return c.ret(strV(string(c.builder().buf)))
			}),
			"(*strings.Builder).Len": simple(func(c *icall) ctrl { return c.ret(intV(int64(len(c.builder().buf)))) }),
			"(*strings.Builder).Cap": simple(func(c *icall) ctrl { return c.ret(intV(int64(cap(c.builder().buf)))) }),
			"(*strings.Builder).Reset": simple(func(c *icall) ctrl {
				o, off, ok := c.ptrArg(0)
				if !ok {
					return c.nilPanic() // Go's Reset writes b.addr
				}
				o.cells[off+builderAddr] = Value{}
				c.builder().buf = nil
				return c.ret(Value{})
			}),
			"(*strings.Builder).Grow": simple(func(c *icall) ctrl {
				if cc, ok := builderCopyCheck(c); !ok {
					return cc
				}
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
				if cc, ok := builderCopyCheck(c); !ok {
					return cc
				}
				b := c.builder()
				s := c.args[1].Str()
				b.buf = append(b.buf, s...)
				return c.retN(intV(int64(len(s))), Value{})
			}),
			"(*strings.Builder).Write": simple(func(c *icall) ctrl {
				if cc, ok := builderCopyCheck(c); !ok {
					return cc
				}
				b := c.builder()
				p := sliceBytes(c.args[1])
				b.buf = append(b.buf, p...)
				return c.retN(intV(int64(len(p))), Value{})
			}),
			"(*strings.Builder).WriteByte": simple(func(c *icall) ctrl {
				if cc, ok := builderCopyCheck(c); !ok {
					return cc
				}
				b := c.builder()
				b.buf = append(b.buf, byte(c.args[1].a))
				return c.ret(Value{})
			}),
			// utf8.EncodeRune writes into its slice argument, which a
			// native function cannot: as Go's, it panics (index out of
			// range) if p is too short.
			"unicode/utf8.EncodeRune": simple(func(c *icall) ctrl {
				b := utf8.AppendRune(nil, rune(c.args[1].Int()))
				p := c.args[0]
				if n := p.sliceLen(); n < len(b) {
					return c.g.throwIndex(uint64(len(b)-1), true, n)
				}
				cells := p.obj().cells[p.off():]
				for i, x := range b {
					cells[i] = Value{a: uint64(x)}
				}
				return c.ret(intV(int64(len(b))))
			}),
			"(*strings.Builder).WriteRune": simple(func(c *icall) ctrl {
				if cc, ok := builderCopyCheck(c); !ok {
					return cc
				}
				b := c.builder()
				n := len(b.buf)
				b.buf = utf8.AppendRune(b.buf, rune(c.args[1].Int()))
				return c.retN(intV(int64(len(b.buf)-n)), Value{})
			}),
		},
		natives: map[string]any{
			"strings.Contains": strings.Contains, "strings.ContainsAny": strings.ContainsAny, "strings.ContainsRune": strings.ContainsRune,
			"strings.Count": strings.Count, "strings.EqualFold": strings.EqualFold, "strings.Fields": strings.Fields,
			"strings.HasPrefix": strings.HasPrefix, "strings.HasSuffix": strings.HasSuffix, "strings.Index": strings.Index,
			"strings.IndexAny": strings.IndexAny, "strings.IndexByte": strings.IndexByte, "strings.IndexRune": strings.IndexRune,
			"strings.Join": strings.Join, "strings.LastIndex": strings.LastIndex, "strings.LastIndexAny": strings.LastIndexAny,
			"strings.LastIndexByte": strings.LastIndexByte, "strings.Repeat": strings.Repeat, "strings.Replace": strings.Replace,
			"strings.ReplaceAll": strings.ReplaceAll, "strings.Split": strings.Split, "strings.SplitAfter": strings.SplitAfter,
			"strings.SplitAfterN": strings.SplitAfterN, "strings.SplitN": strings.SplitN, "strings.Title": strings.Title,
			"strings.ToLower": strings.ToLower, "strings.ToTitle": strings.ToTitle, "strings.ToUpper": strings.ToUpper,
			"strings.ToValidUTF8": strings.ToValidUTF8, "strings.Trim": strings.Trim, "strings.TrimLeft": strings.TrimLeft,
			"strings.TrimPrefix": strings.TrimPrefix, "strings.TrimRight": strings.TrimRight, "strings.TrimSpace": strings.TrimSpace,
			"strings.TrimSuffix": strings.TrimSuffix, "strings.Compare": strings.Compare, "strings.Cut": strings.Cut,
			"strings.CutPrefix": strings.CutPrefix, "strings.CutSuffix": strings.CutSuffix, "strings.Clone": strings.Clone,
		},
	}
}

// builderAddr is the cell of strings.Builder's addr field, its first: the
// Builder's own address once it was written to, which a copy keeps.
const builderAddr = 0

// builderCopyCheck is strings.Builder's copyCheck, run by the methods that
// write: the first write records the Builder's address in its addr field,
// and a write to a copy of a written Builder (whose addr is the
// original's) panics, as in Go. ok is false when it panicked.
func builderCopyCheck(c *icall) (ctrl, bool) {
	o, off, ok := c.ptrArg(0)
	if !ok {
		return c.nilPanic(), false
	}
	addr := &o.cells[off+builderAddr]
	switch {
	case addr.isNil():
		*addr = ptrV(o, off)
	case addr.obj() != o || addr.off() != off:
		return c.g.throw(ifaceV(c.m().stringType, strV("strings: illegal use of non-zero Builder copied by value"))), false
	}
	return ctrlNext, true
}

// builderState is the content of a strings.Builder.

type builderState struct{ buf []byte }

func (c *icall) builder() *builderState {
	o, off, ok := c.ptrArg(0)
	if !ok {
		return &builderState{}
	}
	return c.x().sideState(o, off, func() any { return &builderState{} }).(*builderState)
}
