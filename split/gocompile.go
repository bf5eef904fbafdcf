package split

import (
	"fmt"
	"go/ast"
	"go/constant"
	gotoken "go/token"
	"go/types"
	"path/filepath"
	"slices"
	"strings"

	"github.com/henceforth-go/henceforth/annotate"
)

// This file compiles the body of a goroutine function into a control-flow
// graph of atomic steps over finite-domain variables: one location per
// step (the local variable pc of each process), each with guarded commands.
// The graph is built once and instantiated for every goroutine.
//
// Atomicity: a step accesses at most one shared variable (a read or a
// write; Lock and Unlock of a mutex count as one access). A statement that
// accesses more first loads each shared variable it reads into a temporary
// local, one step each, so every interleaving of the Go program's shared
// accesses is an interleaving of the model (for programs whose shared
// variables are word-sized, as bools and bounded integers are).

// gvar is a variable of the compiled function: shared (a package-level
// variable, or the owner of a mutex) or local (a local variable, or the
// temporary holding a loaded shared variable).
type gvar struct {
	name   string
	shared bool
	isBool bool
	lo, hi int
	init   int
	ranged bool // an integer whose writes are checked against lo..hi
	mutex  bool // a sync.Mutex: its owner (see mutexOp)
	pos    gotoken.Pos
	obj    *types.Var // nil for temporaries
}

func (v *gvar) String() string { return v.name }

// gexpr is an expression of the compiled function, instantiated per
// process by env.
type gexpr func(env gEnv) Expr

// gEnv maps the compiled function's variables to one process's Vars.
type gEnv map[*gvar]*Var

// gloc is a location: the step a goroutine takes next.
type gloc struct {
	name  string      // the pc value's name: "file.go:12:3" (with a suffix for the steps of one statement), "done", "error@…"
	pos   gotoken.Pos // the statement or operation the step performs
	stmt  ast.Stmt    // the statement the step belongs to, for events
	cmds  []*gcmd     // no command: the goroutine has ended (done) or failed (err != "")
	err   string      // for error locations: what went wrong
	jump  bool        // a step that only moves pc (removed by shortcut)
	order int         // creation order, for stable names
	what  string      // what the step does, for traces
	// access are the shared variables (not mutexes) the step reads or
	// writes.
	access []*gvar
}

// gcmd is a guarded command of a location.
type gcmd struct {
	name  string
	guard gexpr // nil: true
	sets  []gset
	next  int
	// mu and op: the command also locks or unlocks mu (see mutexOp); the
	// guard and update of mu are added per process by GoProgram.build.
	mu *gvar
	op mutexOp
}

// mutexOp is what a command does to a mutex. A mutex is modelled by its
// owner: a shared integer, 0 when it is unlocked and i while goroutine i
// holds it (ghost state, as the thesis's `last` in MUX-SEM, Fig 4.2: Go's
// mutexes have no owner, but which goroutine locked it is a function of
// the execution, and exposing it lets every goroutine's summary say whether
// it holds the lock — without it the split invariant of a lock-protected
// counter takes refinements that scale badly with N).
type mutexOp int

const (
	noMutexOp   mutexOp = iota
	opLock              // guard mu = 0, set mu := self
	opUnlock            // guard mu ≠ 0, set mu := 0 (any goroutine may unlock, as in Go)
	opBadUnlock         // guard mu = 0 (fatal error: unlock of unlocked mutex)
)

type gset struct {
	v *gvar
	e gexpr
}

// gcompiler compiles one function.
type gcompiler struct {
	fset    *gotoken.FileSet
	pkg     *types.Package
	info    *types.Info
	ranges  map[*types.Var]*annotate.Range
	fn      *types.Func
	locs    []*gloc
	shared  map[*types.Var]*gvar
	sharedL []*gvar // in order of first use
	locals  map[*types.Var]*gvar
	localL  []*gvar
	temps   map[*gvar]*gvar
	names   map[string]int
	inits   map[*types.Var]ast.Expr // package-level initializers
	// protected are the package variables that every access (in the
	// function) makes with a common mutex held: their accesses need no
	// step of their own (see lockProtected).
	protected map[*types.Var]bool
	synth     map[ast.Expr]types.TypeAndValue // types of the syntax the compiler makes (info is only read)
	done      int
	pc        *gvar // stands for pc in environments (see pcVar)
	frozen    bool  // the Program is built: no new shared variables
	loops     []loopTargets
}

