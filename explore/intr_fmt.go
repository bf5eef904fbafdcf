package explore

import (
	"go/types"
	"strconv"
	"strings"
	"time"

	"golang.org/x/tools/go/ssa"
)

// Models of fmt, errors (the reflect-based parts), os, log.

func fmtIntrinsics() map[string]intrinsicFactory {
	sprintf := func(c *icall, fi, ai int) (string, ctrl) {
		return c.x().sprintf(c.g, c.args[fi].Str(), sliceElems(c.args[ai]))
	}
	sprint := func(c *icall, ai int, ln bool) (string, ctrl) {
		return c.x().sprint(c.g, sliceElems(c.args[ai]), ln)
	}
	retStr := func(s string, cc ctrl, c *icall) ctrl {
		if cc != ctrlNext {
			return cc
		}
		return c.ret(strV(s))
	}
	print := func(s string, cc ctrl, c *icall) ctrl {
		if cc != ctrlNext {
			return cc
		}
		c.x().writeOutput(c.g, false, s)
		return c.retN(intV(int64(len(s))), Value{})
	}
	t := map[string]intrinsicFactory{
		"fmt.Sprintf":  simple(func(c *icall) ctrl { s, cc := sprintf(c, 0, 1); return retStr(s, cc, c) }),
		"fmt.Sprint":   simple(func(c *icall) ctrl { s, cc := sprint(c, 0, false); return retStr(s, cc, c) }),
		"fmt.Sprintln": simple(func(c *icall) ctrl { s, cc := sprint(c, 0, true); return retStr(s, cc, c) }),
		"fmt.Printf":   simple(func(c *icall) ctrl { s, cc := sprintf(c, 0, 1); return print(s, cc, c) }),
		"fmt.Print":    simple(func(c *icall) ctrl { s, cc := sprint(c, 0, false); return print(s, cc, c) }),
		"fmt.Println":  simple(func(c *icall) ctrl { s, cc := sprint(c, 0, true); return print(s, cc, c) }),
		"fmt.Fprintf":  simple(func(c *icall) ctrl { s, cc := sprintf(c, 1, 2); return fprint(c, s, cc) }),
		"fmt.Fprint":   simple(func(c *icall) ctrl { s, cc := sprint(c, 1, false); return fprint(c, s, cc) }),
		"fmt.Fprintln": simple(func(c *icall) ctrl { s, cc := sprint(c, 1, true); return fprint(c, s, cc) }),
		"fmt.Appendf": simple(func(c *icall) ctrl {
			s, cc := sprintf(c, 1, 2)
			if cc != ctrlNext {
				return cc
			}
			return c.ret(appendBytes(c.args[0], s))
		}),
		"fmt.Append": simple(func(c *icall) ctrl {
			s, cc := sprint(c, 1, false)
			if cc != ctrlNext {
				return cc
			}
			return c.ret(appendBytes(c.args[0], s))
		}),
		"fmt.Appendln": simple(func(c *icall) ctrl {
			s, cc := sprint(c, 1, true)
			if cc != ctrlNext {
				return cc
			}
			return c.ret(appendBytes(c.args[0], s))
		}),
		"fmt.Errorf":               nests(func(m *machine, fn *ssa.Function) intrinsic { return m.errorf() }, true),
		"(*fmt.wrapError).Error":   simple(func(c *icall) ctrl { return c.ret(c.args[0].obj().cells[c.args[0].off()]) }),
		"(*fmt.wrapError).Unwrap":  simple(func(c *icall) ctrl { return c.ret(c.args[0].obj().cells[c.args[0].off()+1]) }),
		"(*fmt.wrapErrors).Error":  simple(func(c *icall) ctrl { return c.ret(c.args[0].obj().cells[c.args[0].off()]) }),
		"(*fmt.wrapErrors).Unwrap": simple(func(c *icall) ctrl { return c.ret(c.args[0].obj().cells[c.args[0].off()+1]) }),
	}
	// Formatting calls String, Error and GoString methods (format.go).
	for name, f := range t {
		if strings.HasPrefix(name, "fmt.") && name != "fmt.Errorf" {
			t[name] = nests(f, true)
		}
	}
	return t
}

func appendBytes(s Value, str string) Value {
	bs := strV(str)
	// []byte append from a string
	return appendValues(nil, &rtype{kind: kSlice, elem: &rtype{kind: kUint8, size: 1}}, s, bs, true)
}

// fprint writes to an io.Writer: the modelled os.Stdout/os.Stderr, or any
// writer's Write method (called as a continuation; its (n, err) results
// are Fprintf's results).
func fprint(c *icall, s string, cc ctrl) ctrl {
	if cc != ctrlNext {
		return cc
	}
	w := c.args[0]
	if w.p == nil {
		return c.nilPanic()
	}
	it := w.iface()
	if c.x().isStdStream(it.v) {
		c.x().writeOutput(c.g, false, s)
		return c.retN(intV(int64(len(s))), Value{})
	}
	fc := c.m().stringMethodAny(it.t, "Write")
	if fc == nil {
		return c.g.unsupported(c.pos, "fmt.Fprint to %s (no Write method)", it.t)
	}
	return c.g.callValue(c.fr, funcV(fc.self), []Value{it.v, bytesToSlice([]byte(s))}, c.dst, c.pos)
}

