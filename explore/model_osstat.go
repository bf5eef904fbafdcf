package explore

import (
	"io"
	iofs "io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"
)

// File metadata, directories, os.OpenFile, os.Rename, os.Chmod and
// filepath's walks.
//
// os.Stat, os.Lstat and (*os.File).Stat return an *os.fileStat whose
// methods are intrinsics reading a native statInfo; os.ReadDir and
// (*os.File).ReadDir return *os.unixDirent entries (sorted by name, as
// os.ReadDir sorts them). In the in-memory file system, a file's size is
// its length, its mode the permission it was created with (less the
// umask 022) or set by os.Chmod, a directory's size is 4096, and every
// modification time is memModTime, so that they do not depend on the
// run. On the real file system (read only) they are the host's.
//
// filepath.WalkDir and filepath.Walk walk as Go's do (lexical order,
// fs.SkipDir and fs.SkipAll), calling the walk function synchronously;
// each directory read and each Lstat of the in-memory file system is a
// scheduling point, as the os calls of Go's walk are.

// memModTime is the modification time of every entry of the in-memory
// file system.
var memModTime = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)

// defaultUmask is the umask the in-memory file system applies to the
// permissions of new files and directories.
const defaultUmask = 0o022

// statInfo is the native state of an *os.fileStat (a FileInfo) and of an
// *os.unixDirent (a DirEntry).
type statInfo struct {
	name    string
	size    int64
	mode    iofs.FileMode
	modTime time.Time
}

// nativeStat converts the host's FileInfo.
func nativeStat(fi iofs.FileInfo) *statInfo {
	return &statInfo{name: fi.Name(), size: fi.Size(), mode: fi.Mode(), modTime: fi.ModTime().UTC()}
}

// nativeStats converts the host's directory entries, less those removed
// since they were read.
func nativeStats(des []iofs.DirEntry) []*statInfo {
	var out []*statInfo
	for _, de := range des {
		if fi, err := de.Info(); err == nil {
			out = append(out, nativeStat(fi))
		}
	}
	return out
}

// modeOf is the mode of the entry clean of the in-memory file system.
func (fs *memFS) modeOf(clean string) iofs.FileMode {
	mode, ok := fs.modes[clean]
	if fs.isDir(clean) {
		if !ok {
			mode = 0o755
		}
		return mode | os.ModeDir
	}
	if !ok {
		mode = 0o644
	}
	return mode
}

// denied reports whether the permissions of the entry clean (if it is a
// file) or of its directory deny an access by their owner (a write if
// write): a file (if file) needs its read or write bit, a directory its
// search bit, and its write bit too for a change.
func (fs *memFS) denied(clean string, write, file bool) bool {
	if mode, ok := fs.modes[clean]; ok && file && fs.files[clean] != nil {
		if write && mode&0o200 == 0 || !write && mode&0o400 == 0 {
			return true
		}
	}
	if mode, ok := fs.modes[filepath.Dir(clean)]; ok {
		if mode&0o100 == 0 || write && mode&0o200 == 0 {
			return true
		}
	}
	return false
}

// setMode records the permission of a new entry (perm less the umask).
func (fs *memFS) setMode(clean string, perm iofs.FileMode) {
	if fs.modes == nil {
		fs.modes = map[string]iofs.FileMode{}
	}
	fs.modes[clean] = perm.Perm() &^ defaultUmask
}

// stat describes the entry clean of the in-memory file system (name is
// the FileInfo's Name), or returns nil if there is none.
func (fs *memFS) stat(clean, name string) *statInfo {
	switch {
	case fs.isDir(clean):
		return &statInfo{name: name, size: 4096, mode: fs.modeOf(clean), modTime: memModTime}
	case fs.files[clean] != nil:
		return &statInfo{name: name, size: int64(len(fs.files[clean].data)), mode: fs.modeOf(clean), modTime: memModTime}
	}
	return nil
}

