package explore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	iofs "io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"

	"golang.org/x/tools/go/ssa"
)

// Subprocesses (os/exec).
//
// A subprocess is not explored: exec.Cmd's Wait (and Run, Output and
// CombinedOutput) run the child natively on the host, to completion, as
// one transition of the calling goroutine (a scheduling point; Start is
// one too, but only checks the command, as if the child were slow to
// start: so a Stdin another goroutine feeds after Start works), and each
// distinct command adds a warning to the report (`subprocess "echo hi"
// ran natively, not explored`). The result is cached per exploration by
// path, arguments, environment, directory and standard input, so that
// every execution sees the same output and exit status: the child's own
// nondeterminism is not explored. The input is read from Cmd.Stdin
// (calling its Read method) before the child starts (a blocking reader
// blocks Wait, as Go's Wait waits for the copy), and the child's
// output is written to Cmd.Stdout and Cmd.Stderr (calling their Write
// methods; the same writer for both gets the output interleaved as the
// child wrote it) by Wait. A nil Env is the host's environment (the
// explored program's environment is empty: os.Environ returns nothing);
// a relative Dir is resolved against the entry's package directory. The
// child sees the host's file system: a command naming a path of the
// in-memory file system (model_osfs.go) is unsupported. Cmd's context
// is not consulted (the child is not killed), and Cmd.Process is a
// process that has finished (Kill and Signal fail).
//
// The test binary re-executing itself (exec.Command(os.Args[0] or
// os.Executable(), "-test.run=TestHelperProcess", …), as os/exec's own
// tests do) runs the real test binary, built natively once per
// exploration with go test -c in the entry's package directory (and
// removed at its end); a failed build makes the call unsupported, with
// the build's output. os.Args[0] is os.Executable's path.

// procObj is the pseudo-object a subprocess run accesses (a write): runs
// of different goroutines are ordered like atomic stores.
var procObj = evKey{id: 1<<63 | 0xe4ec, off: -6}

// procCache holds an exploration's subprocess results and warnings and
// its natively built test binary. It is shared by the exploration's
// machines (Options.procs), hence the mutex.
type procCache struct {
	mu       sync.Mutex
	runs     map[string]*procResult
	warnings map[string]bool
	// the test binary: built once (built), at bin (err if it failed),
	// in the temporary directory binDir
	built       bool
	bin, binDir string
	binErr      string
}

// procResult is the outcome of one native subprocess run.
type procResult struct {
	stdout, stderr []byte // stdout holds both when they are combined
	exitCode       int
	startErr       error // the child could not be started
}

// warningList returns the warnings, sorted.
func (pc *procCache) warningList() []string {
	pc.mu.Lock()
	defer pc.mu.Unlock()
	var ws []string
	for w := range pc.warnings {
		ws = append(ws, w)
	}
	slices.Sort(ws)
	return ws
}

// cleanup removes the test binary.
func (pc *procCache) cleanup() {
	pc.mu.Lock()
	defer pc.mu.Unlock()
	if pc.binDir != "" {
		os.RemoveAll(pc.binDir)
		pc.binDir, pc.bin = "", ""
	}
}

// testBinary returns the entry's test binary, building it (go test -c in
// dir) on first use; msg is the build's failure.
func (pc *procCache) testBinary(ctx context.Context, dir, elem string) (bin, msg string) {
	pc.mu.Lock()
	defer pc.mu.Unlock()
	if !pc.built {
		pc.built = true
		tmp, err := os.MkdirTemp("", "ltl-explore-test-")
		if err != nil {
			pc.binErr = err.Error()
			return "", pc.binErr
		}
		pc.binDir = tmp
		out := filepath.Join(tmp, elem+".test")
		cmd := exec.CommandContext(ctx, "go", "test", "-c", "-o", out)
		cmd.Dir = dir
		if b, err := cmd.CombinedOutput(); err != nil {
			pc.binErr = fmt.Sprintf("go test -c in %s: %v: %s", dir, err, bytes.TrimSpace(b))
		} else {
			pc.bin = out
		}
	}
	return pc.bin, pc.binErr
}

