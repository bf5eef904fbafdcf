package explore

import (
	"errors"
	iofs "io/fs"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Temporary files and directories, in memory.
//
// os.MkdirTemp, os.CreateTemp (and io/ioutil's TempDir and TempFile, which
// call them) and t.TempDir create their directories and files in an
// in-memory file system of the execution (memFS): nothing is written to
// the disk, and the file system disappears with the execution. Inside
// its directories, os.WriteFile, os.Create, os.Mkdir, os.MkdirAll,
// os.Remove and os.RemoveAll work, and os.ReadFile, os.Open and the
// *os.File methods Read, Write, WriteString, Seek, Sync, Close and Name
// read and write its files (metadata, directories, os.OpenFile,
// os.Rename, os.Chmod and the walks are model_osstat.go's). Writing
// anywhere else stays unsupported.
//
// Names are deterministic, so that output and replay tokens do not
// depend on the run: os.TempDir is "/tmp" (the environment is empty);
// a temporary name replaces the pattern's last "*" (or is appended to
// it) by the number of temporary names the execution made so far,
// counting from 1: os.MkdirTemp("", "x*") is "/tmp/x1". t.TempDir
// returns "<dir>/001", "<dir>/002"… as testing does, where <dir> is
// os.MkdirTemp("", <the test's name>) made at its first call.

// Each operation on the in-memory file system is a scheduling point: an
// access (a read or a write) of one pseudo-object, memFSObj, so that the
// exploration orders the operations of different goroutines as it orders
// their accesses of an atomic variable. (Operations on the real file
// system only read, and commute.)

// memFSObj is the pseudo-object the operations on the in-memory file
// system access.
var memFSObj = evKey{id: 1<<63 | 0xf5f5, off: -5}

// fsYield parks the calling goroutine at its file system operation (a
// write if write); it reports true if the intrinsic must return
// ctrlYield, false once the operation was granted.
func (c *icall) fsYield(write bool) bool { return c.fsYieldAs(write, c.name()) }

// fsYieldAs is fsYield with the interleaving's label for the operation.
func (c *icall) fsYieldAs(write bool, label string) bool {
	return c.yield(pendingOp{kind: opAtomic, key: memFSObj, write: write, label: label})
}

// memChange starts an operation that changes the in-memory file system at
// the path of the call's first argument (os.WriteFile, Create, Mkdir…):
// clean is that path cleaned. ok is false when the call is over already:
// cc yields (the scheduling point) or reports the path outside the
// temporary directories as unsupported.
func (c *icall) memChange() (name, clean string, cc ctrl, ok bool) {
	return c.memChangeAt(permFile)
}

// Which permissions a change of the in-memory file system needs.
const (
	permNone = iota // none (os.Chmod)
	permDir         // its directory's (os.Remove: removing a read-only file works)
	permFile        // its directory's and, for an existing file, the file's
)

// memChangeAt is memChange, with the permissions the change needs (a
// change they deny is unsupported, see memDenied).
func (c *icall) memChangeAt(perms int) (name, clean string, cc ctrl, ok bool) {
	name = c.args[0].Str()
	clean, ok = c.x().memName(name)
	if !ok {
		return name, "", c.g.unsupported(c.pos, "%s(%q): files are written only in temporary directories", c.name(), name), false
	}
	if c.fsYield(true) {
		return name, clean, ctrlYield, false
	}
	if perms != permNone {
		if cc, denied := c.memDeniedAt(name, clean, true, perms == permFile); denied {
			return name, clean, cc, false
		}
	}
	return name, clean, ctrlNext, true
}

// memDenied reports an access (a write if write) of the in-memory entry
// clean that its permissions or its directory's deny as unsupported:
// whether Go's call fails depends on the user running the test (root
// ignores permissions), which the explorer does not model.
func (c *icall) memDenied(name, clean string, write bool) (ctrl, bool) {
	return c.memDeniedAt(name, clean, write, true)
}

// memDeniedAt is memDenied; unless file, only the directory's
// permissions count.
func (c *icall) memDeniedAt(name, clean string, write, file bool) (ctrl, bool) {
	if !c.x().memFS().denied(clean, write, file) {
		return ctrlNext, false
	}
	what := "reading"
	if write {
		what = "changing"
	}
	return c.g.unsupported(c.pos, "%s(%q): %s a file its permissions (or its directory's) deny: whether it fails depends on the user, which is not modelled", c.name(), name, what), true
}

// memTemp starts os.MkdirTemp or os.CreateTemp (op names the operation in
// errors, zero is the first result returned with one): name is a new name
// in the directory and with the pattern of the call's arguments. ok is
// false when the call is over already (cc).
func (c *icall) memTemp(op string, zero Value) (name string, cc ctrl, ok bool) {
	dir, pattern := c.args[0].Str(), c.args[1].Str()
	if !c.x().tempDirOK(dir) {
		if _, err := os.Stat(c.x().resolvePath(dir)); errors.Is(err, os.ErrNotExist) && !strings.ContainsRune(pattern, os.PathSeparator) {
			// a missing directory of the real file system: Go's error
			return "", c.retN(zero, c.memTempNotExist(op, dir, pattern)), false
		}
		return "", c.g.unsupported(c.pos, "%s in %q: files are made only in temporary directories", c.name(), dir), false
	}
	if c.fsYield(true) {
		return "", ctrlYield, false
	}
	name, msg, ok := c.x().tempName(dir, pattern)
	if !ok {
		return "", c.g.unsupported(c.pos, "%s in %q: files are made only in temporary directories", c.name(), dir), false
	}
	if msg == "no such file or directory" {
		return "", c.retN(zero, c.memTempNotExist(op, dir, pattern)), false
	}
	if msg != "" {
		return "", c.retN(zero, c.m().memErr(op, pattern, msg)), false
	}
	return name, ctrlNext, true
}

// memTempNotExist is the error of os.MkdirTemp (op "mkdirtemp") or
// os.CreateTemp in the missing directory dir, as Go's: the error of
// os.Stat(dir), or of opening the new name.
func (c *icall) memTempNotExist(op, dir, pattern string) Value {
	const msg = "no such file or directory"
	if op == "mkdirtemp" {
		return c.m().memErr("stat", dir, msg)
	}
	prefix, suffix := splitPattern(pattern)
	return c.m().memErr("open", filepath.Join(dir, prefix+"1"+suffix), msg)
}

// memOpen opens the in-memory file clean for reading (os.ReadFile,
// os.Open of name): ok is false when the call is over already (cc: it
// yields, or returns the error of a missing file).
func (c *icall) memOpen(name, clean string) (f *memFile, cc ctrl, ok bool) {
	if c.fsYield(false) {
		return nil, ctrlYield, false
	}
	if f = c.x().memFS().files[clean]; f == nil {
		return nil, c.retN(Value{}, c.m().memErr("open", name, "no such file or directory")), false
	}
	if cc, denied := c.memDenied(name, clean, false); denied {
		return nil, cc, false
	}
	return f, ctrlNext, true
}

// createError is the error of creating the file clean (os.Create,
// os.WriteFile of name), or "" if it can be created.
func (fs *memFS) createError(clean string) string {
	switch {
	case fs.dirs[clean]:
		return "is a directory"
	case !fs.isDir(filepath.Dir(clean)):
		return "no such file or directory"
	}
	return ""
}

// tempRoot is os.TempDir in an execution.
const tempRoot = "/tmp"

// memFS is an execution's in-memory file system: its directories and
// files by clean absolute name. Every entry is, or lies under, one of
// roots; every parent of an entry other than tempRoot is in dirs.
type memFS struct {
	dirs  map[string]bool
	files map[string]*memFile
	temps int             // temporary names made
	roots map[string]bool // the temporary names made in tempRoot
	// modes are the permissions of the entries that have one other than
	// the default (model_osstat.go)
	modes map[string]iofs.FileMode
}

// memFile is the content of an in-memory file.
type memFile struct{ data []byte }

// memFS returns the execution's in-memory file system, creating it.
func (x *execution) memFS() *memFS {
	st := x.osState()
	if st.fs == nil {
		st.fs = &memFS{dirs: map[string]bool{}, files: map[string]*memFile{}, roots: map[string]bool{}}
	}
	return st.fs
}

// memName returns the clean absolute name of name, and whether it belongs
// to the in-memory file system: it is a temporary name the execution made,
// or lies under one (even if it was removed since).
func (x *execution) memName(name string) (string, bool) {
	st := x.osState()
	if st.fs == nil || !filepath.IsAbs(name) {
		return name, false
	}
	clean := filepath.Clean(name)
	for d := clean; d != tempRoot && d != "/" && d != "."; d = filepath.Dir(d) {
		if st.fs.roots[d] {
			return clean, true
		}
	}
	return clean, false
}

// tempDirOK reports whether dir is a directory in which temporary names
// are made: "", tempRoot, or a name of the in-memory file system.
func (x *execution) tempDirOK(dir string) bool {
	if dir == "" || filepath.Clean(dir) == tempRoot {
		return true
	}
	_, ok := x.memName(dir)
	return ok
}

// tempName makes a temporary name in dir ("" is tempRoot) from pattern,
// as os.MkdirTemp and os.CreateTemp do; ok is false if dir is neither
// tempRoot nor a directory of the in-memory file system.
func (x *execution) tempName(dir, pattern string) (name string, errMsg string, ok bool) {
	fs := x.memFS()
	if dir == "" {
		dir = tempRoot
	}
	dir = filepath.Clean(dir)
	if !x.tempDirOK(dir) {
		return "", "", false
	}
	if !fs.isDir(dir) {
		return "", "no such file or directory", true
	}
	if strings.ContainsRune(pattern, os.PathSeparator) {
		return "", "pattern contains path separator", true
	}
	prefix, suffix := splitPattern(pattern)
	for {
		fs.temps++
		name = filepath.Join(dir, prefix+strconv.Itoa(fs.temps)+suffix)
		if !fs.dirs[name] && fs.files[name] == nil && !fs.roots[name] {
			if dir == tempRoot {
				fs.roots[name] = true
			}
			return name, "", true
		}
	}
}

// splitPattern splits the pattern of a temporary name at its last "*"
// (the whole pattern is the prefix if it has none).
func splitPattern(pattern string) (prefix, suffix string) {
	if i := strings.LastIndexByte(pattern, '*'); i >= 0 {
		return pattern[:i], pattern[i+1:]
	}
	return pattern, ""
}

// newFileObject returns a fresh *os.File whose side state is of.
func (c *icall) newFileObject(of *openFile) Value { return c.newSidePtr("os", "File", of) }

// isDir reports whether name is a directory: tempRoot or one of dirs.
func (fs *memFS) isDir(name string) bool { return name == tempRoot || fs.dirs[name] }

// removeAll removes name and everything under it.
func (fs *memFS) removeAll(name string) {
	delete(fs.dirs, name)
	delete(fs.files, name)
	prefix := name + string(os.PathSeparator)
	for d := range fs.dirs {
		if strings.HasPrefix(d, prefix) {
			delete(fs.dirs, d)
		}
	}
	for f := range fs.files {
		if strings.HasPrefix(f, prefix) {
			delete(fs.files, f)
		}
	}
}

// hasChildren reports whether the directory name holds any entry.
func (fs *memFS) hasChildren(name string) bool {
	for d := range fs.dirs {
		if filepath.Dir(d) == name {
			return true
		}
	}
	for f := range fs.files {
		if filepath.Dir(f) == name {
			return true
		}
	}
	return false
}

// name is the called function's name ("os.WriteFile").
func (c *icall) name() string {
	if c.fn != nil && c.fn.fn != nil {
		return c.fn.fn.String()
	}
	return "file operation"
}

// tempDirPattern is the pattern t.TempDir gives os.MkdirTemp: the test's
// name without the characters testing drops, at most 64 bytes.
func tempDirPattern(name string) string {
	const allowed = "!#$%&()+,-.=@^_{}~ "
	p := strings.Map(func(r rune) rune {
		if r < utf8.RuneSelf {
			if '0' <= r && r <= '9' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || strings.ContainsRune(allowed, r) {
				return r
			}
		} else if unicode.IsLetter(r) || unicode.IsNumber(r) {
			return r
		}
		return -1
	}, name)
	if len(p) > 64 {
		p = p[:64]
	}
	return p
}

// osFSFuncs returns the intrinsics of the in-memory file system and of
// os.Executable.
func osFSFuncs() map[string]intrinsicFactory {
	return map[string]intrinsicFactory{
		"os.TempDir": simple(func(c *icall) ctrl { return c.ret(strV(tempRoot)) }),
		"os.Executable": simple(func(c *icall) ctrl {
			return c.retN(strV(c.x().executable()), Value{})
		}),
		"os.MkdirTemp": simple(func(c *icall) ctrl {
			name, cc, ok := c.memTemp("mkdirtemp", strV(""))
			if !ok {
				return cc
			}
			fs := c.x().memFS()
			fs.dirs[name] = true
			fs.setMode(name, 0o700)
			return c.retN(strV(name), Value{})
		}),
		"os.CreateTemp": simple(func(c *icall) ctrl {
			name, cc, ok := c.memTemp("createtemp", Value{})
			if !ok {
				return cc
			}
			f := &memFile{}
			fs := c.x().memFS()
			fs.files[name] = f
			fs.setMode(name, 0o600)
			return c.retN(c.newFileObject(&openFile{mem: f, name: name, write: true}), Value{})
		}),
		"os.WriteFile": simple(func(c *icall) ctrl {
			name, clean, cc, ok := c.memChange()
			if !ok {
				return cc
			}
			fs := c.x().memFS()
			if msg := fs.createError(clean); msg != "" {
				return c.ret(c.m().memErr("open", name, msg))
			}
			if fs.files[clean] == nil {
				fs.setMode(clean, iofs.FileMode(c.args[2].Uint()))
			}
			fs.files[clean] = &memFile{data: []byte(sliceString(c.args[1]))}
			return c.ret(Value{})
		}),
		"os.Create": simple(func(c *icall) ctrl {
			name, clean, cc, ok := c.memChange()
			if !ok {
				return cc
			}
			fs := c.x().memFS()
			if msg := fs.createError(clean); msg != "" {
				return c.retN(Value{}, c.m().memErr("open", name, msg))
			}
			f := &memFile{}
			fs.files[clean] = f
			return c.retN(c.newFileObject(&openFile{mem: f, name: name, write: true}), Value{})
		}),
		"os.Mkdir": simple(func(c *icall) ctrl {
			name, clean, cc, ok := c.memChange()
			if !ok {
				return cc
			}
			fs := c.x().memFS()
			switch {
			case fs.dirs[clean] || fs.files[clean] != nil:
				return c.ret(c.m().memErr("mkdir", name, "file exists"))
			case !fs.isDir(filepath.Dir(clean)):
				return c.ret(c.m().memErr("mkdir", name, "no such file or directory"))
			}
			fs.dirs[clean] = true
			fs.setMode(clean, iofs.FileMode(c.args[1].Uint()))
			return c.ret(Value{})
		}),
		"os.MkdirAll": simple(func(c *icall) ctrl {
			_, clean, cc, ok := c.memChange()
			if !ok {
				return cc
			}
			fs := c.x().memFS()
			var todo []string
			for d := clean; !fs.isDir(d); d = filepath.Dir(d) {
				if fs.files[d] != nil {
					return c.ret(c.m().memErr("mkdir", d, "not a directory"))
				}
				todo = append(todo, d)
			}
			for _, d := range todo {
				fs.dirs[d] = true
				fs.setMode(d, iofs.FileMode(c.args[1].Uint()))
			}
			return c.ret(Value{})
		}),
		"os.Remove": simple(func(c *icall) ctrl {
			name, clean, cc, ok := c.memChangeAt(permDir)
			if !ok {
				return cc
			}
			x := c.x()
			fs := x.memFS()
			switch {
			case fs.files[clean] != nil:
				delete(fs.files, clean)
			case fs.dirs[clean] && fs.hasChildren(clean):
				return c.ret(c.m().memErr("remove", name, "directory not empty"))
			case fs.dirs[clean]:
				delete(fs.dirs, clean)
			default:
				return c.ret(c.m().memErr("remove", name, "no such file or directory"))
			}
			return c.ret(Value{})
		}),
		"os.RemoveAll": simple(func(c *icall) ctrl {
			_, clean, cc, ok := c.memChangeAt(permDir)
			if !ok {
				return cc
			}
			c.x().memFS().removeAll(clean)
			return c.ret(Value{})
		}),
		"(*os.File).Sync": simple(func(c *icall) ctrl {
			of := c.openFile()
			if of == nil || of.mem == nil {
				return c.g.unsupported(c.pos, "syncing this *os.File")
			}
			if of.closed {
				return c.ret(c.m().memErr("sync", of.name, "file already closed"))
			}
			return c.ret(Value{})
		}),
		"(*os.File).Seek": simple(func(c *icall) ctrl {
			of := c.openFile()
			if of == nil || of.mem == nil {
				return c.g.unsupported(c.pos, "seeking in this *os.File")
			}
			if c.fsYield(true) {
				return ctrlYield
			}
			if of.closed {
				return c.retN(intV(0), c.m().memErr("seek", of.name, "file already closed"))
			}
			off := c.args[1].Int()
			switch c.args[2].Int() {
			case 1:
				off += of.off
			case 2:
				off += int64(len(of.mem.data))
			}
			if off < 0 {
				return c.retN(intV(0), c.m().memErr("seek", of.name, "invalid argument"))
			}
			of.off = off
			return c.retN(intV(off), Value{})
		}),
	}
}

// testTempDir is t.TempDir: a new directory of the test's temporary
// directory, made at its first call.
func testTempDir() intrinsicFactory {
	return simple(func(c *icall) ctrl {
		ts := c.testOf()
		if ts == nil {
			return c.nilPanic()
		}
		if c.fsYieldAs(true, "t.TempDir") {
			return ctrlYield
		}
		x := c.x()
		fs := x.memFS()
		if ts.tempDir == "" {
			// cannot fail: tempRoot is a directory and the pattern has
			// no separator
			name, _, _ := x.tempName("", tempDirPattern(ts.fullName()))
			fs.dirs[name] = true
			ts.tempDir = name
		}
		ts.tempSeq++
		dir := filepath.Join(ts.tempDir, strconv.Itoa(1000 + ts.tempSeq)[1:])
		fs.dirs[dir] = true
		return c.ret(strV(dir))
	})
}

// executable is os.Executable in an execution: the test binary go test
// would build for the entry's package, "/tmp/go-build/b001/<elem>.test"
// where <elem> is the last element of the package's path.
func (x *execution) executable() string {
	elem := "main"
	if fn := x.entry.Fn; fn != nil && fn.Pkg != nil {
		elem = strings.TrimSuffix(path.Base(fn.Pkg.Pkg.Path()), "_test")
	}
	return tempRoot + "/go-build/b001/" + elem + ".test"
}
