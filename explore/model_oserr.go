package explore

import (
	"errors"
	"go/types"
	"io"
	"io/fs"
	"os"
	"strings"
	"syscall"

	"golang.org/x/tools/go/ssa"
)

// File errors.
//
// The os model's file operations fail as Go's do: with an *fs.PathError
// (an *os.LinkError for os.Rename) whose Err is a syscall.Errno
// (ENOENT, EEXIST, EISDIR…) or one of the sentinel errors of io/fs
// (fs.ErrClosed). The methods of these types, syscall.Errno's Is (ENOENT
// is fs.ErrNotExist, EEXIST and ENOTEMPTY fs.ErrExist, EACCES and EPERM
// fs.ErrPermission), os.IsNotExist, os.IsExist and os.IsPermission are
// intrinsics, so errors.Is(err, fs.ErrNotExist) and os.IsNotExist(err)
// hold for a missing file. The sentinels (fs.ErrNotExist, os.ErrNotExist,
// fs.SkipDir, filepath.SkipDir…) are modelled variables: the os and
// path/filepath aliases hold the io/fs value, so that they compare equal.

// sentinelMsgs are the messages of the modelled sentinel errors of io/fs,
// by variable name.
var sentinelMsgs = map[string]string{
	"ErrInvalid":     "invalid argument",
	"ErrPermission":  "permission denied",
	"ErrExist":       "file already exists",
	"ErrNotExist":    "file does not exist",
	"ErrClosed":      "file already closed",
	"SkipDir":        "skip this directory",
	"SkipAll":        "skip everything and stop the walk",
	"ErrUnsupported": "unsupported operation",
}

// sentinelGlobals returns the initializers of the sentinel error
// variables of io/fs and of their aliases in os and path/filepath.
func sentinelGlobals() map[string]globalFactory {
	gs := map[string]globalFactory{}
	for name := range sentinelMsgs {
		for _, pkg := range []string{"io/fs", "os", "path/filepath"} {
			gs[pkg+"."+name] = func(m *machine, _ *ssa.Global) globalInit {
				return func(_ *execution, o *object) { o.cells[0] = m.sentinel(name) }
			}
		}
	}
	delete(gs, "os.SkipDir")
	delete(gs, "os.SkipAll")
	return gs
}

// sentinel returns the value of the io/fs sentinel error name in the
// current execution: the value of the variable fs.<name>, made when
// first needed.
func (m *machine) sentinel(name string) Value {
	g := m.globalByName("io/fs", name)
	if g == nil {
		return m.newErrorString(sentinelMsgs[name])
	}
	o, ok := m.globals[g]
	if !ok {
		o = m.global(g) // initializes it (the initializer is this function)
	}
	if o.cells[0].p == nil {
		o.cells[0] = m.newErrorString(sentinelMsgs[name])
	}
	return o.cells[0]
}

// errnoValue is the error value of a syscall.Errno.
func (m *machine) errnoValue(e syscall.Errno) Value {
	if t := m.named("syscall", "Errno"); t != nil {
		return ifaceV(m.rtypeOf(t), uintV(uint64(e)))
	}
	return m.newErrorString(e.Error())
}

// pathError is &fs.PathError{Op: op, Path: path, Err: err} as an error
// value (a plain error with the same message if io/fs is not loaded).
func (m *machine) pathError(op, path string, err Value, msg string) Value {
	t := m.named("io/fs", "PathError")
	if t == nil {
		return m.newErrorString(op + " " + path + ": " + msg)
	}
	rt := m.rtypeOf(t)
	o := newObject(rt.size)
	o.cells[fieldOff(rt, "Op")] = strV(op)
	o.cells[fieldOff(rt, "Path")] = strV(path)
	o.cells[fieldOff(rt, "Err")] = err
	return ifaceV(m.rtypeOf(types.NewPointer(t)), ptrV(o, 0))
}

