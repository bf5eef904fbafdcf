package gosplit

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
	"github.com/henceforth-go/henceforth/internal/srcpos"
	"github.com/henceforth-go/henceforth/split"
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
	owner  bool // a goroutine index 0..N: the sender of a channel's value (see chanOp)
	ch     *gchan
	pos    gotoken.Pos
	obj    *types.Var // nil for temporaries
}

func (v *gvar) String() string { return v.name }

// gchan is an unbuffered channel: the shared variables that model it (see
// chanOp). The channel's own gvar is not a variable of the Program; its
// parts are.
type gchan struct {
	full  *gvar // a value is in the channel, not yet received
	val   *gvar // the value (the element type: bool, or the channel's //ltl:range)
	owner *gvar // the goroutine that put it there (0 when empty)
}

// gexpr is an expression of the compiled function, instantiated per
// process by env.
type gexpr func(env gEnv) split.Expr

// gEnv maps the compiled function's variables to one process's Vars.
type gEnv map[*gvar]*split.Var

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
	// guard and update of mu are added per process by Program.build.
	mu *gvar
	op mutexOp
	// ch and chop: the command also sends on or receives from the channel
	// ch (see chanOp), guard and update added per process by build.
	ch   *gvar
	chop chanOp
}

// chanOp is what a command does to an unbuffered channel. A channel is
// modelled by three shared variables: full, val and owner (ghost state,
// as a mutex's owner: the goroutine whose value is in the channel). A send
// ch <- v is two steps: the first puts v in the empty channel (guard
// !full; val := v, full := true, owner := self), the second completes the
// send once the value has been taken (guard !(full ∧ owner = self): if
// another sender refilled the channel, the owner is that sender). This is
// Go's semantics: a sender proceeds as soon as a receiver has taken its
// value; senders that find the channel full wait, in any order (Go queues
// them in FIFO order: the model has more interleavings, not fewer). A
// receive is one step (guard full; x := val, full := false), which also
// resets owner to 0 (it is dead while the channel is empty: the rally
// example's N = 32 proof takes 2 s instead of 12). val is not reset: with
// the reset, the refinement of some programs found no new predicate.
type chanOp int

const (
	noChanOp   chanOp = iota
	opSend            // guard !full; full := true, owner := self (val set by the command)
	opSendWait        // guard !(full ∧ owner = self)
	opRecv            // guard full; full := false, owner := 0
)

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
	// hints are the ranges of locals without a //ltl:range that are
	// declared by a receive (x := <-ch): the channel's.
	hints map[*types.Var]*annotate.Range
}

type loopTargets struct{ brk, cont int }

// errAt is a positioned error of the extraction.
func (c *gcompiler) errAt(pos gotoken.Pos, kind error, format string, args ...any) error {
	return srcpos.Errorf(c.position(pos), kind, format, args...)
}