type loopTargets struct{ brk, cont int }

// errAt is a positioned error of the extraction.
func (c *gcompiler) errAt(pos gotoken.Pos, kind error, format string, args ...any) error {
	return errorf(c.position(pos), kind, format, args...)
}

func (c *gcompiler) position(pos gotoken.Pos) Pos {
	p := c.fset.Position(pos)
	return Pos{File: p.Filename, Line: p.Line, Col: p.Column}
}

func (c *gcompiler) short(pos gotoken.Pos) string {
	p := c.fset.Position(pos)
	return fmt.Sprintf("%s:%d:%d", filepath.Base(p.Filename), p.Line, p.Column)
}

// newLoc adds a location for a step of stmt at pos.
func (c *gcompiler) newLoc(stmt ast.Stmt, pos gotoken.Pos, what string) int {
	name := c.short(pos)
	if k := c.names[name]; k > 0 {
		c.names[name] = k + 1
		name = fmt.Sprintf("%s#%d", name, k+1)
	} else {
		c.names[name] = 1
	}
	c.locs = append(c.locs, &gloc{name: name, pos: pos, stmt: stmt, order: len(c.locs), what: what})
	return len(c.locs) - 1
}

// errLoc adds a location where the goroutine has failed.
func (c *gcompiler) errLoc(pos gotoken.Pos, msg string) int {
	c.locs = append(c.locs, &gloc{name: "error@" + c.short(pos), pos: pos, err: msg, order: len(c.locs), what: msg})
	return len(c.locs) - 1
}

// compile compiles the body of fd.
func (c *gcompiler) compile(fd *ast.FuncDecl) error {
	if fd.Recv != nil {
		return c.errAt(fd.Pos(), ErrUnsupported, "goroutine function %s is a method", fd.Name.Name)
	}
	if fd.Type.TypeParams != nil {
		return c.errAt(fd.Pos(), ErrUnsupported, "goroutine function %s is generic", fd.Name.Name)
	}
	if fd.Type.Params.NumFields() > 0 {
		return c.errAt(fd.Type.Params.Pos(), ErrUnsupported, "parameters of goroutine function %s (each goroutine runs %s() with no arguments)", fd.Name.Name, fd.Name.Name)
	}
	if fd.Type.Results.NumFields() > 0 {
		return c.errAt(fd.Type.Results.Pos(), ErrUnsupported, "results of goroutine function %s", fd.Name.Name)
	}
	if fd.Body == nil {
		return c.errAt(fd.Pos(), ErrUnsupported, "goroutine function %s has no body", fd.Name.Name)
	}
	c.locs = append(c.locs, &gloc{name: "done", pos: fd.Body.Rbrace, what: "returned"})
	c.done = 0
	entry, err := c.stmts(fd.Body.List, c.done)
	if err != nil {
		return err
	}
	c.shortcut(&entry)
	// The entry location goes first, so that pc's initial value is 0.
	c.reorder(entry)
	return nil
}

// shortcut retargets every jump to a jump location at its final target
// and drops the jump locations that nothing reaches any longer.
func (c *gcompiler) shortcut(entry *int) {
	final := func(k int) int {
		for seen := 0; c.locs[k].jump && seen < len(c.locs); seen++ {
			next := c.locs[k].cmds[0].next
			if next == k {
				break
			}
			k = next
		}
		return k
	}
	for _, l := range c.locs {
		for _, cmd := range l.cmds {
			cmd.next = final(cmd.next)
		}
	}
	*entry = final(*entry)
}

// reorder keeps the locations reachable from entry (and done), entry first,
// then in creation order, and renumbers the commands' targets.
func (c *gcompiler) reorder(entry int) {
	reach := map[int]bool{entry: true, c.done: true}
	work := []int{entry}
	for len(work) > 0 {
		k := work[len(work)-1]
		work = work[:len(work)-1]
		for _, cmd := range c.locs[k].cmds {
			if !reach[cmd.next] {
				reach[cmd.next] = true
				work = append(work, cmd.next)
			}
		}
	}
	order := []int{entry}
	for k := range c.locs {
		if k != entry && reach[k] {
			order = append(order, k)
		}
	}
	renum := map[int]int{}
	var locs []*gloc
	for i, k := range order {
		renum[k] = i
		locs = append(locs, c.locs[k])
	}
	for _, l := range locs {
		for _, cmd := range l.cmds {
			cmd.next = renum[cmd.next]
		}
	}
	c.locs = locs
	c.done = renum[c.done]
}