// linkError is &os.LinkError{Op: op, Old: old, New: new, Err: errno}.
func (m *machine) linkError(op, old, new string, e syscall.Errno) Value {
	t := m.named("os", "LinkError")
	if t == nil {
		return m.newErrorString(op + " " + old + " " + new + ": " + e.Error())
	}
	rt := m.rtypeOf(t)
	o := newObject(rt.size)
	o.cells[fieldOff(rt, "Op")] = strV(op)
	o.cells[fieldOff(rt, "Old")] = strV(old)
	o.cells[fieldOff(rt, "New")] = strV(new)
	o.cells[fieldOff(rt, "Err")] = m.errnoValue(e)
	return ifaceV(m.rtypeOf(types.NewPointer(t)), ptrV(o, 0))
}

// fieldOff is the cell offset of the struct type's field name.
func fieldOff(rt *rtype, name string) int {
	for _, f := range rt.fields {
		if f.name == name {
			return f.off
		}
	}
	panic("explore: no field " + name + " in " + rt.T.String())
}

// fieldOffs returns the cell offsets of the fields names of the struct
// type pkg.typ: intrinsic factories look them up once.
func (m *machine) fieldOffs(pkg, typ string, names ...string) []int {
	rt := m.rtypeOf(m.named(pkg, typ))
	offs := make([]int, len(names))
	for i, n := range names {
		offs[i] = fieldOff(rt, n)
	}
	return offs
}

// recvField is the intrinsic of a method that returns the field name of
// its receiver, a *pkg.typ.
func recvField(pkg, typ, name string) intrinsicFactory {
	return func(m *machine, _ *ssa.Function) intrinsic {
		f := m.fieldOffs(pkg, typ, name)[0]
		return func(c *icall) ctrl {
			o, off, ok := c.ptrArg(0)
			if !ok {
				return c.nilPanic()
			}
			return c.ret(o.cells[off+f])
		}
	}
}

// errnoOf maps the messages of the in-memory file system's errors to
// their errno.
var errnoOf = map[string]syscall.Errno{
	"no such file or directory": syscall.ENOENT,
	"file exists":               syscall.EEXIST,
	"is a directory":            syscall.EISDIR,
	"not a directory":           syscall.ENOTDIR,
	"directory not empty":       syscall.ENOTEMPTY,
	"bad file descriptor":       syscall.EBADF,
	"invalid argument":          syscall.EINVAL,
	"permission denied":         syscall.EACCES,
}

// memErr is the error of a file operation op on name ("open NAME: msg"):
// an *fs.PathError wrapping the errno of msg, fs.ErrClosed, or a plain
// error with msg.
func (m *machine) memErr(op, name, msg string) Value {
	switch e, ok := errnoOf[msg]; {
	case ok:
		return m.pathError(op, name, m.errnoValue(e), msg)
	case msg == sentinelMsgs["ErrClosed"]:
		return m.pathError(op, name, m.sentinel("ErrClosed"), msg)
	}
	return m.pathError(op, name, m.newErrorString(msg), msg)
}

// osError converts a native error of a file operation on the file the
// program named name ("": the native error's own path): io.EOF becomes
// the interpreter's io.EOF, an *fs.PathError or *os.LinkError wrapping an
// errno or fs.ErrClosed the same error of the interpreter (a PathError's
// Path the program's name, not the resolved one); other errors become
// plain error values with the same message.
func (m *machine) osError(err error, name string) Value {
	if err == nil {
		return Value{}
	}
	if errors.Is(err, io.EOF) {
		if eof := m.globalValue("io", "EOF"); eof.p != nil {
			return eof
		}
	}
	var pe *fs.PathError
	var le *os.LinkError
	var e syscall.Errno
	if errors.As(err, &pe) && name != "" {
		pe = &fs.PathError{Op: pe.Op, Path: name, Err: pe.Err}
		err = pe
	}
	switch {
	case errors.As(err, &pe) && errors.As(pe.Err, &e):
		return m.pathError(pe.Op, pe.Path, m.errnoValue(e), e.Error())
	case errors.As(err, &pe) && errors.Is(pe.Err, fs.ErrClosed):
		return m.pathError(pe.Op, pe.Path, m.sentinel("ErrClosed"), pe.Err.Error())
	case errors.As(err, &le) && errors.As(le.Err, &e):
		return m.linkError(le.Op, le.Old, le.New, e)
	}
	return m.newErrorString(err.Error())
}

