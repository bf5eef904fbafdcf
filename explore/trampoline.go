package explore

import (
	"fmt"
	"go/token"
	"go/types"
	"time"

	"golang.org/x/tools/go/ssa"
)

// Trampolines are small functions the interpreter builds itself (they
// have no SSA function): the entry driver, the goroutine launcher, and
// the continuations of intrinsics that call back into interpreted code
// (sync.Once.Do, sync.Cond.Wait, testing's tRunner…), made by trampoline.

// argsBox carries an argument list in a register.
type argsBox struct{ args []Value }

// launcher returns the trampoline that starts a goroutine on a function
// value whose code is not a plain SSA function (intrinsics): reg0 holds the
// closure, reg1 an *argsBox.
func (m *machine) launcher() *fnCode {
	if m.launch != nil {
		return m.launch
	}
	fc := &fnCode{name: "explore.launch", nregs: 2, recoverPC: -1, compiled: true}
	fc.tmpl = make([]Value, 2)
	fc.code = []instrFn{
		func(fr *frame) ctrl {
			args := (*argsBox)(fr.regs[1].p).args
			return fr.g.callValue(fr, fr.regs[0], args, -1, token.NoPos)
		},
		func(fr *frame) ctrl { return fr.g.ret(Value{}) },
	}
	fc.instrs = make([]ssa.Instruction, 2)
	fc.self = &closure{fn: fc}
	m.launch = fc
	return fc
}

// driver returns the trampoline run by the entry goroutine: package
// initialization, the entry function, test cleanups (also after
// t.FailNow), then the end of the entry.
//
//	reg0: the *testing.T argument (if the entry takes one)
func (m *machine) driver(entry *ssa.Function, takesT bool) *fnCode {
	if fc, ok := m.drivers[entry]; ok {
		return fc
	}
	if m.drivers == nil {
		m.drivers = map[*ssa.Function]*fnCode{}
	}
	fc := &fnCode{name: "explore.driver", nregs: 1, recoverPC: -1, compiled: true}
	fc.tmpl = make([]Value, 1)
	entryCode := m.code(entry)
	var inits []*fnCode
	var initPkgs []*ssa.Package
	for _, p := range m.initPackages(entry.Pkg) {
		if _, ok := m.replaced(p); ok {
			continue // modelled: its initialization does not run
		}
		if f := p.Func("init"); f != nil {
			inits = append(inits, m.code(f))
			initPkgs = append(initPkgs, p)
		}
	}
	runner := m.initRunner()
	cleanups := m.cleanupRunner()
	end := m.tRunnerEnd()
	startNote := "start " + entry.Name()
	fc.code = []instrFn{
		// 0: the end-of-entry handler, testing.tRunner's end of test and
		// the cleanups are deferred, so they run after t.FailNow
		// (runtime.Goexit) and panics too.
		func(fr *frame) ctrl {
			fr.defers = append(fr.defers,
				deferred{native: func(g *goroutine) { g.x.entryFinished(g) }},
				deferred{fn: funcV(end.self)},
				deferred{fn: funcV(cleanups.self)})
			return ctrlNext
		},
		// 1: package initializers (or a snapshot of their result)
		func(fr *frame) ctrl {
			x, g := fr.g.x, fr.g
			if x.initDone == 0 && !x.initStarted {
				x.initStarted = true
				x.sideBefore = len(x.side)
				if s := x.m.snaps[entry.Pkg]; s != nil {
					s.restore(x, g)
					x.initDone = len(inits)
					return ctrlNext
				}
			}
			for x.initDone < len(inits) {
				i := x.initDone
				x.initDone++
				if _, broken := x.m.broken[initPkgs[i]]; broken {
					continue
				}
				x.initPkg = initPkgs[i]
				fr.pc--
				return g.callValue(fr, funcV(runner.self), []Value{funcV(inits[i].self)}, -1, token.NoPos)
			}
			x.initPkg = nil
			if !x.m.snapTried[entry.Pkg] {
				if x.m.snapTried == nil {
					x.m.snapTried = map[*ssa.Package]bool{}
					x.m.snaps = map[*ssa.Package]*snapshot{}
				}
				x.m.snapTried[entry.Pkg] = true
				why := x.snapshotBlocker(g, x.sideBefore)
				if why == "" {
					var s *snapshot
					if s, why = x.takeSnapshotWhy(g); s != nil {
						x.m.snaps[entry.Pkg] = s
					}
				}
				if why != "" {
					if x.m.snapWhy == nil {
						x.m.snapWhy = map[*ssa.Package]string{}
					}
					x.m.snapWhy[entry.Pkg] = why
				}
			}
			return ctrlNext
		},
		// 2: the entry (symbolic inputs are set first)
		func(fr *frame) ctrl {
			fr.g.x.inInit = false
			fr.g.x.entered = time.Now()
			if cc := fr.g.x.symbolicGlobals(fr.g.x.gs[0]); cc != ctrlNext {
				return cc
			}
			fr.g.x.noteEntry(fr.g, entry.Pos(), traceEntry{note: noteText, text: startNote})
			var args []Value
			if takesT {
				args = []Value{fr.regs[0]}
			}
			args, cc := fr.g.x.entryInputs(fr.g, args)
			if cc != ctrlNext {
				return cc
			}
			return fr.g.callValue(fr, funcV(entryCode.self), args, -1, entry.Pos())
		},
		// 3: run the deferred calls
		runDefersInstr,
		// 4: return
		func(fr *frame) ctrl { return fr.g.ret(Value{}) },
	}
	fc.instrs = make([]ssa.Instruction, len(fc.code))
	fc.self = &closure{fn: fc}
	m.drivers[entry] = fc
	return fc
}