// jumpLoc adds a location that only moves to next.
func (c *gcompiler) jumpLoc(stmt ast.Stmt, pos gotoken.Pos, next int) int {
	k := c.newLoc(stmt, pos, "jump")
	c.locs[k].jump = true
	c.locs[k].cmds = []*gcmd{{name: "jump", next: next}}
	return k
}

// stmts compiles a statement list that continues at next; it returns the
// entry location.
func (c *gcompiler) stmts(list []ast.Stmt, next int) (int, error) {
	for i := len(list) - 1; i >= 0; i-- {
		var err error
		next, err = c.stmt(list[i], next)
		if err != nil {
			return 0, err
		}
	}
	return next, nil
}

// stmt compiles s, continuing at next.
func (c *gcompiler) stmt(s ast.Stmt, next int) (int, error) {
	switch s := s.(type) {
	case *ast.EmptyStmt:
		return next, nil
	case *ast.BlockStmt:
		return c.stmts(s.List, next)
	case *ast.ExprStmt:
		return c.exprStmt(s, next)
	case *ast.IncDecStmt:
		op := gotoken.ADD
		if s.Tok == gotoken.DEC {
			op = gotoken.SUB
		}
		one := &ast.BasicLit{ValuePos: s.TokPos, Kind: gotoken.INT, Value: "1"}
		c.synth[one] = types.TypeAndValue{Type: types.Typ[types.UntypedInt], Value: constant.MakeInt64(1)}
		return c.assign(s, s.X, &ast.BinaryExpr{X: s.X, OpPos: s.TokPos, Op: op, Y: one}, false, next)
	case *ast.AssignStmt:
		if len(s.Lhs) != 1 || len(s.Rhs) != 1 {
			return 0, c.errAt(s.Pos(), ErrUnsupported, "assignment of several values at once (write one assignment per variable)")
		}
		rhs := s.Rhs[0]
		switch s.Tok {
		case gotoken.ASSIGN, gotoken.DEFINE:
		case gotoken.ADD_ASSIGN, gotoken.SUB_ASSIGN, gotoken.MUL_ASSIGN, gotoken.QUO_ASSIGN, gotoken.REM_ASSIGN, gotoken.AND_ASSIGN, gotoken.OR_ASSIGN:
			op := map[gotoken.Token]gotoken.Token{gotoken.ADD_ASSIGN: gotoken.ADD, gotoken.SUB_ASSIGN: gotoken.SUB, gotoken.MUL_ASSIGN: gotoken.MUL,
				gotoken.QUO_ASSIGN: gotoken.QUO, gotoken.REM_ASSIGN: gotoken.REM, gotoken.AND_ASSIGN: gotoken.AND, gotoken.OR_ASSIGN: gotoken.OR}[s.Tok]
			rhs = &ast.BinaryExpr{X: s.Lhs[0], OpPos: s.TokPos, Op: op, Y: s.Rhs[0]}
			c.synth[rhs] = types.TypeAndValue{Type: c.typeOf(s.Lhs[0]).Type}
		default:
			return 0, c.errAt(s.TokPos, ErrUnsupported, "assignment operator %s", s.Tok)
		}
		return c.assign(s, s.Lhs[0], rhs, s.Tok == gotoken.DEFINE, next)
	case *ast.DeclStmt:
		gd, ok := s.Decl.(*ast.GenDecl)
		if !ok || gd.Tok != gotoken.VAR {
			if ok && (gd.Tok == gotoken.CONST || gd.Tok == gotoken.TYPE) {
				return next, nil
			}
			return 0, c.errAt(s.Pos(), ErrUnsupported, "declaration")
		}
		var list []ast.Stmt
		for _, spec := range gd.Specs {
			vs := spec.(*ast.ValueSpec)
			if len(vs.Values) != 0 && len(vs.Values) != len(vs.Names) {
				return 0, c.errAt(vs.Pos(), ErrUnsupported, "declaration of several variables from one value")
			}
			for i, id := range vs.Names {
				obj, _ := c.info.Defs[id].(*types.Var)
				if obj == nil {
					continue
				}
				v, err := c.declareLocal(obj, id.Pos())
				if err != nil {
					return 0, err
				}
				var val ast.Expr
				if len(vs.Values) > 0 {
					val = vs.Values[i]
				} else {
					val = &ast.Ident{NamePos: id.Pos(), Name: "_zero"}
					zero := constant.MakeInt64(0)
					if v.isBool {
						zero = constant.MakeBool(false)
					}
					c.synth[val] = types.TypeAndValue{Type: obj.Type(), Value: zero}
				}
				list = append(list, &ast.AssignStmt{Lhs: []ast.Expr{id}, TokPos: id.Pos(), Tok: gotoken.ASSIGN, Rhs: []ast.Expr{val}})
			}
		}
		// The declaration's steps belong to it (for events).
		entry := next
		for i := len(list) - 1; i >= 0; i-- {
			a := list[i].(*ast.AssignStmt)
			var err error
			entry, err = c.assign(s, a.Lhs[0], a.Rhs[0], false, entry)
			if err != nil {
				return 0, err
			}
		}
		return entry, nil
	case *ast.IfStmt:
		elseEntry := next
		if s.Else != nil {
			var err error
			if elseEntry, err = c.stmt(s.Else, next); err != nil {
				return 0, err
			}
		}
		thenEntry, err := c.stmts(s.Body.List, next)
		if err != nil {
			return 0, err
		}
		entry, err := c.branch(s, s.Cond, -1, thenEntry, elseEntry)
		if err != nil {
			return 0, err
		}
		if s.Init != nil {
			return c.stmt(s.Init, entry)
		}
		return entry, nil
	case *ast.ForStmt:
		header := c.newLoc(s, s.For, "loop")
		cont := header
		if s.Post != nil {
			var err error
			if cont, err = c.stmt(s.Post, header); err != nil {
				return 0, err
			}
		}
		c.loops = append(c.loops, loopTargets{brk: next, cont: cont})
		body, err := c.stmts(s.Body.List, cont)
		c.loops = c.loops[:len(c.loops)-1]
		if err != nil {
			return 0, err
		}
		if s.Cond == nil {
			c.locs[header].jump = true
			c.locs[header].cmds = []*gcmd{{name: "loop", next: body}}
		} else if _, err := c.branch(s, s.Cond, header, body, next); err != nil {
			return 0, err
		}
		if s.Init != nil {
			return c.stmt(s.Init, header)
		}
		return header, nil
	case *ast.BranchStmt:
		if s.Label != nil {
			return 0, c.errAt(s.Pos(), ErrUnsupported, "labeled %s", s.Tok)
		}
		if len(c.loops) == 0 || s.Tok != gotoken.BREAK && s.Tok != gotoken.CONTINUE {
			return 0, c.errAt(s.Pos(), ErrUnsupported, "%s statement", s.Tok)
		}
		t := c.loops[len(c.loops)-1]
		if s.Tok == gotoken.BREAK {
			return t.brk, nil
		}
		return t.cont, nil
	case *ast.ReturnStmt:
		if len(s.Results) > 0 {
			return 0, c.errAt(s.Pos(), ErrUnsupported, "return with results")
		}
		return c.done, nil
	}
	return 0, c.errAt(s.Pos(), ErrUnsupported, "%s", stmtName(s))
}