func (c *gcompiler) position(pos gotoken.Pos) split.Pos {
	p := c.fset.Position(pos)
	return split.Pos{File: p.Filename, Line: p.Line, Col: p.Column}
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
		return c.errAt(fd.Pos(), split.ErrUnsupported, "goroutine function %s is a method", fd.Name.Name)
	}
	if fd.Type.TypeParams != nil {
		return c.errAt(fd.Pos(), split.ErrUnsupported, "goroutine function %s is generic", fd.Name.Name)
	}
	if fd.Type.Params.NumFields() > 0 {
		return c.errAt(fd.Type.Params.Pos(), split.ErrUnsupported, "parameters of goroutine function %s (each goroutine runs %s() with no arguments)", fd.Name.Name, fd.Name.Name)
	}
	if fd.Type.Results.NumFields() > 0 {
		return c.errAt(fd.Type.Results.Pos(), split.ErrUnsupported, "results of goroutine function %s", fd.Name.Name)
	}
	if fd.Body == nil {
		return c.errAt(fd.Pos(), split.ErrUnsupported, "goroutine function %s has no body", fd.Name.Name)
	}
	c.rangeHints(fd.Body)
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
	case *ast.SendStmt:
		return c.send(s, next)
	case *ast.IncDecStmt:
		op := gotoken.ADD
		if s.Tok == gotoken.DEC {
			op = gotoken.SUB
		}
		one := &ast.BasicLit{ValuePos: s.TokPos, Kind: gotoken.INT, Value: "1"}
		c.synth[one] = types.TypeAndValue{Type: types.Typ[types.UntypedInt], Value: constant.MakeInt64(1)}
		return c.assign(s, s.X, &ast.BinaryExpr{X: s.X, OpPos: s.TokPos, Op: op, Y: one}, false, next)
	case *ast.AssignStmt:
		if len(s.Lhs) == 2 && len(s.Rhs) == 1 && isRecv(s.Rhs[0]) != nil {
			return 0, c.errAt(s.Pos(), split.ErrUnsupported, "receive with ok (v, ok := <-ch: channels are never closed in the model)")
		}
		if len(s.Lhs) != 1 || len(s.Rhs) != 1 {
			return 0, c.errAt(s.Pos(), split.ErrUnsupported, "assignment of several values at once (write one assignment per variable)")
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
			return 0, c.errAt(s.TokPos, split.ErrUnsupported, "assignment operator %s", s.Tok)
		}
		return c.assign(s, s.Lhs[0], rhs, s.Tok == gotoken.DEFINE, next)
	case *ast.DeclStmt:
		gd, ok := s.Decl.(*ast.GenDecl)
		if !ok || gd.Tok != gotoken.VAR {
			if ok && (gd.Tok == gotoken.CONST || gd.Tok == gotoken.TYPE) {
				return next, nil
			}
			return 0, c.errAt(s.Pos(), split.ErrUnsupported, "declaration")
		}
		var list []ast.Stmt
		for _, spec := range gd.Specs {
			vs := spec.(*ast.ValueSpec)
			if len(vs.Values) != 0 && len(vs.Values) != len(vs.Names) {
				return 0, c.errAt(vs.Pos(), split.ErrUnsupported, "declaration of several variables from one value")
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
			return 0, c.errAt(s.Pos(), split.ErrUnsupported, "labeled %s", s.Tok)
		}
		if len(c.loops) == 0 || s.Tok != gotoken.BREAK && s.Tok != gotoken.CONTINUE {
			return 0, c.errAt(s.Pos(), split.ErrUnsupported, "%s statement", s.Tok)
		}
		t := c.loops[len(c.loops)-1]
		if s.Tok == gotoken.BREAK {
			return t.brk, nil
		}
		return t.cont, nil
	case *ast.ReturnStmt:
		if len(s.Results) > 0 {
			return 0, c.errAt(s.Pos(), split.ErrUnsupported, "return with results")
		}
		return c.done, nil
	}
	if r, ok := s.(*ast.RangeStmt); ok {
		if _, ok := c.typeOf(r.X).Type.Underlying().(*types.Chan); ok {
			return 0, c.errAt(s.Pos(), split.ErrUnsupported, "range over channel %s", types.ExprString(r.X))
		}
	}
	return 0, c.errAt(s.Pos(), split.ErrUnsupported, "%s", stmtName(s))
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
		if u := isRecv(s.X); u != nil {
			return c.recv(s, nil, u, next)
		}
		return 0, c.errAt(s.Pos(), split.ErrUnsupported, "expression statement")
	}
	if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok {
		if b, ok := c.info.Uses[id].(*types.Builtin); ok && b.Name() == "close" {
			return 0, c.errAt(call.Pos(), split.ErrUnsupported, "close of channel %s (closing channels is not supported)", types.ExprString(call.Args[0]))
		}
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
				return 0, c.errAt(call.Pos(), split.ErrUnsupported, "call of (*sync.%s).%s (only Lock and Unlock)", recvName(fn), fn.Name())
			}
			if recvName(fn) == "RWMutex" {
				return 0, c.errAt(call.Pos(), split.ErrUnsupported, "sync.RWMutex (only sync.Mutex)")
			}
			return k, nil
		}
	}
	return 0, c.errAt(call.Pos(), split.ErrUnsupported, "call of %s", types.ExprString(call.Fun))
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
		return nil, c.errAt(x.Pos(), split.ErrUnsupported, "mutex %s: only package-level sync.Mutex variables", types.ExprString(x))
	}
	obj, _ := c.info.Uses[id].(*types.Var)
	if obj == nil || obj.Parent() != c.pkg.Scope() {
		return nil, c.errAt(x.Pos(), split.ErrUnsupported, "mutex %s: only package-level sync.Mutex variables", id.Name)
	}
	return c.sharedVar(obj, id.Pos())
}