// run runs the child natively, or returns the cached result of the same
// command.
func (pc *procCache) run(ctx context.Context, path string, args, env []string, dir string, stdin []byte, combined bool, what string) *procResult {
	key := fmt.Sprintf("%q %q %q %q %q %v", path, args, env, dir, stdin, combined)
	pc.mu.Lock()
	if r := pc.runs[key]; r != nil {
		pc.mu.Unlock()
		return r
	}
	pc.mu.Unlock()
	cmd := exec.CommandContext(ctx, path)
	cmd.Args, cmd.Env, cmd.Dir = args, env, dir
	cmd.Stdin = bytes.NewReader(stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if combined {
		cmd.Stderr = &stdout
	}
	r := &procResult{}
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		r.exitCode = ee.ExitCode()
	case err != nil:
		r.startErr = err
	}
	r.stdout, r.stderr = stdout.Bytes(), stderr.Bytes()
	pc.mu.Lock()
	defer pc.mu.Unlock()
	if pc.runs == nil {
		pc.runs, pc.warnings = map[string]*procResult{}, map[string]bool{}
	}
	if prev := pc.runs[key]; prev != nil {
		return prev // another machine ran it meanwhile: one result
	}
	pc.runs[key] = r
	pc.warnings[what] = true
	return r
}

// procs returns the exploration's subprocess cache (a machine's own if it
// runs outside an exploration).
func (m *machine) procs() *procCache {
	if m.opts != nil && m.opts.procs != nil {
		return m.opts.procs
	}
	if m.ownProcs == nil {
		m.ownProcs = &procCache{}
	}
	return m.ownProcs
}

// cmdState is the model state of a started *exec.Cmd: the command as
// the host runs it (the test binary's path for the test binary), its
// warning, whether Wait was called, and the child's result then.
type cmdState struct {
	path, dir string
	args, env []string
	combined  bool
	what      string
	waited    bool
	res       *procResult
}

// cmdLayout reads and writes the fields of an *exec.Cmd.
type cmdLayout struct {
	o   *object
	off int
	rt  *rtype
}

func (c *icall) cmdArg() (cmdLayout, bool) {
	o, off, ok := c.ptrArg(0)
	if !ok {
		return cmdLayout{}, false
	}
	return cmdLayout{o, off, c.m().rtypeOf(c.m().named("os/exec", "Cmd"))}, true
}

func (l cmdLayout) get(name string) Value    { return l.o.cells[l.off+fieldOff(l.rt, name)] }
func (l cmdLayout) set(name string, v Value) { l.o.cells[l.off+fieldOff(l.rt, name)] = v }

// strs returns a []string value's elements.
func strs(v Value) []string {
	var out []string
	for _, e := range sliceElems(v) {
		out = append(out, e.Str())
	}
	return out
}

// newCmd is exec.Command(name, args...) (with ctx for CommandContext).
func (c *icall) newCmd(ctx Value, name string, args []string) ctrl {
	m := c.m()
	rt := m.rtypeOf(m.named("os/exec", "Cmd"))
	o := &object{cells: make([]Value, rt.size), id: c.g.newID(), owner: c.g.key}
	l := cmdLayout{o, 0, rt}
	l.set("Path", strV(name))
	l.set("Args", m.stringsSlice(append([]string{name}, args...)))
	l.set("ctx", ctx)
	if filepath.Base(name) == name {
		lp, err := exec.LookPath(name)
		if lp != "" {
			l.set("Path", strV(lp))
		}
		if err != nil {
			l.set("Err", c.execError(name, err))
		}
	}
	return c.ret(ptrV(o, 0))
}