// stmtName names a statement kind for "unsupported" errors.
func stmtName(s ast.Stmt) string {
	switch s := s.(type) {
	case *ast.GoStmt:
		return "go statement inside a goroutine function"
	case *ast.DeferStmt:
		return "defer statement"
	case *ast.SelectStmt:
		return "select statement"
	case *ast.SwitchStmt:
		return "switch statement"
	case *ast.TypeSwitchStmt:
		return "type switch"
	case *ast.RangeStmt:
		return "range loop"
	case *ast.LabeledStmt:
		return "labeled statement"
	case *ast.SendStmt:
		return "channel send (channels are not supported yet)"
	case *ast.BranchStmt:
		return s.Tok.String() + " statement"
	}
	return strings.TrimPrefix(fmt.Sprintf("%T", s), "*ast.")
}

// exprStmt compiles mu.Lock() and mu.Unlock(); other expression statements
// are unsupported.
func (c *gcompiler) exprStmt(s *ast.ExprStmt, next int) (int, error) {
	call, ok := ast.Unparen(s.X).(*ast.CallExpr)
	if !ok {
		if u, ok := ast.Unparen(s.X).(*ast.UnaryExpr); ok && u.Op == gotoken.ARROW {
			return 0, c.errAt(s.Pos(), ErrUnsupported, "channel receive (channels are not supported yet)")
		}
		return 0, c.errAt(s.Pos(), ErrUnsupported, "expression statement")
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if ok {
		if fn, _ := c.info.Uses[sel.Sel].(*types.Func); fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == "sync" && strings.HasSuffix(recvName(fn), "Mutex") {
			mu, err := c.mutex(sel.X)
			if err != nil {
				return 0, err
			}
			k := c.newLoc(s, s.Pos(), "")
			switch fn.Name() {
			case "Lock":
				c.locs[k].what = mu.name + ".Lock()"
				c.locs[k].cmds = []*gcmd{{name: "lock " + mu.name, mu: mu, op: opLock, next: next}}
			case "Unlock":
				c.locs[k].what = mu.name + ".Unlock()"
				bad := c.errLoc(s.Pos(), "fatal error: sync: unlock of unlocked mutex "+mu.name)
				c.locs[k].cmds = []*gcmd{
					{name: "unlock " + mu.name, mu: mu, op: opUnlock, next: next},
					{name: "unlock of unlocked " + mu.name, mu: mu, op: opBadUnlock, next: bad},
				}
			default:
				return 0, c.errAt(call.Pos(), ErrUnsupported, "call of (*sync.%s).%s (only Lock and Unlock)", recvName(fn), fn.Name())
			}
			if recvName(fn) == "RWMutex" {
				return 0, c.errAt(call.Pos(), ErrUnsupported, "sync.RWMutex (only sync.Mutex)")
			}
			return k, nil
		}
	}
	return 0, c.errAt(call.Pos(), ErrUnsupported, "call of %s", types.ExprString(call.Fun))
}

// recvName returns the name of the named receiver type of a method.
func recvName(fn *types.Func) string {
	sig, _ := fn.Type().(*types.Signature)
	if sig == nil || sig.Recv() == nil {
		return ""
	}
	t := sig.Recv().Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := t.(*types.Named); ok {
		return n.Obj().Name()
	}
	return ""
}

// mutex returns the variable of the package-level mutex x.
func (c *gcompiler) mutex(x ast.Expr) (*gvar, error) {
	x = ast.Unparen(x)
	if u, ok := x.(*ast.UnaryExpr); ok && u.Op == gotoken.AND {
		x = ast.Unparen(u.X)
	}
	id, ok := x.(*ast.Ident)
	if !ok {
		return nil, c.errAt(x.Pos(), ErrUnsupported, "mutex %s: only package-level sync.Mutex variables", types.ExprString(x))
	}
	obj, _ := c.info.Uses[id].(*types.Var)
	if obj == nil || obj.Parent() != c.pkg.Scope() {
		return nil, c.errAt(x.Pos(), ErrUnsupported, "mutex %s: only package-level sync.Mutex variables", id.Name)
	}
	return c.sharedVar(obj, id.Pos())
}

// assign compiles lhs = rhs (or lhs := rhs when define).
func (c *gcompiler) assign(s ast.Stmt, lhs, rhs ast.Expr, define bool, next int) (int, error) {
	id, ok := ast.Unparen(lhs).(*ast.Ident)
	if !ok {
		return 0, c.errAt(lhs.Pos(), ErrUnsupported, "assignment to %s (only to variables)", types.ExprString(lhs))
	}
	if id.Name == "_" {
		return 0, c.errAt(lhs.Pos(), ErrUnsupported, "assignment to _")
	}
	obj, _ := c.info.Defs[id].(*types.Var)
	if obj == nil {
		obj, _ = c.info.Uses[id].(*types.Var)
	}
	if obj == nil {
		return 0, c.errAt(id.Pos(), ErrType, "%s is not a variable", id.Name)
	}
	var target *gvar
	var err error
	switch {
	case obj.Parent() == c.pkg.Scope():
		target, err = c.sharedVar(obj, id.Pos())
	case c.locals[obj] != nil:
		target = c.locals[obj]
	case define || c.info.Defs[id] != nil:
		target, err = c.declareLocal(obj, id.Pos())
	default:
		err = c.errAt(id.Pos(), ErrUnsupported, "variable %s is not declared in the goroutine function", id.Name)
	}
	if err != nil {
		return 0, err
	}
	if target.mutex {
		return 0, c.errAt(id.Pos(), ErrUnsupported, "assignment to mutex %s", id.Name)
	}
	if _, err := c.expr(rhs, nil); err != nil {
		return 0, err
	}
	reads, err := c.sharedReads(rhs)
	if err != nil {
		return 0, err
	}
	what := c.source(s)
	var writes *gvar
	if target.shared {
		writes = target
	}
	return c.atomic(s, s.Pos(), -1, what, reads, writes, func(sub map[*gvar]*gvar) ([]*gcmd, error) {
		val, err := c.expr(rhs, sub)
		if err != nil {
			return nil, err
		}
		if !target.ranged {
			return []*gcmd{{name: what, sets: []gset{{target, val}}, next: next}}, nil
		}
		lo, hi := target.lo, target.hi
		in := func(env gEnv) Expr { e := val(env); return And(Ge(e, Int(lo)), Le(e, Int(hi))) }
		bad := c.errLoc(s.Pos(), fmt.Sprintf("%s leaves its range %d..%d (//ltl:range)", target.name, lo, hi))
		return []*gcmd{
			{name: what, guard: in, sets: []gset{{target, val}}, next: next},
			{name: what + " (out of range)", guard: func(env gEnv) Expr { return Not(in(env)) }, next: bad},
		}, nil
	})
}

// branch compiles a two-way branch on cond at location at (or a new one if
// at < 0).
func (c *gcompiler) branch(s ast.Stmt, cond ast.Expr, at, then, els int) (int, error) {
	if _, err := c.expr(cond, nil); err != nil {
		return 0, err
	}
	reads, err := c.sharedReads(cond)
	if err != nil {
		return 0, err
	}
	src := types.ExprString(cond)
	return c.atomic(s, cond.Pos(), at, "if "+src, reads, nil, func(sub map[*gvar]*gvar) ([]*gcmd, error) {
		e, err := c.expr(cond, sub)
		if err != nil {
			return nil, err
		}
		return []*gcmd{
			{name: src, guard: e, next: then},
			{name: "!(" + src + ")", guard: func(env gEnv) Expr { return Not(e(env)) }, next: els},
		}, nil
	})
}

// atomic builds the steps of one statement: loads of the shared variables
// it reads into temporaries if it accesses more than one shared variable,
// then one location whose commands final builds. at, if not negative, is
// the location to use as the entry.
func (c *gcompiler) atomic(s ast.Stmt, pos gotoken.Pos, at int, what string, reads []*gvar, writesShared *gvar, final func(map[*gvar]*gvar) ([]*gcmd, error)) (int, error) {
	accesses := 0
	for _, r := range reads {
		if !c.protected[r.obj] {
			accesses++
		}
	}
	if writesShared != nil && !c.protected[writesShared.obj] {
		accesses++
	}
	var sub map[*gvar]*gvar
	if accesses > 1 {
		sub = map[*gvar]*gvar{}
		for _, r := range reads {
			if !c.protected[r.obj] {
				sub[r] = c.temp(r)
			}
		}
	}
	var last int
	if sub == nil && at >= 0 {
		last = at
		c.locs[at].what = what
	} else {
		last = c.newLoc(s, pos, what)
	}
	cmds, err := final(sub)
	if err != nil {
		return 0, err
	}
	for _, cmd := range cmds {
		for _, r := range reads {
			if t := sub[r]; t != nil {
				cmd.sets = append(cmd.sets, gset{t, constI(t.lo)}) // temporaries are dead after the statement
			}
		}
	}
	c.locs[last].cmds = cmds
	for _, r := range reads {
		if sub[r] == nil {
			c.locs[last].access = append(c.locs[last].access, r)
		}
	}
	if writesShared != nil {
		c.locs[last].access = append(c.locs[last].access, writesShared)
	}
	entry := last
	for i := len(reads) - 1; i >= 0 && sub != nil; i-- {
		r := reads[i]
		if sub[r] == nil {
			continue
		}
		var k int
		if i == 0 && at >= 0 {
			k = at
			c.locs[k].what = "load " + r.name
		} else {
			k = c.newLoc(s, pos, "load "+r.name)
		}
		c.locs[k].cmds = []*gcmd{{name: "load " + r.name, sets: []gset{{sub[r], ref(r)}}, next: entry}}
		c.locs[k].access = []*gvar{r}
		entry = k
	}
	return entry, nil
}

// temp returns the temporary local that holds a loaded copy of v.
func (c *gcompiler) temp(v *gvar) *gvar {
	if t := c.temps[v]; t != nil {
		return t
	}
	t := &gvar{name: "tmp." + v.name, isBool: v.isBool, lo: v.lo, hi: v.hi, init: v.lo, pos: v.pos}
	c.temps[v] = t
	c.localL = append(c.localL, t)
	return t
}

// source returns the source text of a statement, for command names.
func (c *gcompiler) source(s ast.Stmt) string {
	switch s := s.(type) {
	case *ast.AssignStmt:
		return types.ExprString(s.Lhs[0]) + " " + s.Tok.String() + " " + types.ExprString(s.Rhs[0])
	case *ast.IncDecStmt:
		return types.ExprString(s.X) + s.Tok.String()
	case *ast.DeclStmt:
		return "var declaration"
	}
	return stmtName(s)
}

// sharedReads returns the shared variables e reads, in order of first
// occurrence; it refuses an expression that reads one twice (the model
// would read it once, which a racy Go program need not).
func (c *gcompiler) sharedReads(e ast.Expr) ([]*gvar, error) {
	var out []*gvar
	var err error
	ast.Inspect(e, func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if !ok || err != nil {
			return err == nil
		}
		obj, _ := c.info.Uses[id].(*types.Var)
		if obj == nil || obj.Parent() != c.pkg.Scope() {
			return true
		}
		v, e2 := c.sharedVar(obj, id.Pos())
		if e2 != nil {
			err = e2
			return false
		}
		if slices.Contains(out, v) && !c.protected[obj] {
			err = c.errAt(id.Pos(), ErrUnsupported, "%s is read twice in one expression (read it into a local first)", id.Name)
			return false
		}
		if !slices.Contains(out, v) {
			out = append(out, v)
		}
		return true
	})
	return out, err
}