// children returns the entries of the directory clean, sorted by name.
func (fs *memFS) children(clean string) []*statInfo {
	var out []*statInfo
	for d := range fs.dirs {
		if filepath.Dir(d) == clean && d != clean {
			out = append(out, fs.stat(d, filepath.Base(d)))
		}
	}
	for f := range fs.files {
		if filepath.Dir(f) == clean {
			out = append(out, fs.stat(f, filepath.Base(f)))
		}
	}
	slices.SortFunc(out, func(a, b *statInfo) int { return strings.Compare(a.name, b.name) })
	return out
}

// fileInfoV returns a FileInfo value (an *os.fileStat) for info.
func (c *icall) fileInfoV(info *statInfo) Value {
	return c.sideObject("os", "fileStat", info)
}

// dirEntryV returns a DirEntry value (an *os.unixDirent) for info.
func (c *icall) dirEntryV(info *statInfo) Value {
	return c.sideObject("os", "unixDirent", info)
}

// sideObject returns a fresh *pkg.typ as an interface value whose model
// state is v.
func (c *icall) sideObject(pkg, typ string, v any) Value {
	return ifaceV(c.m().ptrTo(pkg, typ), c.newSidePtr(pkg, typ, v))
}

// newSidePtr returns a fresh pointer to a zero pkg.typ whose model state
// is v.
func (c *icall) newSidePtr(pkg, typ string, v any) Value {
	rt := c.m().rtypeOf(c.m().named(pkg, typ))
	o := &object{cells: make([]Value, max(1, rt.size)), id: c.g.newID(), owner: c.g.key}
	c.x().setSide(o, -1, v)
	return ptrV(o, 0)
}

// statArg returns the statInfo of the receiver (nil: nil receiver).
func (c *icall) statArg() *statInfo { return recvSide[statInfo](c) }

// statMethod is an intrinsic of a method of *os.fileStat or
// *os.unixDirent.
func statMethod(f func(c *icall, si *statInfo) ctrl) intrinsicFactory {
	return simple(func(c *icall) ctrl {
		si := c.statArg()
		if si == nil {
			return c.nilPanic()
		}
		return f(c, si)
	})
}

// timeV is a time.Time value of the interpreter (without monotonic
// reading; UTC).
func (c *icall) timeV(t time.Time) Value {
	// time.Time is {wall uint64; ext int64; loc *Location}: without a
	// monotonic reading, wall holds the nanoseconds and ext the seconds
	// since January 1, year 1.
	const unixToInternal = (1969*365 + 1969/4 - 1969/100 + 1969/400) * 86400
	o := newObject(3)
	o.cells[0] = uintV(uint64(t.Nanosecond()))
	o.cells[1] = intV(t.Unix() + unixToInternal)
	return ptrV(o, 0)
}

// memYieldNested is a read of the in-memory file system by an intrinsic
// that runs on a coroutine (a walk): it parks the goroutine there until
// the scheduler grants the read.
func (c *icall) memYieldNested(label string) ctrl {
	g := c.g
	g.pend = pendingOp{kind: opAtomic, key: memFSObj, label: label, pos: c.pos}
	if !g.pend.pos.IsValid() {
		g.pend.pos = g.sourcePos()
	}
	if cc := g.waitNested(false); cc != ctrlNext {
		return cc
	}
	g.granted = false
	return ctrlNext
}

// lstat is os.Lstat for intrinsics: the entry of name, or an error value.
// nested tells whether c runs on a coroutine (its scheduling point is
// then memYieldNested's); otherwise the caller has yielded already.
func (c *icall) lstat(name string, nested bool) (*statInfo, Value, ctrl) {
	x := c.x()
	if clean, ok := x.memName(name); ok {
		if nested {
			if cc := c.memYieldNested("os.Lstat"); cc != ctrlNext {
				return nil, Value{}, cc
			}
		}
		if si := x.memFS().stat(clean, filepath.Base(clean)); si != nil {
			return si, Value{}, ctrlNext
		}
		return nil, c.m().memErr("lstat", name, "no such file or directory"), ctrlNext
	}
	fi, err := os.Lstat(x.resolvePath(name))
	if err != nil {
		return nil, c.m().osError(err, name), ctrlNext
	}
	return nativeStat(fi), Value{}, ctrlNext
}