// assign compiles lhs = rhs (or lhs := rhs when define).
func (c *gcompiler) assign(s ast.Stmt, lhs, rhs ast.Expr, define bool, next int) (int, error) {
	id, ok := ast.Unparen(lhs).(*ast.Ident)
	if !ok {
		return 0, c.errAt(lhs.Pos(), split.ErrUnsupported, "assignment to %s (only to variables)", types.ExprString(lhs))
	}
	if id.Name == "_" {
		return 0, c.errAt(lhs.Pos(), split.ErrUnsupported, "assignment to _")
	}
	obj, _ := c.info.Defs[id].(*types.Var)
	if obj == nil {
		obj, _ = c.info.Uses[id].(*types.Var)
	}
	if obj == nil {
		return 0, c.errAt(id.Pos(), split.ErrType, "%s is not a variable", id.Name)
	}
	var target *gvar
	var err error
	switch {
	case obj.Parent() == c.pkg.Scope():
		target, err = c.sharedVar(obj, id.Pos())
	case c.locals[obj] != nil:
		target = c.locals[obj]
	case define || c.info.Defs[id] != nil || c.fn.Scope().Contains(obj.Pos()):
		// (a local declared by a statement compiled later: statements
		// are compiled last to first)
		target, err = c.declareLocal(obj, id.Pos())
	default:
		err = c.errAt(id.Pos(), split.ErrUnsupported, "variable %s is not declared in the goroutine function", id.Name)
	}
	if err != nil {
		return 0, err
	}
	if target.mutex {
		return 0, c.errAt(id.Pos(), split.ErrUnsupported, "assignment to mutex %s", id.Name)
	}
	if target.ch != nil {
		return 0, c.errAt(id.Pos(), split.ErrUnsupported, "assignment to channel %s (channels are package-level variables made once)", id.Name)
	}
	if u := isRecv(rhs); u != nil {
		return c.recv(s, target, u, next)
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
		ok := &gcmd{name: what, sets: []gset{{target, val}}, next: next}
		if !target.ranged {
			return []*gcmd{ok}, nil
		}
		return c.inRange(s.Pos(), val, target, target.name, ok, &gcmd{}), nil
	})
}

