package explore

import (
	"errors"
	"io"
	"os"
	"path/filepath"

	"golang.org/x/tools/go/ssa"
)

// Read-only file access (test fixtures, golden files): os.ReadFile,
// os.Open and (*os.File).Read/Close/Name read the real file system, which
// is deterministic as long as the files do not change during the
// exploration. Relative names are resolved against the directory of the
// entry's package (as go test runs tests there). Writing files, creating
// directories and the like stay unsupported: their effects would outlive
// an execution.

// openFile is the model state of an *os.File opened for reading.
type openFile struct {
	f    *os.File
	name string
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

// osError converts a native error of a file operation: io.EOF becomes the
// interpreter's io.EOF; other errors become plain error values with the
// same message (errors.Is(err, fs.ErrNotExist) does not hold for them).
func (m *machine) osError(err error) Value {
	if err == nil {
		return Value{}
	}
	if errors.Is(err, io.EOF) {
		if g := m.globalByName("io", "EOF"); g != nil {
			return m.global(g).cells[0]
		}
	}
	return m.newErrorString(err.Error())
}

func osFileIntrinsics() map[string]intrinsicFactory {
	return map[string]intrinsicFactory{
		"os.ReadFile": simple(func(c *icall) ctrl {
			data, err := os.ReadFile(c.x().resolvePath(c.args[0].Str()))
			if err != nil {
				return c.retN(Value{}, c.m().osError(err))
			}
			return c.retN(bytesToSlice(data), Value{})
		}),
		"os.Open": func(m *machine, fn *ssa.Function) intrinsic {
			ft := m.rtypeOf(m.named("os", "File"))
			return func(c *icall) ctrl {
				name := c.args[0].Str()
				f, err := os.Open(c.x().resolvePath(name))
				if err != nil {
					return c.retN(Value{}, c.m().osError(err))
				}
				o := &object{cells: make([]Value, max(1, ft.size)), id: c.g.newID(), owner: c.g.key}
				x := c.x()
				if x.side == nil {
					x.side = map[objKey]any{}
				}
				x.side[objKeyOf(o, -1)] = &openFile{f: f, name: name}
				x.files = append(x.files, f)
				return c.retN(ptrV(o, 0), Value{})
			}
		},
		"(*os.File).Read": simple(func(c *icall) ctrl {
			of := c.openFile()
			if of == nil {
				return c.g.unsupported(c.pos, "reading from this *os.File")
			}
			buf := make([]byte, c.args[1].sliceLen())
			n, err := of.f.Read(buf)
			if n > 0 {
				cells := c.args[1].obj().cells[c.args[1].off():]
				for i := range n {
					cells[i] = Value{a: uint64(buf[i])}
				}
			}
			return c.retN(intV(int64(n)), c.m().osError(err))
		}),
		"(*os.File).Close": simple(func(c *icall) ctrl {
			if of := c.openFile(); of != nil {
				return c.ret(c.m().osError(of.f.Close()))
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
}

func (c *icall) openFile() *openFile {
	if c.args[0].p == nil {
		return nil
	}
	of, _ := c.x().side[objKeyOf(c.args[0].obj(), -1)].(*openFile)
	return of
}

// closeFiles closes the files an execution opened.
func (x *execution) closeFiles() {
	for _, f := range x.files {
		f.Close()
	}
	x.files = nil
}