// readDir is os.ReadDir for intrinsics (see lstat).
func (c *icall) readDir(name string, nested bool) ([]*statInfo, Value, ctrl) {
	x := c.x()
	if clean, ok := x.memName(name); ok {
		if nested {
			if cc := c.memYieldNested("os.ReadDir"); cc != ctrlNext {
				return nil, Value{}, cc
			}
		}
		fs := x.memFS()
		switch {
		case fs.files[clean] != nil:
			return nil, c.m().memErr("readdirent", name, "not a directory"), ctrlNext
		case !fs.isDir(clean):
			return nil, c.m().memErr("open", name, "no such file or directory"), ctrlNext
		}
		return fs.children(clean), Value{}, ctrlNext
	}
	des, err := os.ReadDir(x.resolvePath(name))
	out := nativeStats(des)
	if err != nil {
		return out, c.m().osError(err, ""), ctrlNext
	}
	return out, Value{}, ctrlNext
}

// statsSlice returns the entries as a []iofs.DirEntry value.
func (c *icall) dirEntries(infos []*statInfo) Value {
	if len(infos) == 0 {
		return Value{}
	}
	o := newObject(len(infos))
	for i, si := range infos {
		o.cells[i] = c.dirEntryV(si)
	}
	return sliceV(o, 0, len(infos), len(infos))
}