// execError is the error of a failed exec.LookPath of name: an
// *exec.Error wrapping exec.ErrNotFound (or the native error's message).
func (c *icall) execError(name string, err error) Value {
	m := c.m()
	var inner Value
	if errors.Is(err, exec.ErrNotFound) {
		inner = m.execErrNotFound()
	} else {
		var ee *exec.Error
		if errors.As(err, &ee) {
			inner = m.osError(ee.Err, "")
		} else {
			return m.osError(err, "")
		}
	}
	t := m.named("os/exec", "Error")
	rt := m.rtypeOf(t)
	o := newObject(rt.size)
	o.cells[fieldOff(rt, "Name")] = strV(name)
	o.cells[fieldOff(rt, "Err")] = inner
	return ifaceV(m.ptrTo("os/exec", "Error"), ptrV(o, 0))
}

// execErrNotFound is the value of exec.ErrNotFound in the execution.
func (m *machine) execErrNotFound() Value {
	g := m.globalByName("os/exec", "ErrNotFound")
	if g == nil {
		return m.newErrorString(exec.ErrNotFound.Error())
	}
	o := m.global(g)
	if o.cells[0].p == nil {
		o.cells[0] = m.newErrorString(exec.ErrNotFound.Error())
	}
	return o.cells[0]
}

// cmdStart starts the command of l (Start; with its output and error
// combined if combined, as CombinedOutput does): it checks the command
// and records it; the child runs in Wait (cmdWait), as a child that is
// slow to start would. The caller has passed the scheduling point. A
// non-nil error value is Start's error.
func (c *icall) cmdStart(l cmdLayout, combined bool) (Value, ctrl) {
	x, m := c.x(), c.m()
	if st, _ := x.side[objKeyOf(l.o, l.off)].(*cmdState); st != nil {
		return m.newErrorString("exec: already started"), ctrlNext
	}
	if err := l.get("Err"); err.p != nil {
		return err, ctrlNext
	}
	path, args, dir := l.get("Path").Str(), strs(l.get("Args")), l.get("Dir").Str()
	if path == "" {
		return m.newErrorString("exec: no command"), ctrlNext
	}
	if len(sliceElems(l.get("ExtraFiles"))) > 0 {
		return Value{}, c.g.unsupported(c.pos, "%s: Cmd.ExtraFiles (a subprocess with inherited files)", c.name())
	}
	for _, a := range append([]string{path, dir}, args...) {
		if _, ok := x.memName(a); ok {
			return Value{}, c.g.unsupported(c.pos, "%s: the subprocess %q would use the in-memory temporary file %s, which the host does not have", c.name(), strings.Join(args, " "), a)
		}
	}
	st := &cmdState{path: path, args: args, dir: dir, combined: combined}
	if v := l.get("Env"); v.p != nil {
		st.env = strs(v)
	} else {
		st.env = os.Environ()
	}
	if dir != "" {
		st.dir = x.resolvePath(dir)
	}
	st.what = fmt.Sprintf("subprocess %q ran natively, not explored", strings.Join(args, " "))
	if path == x.executable() {
		elem := strings.TrimSuffix(filepath.Base(path), ".test")
		bin, msg := m.procs().testBinary(m.ctx(), x.pkgDir(), elem)
		if msg != "" {
			return Value{}, c.g.unsupported(c.pos, "%s: the test binary %s re-executed: building it failed: %s", c.name(), path, msg)
		}
		st.path = bin
		st.what = fmt.Sprintf("subprocess %q ran natively (the test binary, built with go test -c), not explored", strings.Join(args, " "))
	} else if filepath.IsAbs(path) {
		// the errors of starting an absolute path, at Start as Go's
		switch fi, err := os.Stat(path); {
		case err != nil:
			return m.osError(&iofs.PathError{Op: "fork/exec", Path: path, Err: errors.Unwrap(err)}, ""), ctrlNext
		case fi.IsDir() || fi.Mode().Perm()&0o111 == 0:
			return m.osError(&iofs.PathError{Op: "fork/exec", Path: path, Err: syscall.EACCES}, ""), ctrlNext
		}
	}
	x.setSide(l.o, l.off, st)
	// a process that has finished (the explorer never signals it)
	if pt := m.ptrTo("os", "Process"); pt != nil {
		po := &object{cells: make([]Value, pt.elem.size), id: c.g.newID(), owner: c.g.key}
		l.set("Process", ptrV(po, 0))
	}
	return Value{}, ctrlNext
}