// inRange returns the commands of a step whose command ok writes e into v,
// a variable with a //ltl:range: ok, guarded by e being in v's range, and
// bad (named after ok), guarded by e being out of it, which goes to the
// runtime error "subject leaves its range".
func (c *gcompiler) inRange(pos gotoken.Pos, e gexpr, v *gvar, subject string, ok, bad *gcmd) []*gcmd {
	lo, hi := v.lo, v.hi
	in := func(env gEnv) split.Expr {
		x := e(env)
		return split.And(split.Ge(x, split.Int(lo)), split.Le(x, split.Int(hi)))
	}
	ok.guard = in
	bad.name = ok.name + " (out of range)"
	bad.guard = func(env gEnv) split.Expr { return split.Not(in(env)) }
	bad.next = c.errLoc(pos, fmt.Sprintf("%s leaves its range %d..%d (//ltl:range)", subject, lo, hi))
	return []*gcmd{ok, bad}
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
			{name: "!(" + src + ")", guard: func(env gEnv) split.Expr { return split.Not(e(env)) }, next: els},
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
				cmd.sets = append(cmd.sets, gset{t, initOf(t)}) // temporaries are dead after the statement
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
			err = c.errAt(id.Pos(), split.ErrUnsupported, "%s is read twice in one expression (read it into a local first)", id.Name)
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
		if h != 0 && v.obj != nil && v.ch == nil {
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
		return nil, c.errAt(pos, split.ErrUnsupported, "%s is not a variable of the model (the goroutine function does not use it)", obj.Name())
	}
	v, err := c.finiteVar(obj, pos, true)
	if err != nil {
		return nil, err
	}
	v.shared = true
	if v.ch != nil {
		if err := c.chanInit(obj); err != nil {
			return nil, err
		}
		c.shared[obj] = v
		c.sharedL = append(c.sharedL, v.ch.full, v.ch.val, v.ch.owner)
		return v, nil
	}
	if init := c.inits[obj]; init != nil {
		tv := c.info.Types[init]
		if tv.Value == nil {
			return nil, c.errAt(init.Pos(), split.ErrUnsupported, "initial value of %s is not a constant", obj.Name())
		}
		switch {
		case v.isBool && tv.Value.Kind() == constant.Bool:
			v.init = b2i(constant.BoolVal(tv.Value))
		case tv.Value.Kind() == constant.Int:
			k, exact := constant.Int64Val(tv.Value)
			if !exact || k < int64(v.lo) || k > int64(v.hi) {
				return nil, c.errAt(init.Pos(), split.ErrType, "initial value %s of %s is outside its range %d..%d", tv.Value, obj.Name(), v.lo, v.hi)
			}
			v.init = int(k)
		}
	} else if !v.isBool && (0 < v.lo || 0 > v.hi) {
		return nil, c.errAt(obj.Pos(), split.ErrType, "initial value 0 of %s is outside its range %d..%d", obj.Name(), v.lo, v.hi)
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
			return nil, c.errAt(pos, split.ErrUnsupported, "local mutex %s (only package-level sync.Mutex variables)", obj.Name())
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
			r = c.hints[obj]
		}
		if r == nil {
			return nil, c.errAt(pos, split.ErrUnsupported, "%s has type %s but no //ltl:range (integers need a finite range, e.g. //ltl:range %s 0..7)", obj.Name(), types.TypeString(t, types.RelativeTo(c.pkg)), obj.Name())
		}
		if err := c.setRange(v, r, obj.Name(), pos); err != nil {
			return nil, err
		}
		return v, nil
	}
	if ct, ok := t.Underlying().(*types.Chan); ok {
		return c.chanVar(v, ct, pos, shared)
	}
	return nil, c.errAt(pos, split.ErrUnsupported, "%s has type %s (only bool, integers with //ltl:range and sync.Mutex)", obj.Name(), types.TypeString(t, types.RelativeTo(c.pkg)))
}

// setRange makes v a ranged integer over r (the //ltl:range of name),
// initially 0 if r contains it and r.Lo otherwise.
func (c *gcompiler) setRange(v *gvar, r *annotate.Range, name string, pos gotoken.Pos) error {
	if r.Hi-r.Lo >= 1<<16 {
		return c.errAt(pos, split.ErrUnsupported, "range %d..%d of %s is too large for a finite-state model", r.Lo, r.Hi, name)
	}
	v.lo, v.hi, v.ranged = int(r.Lo), int(r.Hi), true
	v.init = v.lo
	if v.lo <= 0 && 0 <= v.hi {
		v.init = 0
	}
	return nil
}

// chanVar returns the variable of the channel obj (v), with its parts.
func (c *gcompiler) chanVar(v *gvar, ct *types.Chan, pos gotoken.Pos, shared bool) (*gvar, error) {
	obj := v.obj
	if !shared {
		return nil, c.errAt(pos, split.ErrUnsupported, "local channel %s (only package-level unbuffered channels)", obj.Name())
	}
	val := &gvar{name: obj.Name() + ".val", shared: true, pos: obj.Pos()}
	b, ok := ct.Elem().Underlying().(*types.Basic)
	switch {
	case ok && b.Info()&types.IsBoolean != 0:
		val.isBool, val.hi = true, 1
	case ok && b.Info()&types.IsInteger != 0:
		r := c.ranges[obj]
		if r == nil {
			return nil, c.errAt(pos, split.ErrUnsupported, "channel %s of %s has no //ltl:range (the values it carries need a finite range, e.g. //ltl:range %s 0..7)", obj.Name(), types.TypeString(ct.Elem(), types.RelativeTo(c.pkg)), obj.Name())
		}
		if err := c.setRange(val, r, obj.Name(), pos); err != nil {
			return nil, err
		}
	default:
		return nil, c.errAt(pos, split.ErrUnsupported, "channel %s of %s (only channels of bool and of integers with //ltl:range)", obj.Name(), types.TypeString(ct.Elem(), types.RelativeTo(c.pkg)))
	}
	v.ch = &gchan{
		full:  &gvar{name: obj.Name() + ".full", shared: true, isBool: true, hi: 1, pos: obj.Pos()},
		val:   val,
		owner: &gvar{name: obj.Name() + ".owner", shared: true, owner: true, pos: obj.Pos()},
	}
	return v, nil
}