// errText is the message of an error value whose type the file models
// make (an errno, errors.New's), or ok false.
func (m *machine) errText(err Value) (string, bool) {
	if err.p == nil {
		return "<nil>", true
	}
	it := err.iface()
	if t := m.named("syscall", "Errno"); t != nil && it.t == m.rtypeOf(t) {
		return syscall.Errno(it.v.a).Error(), true
	}
	if et := m.ptrTo("errors", "errorString"); et != nil && it.t == et {
		return it.v.obj().cells[it.v.off()].Str(), true
	}
	return "", false
}

// errorText is the message of any error value: errText's, or its Error
// method's, called synchronously (the intrinsic must nest).
func (c *icall) errorText(err Value) (string, ctrl) {
	if s, ok := c.m().errText(err); ok {
		return s, ctrlNext
	}
	it := err.iface()
	fc := c.m().stringMethodAny(it.t, "Error")
	if fc == nil {
		return "", c.g.unsupported(c.pos, "%s: the error %s has no Error method", c.name(), it.t)
	}
	res, cc := c.g.callNested(funcV(fc.self), []Value{it.v})
	return res.Str(), cc
}

// errnoIs is syscall.Errno's Is: whether the errno e is the io/fs
// sentinel target.
func (m *machine) errnoIs(e syscall.Errno, target Value) bool {
	var name string
	switch e {
	case syscall.ENOENT:
		name = "ErrNotExist"
	case syscall.EEXIST, syscall.ENOTEMPTY:
		name = "ErrExist"
	case syscall.EACCES, syscall.EPERM:
		name = "ErrPermission"
	case syscall.ENOSYS, syscall.ENOTSUP:
		name = "ErrUnsupported"
	default:
		return false
	}
	return sameIface(target, m.sentinel(name))
}

// sameIface reports whether the non-nil interface values a and b hold the
// same pointer.
func sameIface(a, b Value) bool {
	return a.p != nil && b.p != nil && a.iface().t == b.iface().t && a.iface().v.p == b.iface().v.p && a.iface().v.a == b.iface().v.a
}

// errWrapper is an error type os's underlyingError unwraps: a pointer
// type and the offset of its Err field.
type errWrapper struct {
	pt  *rtype
	off int
}

// errWrappers returns *fs.PathError, *os.LinkError and *os.SyscallError
// (those the program has).
func (m *machine) errWrappers() []errWrapper {
	var ws []errWrapper
	for _, n := range []struct{ pkg, name string }{{"io/fs", "PathError"}, {"os", "LinkError"}, {"os", "SyscallError"}} {
		if pt := m.ptrTo(n.pkg, n.name); pt != nil {
			ws = append(ws, errWrapper{pt, fieldOff(pt.elem, "Err")})
		}
	}
	return ws
}

// underlyingError is os's underlyingError: the error one of the wrappers
// ws wraps, or err.
func underlyingError(ws []errWrapper, err Value) Value {
	if err.p == nil {
		return err
	}
	it := err.iface()
	for _, w := range ws {
		if it.t == w.pt && it.v.p != nil {
			return it.v.obj().cells[it.v.off()+w.off]
		}
	}
	return err
}

// osIs is os.IsNotExist (name "ErrNotExist"), os.IsExist or
// os.IsPermission.
func osIs(name string) intrinsicFactory {
	return func(m *machine, _ *ssa.Function) intrinsic {
		ws := m.errWrappers()
		var errno *rtype
		if t := m.named("syscall", "Errno"); t != nil {
			errno = m.rtypeOf(t)
		}
		return func(c *icall) ctrl {
			m := c.m()
			err := underlyingError(ws, c.args[0])
			if err.p == nil {
				return c.ret(boolV(false))
			}
			if sameIface(err, m.sentinel(name)) {
				return c.ret(boolV(true))
			}
			if errno != nil && err.iface().t == errno {
				return c.ret(boolV(m.errnoIs(syscall.Errno(err.iface().v.a), m.sentinel(name))))
			}
			return c.ret(boolV(false))
		}
	}
}