// cleanupRunner returns the trampoline that runs the test's cleanups,
// last registered first.
func (m *machine) cleanupRunner() *fnCode {
	if m.cleanups != nil {
		return m.cleanups
	}
	fc := &fnCode{name: "testing.(*T).runCleanup", nregs: 0, recoverPC: -1, compiled: true}
	fc.code = []instrFn{
		func(fr *frame) ctrl {
			if t := fr.g.test; t != nil && len(t.cleanups) > 0 && !t.cleanupsWait() {
				n := len(t.cleanups)
				f := t.cleanups[n-1]
				t.cleanups = t.cleanups[:n-1]
				fr.pc--
				return fr.g.callValue(fr, f, nil, -1, token.NoPos)
			}
			return ctrlNext
		},
		func(fr *frame) ctrl { return fr.g.ret(Value{}) },
	}
	fc.instrs = make([]ssa.Instruction, len(fc.code))
	fc.self = &closure{fn: fc}
	m.cleanups = fc
	return fc
}

// initPackages returns the interpreted packages whose initializers run
// before the entry, dependencies first (their inits are bare: they do not
// call their imports' inits).
func (m *machine) initPackages(p *ssa.Package) []*ssa.Package {
	var order []*ssa.Package
	seen := map[*types.Package]bool{}
	var visit func(tp *types.Package)
	visit = func(tp *types.Package) {
		if seen[tp] {
			return
		}
		seen[tp] = true
		for _, imp := range tp.Imports() {
			visit(imp)
		}
		if sp := m.prog.SSA.Package(tp); sp != nil && m.prog.isInterpreted(tp) {
			order = append(order, sp)
		}
	}
	visit(p.Pkg)
	return order
}

// initRunner is the trampoline that runs one package initializer: reg0 is
// the init function. If the initializer reaches something unsupported,
// the package is marked broken (see breakPackage) and the abort is
// recovered here, so initialization continues with the next package.
func (m *machine) initRunner() *fnCode {
	fc := m.trampoline("explore.initPackage", 1, []instrFn{
		func(fr *frame) ctrl {
			fr.defers = append(fr.defers, deferred{native: func(g *goroutine) {
				if p := g.panic; p != nil && p.abortInit {
					p.recovered = true
				}
			}})
			return ctrlNext
		},
		func(fr *frame) ctrl { return fr.g.callValue(fr, fr.regs[0], nil, -1, token.NoPos) },
		runDefersInstr,
		func(fr *frame) ctrl { return fr.g.ret(Value{}) },
	})
	fc.recoverPC = 3
	return fc
}

// breakPackage records that pkg's initialization failed: its functions
// become unsupported stubs (in this machine, for all later executions),
// and the report carries a warning.
func (m *machine) breakPackage(pkg *ssa.Package, reason string) {
	if m.broken == nil {
		m.broken = map[*ssa.Package]string{}
	}
	if _, ok := m.broken[pkg]; ok {
		return
	}
	m.broken[pkg] = reason
	for fn, fc := range m.fns {
		if fn.Pkg == pkg && fc.intr == nil && fc.compiled {
			m.stubBroken(fc)
		}
	}
}

// stubBroken replaces fc's code by an unsupported stub: its package could
// not be initialized.
func (m *machine) stubBroken(fc *fnCode) {
	fn := fc.fn
	m.stubUnsupported(fc, fmt.Sprintf("call of %s: package %s could not be initialized: %s", fn, fn.Pkg.Pkg.Path(), m.broken[fn.Pkg]))
}

// stubUnsupported replaces fc's code by a stub that reports msg as an
// "unsupported" finding at the function's position.
func (m *machine) stubUnsupported(fc *fnCode, msg string) {
	pos := fc.fn.Pos()
	fc.code = []instrFn{func(fr *frame) ctrl { return fr.g.unsupported(pos, "%s", msg) }}
	fc.instrs = []ssa.Instruction{nil}
	fc.recoverPC = -1
	if fc.nregs < fc.nparams {
		fc.nregs = fc.nparams
		fc.tmpl = make([]Value, fc.nregs)
	}
}

// entryFinished marks the end of the entry function (normal return,
// t.FailNow/runtime.Goexit, or a panic passing through).
func (x *execution) entryFinished(g *goroutine) {
	if x.entryDone {
		return
	}
	// Cleanups still run during Goexit unwinding: they are pending on the
	// test; run them via the driver when unwinding is a Goexit.
	x.entryDone = true
	if t := x.rootTest(); t != nil {
		t.done = true
	}
	switch p := g.panic; {
	case p == nil:
		x.note(g, token.NoPos, "%s returned", x.entry.Fn.Name())
	case p.goexit:
		x.note(g, token.NoPos, "%s exited (runtime.Goexit)", x.entry.Fn.Name())
	default:
		x.note(g, token.NoPos, "%s panicked", x.entry.Fn.Name())
	}
}

// trampoline makes (once per machine and name) a function of native
// instructions with nregs registers, the first of which are parameters.
func (m *machine) trampoline(name string, nregs int, code []instrFn) *fnCode {
	if fc, ok := m.tramps[name]; ok {
		return fc
	}
	fc := &fnCode{name: name, nregs: nregs, nparams: nregs, tmpl: make([]Value, nregs), code: code,
		instrs: make([]ssa.Instruction, len(code)), recoverPC: -1, compiled: true}
	fc.self = &closure{fn: fc}
	if m.tramps == nil {
		m.tramps = map[string]*fnCode{}
	}
	m.tramps[name] = fc
	return fc
}