// cmdRunChild reads the input of the started command of l from its
// Stdin and runs the child natively (or takes the cached result). A
// non-nil error value is Wait's error (reading the input failed, or the
// child could not start).
func (c *icall) cmdRunChild(l cmdLayout, st *cmdState) (Value, ctrl) {
	m := c.m()
	var stdin []byte
	if in := l.get("Stdin"); in.p != nil {
		it := in.iface()
		fc := m.stringMethodAny(it.t, "Read")
		if fc == nil {
			return Value{}, c.g.unsupported(c.pos, "%s: Cmd.Stdin of type %s", c.name(), it.t)
		}
		bo := newObject(4096)
		for idle := 0; ; {
			res, cc := c.g.callNested(funcV(fc.self), []Value{it.v, sliceV(bo, 0, len(bo.cells), len(bo.cells))})
			if cc != ctrlNext {
				return Value{}, cc
			}
			n := int(res.obj().cells[0].Int())
			for i := range max(0, min(n, len(bo.cells))) {
				stdin = append(stdin, byte(bo.cells[i].a))
			}
			if err := res.obj().cells[1]; err.p != nil {
				if !sameIface(err, m.globalValue("io", "EOF")) {
					return err, ctrlNext
				}
				break
			}
			if idle = idle + 1; n > 0 {
				idle = 0
			}
			if idle == 100 {
				return Value{}, c.g.unsupported(c.pos, "%s: Cmd.Stdin's Read returns no data and no error (Go would read it forever)", c.name())
			}
		}
	}
	stdout, stderr := l.get("Stdout"), l.get("Stderr")
	st.combined = st.combined || stdout.p != nil && sameIface(stdout, stderr)
	st.res = m.procs().run(m.ctx(), st.path, st.args, st.env, st.dir, stdin, st.combined, st.what)
	if st.res.startErr != nil {
		return m.osError(st.res.startErr, ""), ctrlNext
	}
	return Value{}, ctrlNext
}

// cmdWait waits for the command of l (Wait): it runs the child
// (cmdRunChild), writes the output and sets ProcessState; the result is Wait's error (*exec.ExitError on a
// non-zero exit, with stderr as its Stderr if captureStderr).
func (c *icall) cmdWait(l cmdLayout, captureStderr bool) (Value, ctrl) {
	x, m := c.x(), c.m()
	st, _ := x.side[objKeyOf(l.o, l.off)].(*cmdState)
	switch {
	case st == nil:
		return m.newErrorString("exec: not started"), ctrlNext
	case st.waited:
		return m.newErrorString("exec: Wait was already called"), ctrlNext
	}
	st.waited = true
	if err, cc := c.cmdRunChild(l, st); cc != ctrlNext || err.p != nil {
		return err, cc
	}
	if cc := c.writeOut(l.get("Stdout"), st.res.stdout); cc != ctrlNext {
		return Value{}, cc
	}
	if !st.combined {
		if cc := c.writeOut(l.get("Stderr"), st.res.stderr); cc != ctrlNext {
			return Value{}, cc
		}
	}
	ps := c.newSidePtr("os", "ProcessState", st.res)
	l.set("ProcessState", ps)
	if st.res.exitCode == 0 {
		return Value{}, ctrlNext
	}
	et := m.named("os/exec", "ExitError")
	rt := m.rtypeOf(et)
	eo := newObject(rt.size)
	eo.cells[fieldOff(rt, "ProcessState")] = ps
	if captureStderr {
		eo.cells[fieldOff(rt, "Stderr")] = bytesToSlice(st.res.stderr)
	}
	return ifaceV(m.ptrTo("os/exec", "ExitError"), ptrV(eo, 0)), ctrlNext
}