// osStatFuncs returns the intrinsics of file metadata, directories,
// os.OpenFile, os.Rename, os.Chmod and filepath's walks.
func osStatFuncs() map[string]intrinsicFactory {
	stat := func(op string) intrinsicFactory {
		return simple(func(c *icall) ctrl {
			name := c.args[0].Str()
			x := c.x()
			if clean, ok := x.memName(name); ok {
				if c.fsYield(false) {
					return ctrlYield
				}
				if si := x.memFS().stat(clean, filepath.Base(clean)); si != nil {
					return c.retN(c.fileInfoV(si), Value{})
				}
				return c.retN(Value{}, c.m().memErr(op, name, "no such file or directory"))
			}
			statf := os.Stat
			if op == "lstat" {
				statf = os.Lstat
			}
			fi, err := statf(x.resolvePath(name))
			if err != nil {
				return c.retN(Value{}, c.m().osError(err, name))
			}
			return c.retN(c.fileInfoV(nativeStat(fi)), Value{})
		})
	}
	funcs := map[string]intrinsicFactory{
		"os.Stat":  stat("stat"),
		"os.Lstat": stat("lstat"),
		"os.ReadDir": simple(func(c *icall) ctrl {
			name := c.args[0].Str()
			if _, ok := c.x().memName(name); ok && c.fsYield(false) {
				return ctrlYield
			}
			infos, err, _ := c.readDir(name, false)
			return c.retN(c.dirEntries(infos), err)
		}),
		"io/ioutil.ReadDir": simple(func(c *icall) ctrl {
			name := c.args[0].Str()
			if _, ok := c.x().memName(name); ok && c.fsYield(false) {
				return ctrlYield
			}
			infos, err, _ := c.readDir(name, false)
			if err.p != nil {
				return c.retN(Value{}, err)
			}
			o := newObject(max(1, len(infos)))
			for i, si := range infos {
				o.cells[i] = c.fileInfoV(si)
			}
			return c.retN(sliceV(o, 0, len(infos), len(infos)), Value{})
		}),
		"os.OpenFile": simple(osOpenFile),
		"os.Rename":   simple(osRename),
		"os.Chmod": simple(func(c *icall) ctrl {
			name, clean, cc, ok := c.memChangeAt(permNone)
			if !ok {
				return cc
			}
			fs := c.x().memFS()
			if fs.stat(clean, "") == nil {
				return c.ret(c.m().memErr("chmod", name, "no such file or directory"))
			}
			if fs.modes == nil {
				fs.modes = map[string]iofs.FileMode{}
			}
			fs.modes[clean] = iofs.FileMode(c.args[1].Uint()).Perm()
			return c.ret(Value{})
		}),
		"(*os.File).Stat": simple(func(c *icall) ctrl {
			of := c.openFile()
			if of == nil {
				return c.g.unsupported(c.pos, "%s of this *os.File", c.name())
			}
			if of.f != nil {
				fi, err := of.f.Stat()
				if err != nil {
					return c.retN(Value{}, c.m().osError(err, ""))
				}
				return c.retN(c.fileInfoV(nativeStat(fi)), Value{})
			}
			if c.fsYield(false) {
				return ctrlYield
			}
			if of.closed {
				return c.retN(Value{}, c.m().memErr("stat", of.name, "file already closed"))
			}
			clean, _ := c.x().memName(of.name)
			si := c.x().memFS().stat(clean, filepath.Base(clean))
			if si == nil && of.mem != nil {
				// removed while open: the open file's content
				si = &statInfo{name: filepath.Base(clean), size: int64(len(of.mem.data)), mode: 0o644, modTime: memModTime}
			}
			if si == nil {
				return c.retN(Value{}, c.m().memErr("stat", of.name, "no such file or directory"))
			}
			return c.retN(c.fileInfoV(si), Value{})
		}),
		"(*os.File).ReadDir":      simple(func(c *icall) ctrl { return fileReadDir(c, false) }),
		"(*os.File).Readdirnames": simple(func(c *icall) ctrl { return fileReadDir(c, true) }),

		"(*os.fileStat).Name":  statMethod(func(c *icall, si *statInfo) ctrl { return c.ret(strV(si.name)) }),
		"(*os.fileStat).Size":  statMethod(func(c *icall, si *statInfo) ctrl { return c.ret(intV(si.size)) }),
		"(*os.fileStat).Mode":  statMethod(func(c *icall, si *statInfo) ctrl { return c.ret(uintV(uint64(si.mode))) }),
		"(*os.fileStat).IsDir": statMethod(func(c *icall, si *statInfo) ctrl { return c.ret(boolV(si.mode.IsDir())) }),
		"(*os.fileStat).Sys": statMethod(func(c *icall, si *statInfo) ctrl {
			return c.g.unsupported(c.pos, "%s: the host's stat structure (*syscall.Stat_t) is not modelled", c.name())
		}),
		"(*os.fileStat).ModTime": statMethod(func(c *icall, si *statInfo) ctrl {
			return c.ret(c.timeV(si.modTime))
		}),
		"(*os.unixDirent).Name":   statMethod(func(c *icall, si *statInfo) ctrl { return c.ret(strV(si.name)) }),
		"(*os.unixDirent).IsDir":  statMethod(func(c *icall, si *statInfo) ctrl { return c.ret(boolV(si.mode.IsDir())) }),
		"(*os.unixDirent).Type":   statMethod(func(c *icall, si *statInfo) ctrl { return c.ret(uintV(uint64(si.mode.Type()))) }),
		"(*os.unixDirent).Info":   statMethod(func(c *icall, si *statInfo) ctrl { return c.retN(c.fileInfoV(si), Value{}) }),
		"(*os.unixDirent).String": statMethod(func(c *icall, si *statInfo) ctrl { return c.ret(strV(iofs.FormatDirEntry(dirEntry{si}))) }),

		"(io/fs.FileMode).IsDir":     simple(func(c *icall) ctrl { return c.ret(boolV(iofs.FileMode(c.args[0].a).IsDir())) }),
		"(io/fs.FileMode).IsRegular": simple(func(c *icall) ctrl { return c.ret(boolV(iofs.FileMode(c.args[0].a).IsRegular())) }),
		"(io/fs.FileMode).Perm":      simple(func(c *icall) ctrl { return c.ret(uintV(uint64(iofs.FileMode(c.args[0].a).Perm()))) }),
		"(io/fs.FileMode).Type":      simple(func(c *icall) ctrl { return c.ret(uintV(uint64(iofs.FileMode(c.args[0].a).Type()))) }),
		"(io/fs.FileMode).String":    simple(func(c *icall) ctrl { return c.ret(strV(iofs.FileMode(c.args[0].a).String())) }),

		"path/filepath.WalkDir": nests(simple(walkDirIntr), false),
		"path/filepath.Walk":    nests(simple(walkIntr), false),
	}
	return funcs
}

// dirEntry adapts a statInfo to iofs.DirEntry (for iofs.FormatDirEntry).
type dirEntry struct{ si *statInfo }

