package explore

import (
	"go/types"
	"io"
	iofs "io/fs"
	"os"
	"path/filepath"
	"strconv"
	"syscall"

	"golang.org/x/tools/go/ssa"
)

// The os package.
//
// Standard streams: os.Stdout and os.Stderr are *os.File values whose
// writes go to the execution's captured output (stdout and stderr
// merged), as do fmt.Print*, log and t.Log. os.Args is os.Executable's path.
// The environment is empty: os.Getenv returns "" and os.LookupEnv
// reports false. os.Exit ends the execution with a fatal finding.
//
// Read-only file access (test fixtures, golden files): os.ReadFile,
// os.Open, os.OpenFile for reading, os.Stat, os.Lstat, os.ReadDir and
// (*os.File).Read/Close/Name/Stat/ReadDir read the real file system, which
// is deterministic as long as the files do not change during the
// exploration. Relative names are resolved against the directory of the
// entry's package (as go test runs tests there). The files an execution
// opened are closed when it is released (osState).
//
// Temporary files and directories are written in an in-memory file system
// of the execution (model_osfs.go); writing files anywhere else, creating
// directories and the like stay unsupported: their effects would outlive
// an execution.
//
// os.Executable is "/tmp/go-build/b001/<elem>.test", <elem> the last
// element of the entry's package path: where go test would build it.

func osModel() model {
	write := simple(func(c *icall) ctrl {
		var s string
		if c.args[1].p != nil && c.fn != nil && c.fn.fn != nil && c.fn.fn.Name() == "WriteString" {
			s = c.args[1].Str()
		} else {
			s = sliceString(c.args[1])
		}
		if of := c.openFile(); of != nil && of.mem != nil {
			if c.fsYield(true) {
				return ctrlYield
			}
			if of.closed || !of.write {
				msg := "file already closed"
				if !of.closed {
					msg = "bad file descriptor"
				}
				return c.retN(intV(0), c.m().memErr("write", of.name, msg))
			}
			if of.append {
				of.off = int64(len(of.mem.data))
			}
			of.writeAt(s)
			return c.retN(intV(int64(len(s))), Value{})
		}
		if !c.x().isStdStream(c.args[0]) {
			return c.g.unsupported(c.pos, "file I/O (os.File other than Stdout/Stderr and temporary files)")
		}
		c.x().writeOutput(c.g, false, s)
		return c.retN(intV(int64(len(s))), Value{})
	})
	funcs := map[string]intrinsicFactory{
		"(*os.File).Write":       write,
		"(*os.File).WriteString": write,
		"os.Getenv":              simple(func(c *icall) ctrl { return c.ret(strV("")) }),
		"os.LookupEnv":           simple(func(c *icall) ctrl { return c.retN(strV(""), boolV(false)) }),
		"os.Exit": simple(func(c *icall) ctrl {
			return c.g.fatal("os.Exit(" + strconv.FormatInt(c.args[0].Int(), 10) + ") called")
		}),
		"os.ReadFile": simple(func(c *icall) ctrl {
			name := c.args[0].Str()
			if clean, ok := c.x().memName(name); ok {
				f, cc, ok := c.memOpen(name, clean)
				if !ok {
					return cc
				}
				return c.retN(bytesToSlice(append([]byte(nil), f.data...)), Value{})
			}
			data, err := os.ReadFile(c.x().resolvePath(name))
			if err != nil {
				return c.retN(Value{}, c.m().osError(err, name))
			}
			return c.retN(bytesToSlice(data), Value{})
		}),
		"os.Open": simple(func(c *icall) ctrl {
			name := c.args[0].Str()
			if clean, ok := c.x().memName(name); ok {
				if c.x().memFS().isDir(clean) {
					if c.fsYield(false) {
						return ctrlYield
					}
					if c.x().memFS().isDir(clean) {
						return c.retN(c.newFileObject(&openFile{name: name, dir: clean}), Value{})
					}
					return c.retN(Value{}, c.m().memErr("open", name, "no such file or directory"))
				}
				f, cc, ok := c.memOpen(name, clean)
				if !ok {
					return cc
				}
				return c.retN(c.newFileObject(&openFile{mem: f, name: name}), Value{})
			}
			f, err := os.Open(c.x().resolvePath(name))
			if err != nil {
				return c.retN(Value{}, c.m().osError(err, name))
			}
			st := c.x().osState()
			st.files = append(st.files, f)
			return c.retN(c.newFileObject(&openFile{f: f, name: name}), Value{})
		}),
		"(*os.File).Read": simple(func(c *icall) ctrl {
			of := c.openFile()
			if of == nil {
				return c.g.unsupported(c.pos, "reading from this *os.File")
			}
			if of.f == nil && c.fsYield(true) {
				return ctrlYield
			}
			switch {
			case of.f == nil && !of.closed && of.dir != "":
				return c.retN(intV(0), c.m().memErr("read", of.name, "is a directory"))
			case of.f == nil && !of.closed && of.noRead:
				return c.retN(intV(0), c.m().memErr("read", of.name, "bad file descriptor"))
			}
			buf := make([]byte, c.args[1].sliceLen())
			n, err := of.read(buf)
			if n > 0 {
				cells := c.args[1].obj().cells[c.args[1].off():]
				for i := range n {
					cells[i] = Value{a: uint64(buf[i])}
				}
			}
			return c.retN(intV(int64(n)), c.m().osError(err, of.name))
		}),
		"(*os.File).Close": simple(func(c *icall) ctrl {
			if of := c.openFile(); of != nil {
				if of.f == nil {
					if c.fsYield(true) {
						return ctrlYield
					}
					if of.closed {
						return c.ret(c.m().memErr("close", of.name, "file already closed"))
					}
					of.closed = true
					return c.ret(Value{})
				}
				return c.ret(c.m().osError(of.f.Close(), of.name))
			}
			return c.ret(Value{})
		}),
		"(*os.File).Name": simple(func(c *icall) ctrl {
			if of := c.openFile(); of != nil {
				return c.ret(strV(of.name))
			}
			return c.ret(Value{})
		}),
	}
	for _, fs := range []map[string]intrinsicFactory{osFSFuncs(), osStatFuncs()} {
		for k, f := range fs {
			funcs[k] = f
		}
	}
	// io/ioutil's functions are os's
	for _, name := range []string{"ReadFile", "WriteFile", "TempDir", "TempFile"} {
		osName := map[string]string{"TempDir": "MkdirTemp", "TempFile": "CreateTemp"}[name]
		if osName == "" {
			osName = name
		}
		funcs["io/ioutil."+name] = funcs["os."+osName]
	}
	globals := sentinelGlobals()
	for k, g := range map[string]globalFactory{
		"os.Stdout": stdStreamGlobal(1),
		"os.Stderr": stdStreamGlobal(2),
		"os.Stdin":  stdStreamGlobal(1),
		"os.Args": func(*machine, *ssa.Global) globalInit {
			return func(x *execution, o *object) {
				so := newObject(1)
				so.cells[0] = strV(x.executable())
				o.cells[0] = sliceV(so, 0, 1, 1)
			}
		},
	} {
		globals[k] = g
	}
	return model{
		funcs:   funcs,
		globals: globals,
		// the host's page size (4096 on linux/amd64)
		natives:  map[string]any{"os.Getpagesize": os.Getpagesize, "syscall.Getpagesize": syscall.Getpagesize},
		slot:     osSlot,
		newState: func(*execution) modelState { return &osState{} },
	}
}

