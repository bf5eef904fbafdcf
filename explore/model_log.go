package explore

import (
	"fmt"
	"go/types"
	"strings"
	"time"

	"golang.org/x/tools/go/ssa"
)

// The log package: the standard logger and *log.Logger values, writing to
// the captured output (os.Stdout/Stderr) or to any io.Writer, with the
// virtual clock's timestamps. The standard logger is the model's
// per-execution state (logState); a *log.Logger's configuration lives in
// the side table.

// loggerState is a Logger's configuration.
type loggerState struct {
	out    Value // io.Writer; zero: the captured output (stderr)
	prefix string
	flags  int
}

const (
	logDate = 1 << iota
	logTime
	logMicroseconds
	logLongfile
	logShortfile
	logUTC
	logMsgprefix
)

// logState is the log model's per-execution state: the standard logger.
type logState struct{ std loggerState }

func newLogState(*execution) modelState {
	return &logState{std: loggerState{flags: logDate | logTime}}
}

// snapshot copies the standard logger's configuration if it writes to
// the captured output; an io.Writer set by log.SetOutput is interpreter
// memory the copy would not follow, so it prevents the snapshot.
func (st *logState) snapshot() (modelState, bool) {
	if st.std.out.p != nil {
		return nil, false
	}
	cp := *st
	return &cp, true
}

func (st *logState) release() {}

// stdLogger returns the standard logger's state.
func (x *execution) stdLogger() *loggerState { return &x.modelState(logSlot).(*logState).std }

// logger returns the state of a *log.Logger receiver.
func (c *icall) logger() *loggerState {
	o, off, ok := c.ptrArg(0)
	if !ok {
		return nil
	}
	if s, ok := c.x().side[objKeyOf(o, off)].(*loggerState); ok {
		return s
	}
	return c.x().stdLogger() // log.Default()'s object
}

// line formats one log line as log does.
func (l *loggerState) line(x *execution, pos string, msg string) string {
	var b strings.Builder
	if l.flags&logMsgprefix == 0 {
		b.WriteString(l.prefix)
	}
	t := time.Unix(0, x.now()).UTC()
	if l.flags&logDate != 0 {
		b.WriteString(t.Format("2006/01/02 "))
	}
	if l.flags&(logTime|logMicroseconds) != 0 {
		if l.flags&logMicroseconds != 0 {
			b.WriteString(t.Format("15:04:05.000000 "))
		} else {
			b.WriteString(t.Format("15:04:05 "))
		}
	}
	if l.flags&(logShortfile|logLongfile) != 0 {
		b.WriteString(pos)
		b.WriteString(": ")
	}
	if l.flags&logMsgprefix != 0 {
		b.WriteString(l.prefix)
	}
	b.WriteString(msg)
	if !strings.HasSuffix(msg, "\n") {
		b.WriteByte('\n')
	}
	return b.String()
}

// logOutput formats and writes a log message; how is "", "f" or "ln";
// then is "print", "fatal" or "panic". args holds the arguments after the
// receiver (if any).
func logOutput(c *icall, l *loggerState, args []Value, how, then string) ctrl {
	var msg string
	var cc ctrl
	switch how {
	case "f":
		msg, cc = c.x().sprintf(c.g, args[0].Str(), sliceElems(args[1]))
	case "ln":
		msg, cc = c.x().sprint(c.g, sliceElems(args[0]), true)
	default:
		msg, cc = c.x().sprint(c.g, sliceElems(args[0]), false)
	}
	if cc != ctrlNext {
		return cc
	}
	p := c.m().prog.Fset.Position(c.pos)
	pos := fmt.Sprintf("%s:%d", p.Filename, p.Line)
	if l.flags&logShortfile != 0 {
		pos = shortPos(p)
	}
	line := l.line(c.x(), pos, msg)
	if cc := c.writeTo(l.out, line); cc != ctrlNext {
		return cc
	}
	switch then {
	case "fatal":
		return c.g.fatal("log.Fatal: " + strings.TrimSuffix(msg, "\n") + " (os.Exit(1))")
	case "panic":
		return c.g.throw(ifaceV(c.m().stringType, strV(strings.TrimSuffix(msg, "\n"))))
	}
	return c.ret(Value{})
}