// fileErrModel models the file errors: the methods of *fs.PathError,
// *os.LinkError and syscall.Errno, and os.IsNotExist, IsExist and
// IsPermission.
func fileErrModel() model { return model{funcs: fileErrFuncs()} }

// fileErrFuncs returns the intrinsics of the file errors.
func fileErrFuncs() map[string]intrinsicFactory {
	return map[string]intrinsicFactory{
		"(*io/fs.PathError).Error": nests(func(m *machine, _ *ssa.Function) intrinsic {
			f := m.fieldOffs("io/fs", "PathError", "Op", "Path", "Err")
			return func(c *icall) ctrl {
				o, off, ok := c.ptrArg(0)
				if !ok {
					return c.nilPanic()
				}
				msg, cc := c.errorText(o.cells[off+f[2]])
				if cc != ctrlNext {
					return cc
				}
				return c.ret(strV(o.cells[off+f[0]].Str() + " " + o.cells[off+f[1]].Str() + ": " + msg))
			}
		}, true),
		"(*io/fs.PathError).Unwrap": recvField("io/fs", "PathError", "Err"),
		// Timeout is Err's Timeout if Err has one (fs.PathError's)
		"(*io/fs.PathError).Timeout": nests(func(m *machine, _ *ssa.Function) intrinsic {
			errOff := m.fieldOffs("io/fs", "PathError", "Err")[0]
			return func(c *icall) ctrl { return c.pathErrorTimeout(errOff) }
		}, true),
		"(*os.LinkError).Error": nests(func(m *machine, _ *ssa.Function) intrinsic {
			f := m.fieldOffs("os", "LinkError", "Op", "Old", "New", "Err")
			return func(c *icall) ctrl {
				o, off, ok := c.ptrArg(0)
				if !ok {
					return c.nilPanic()
				}
				msg, cc := c.errorText(o.cells[off+f[3]])
				if cc != ctrlNext {
					return cc
				}
				s := []string{o.cells[off+f[0]].Str(), o.cells[off+f[1]].Str(), o.cells[off+f[2]].Str() + ":", msg}
				return c.ret(strV(strings.Join(s, " ")))
			}
		}, true),
		"(*os.LinkError).Unwrap": recvField("os", "LinkError", "Err"),
		"(syscall.Errno).Error": simple(func(c *icall) ctrl {
			return c.ret(strV(syscall.Errno(c.args[0].a).Error()))
		}),
		"(syscall.Errno).Is": simple(func(c *icall) ctrl {
			return c.ret(boolV(c.m().errnoIs(syscall.Errno(c.args[0].a), c.args[1])))
		}),
		"(syscall.Errno).Timeout": simple(func(c *icall) ctrl {
			return c.ret(boolV(syscall.Errno(c.args[0].a).Timeout()))
		}),
		"(syscall.Errno).Temporary": simple(func(c *icall) ctrl {
			return c.ret(boolV(syscall.Errno(c.args[0].a).Temporary()))
		}),
		"os.IsNotExist":   osIs("ErrNotExist"),
		"os.IsExist":      osIs("ErrExist"),
		"os.IsPermission": osIs("ErrPermission"),
	}
}

// pathErrorTimeout is (*fs.PathError).Timeout; the receiver's Err is at
// errOff.
func (c *icall) pathErrorTimeout(errOff int) ctrl {
	o, off, ok := c.ptrArg(0)
	if !ok {
		return c.nilPanic()
	}
	err := o.cells[off+errOff]
	if err.p == nil {
		return c.ret(boolV(false))
	}
	it := err.iface()
	fc := c.m().stringMethodAny(it.t, "Timeout")
	if fc == nil {
		return c.ret(boolV(false))
	}
	res, cc := c.g.callNested(funcV(fc.self), []Value{it.v})
	if cc != ctrlNext {
		return cc
	}
	return c.ret(boolV(res.Bool()))
}