// chanInit checks that the package-level channel obj is made unbuffered
// by its declaration: var ch = make(chan T) (or make(chan T, 0)).
func (c *gcompiler) chanInit(obj *types.Var) error {
	init := c.inits[obj]
	if init == nil {
		return c.errAt(obj.Pos(), split.ErrUnsupported, "nil channel %s (make it where it is declared: var %s = make(%s))", obj.Name(), obj.Name(), types.TypeString(obj.Type(), types.RelativeTo(c.pkg)))
	}
	call, ok := ast.Unparen(init).(*ast.CallExpr)
	if ok {
		if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok {
			if _, ok := c.info.Uses[id].(*types.Builtin); ok && id.Name == "make" {
				if len(call.Args) == 1 {
					return nil
				}
				if tv := c.info.Types[call.Args[1]]; tv.Value != nil && constant.Sign(tv.Value) == 0 {
					return nil
				}
				return c.errAt(call.Args[1].Pos(), split.ErrUnsupported, "buffered channel %s (capacity %s; only unbuffered channels)", obj.Name(), types.ExprString(call.Args[1]))
			}
		}
	}
	return c.errAt(init.Pos(), split.ErrUnsupported, "channel %s is initialised with %s (only var %s = make(%s))", obj.Name(), types.ExprString(init), obj.Name(), types.TypeString(obj.Type(), types.RelativeTo(c.pkg)))
}

// channel returns the variable of the package-level channel x.
func (c *gcompiler) channel(x ast.Expr, what string) (*gvar, error) {
	x = ast.Unparen(x)
	id, ok := x.(*ast.Ident)
	var obj *types.Var
	if ok {
		obj, _ = c.info.Uses[id].(*types.Var)
	}
	if obj == nil || obj.Parent() != c.pkg.Scope() {
		if ok && obj != nil {
			if _, isChan := obj.Type().Underlying().(*types.Chan); isChan {
				return nil, c.errAt(x.Pos(), split.ErrUnsupported, "%s on local channel %s (only package-level unbuffered channels)", what, id.Name)
			}
		}
		return nil, c.errAt(x.Pos(), split.ErrUnsupported, "%s on %s (only on package-level channel variables)", what, types.ExprString(x))
	}
	v, err := c.sharedVar(obj, id.Pos())
	if err != nil {
		return nil, err
	}
	if v.ch == nil {
		return nil, c.errAt(x.Pos(), split.ErrType, "%s is not a channel", id.Name)
	}
	return v, nil
}

// isRecv returns e as a receive <-ch, or nil.
func isRecv(e ast.Expr) *ast.UnaryExpr {
	if u, ok := ast.Unparen(e).(*ast.UnaryExpr); ok && u.Op == gotoken.ARROW {
		return u
	}
	return nil
}

// send compiles ch <- v: put the value in the empty channel, then wait
// until it has been taken (see chanOp).
func (c *gcompiler) send(s *ast.SendStmt, next int) (int, error) {
	ch, err := c.channel(s.Chan, "send")
	if err != nil {
		return 0, err
	}
	if _, err := c.expr(s.Value, nil); err != nil {
		return 0, err
	}
	reads, err := c.sharedReads(s.Value)
	if err != nil {
		return 0, err
	}
	what := types.ExprString(s.Chan) + " <- " + types.ExprString(s.Value)
	wait := c.newLoc(s, s.Pos(), what+" (wait until received)")
	c.locs[wait].cmds = []*gcmd{{name: "sent on " + ch.name, ch: ch, chop: opSendWait, next: next}}
	val := ch.ch.val
	return c.atomic(s, s.Pos(), -1, what, reads, ch, func(sub map[*gvar]*gvar) ([]*gcmd, error) {
		e, err := c.expr(s.Value, sub)
		if err != nil {
			return nil, err
		}
		ok := &gcmd{name: what, sets: []gset{{val, e}}, ch: ch, chop: opSend, next: wait}
		if !val.ranged {
			return []*gcmd{ok}, nil
		}
		return c.inRange(s.Pos(), e, val, "value sent on "+ch.name, ok, &gcmd{}), nil
	})
}