// osState is the os model's per-execution state: the files the
// execution opened, and its in-memory file system of temporary files
// (nil until it makes one).
type osState struct {
	files []*os.File
	fs    *memFS
}

func (x *execution) osState() *osState { return x.modelState(osSlot).(*osState) }

// snapshot refuses: an open file is outside the interpreter's memory.
func (st *osState) snapshot() (modelState, bool) { return nil, false }

// release closes the files.
func (st *osState) release() {
	for _, f := range st.files {
		f.Close()
	}
	st.files = nil
}

// stdStream marks the *os.File objects of os.Stdout (1) and os.Stderr
// (2) in the side table.
type stdStream int

// stdStreamGlobal initializes os.Stdout, os.Stderr or os.Stdin: a fresh
// *os.File marked with its stream.
func stdStreamGlobal(stream stdStream) globalFactory {
	return func(m *machine, g *ssa.Global) globalInit {
		ft := m.rtypeOf(g.Type().(*types.Pointer).Elem()).elem
		return func(x *execution, o *object) {
			f := &object{cells: make([]Value, max(1, ft.size))}
			x.setSide(f, -1, stream)
			o.cells[0] = ptrV(f, 0)
		}
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

// writeOutput appends program output (stdout and stderr are merged).
func (x *execution) writeOutput(g *goroutine, stderr bool, s string) {
	x.out.WriteString(s)
}

// openFile is the model state of an *os.File: a real file opened for
// reading (f), or a file of the in-memory file system (mem), read and
// written at off, writable if write.
type openFile struct {
	f      *os.File
	name   string
	mem    *memFile
	off    int64
	write  bool
	closed bool
	// noRead: opened write-only; append: writes go to the end
	noRead, append bool
	// dir is the clean name of an open directory of the in-memory file
	// system (mem is nil then), dirPos the entries ReadDir returned.
	dir    string
	dirPos int
}

// read reads from the file at its offset.
func (of *openFile) read(buf []byte) (int, error) {
	if of.mem == nil {
		return of.f.Read(buf)
	}
	if of.closed {
		return 0, &iofs.PathError{Op: "read", Path: of.name, Err: os.ErrClosed}
	}
	if of.off >= int64(len(of.mem.data)) {
		if len(buf) == 0 {
			return 0, nil
		}
		return 0, io.EOF
	}
	n := copy(buf, of.mem.data[of.off:])
	of.off += int64(n)
	return n, nil
}

// writeAt writes s to the in-memory file at its offset.
func (of *openFile) writeAt(s string) {
	end := of.off + int64(len(s))
	if end > int64(len(of.mem.data)) {
		of.mem.data = append(of.mem.data, make([]byte, end-int64(len(of.mem.data)))...)
	}
	copy(of.mem.data[of.off:], s)
	of.off = end
}

// pkgDir is the directory of the entry's package.
func (x *execution) pkgDir() string {
	pos := x.m.prog.Fset.Position(x.entry.Fn.Pos())
	return filepath.Dir(pos.Filename)
}

func (x *execution) resolvePath(name string) string {
	if filepath.IsAbs(name) {
		return name
	}
	return filepath.Join(x.pkgDir(), name)
}

func (c *icall) openFile() *openFile { return recvSide[openFile](c) }