// writeTo writes s to an io.Writer value (zero or a modelled std stream:
// the captured output), calling its Write method synchronously otherwise.
func (c *icall) writeTo(w Value, s string) ctrl {
	if w.p == nil || c.x().isStdStream(w.iface().v) {
		c.x().writeOutput(c.g, true, s)
		return ctrlNext
	}
	it := w.iface()
	fc := c.m().stringMethodAny(it.t, "Write")
	if fc == nil {
		return c.g.unsupported(c.pos, "log output to %s (no Write method)", it.t)
	}
	_, cc := c.g.callNested(funcV(fc.self), []Value{it.v, bytesToSlice([]byte(s))})
	return cc
}

func logModel() model {
	t := map[string]intrinsicFactory{}
	for _, v := range []struct{ name, how, then string }{
		{"Print", "", "print"}, {"Printf", "f", "print"}, {"Println", "ln", "print"},
		{"Fatal", "", "fatal"}, {"Fatalf", "f", "fatal"}, {"Fatalln", "ln", "fatal"},
		{"Panic", "", "panic"}, {"Panicf", "f", "panic"}, {"Panicln", "ln", "panic"},
	} {
		v := v
		t["log."+v.name] = nests(simple(func(c *icall) ctrl {
			return logOutput(c, c.x().stdLogger(), c.args, v.how, v.then)
		}), true)
		t["(*log.Logger)."+v.name] = nests(simple(func(c *icall) ctrl {
			l := c.logger()
			if l == nil {
				return c.nilPanic()
			}
			return logOutput(c, l, c.args[1:], v.how, v.then)
		}), true)
	}
	t["log.SetFlags"] = simple(func(c *icall) ctrl { c.x().stdLogger().flags = int(c.args[0].Int()); return c.ret(Value{}) })
	t["log.SetPrefix"] = simple(func(c *icall) ctrl { c.x().stdLogger().prefix = c.args[0].Str(); return c.ret(Value{}) })
	t["log.SetOutput"] = simple(func(c *icall) ctrl { c.x().stdLogger().out = c.args[0]; return c.ret(Value{}) })
	t["log.Flags"] = simple(func(c *icall) ctrl { return c.ret(intV(int64(c.x().stdLogger().flags))) })
	t["log.Prefix"] = simple(func(c *icall) ctrl { return c.ret(strV(c.x().stdLogger().prefix)) })
	t["(*log.Logger).SetFlags"] = simple(func(c *icall) ctrl { c.logger().flags = int(c.args[1].Int()); return c.ret(Value{}) })
	t["(*log.Logger).SetPrefix"] = simple(func(c *icall) ctrl { c.logger().prefix = c.args[1].Str(); return c.ret(Value{}) })
	t["(*log.Logger).SetOutput"] = simple(func(c *icall) ctrl { c.logger().out = c.args[1]; return c.ret(Value{}) })
	t["(*log.Logger).Flags"] = simple(func(c *icall) ctrl { return c.ret(intV(int64(c.logger().flags))) })
	t["(*log.Logger).Prefix"] = simple(func(c *icall) ctrl { return c.ret(strV(c.logger().prefix)) })
	t["(*log.Logger).Writer"] = simple(func(c *icall) ctrl { return c.ret(c.logger().out) })
	t["log.New"] = func(m *machine, fn *ssa.Function) intrinsic {
		lt := m.rtypeOf(fn.Signature.Results().At(0).Type().(*types.Pointer).Elem())
		return func(c *icall) ctrl {
			o := &object{cells: make([]Value, max(1, lt.size)), id: c.g.newID(), owner: c.g.key}
			c.x().setSide(o, 0, &loggerState{out: c.args[0], prefix: c.args[1].Str(), flags: int(c.args[2].Int())})
			return c.ret(ptrV(o, 0))
		}
	}
	t["log.Default"] = func(m *machine, fn *ssa.Function) intrinsic {
		lt := m.rtypeOf(fn.Signature.Results().At(0).Type().(*types.Pointer).Elem())
		return func(c *icall) ctrl {
			// a fresh object standing for the standard logger (logger()
			// falls back to it for unknown receivers)
			return c.ret(ptrV(&object{cells: make([]Value, max(1, lt.size))}, 0))
		}
	}
	return model{funcs: t, slot: logSlot, newState: newLogState}
}