// writeOut writes b to the io.Writer value w (nothing if nil; the
// captured output for os.Stdout and os.Stderr).
func (c *icall) writeOut(w Value, b []byte) ctrl {
	if w.p == nil || len(b) == 0 {
		return ctrlNext
	}
	if c.x().isStdStream(w.iface().v) {
		c.x().writeOutput(c.g, false, string(b))
		return ctrlNext
	}
	it := w.iface()
	fc := c.m().stringMethodAny(it.t, "Write")
	if fc == nil {
		return c.g.unsupported(c.pos, "%s: output to %s (no Write method)", c.name(), it.t)
	}
	_, cc := c.g.callNested(funcV(fc.self), []Value{it.v, bytesToSlice(b)})
	return cc
}

// ctx is the exploration's context (the background context outside one).
func (m *machine) ctx() context.Context {
	if m.opts != nil && m.opts.ctx != nil {
		return m.opts.ctx
	}
	return context.Background()
}

// cmdYield is the scheduling point of a subprocess run.
func (c *icall) cmdYield() bool {
	return c.yield(pendingOp{kind: opAtomic, key: procObj, write: true, label: c.name()})
}

// cmdRun is Run, Output (out) or CombinedOutput (out, combined).
func cmdRun(out, combined bool) intrinsicFactory {
	return nests(simple(func(c *icall) ctrl {
		l, ok := c.cmdArg()
		if !ok {
			return c.nilPanic()
		}
		if c.cmdYield() {
			return ctrlYield
		}
		m := c.m()
		ret := func(buf *object, err Value) ctrl {
			if !out {
				return c.ret(err)
			}
			var b Value
			if buf != nil {
				b = buf.cells[0]
			}
			return c.retN(b, err)
		}
		var captureStderr bool
		if out {
			if l.get("Stdout").p != nil {
				return ret(nil, m.newErrorString("exec: Stdout already set"))
			}
			if combined && l.get("Stderr").p != nil {
				return ret(nil, m.newErrorString("exec: Stderr already set"))
			}
			captureStderr = !combined && l.get("Stderr").p == nil
		}
		err, cc := c.cmdStart(l, combined)
		if cc != ctrlNext {
			return cc
		}
		if err.p != nil {
			return ret(nil, err)
		}
		err, cc = c.cmdWait(l, captureStderr)
		if cc != ctrlNext {
			return cc
		}
		var buf *object
		if res := c.x().side[objKeyOf(l.o, l.off)].(*cmdState).res; out && res != nil {
			// the output is returned, not written: Stdout (and Stderr
			// if combined) are nil
			buf = newObject(1)
			buf.cells[0] = bytesToSlice(res.stdout)
		}
		return ret(buf, err)
	}), false)
}