// stringMethodAny returns the method of t with the given name.
func (m *machine) stringMethodAny(t *rtype, name string) *fnCode {
	ms := m.prog.SSA.MethodSets.MethodSet(t.T)
	for i := range ms.Len() {
		if f := ms.At(i).Obj().(*types.Func); f.Name() == name {
			return m.method(t, f)
		}
	}
	if t.native != nil {
		if intr, ok := t.native[name]; ok {
			fc := &fnCode{name: name, intr: intr, compiled: true, recoverPC: -1}
			fc.self = &closure{fn: fc}
			return fc
		}
	}
	return nil
}

// errorf implements fmt.Errorf: *errors.errorString without %w,
// *fmt.wrapError with one %w, *fmt.wrapErrors with several.
func (m *machine) errorf() intrinsic {
	errString := m.ptrTo("errors", "errorString")
	wrapError := m.ptrTo("fmt", "wrapError")
	wrapErrors := m.ptrTo("fmt", "wrapErrors")
	errSlice := m.rtypeOf(types.NewSlice(m.errorIface.T))
	return func(c *icall) ctrl {
		format := c.args[0].Str()
		args := sliceElems(c.args[1])
		s, cc := c.x().formatf(c.g, format, args, true)
		if cc != ctrlNext {
			return cc
		}
		wrapped := wrappedArgs(format, args, m)
		switch {
		case len(wrapped) == 0 || errString == nil && wrapError == nil:
			if errString == nil {
				return c.ret(ifaceV(m.stringErrorType(), strV(s)))
			}
			o := newObject(1)
			o.cells[0] = strV(s)
			return c.ret(ifaceV(errString, ptrV(o, 0)))
		case len(wrapped) == 1 && wrapError != nil:
			o := newObject(2)
			o.cells[0] = strV(s)
			o.cells[1] = wrapped[0]
			return c.ret(ifaceV(wrapError, ptrV(o, 0)))
		case wrapErrors != nil:
			o := newObject(2)
			o.cells[0] = strV(s)
			so := newObject(len(wrapped))
			copy(so.cells, wrapped)
			o.cells[1] = sliceV(so, 0, len(wrapped), len(wrapped))
			_ = errSlice
			return c.ret(ifaceV(wrapErrors, ptrV(o, 0)))
		}
		return c.g.unsupported(c.pos, "fmt.Errorf with %%w: fmt's error types are not loaded")
	}
}

// wrappedArgs returns the error operands of %w verbs.
func wrappedArgs(format string, args []Value, m *machine) []Value {
	var out []Value
	argNum := 0
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			continue
		}
		i++
		for i < len(format) && strings.IndexByte("#0+- 123456789.*[]", format[i]) >= 0 {
			if format[i] == '*' {
				argNum++
			}
			i++
		}
		if i >= len(format) {
			break
		}
		if format[i] == '%' {
			continue
		}
		if format[i] == 'w' && argNum < len(args) {
			a := args[argNum]
			if a.p != nil && m.implements(a.iface().t, m.errorIface) {
				out = append(out, a)
			}
		}
		argNum++
	}
	return out
}

func (m *machine) ptrTo(pkg, name string) *rtype {
	t := m.named(pkg, name)
	if t == nil {
		return nil
	}
	return m.rtypeOf(types.NewPointer(t))
}

// stringErrorType is a synthesized error type used when errors is not
// loaded.
func (m *machine) stringErrorType() *rtype {
	return m.runtimeStringError("errorString", "")
}

// writeOutput appends program output (stdout and stderr are merged).
func (x *execution) writeOutput(g *goroutine, stderr bool, s string) {
	x.out.WriteString(s)
}

func formatDuration(d int64) string { return time.Duration(d).String() }

func osIntrinsics() map[string]intrinsicFactory {
	write := simple(func(c *icall) ctrl {
		if !c.x().isStdStream(c.args[0]) {
			return c.g.unsupported(c.pos, "file I/O (os.File other than Stdout/Stderr)")
		}
		var s string
		if c.args[1].p != nil && c.fn != nil && c.fn.fn != nil && c.fn.fn.Name() == "WriteString" {
			s = c.args[1].Str()
		} else {
			s = sliceString(c.args[1])
		}
		c.x().writeOutput(c.g, false, s)
		return c.retN(intV(int64(len(s))), Value{})
	})
	return map[string]intrinsicFactory{
		"(*os.File).Write":       write,
		"(*os.File).WriteString": write,
		"os.Getenv":              simple(func(c *icall) ctrl { return c.ret(strV(c.x().getenv(c.args[0].Str()))) }),
		"os.LookupEnv": simple(func(c *icall) ctrl {
			v, ok := c.x().lookupEnv(c.args[0].Str())
			return c.retN(strV(v), boolV(ok))
		}),
		"os.Exit": simple(func(c *icall) ctrl {
			return c.g.fatal("os.Exit(" + strconv.FormatInt(c.args[0].Int(), 10) + ") called")
		}),
	}
}

// isStdStream reports whether v is the modelled os.Stdout or os.Stderr.
func (x *execution) isStdStream(v Value) bool {
	if v.p == nil {
		return false
	}
	_, ok := x.side[objKeyOf(v.obj(), -1)].(stdStream)
	return ok
}

type stdStream int

func (x *execution) getenv(k string) string {
	v, _ := x.lookupEnv(k)
	return v
}

func (x *execution) lookupEnv(k string) (string, bool) {
	if v, ok := x.env[k]; ok {
		return v, true
	}
	return "", false
}
