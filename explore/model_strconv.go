package explore

import (
	"errors"
	"strconv"

	"golang.org/x/tools/go/ssa"
)

// The strconv package: its functions run natively (natives.go). The
// errors they return are converted (nativeError): a *strconv.NumError
// becomes the interpreter's *strconv.NumError, whose Err is the modelled
// strconv.ErrSyntax or strconv.ErrRange; its methods are intrinsics.

func strconvModel() model {
	errGlobal := func(msg string) globalFactory {
		return func(*machine, *ssa.Global) globalInit {
			return func(x *execution, o *object) { o.cells[0] = x.m.newErrorString(msg) }
		}
	}
	return model{
		funcs: map[string]intrinsicFactory{
			"(*strconv.NumError).Error": nests(simple(func(c *icall) ctrl {
				o, off := c.args[0].obj(), c.args[0].off()
				errMsg := ""
				if e := o.cells[off+2]; e.p != nil {
					s, ok, cc := c.x().callStringMethodCtrl(c.g, e.iface(), "Error")
					if cc != ctrlNext {
						return cc
					}
					if ok {
						errMsg = s
					}
				}
				return c.ret(strV("strconv." + o.cells[off].Str() + ": parsing " + strconv.Quote(o.cells[off+1].Str()) + ": " + errMsg))
			}), true),
			"(*strconv.NumError).Unwrap": simple(func(c *icall) ctrl {
				return c.ret(c.args[0].obj().cells[c.args[0].off()+2])
			}),
		},
		natives: map[string]any{
			"strconv.Itoa": strconv.Itoa, "strconv.Atoi": strconv.Atoi, "strconv.FormatInt": strconv.FormatInt,
			"strconv.FormatUint": strconv.FormatUint, "strconv.FormatFloat": strconv.FormatFloat, "strconv.FormatBool": strconv.FormatBool,
			"strconv.ParseInt": strconv.ParseInt, "strconv.ParseUint": strconv.ParseUint, "strconv.ParseFloat": strconv.ParseFloat,
			"strconv.ParseBool": strconv.ParseBool, "strconv.Quote": strconv.Quote, "strconv.QuoteRune": strconv.QuoteRune,
			"strconv.QuoteToASCII": strconv.QuoteToASCII, "strconv.Unquote": strconv.Unquote, "strconv.UnquoteChar": strconv.UnquoteChar,
			"strconv.AppendInt": strconv.AppendInt, "strconv.AppendQuote": strconv.AppendQuote, "strconv.AppendUint": strconv.AppendUint,
			"strconv.IsPrint": strconv.IsPrint, "strconv.CanBackquote": strconv.CanBackquote,
		},
		globals: map[string]globalFactory{
			"strconv.ErrRange":  errGlobal("value out of range"),
			"strconv.ErrSyntax": errGlobal("invalid syntax"),
		},
	}
}

// nativeError converts an error returned by a native function (of any
// model, natives.go): a *strconv.NumError becomes the interpreter's, any
// other error a plain error value with the same message.
func (m *machine) nativeError(c *icall, err error) Value {
	var ne *strconv.NumError
	if errors.As(err, &ne) {
		if nt := m.ptrTo("strconv", "NumError"); nt != nil {
			o := newObject(3)
			o.cells[0] = strV(ne.Func)
			o.cells[1] = strV(ne.Num)
			switch ne.Err {
			case strconv.ErrSyntax:
				o.cells[2] = m.modelledGlobalValue("strconv", "ErrSyntax")
			case strconv.ErrRange:
				o.cells[2] = m.modelledGlobalValue("strconv", "ErrRange")
			default:
				o.cells[2] = m.newErrorString(ne.Err.Error())
			}
			return ifaceV(nt, ptrV(o, 0))
		}
	}
	return m.newErrorString(err.Error())
}

// modelledGlobalValue reads a modelled global of an opaque package.
func (m *machine) modelledGlobalValue(pkg, name string) Value {
	g := m.globalByName(pkg, name)
	if g == nil {
		return m.newErrorString(name)
	}
	return m.global(g).cells[0]
}