func (d dirEntry) Name() string                 { return d.si.name }
func (d dirEntry) IsDir() bool                  { return d.si.mode.IsDir() }
func (d dirEntry) Type() iofs.FileMode          { return d.si.mode.Type() }
func (d dirEntry) Info() (iofs.FileInfo, error) { return nil, nil }

// osOpenFile is os.OpenFile: any flags in the in-memory file system,
// reading only elsewhere.
func osOpenFile(c *icall) ctrl {
	name, flag, perm := c.args[0].Str(), int(c.args[1].Int()), iofs.FileMode(c.args[2].Uint())
	x := c.x()
	acc := flag & (os.O_RDONLY | os.O_WRONLY | os.O_RDWR)
	clean, ok := x.memName(name)
	if !ok {
		if acc != os.O_RDONLY || flag&(os.O_CREATE|os.O_TRUNC|os.O_APPEND) != 0 {
			return c.g.unsupported(c.pos, "%s(%q) for writing: files are written only in temporary directories", c.name(), name)
		}
		f, err := os.Open(x.resolvePath(name))
		if err != nil {
			return c.retN(Value{}, c.m().osError(err, name))
		}
		st := x.osState()
		st.files = append(st.files, f)
		return c.retN(c.newFileObject(&openFile{f: f, name: name}), Value{})
	}
	write := acc != os.O_RDONLY || flag&(os.O_CREATE|os.O_TRUNC) != 0
	if c.fsYield(write) {
		return ctrlYield
	}
	if cc, denied := c.memDenied(name, clean, write); denied {
		return cc
	}
	mfs := x.memFS()
	m := c.m()
	switch {
	case mfs.isDir(clean):
		if acc != os.O_RDONLY || flag&os.O_CREATE != 0 && flag&os.O_EXCL != 0 {
			msg := "is a directory"
			if flag&os.O_EXCL != 0 {
				msg = "file exists"
			}
			return c.retN(Value{}, m.memErr("open", name, msg))
		}
		return c.retN(c.newFileObject(&openFile{name: name, dir: clean}), Value{})
	case mfs.files[clean] != nil:
		if flag&os.O_CREATE != 0 && flag&os.O_EXCL != 0 {
			return c.retN(Value{}, m.memErr("open", name, "file exists"))
		}
		if flag&os.O_TRUNC != 0 && acc != os.O_RDONLY {
			mfs.files[clean].data = nil
		}
	case flag&os.O_CREATE == 0:
		return c.retN(Value{}, m.memErr("open", name, "no such file or directory"))
	default:
		if msg := mfs.createError(clean); msg != "" {
			return c.retN(Value{}, m.memErr("open", name, msg))
		}
		mfs.files[clean] = &memFile{}
		mfs.setMode(clean, perm)
	}
	return c.retN(c.newFileObject(&openFile{
		mem:    mfs.files[clean],
		name:   name,
		write:  acc != os.O_RDONLY,
		noRead: acc == os.O_WRONLY,
		append: flag&os.O_APPEND != 0,
	}), Value{})
}

// osRename is os.Rename inside the in-memory file system (as Linux's
// rename(2)).
func osRename(c *icall) ctrl {
	oldName, newName := c.args[0].Str(), c.args[1].Str()
	x := c.x()
	oldClean, ok1 := x.memName(oldName)
	newClean, ok2 := x.memName(newName)
	if !ok1 || !ok2 {
		return c.g.unsupported(c.pos, "%s(%q, %q): files are renamed only in temporary directories", c.name(), oldName, newName)
	}
	if c.fsYield(true) {
		return ctrlYield
	}
	if cc, denied := c.memDeniedAt(oldName, oldClean, true, false); denied {
		return cc
	}
	if cc, denied := c.memDeniedAt(newName, newClean, true, false); denied {
		return cc
	}
	fs := x.memFS()
	m := c.m()
	fail := func(e syscall.Errno) ctrl { return c.ret(m.linkError("rename", oldName, newName, e)) }
	oldDir := fs.dirs[oldClean]
	switch {
	case !oldDir && fs.files[oldClean] == nil:
		return fail(syscall.ENOENT)
	case !fs.isDir(filepath.Dir(newClean)):
		return fail(syscall.ENOENT)
	case oldClean == newClean:
		return c.ret(Value{})
	case oldDir && strings.HasPrefix(newClean, oldClean+string(os.PathSeparator)):
		return fail(syscall.EINVAL)
	case fs.isDir(newClean) && !oldDir:
		return fail(syscall.EISDIR)
	case fs.isDir(newClean) && fs.hasChildren(newClean):
		return fail(syscall.ENOTEMPTY)
	case fs.files[newClean] != nil && oldDir:
		return fail(syscall.ENOTDIR)
	case fs.roots[oldClean] || newClean == tempRoot:
		return c.g.unsupported(c.pos, "%s(%q, %q): renaming a temporary root", c.name(), oldName, newName)
	}
	fs.rename(oldClean, newClean)
	return c.ret(Value{})
}