// lockProtected returns the package variables that every step accessing
// them takes with one and the same mutex held (must-hold analysis over
// the compiled graph). All the code that accesses them runs in the
// goroutines of the model, so their accesses cannot race, and a
// statement may access them together with one other shared variable in
// one step without losing behaviours.
func (c *gcompiler) lockProtected() map[*types.Var]bool {
	n := len(c.locs)
	var mutexes []*gvar
	for _, v := range c.sharedL {
		if v.mutex {
			mutexes = append(mutexes, v)
		}
	}
	if len(mutexes) == 0 {
		return nil
	}
	all := uint64(1)<<len(mutexes) - 1
	if len(mutexes) > 63 {
		return nil
	}
	bit := map[*gvar]uint64{}
	for i, m := range mutexes {
		bit[m] = 1 << i
	}
	held := make([]uint64, n)
	known := make([]bool, n)
	held[0], known[0] = 0, true
	for changed := true; changed; {
		changed = false
		for k := range n {
			if !known[k] {
				continue
			}
			for _, cmd := range c.locs[k].cmds {
				out := held[k]
				switch cmd.op {
				case opLock:
					out |= bit[cmd.mu]
				case opUnlock:
					out &^= bit[cmd.mu]
				}
				j := cmd.next
				if !known[j] {
					known[j], held[j], changed = true, out, true
				} else if nh := held[j] & out; nh != held[j] {
					held[j], changed = nh, true
				}
			}
		}
	}
	common := map[*gvar]uint64{}
	for k, l := range c.locs {
		for _, v := range l.access {
			h := held[k]
			if !known[k] {
				h = all // unreachable
			}
			if prev, ok := common[v]; ok {
				common[v] = prev & h
			} else {
				common[v] = h
			}
		}
	}
	out := map[*types.Var]bool{}
	for v, h := range common {
		if h != 0 && v.obj != nil {
			out[v.obj] = true
		}
	}
	return out
}