// execFuncs returns the intrinsics of os/exec and of the os types it
// returns.
func execFuncs() map[string]intrinsicFactory {
	exitCode := func(f func(c *icall, r *procResult) ctrl) intrinsicFactory {
		return simple(func(c *icall) ctrl {
			if c.args[0].p == nil {
				if c.name() == "(*os.ProcessState).ExitCode" {
					return c.ret(intV(-1))
				}
				return c.nilPanic()
			}
			r := recvSide[procResult](c)
			if r == nil {
				return c.g.unsupported(c.pos, "%s of a process the explorer did not run", c.name())
			}
			return f(c, r)
		})
	}
	return map[string]intrinsicFactory{
		"os/exec.Command": simple(func(c *icall) ctrl {
			return c.newCmd(Value{}, c.args[0].Str(), strs(c.args[1]))
		}),
		"os/exec.CommandContext": simple(func(c *icall) ctrl {
			if c.args[0].p == nil {
				return c.g.throwPlain("nil Context")
			}
			return c.newCmd(c.args[0], c.args[1].Str(), strs(c.args[2]))
		}),
		"os/exec.LookPath": simple(func(c *icall) ctrl {
			name := c.args[0].Str()
			lp, err := exec.LookPath(name)
			if err != nil {
				return c.retN(strV(lp), c.execError(name, err))
			}
			return c.retN(strV(lp), Value{})
		}),
		"(*os/exec.Cmd).String": simple(func(c *icall) ctrl {
			l, ok := c.cmdArg()
			if !ok {
				return c.nilPanic()
			}
			args := strs(l.get("Args"))
			s := l.get("Path").Str()
			if len(args) > 1 {
				s += " " + strings.Join(args[1:], " ")
			}
			return c.ret(strV(s))
		}),
		"(*os/exec.Cmd).Start": nests(simple(func(c *icall) ctrl {
			l, ok := c.cmdArg()
			if !ok {
				return c.nilPanic()
			}
			if c.cmdYield() {
				return ctrlYield
			}
			err, cc := c.cmdStart(l, false)
			if cc != ctrlNext {
				return cc
			}
			return c.ret(err)
		}), false),
		"(*os/exec.Cmd).Wait": nests(simple(func(c *icall) ctrl {
			l, ok := c.cmdArg()
			if !ok {
				return c.nilPanic()
			}
			if c.cmdYield() {
				return ctrlYield
			}
			err, cc := c.cmdWait(l, false)
			if cc != ctrlNext {
				return cc
			}
			return c.ret(err)
		}), false),
		"(*os/exec.Cmd).Run":            cmdRun(false, false),
		"(*os/exec.Cmd).Output":         cmdRun(true, false),
		"(*os/exec.Cmd).CombinedOutput": cmdRun(true, true),
		"(*os/exec.Error).Error": nests(func(m *machine, _ *ssa.Function) intrinsic {
			f := m.fieldOffs("os/exec", "Error", "Name", "Err")
			return func(c *icall) ctrl {
				o, off, ok := c.ptrArg(0)
				if !ok {
					return c.nilPanic()
				}
				msg, cc := c.errorText(o.cells[off+f[1]])
				if cc != ctrlNext {
					return cc
				}
				return c.ret(strV("exec: " + fmt.Sprintf("%q", o.cells[off+f[0]].Str()) + ": " + msg))
			}
		}, true),
		"(*os/exec.Error).Unwrap": recvField("os/exec", "Error", "Err"),
		"(*os/exec.ExitError).Error": func(m *machine, _ *ssa.Function) intrinsic {
			psOff := m.fieldOffs("os/exec", "ExitError", "ProcessState")[0]
			return func(c *icall) ctrl {
				o, off, ok := c.ptrArg(0)
				if !ok {
					return c.nilPanic()
				}
				ps := o.cells[off+psOff]
				r, _ := c.x().side[objKeyOf(ps.obj(), -1)].(*procResult)
				if r == nil {
					return c.g.unsupported(c.pos, "%s of a process the explorer did not run", c.name())
				}
				return c.ret(strV(exitString(r.exitCode)))
			}
		},
		"(*os.ProcessState).ExitCode": exitCode(func(c *icall, r *procResult) ctrl { return c.ret(intV(int64(r.exitCode))) }),
		"(*os.ProcessState).Success":  exitCode(func(c *icall, r *procResult) ctrl { return c.ret(boolV(r.exitCode == 0)) }),
		"(*os.ProcessState).Exited":   exitCode(func(c *icall, r *procResult) ctrl { return c.ret(boolV(true)) }),
		"(*os.ProcessState).String":   exitCode(func(c *icall, r *procResult) ctrl { return c.ret(strV(exitString(r.exitCode))) }),
		"(*os.Process).Kill": simple(func(c *icall) ctrl {
			return c.ret(c.m().newErrorString("os: process already finished"))
		}),
		"(*os.Process).Signal": simple(func(c *icall) ctrl {
			return c.ret(c.m().newErrorString("os: process already finished"))
		}),
		"(*os.Process).Release": simple(func(c *icall) ctrl { return c.ret(Value{}) }),
		"os.Environ":            simple(func(c *icall) ctrl { return c.ret(Value{}) }),
	}
}

// exitString is ProcessState.String of an exit code ("exit status 1").
func exitString(code int) string {
	return "exit status " + fmt.Sprint(code)
}

// execModel models os/exec.
func execModel() model {
	return model{
		funcs: execFuncs(),
		globals: map[string]globalFactory{
			"os/exec.ErrNotFound": func(m *machine, _ *ssa.Global) globalInit {
				return func(_ *execution, o *object) { o.cells[0] = m.execErrNotFound() }
			},
		},
	}
}