// rename moves the entry oldName (and everything under it) to newName,
// replacing newName.
func (fs *memFS) rename(oldName, newName string) {
	delete(fs.dirs, newName)
	delete(fs.files, newName)
	delete(fs.modes, newName)
	move := func(p string) (string, bool) {
		if p == oldName {
			return newName, true
		}
		if rest, ok := strings.CutPrefix(p, oldName+string(os.PathSeparator)); ok {
			return filepath.Join(newName, rest), true
		}
		return "", false
	}
	for _, d := range slices.Collect(maps.Keys(fs.dirs)) {
		if n, ok := move(d); ok {
			delete(fs.dirs, d)
			fs.dirs[n] = true
		}
	}
	for _, f := range slices.Collect(maps.Keys(fs.files)) {
		if n, ok := move(f); ok {
			fs.files[n] = fs.files[f]
			delete(fs.files, f)
		}
	}
	for _, p := range slices.Collect(maps.Keys(fs.modes)) {
		if n, ok := move(p); ok {
			fs.modes[n] = fs.modes[p]
			delete(fs.modes, p)
		}
	}
}

// fileReadDir is (*os.File).ReadDir(n), or Readdirnames(n) if names.
func fileReadDir(c *icall, names bool) ctrl {
	of := c.openFile()
	if of == nil {
		return c.g.unsupported(c.pos, "%s of this *os.File", c.name())
	}
	n := int(c.args[1].Int())
	result := func(infos []*statInfo) Value {
		if !names {
			return c.dirEntries(infos)
		}
		ss := make([]string, len(infos))
		for i, si := range infos {
			ss[i] = si.name
		}
		return c.m().stringsSlice(ss)
	}
	if of.f != nil {
		if names {
			ss, err := of.f.Readdirnames(n)
			return c.retN(c.m().stringsSlice(ss), c.m().osError(err, ""))
		}
		des, err := of.f.ReadDir(n)
		return c.retN(c.dirEntries(nativeStats(des)), c.m().osError(err, ""))
	}
	if c.fsYield(false) {
		return ctrlYield
	}
	op := "readdirent"
	switch {
	case of.closed:
		return c.retN(Value{}, c.m().memErr(op, of.name, "file already closed"))
	case of.dir == "":
		return c.retN(Value{}, c.m().memErr(op, of.name, "not a directory"))
	}
	all := c.x().memFS().children(of.dir)
	rest := all[min(of.dirPos, len(all)):]
	if n <= 0 {
		of.dirPos = len(all)
		return c.retN(result(rest), Value{})
	}
	if len(rest) == 0 {
		return c.retN(result(nil), c.m().osError(io.EOF, ""))
	}
	rest = rest[:min(n, len(rest))]
	of.dirPos += len(rest)
	return c.retN(result(rest), Value{})
}

// stringsSlice returns ss as a []string value.
func (m *machine) stringsSlice(ss []string) Value {
	if len(ss) == 0 {
		return Value{}
	}
	o := newObject(len(ss))
	for i, s := range ss {
		o.cells[i] = strV(s)
	}
	return sliceV(o, 0, len(ss), len(ss))
}

// isSkip reports whether err is the sentinel fs.SkipDir ("SkipDir") or
// fs.SkipAll.
func (c *icall) isSkip(err Value, name string) bool {
	return sameIface(err, c.m().sentinel(name))
}