// declareLocal makes the local variable obj a variable of every process.
func (c *gcompiler) declareLocal(obj *types.Var, pos gotoken.Pos) (*gvar, error) {
	if v := c.locals[obj]; v != nil {
		return v, nil
	}
	v, err := c.finiteVar(obj, pos, false)
	if err != nil {
		return nil, err
	}
	name := obj.Name()
	for _, w := range c.localL {
		if w.name == name {
			name = fmt.Sprintf("%s#%d", obj.Name(), c.fset.Position(obj.Pos()).Line)
		}
	}
	v.name = name
	c.locals[obj] = v
	c.localL = append(c.localL, v)
	return v, nil
}

// sharedVar returns the shared variable for the package-level variable
// obj, declaring it on first use.
func (c *gcompiler) sharedVar(obj *types.Var, pos gotoken.Pos) (*gvar, error) {
	if v := c.shared[obj]; v != nil {
		return v, nil
	}
	if c.frozen {
		return nil, c.errAt(pos, ErrUnsupported, "%s is not a variable of the model (the goroutine function does not use it)", obj.Name())
	}
	v, err := c.finiteVar(obj, pos, true)
	if err != nil {
		return nil, err
	}
	v.shared = true
	if init := c.inits[obj]; init != nil {
		tv := c.info.Types[init]
		if tv.Value == nil {
			return nil, c.errAt(init.Pos(), ErrUnsupported, "initial value of %s is not a constant", obj.Name())
		}
		switch {
		case v.isBool && tv.Value.Kind() == constant.Bool:
			v.init = b2i(constant.BoolVal(tv.Value))
		case tv.Value.Kind() == constant.Int:
			k, exact := constant.Int64Val(tv.Value)
			if !exact || k < int64(v.lo) || k > int64(v.hi) {
				return nil, c.errAt(init.Pos(), ErrType, "initial value %s of %s is outside its range %d..%d", tv.Value, obj.Name(), v.lo, v.hi)
			}
			v.init = int(k)
		}
	} else if !v.isBool && (0 < v.lo || 0 > v.hi) {
		return nil, c.errAt(obj.Pos(), ErrType, "initial value 0 of %s is outside its range %d..%d", obj.Name(), v.lo, v.hi)
	}
	c.shared[obj] = v
	c.sharedL = append(c.sharedL, v)
	return v, nil
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// finiteVar checks that obj has a finite domain and returns a variable
// for it (not yet registered).
func (c *gcompiler) finiteVar(obj *types.Var, pos gotoken.Pos, shared bool) (*gvar, error) {
	v := &gvar{name: obj.Name(), obj: obj, pos: obj.Pos()}
	t := obj.Type()
	if n, ok := t.(*types.Named); ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "sync" && n.Obj().Name() == "Mutex" {
		if !shared {
			return nil, c.errAt(pos, ErrUnsupported, "local mutex %s (only package-level sync.Mutex variables)", obj.Name())
		}
		v.isBool, v.hi, v.mutex = true, 1, true
		return v, nil
	}
	b, ok := t.Underlying().(*types.Basic)
	switch {
	case ok && b.Info()&types.IsBoolean != 0:
		v.isBool, v.hi = true, 1
		return v, nil
	case ok && b.Info()&types.IsInteger != 0:
		r := c.ranges[obj]
		if r == nil {
			return nil, c.errAt(pos, ErrUnsupported, "%s has type %s but no //ltl:range (integers need a finite range, e.g. //ltl:range %s 0..7)", obj.Name(), types.TypeString(t, types.RelativeTo(c.pkg)), obj.Name())
		}
		if r.Hi-r.Lo >= 1<<16 {
			return nil, c.errAt(pos, ErrUnsupported, "range %d..%d of %s is too large for a finite-state model", r.Lo, r.Hi, obj.Name())
		}
		v.lo, v.hi, v.ranged = int(r.Lo), int(r.Hi), true
		v.init = v.lo
		if v.lo <= 0 && 0 <= v.hi {
			v.init = 0
		}
		return v, nil
	}
	if _, ok := t.Underlying().(*types.Chan); ok {
		return nil, c.errAt(pos, ErrUnsupported, "channel %s (channels are not supported yet)", obj.Name())
	}
	return nil, c.errAt(pos, ErrUnsupported, "%s has type %s (only bool, integers with //ltl:range and sync.Mutex)", obj.Name(), types.TypeString(t, types.RelativeTo(c.pkg)))
}