// recv compiles a receive from the channel u.X into target (nil: the value
// is dropped), as the statement s: one step, or two if target is a shared
// variable (receive into a temporary, then write it).
func (c *gcompiler) recv(s ast.Stmt, target *gvar, u *ast.UnaryExpr, next int) (int, error) {
	ch, err := c.channel(u.X, "receive")
	if err != nil {
		return 0, err
	}
	what := "<-" + types.ExprString(u.X)
	switch s.(type) {
	case *ast.AssignStmt:
		what = c.source(s)
	case *ast.DeclStmt:
		what = "var " + target.name + " = " + what
	}
	val := ch.ch.val
	if target == nil {
		k := c.newLoc(s, s.Pos(), what)
		c.locs[k].cmds = []*gcmd{{name: what, ch: ch, chop: opRecv, next: next}}
		c.locs[k].access = []*gvar{ch}
		return k, nil
	}
	if target.isBool != val.isBool {
		return 0, c.errAt(s.Pos(), split.ErrType, "receive of %s into %s", val.name, target.name)
	}
	// write returns the commands that set target to e, checking its range.
	write := func(extra []gset, chop chanOp, e gexpr) []*gcmd {
		sets := append([]gset{{target, e}}, extra...)
		var chv *gvar
		if chop != noChanOp {
			chv = ch
		}
		ok := &gcmd{name: what, sets: sets, ch: chv, chop: chop, next: next}
		if !target.ranged || val.ranged && val.lo >= target.lo && val.hi <= target.hi && chop != noChanOp {
			return []*gcmd{ok}
		}
		return c.inRange(s.Pos(), e, target, target.name, ok, &gcmd{ch: chv, chop: chop})
	}
	if !target.shared || c.protected[target.obj] {
		k := c.newLoc(s, s.Pos(), what)
		c.locs[k].cmds = write(nil, opRecv, ref(val))
		c.locs[k].access = []*gvar{ch}
		if target.shared {
			c.locs[k].access = append(c.locs[k].access, target)
		}
		return k, nil
	}
	// Receive into a temporary, then write the shared target.
	t := c.temp(val)
	store := c.newLoc(s, s.Pos(), what)
	c.locs[store].cmds = write([]gset{{t, initOf(t)}}, noChanOp, ref(t))
	c.locs[store].access = []*gvar{target}
	k := c.newLoc(s, u.OpPos, "receive from "+ch.name)
	c.locs[k].cmds = []*gcmd{{name: "receive from " + ch.name, sets: []gset{{t, ref(val)}}, ch: ch, chop: opRecv, next: store}}
	c.locs[k].access = []*gvar{ch}
	return k, nil
}

// rangeHints gives the integer locals declared by a receive (x := <-ch,
// var x = <-ch) that have no //ltl:range of their own the range of the
// channel.
func (c *gcompiler) rangeHints(body *ast.BlockStmt) {
	hint := func(id *ast.Ident, rhs ast.Expr) {
		u := isRecv(rhs)
		obj, _ := c.info.Defs[id].(*types.Var)
		if u == nil || obj == nil || c.ranges[obj] != nil {
			return
		}
		chID, ok := ast.Unparen(u.X).(*ast.Ident)
		if !ok {
			return
		}
		if chObj, _ := c.info.Uses[chID].(*types.Var); chObj != nil {
			if r := c.ranges[chObj]; r != nil {
				c.hints[obj] = r
			}
		}
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			if n.Tok == gotoken.DEFINE && len(n.Lhs) == 1 && len(n.Rhs) == 1 {
				if id, ok := n.Lhs[0].(*ast.Ident); ok {
					hint(id, n.Rhs[0])
				}
			}
		case *ast.ValueSpec:
			if len(n.Names) == 1 && len(n.Values) == 1 {
				hint(n.Names[0], n.Values[0])
			}
		}
		return true
	})
}

// initOf is v's initial value as an expression of v's type.
func initOf(v *gvar) gexpr {
	if v.isBool {
		return constB(v.init != 0)
	}
	return constI(v.init)
}