// walkDirIntr is filepath.WalkDir(root, fn), as Go's.
func walkDirIntr(c *icall) ctrl {
	root, fn := c.args[0].Str(), c.args[1]
	call := func(path string, de Value, err Value) (Value, ctrl) {
		return c.g.callNested(fn, []Value{strV(path), de, err})
	}
	var walk func(path string, si *statInfo, de Value) (Value, ctrl)
	walk = func(path string, si *statInfo, de Value) (Value, ctrl) {
		err, cc := call(path, de, Value{})
		if cc != ctrlNext {
			return Value{}, cc
		}
		if err.p != nil || !si.mode.IsDir() {
			if c.isSkip(err, "SkipDir") && si.mode.IsDir() {
				err = Value{}
			}
			return err, ctrlNext
		}
		infos, rerr, cc := c.readDir(path, true)
		if cc != ctrlNext {
			return Value{}, cc
		}
		if rerr.p != nil {
			err, cc := call(path, de, rerr)
			if cc != ctrlNext {
				return Value{}, cc
			}
			if err.p != nil {
				if c.isSkip(err, "SkipDir") {
					err = Value{}
				}
				return err, ctrlNext
			}
		}
		for _, si1 := range infos {
			err, cc := walk(filepath.Join(path, si1.name), si1, c.dirEntryV(si1))
			if cc != ctrlNext {
				return Value{}, cc
			}
			if err.p != nil {
				if c.isSkip(err, "SkipDir") {
					break
				}
				return err, ctrlNext
			}
		}
		return Value{}, ctrlNext
	}
	si, lerr, cc := c.lstat(root, true)
	if cc != ctrlNext {
		return cc
	}
	var err Value
	if lerr.p != nil {
		err, cc = call(root, Value{}, lerr)
	} else {
		err, cc = walk(root, si, c.dirEntryV(si))
	}
	if cc != ctrlNext {
		return cc
	}
	if c.isSkip(err, "SkipDir") || c.isSkip(err, "SkipAll") {
		err = Value{}
	}
	return c.ret(err)
}

// walkIntr is filepath.Walk(root, fn), as Go's.
func walkIntr(c *icall) ctrl {
	root, fn := c.args[0].Str(), c.args[1]
	call := func(path string, si *statInfo, err Value) (Value, ctrl) {
		var info Value
		if si != nil {
			info = c.fileInfoV(si)
		}
		return c.g.callNested(fn, []Value{strV(path), info, err})
	}
	var walk func(path string, si *statInfo) (Value, ctrl)
	walk = func(path string, si *statInfo) (Value, ctrl) {
		if !si.mode.IsDir() {
			return call(path, si, Value{})
		}
		infos, rerr, cc := c.readDir(path, true)
		if cc != ctrlNext {
			return Value{}, cc
		}
		err1, cc := call(path, si, rerr)
		if cc != ctrlNext {
			return Value{}, cc
		}
		if rerr.p != nil || err1.p != nil {
			return err1, ctrlNext
		}
		for _, si1 := range infos {
			name := filepath.Join(path, si1.name)
			fi, lerr, cc := c.lstat(name, true)
			if cc != ctrlNext {
				return Value{}, cc
			}
			if lerr.p != nil {
				err, cc := call(name, nil, lerr)
				if cc != ctrlNext {
					return Value{}, cc
				}
				if err.p != nil && !c.isSkip(err, "SkipDir") {
					return err, ctrlNext
				}
				continue
			}
			err, cc := walk(name, fi)
			if cc != ctrlNext {
				return Value{}, cc
			}
			if err.p != nil && (!fi.mode.IsDir() || !c.isSkip(err, "SkipDir")) {
				return err, ctrlNext
			}
		}
		return Value{}, ctrlNext
	}
	si, lerr, cc := c.lstat(root, true)
	if cc != ctrlNext {
		return cc
	}
	var err Value
	if lerr.p != nil {
		err, cc = call(root, nil, lerr)
	} else {
		err, cc = walk(root, si)
	}
	if cc != ctrlNext {
		return cc
	}
	if c.isSkip(err, "SkipDir") || c.isSkip(err, "SkipAll") {
		err = Value{}
	}
	return c.ret(err)
}
