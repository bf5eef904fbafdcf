package smv

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/henceforth-go/henceforth/internal/srcpos"
	"github.com/henceforth-go/henceforth/ltl"
	"github.com/henceforth-go/henceforth/split"
)

// Parse reads a program in the text format (see syntax.go for the
// grammar), instantiated for the parameter N = n (n ≤ 0 leaves N unset:
// using it is then an error). name is the file name errors report. The
// program's INVARSPEC and LTLSPEC sections become its Properties.
func Parse(name, src string, n int) (*split.Program, error) {
	mods, err := parseFile(name, src)
	if err != nil {
		return nil, err
	}
	e := &elaborator{file: name, n: n, mods: map[string]*moduleDecl{}, budget: maxElements,
		enumIndex: map[string]map[int]bool{}}
	for _, m := range mods {
		if _, dup := e.mods[m.name]; dup {
			return nil, srcpos.Errorf(m.pos, split.ErrType, "module %s declared twice", m.name)
		}
		e.mods[m.name] = m
	}
	main, ok := e.mods["main"]
	if !ok {
		return nil, srcpos.Errorf(split.Pos{File: name, Line: 1, Col: 1}, split.ErrType, "no MODULE main")
	}
	prog, err := e.elabMain(main)
	if err != nil {
		return nil, err
	}
	if err := prog.Validate(); err != nil {
		return nil, err
	}
	for _, pr := range prog.Properties() {
		if err := pr.Validate(); err != nil {
			return nil, err
		}
	}
	return prog, nil
}

// ParseFile reads the program in file path.
func ParseFile(path string, n int) (*split.Program, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("smv: %w", err)
	}
	return Parse(path, string(src), n)
}

// maxElements bounds the variables, processes and quantifier instances a
// text may create, so that a hostile input cannot exhaust memory.
const maxElements = 1 << 20

// elaborator instantiates parsed modules into a Program.
type elaborator struct {
	file      string
	n         int
	mods      map[string]*moduleDecl
	prog      *split.Program
	main      *scope
	budget    int
	enumIndex map[string]map[int]bool // enumeration value → its indices in all types
	visiting  map[*defineDecl]bool
}

// Values a name can denote during elaboration: an Expr (a variable or a
// constant), an *arrVal, a *procVal, a *defVal, or (a name no scope
// binds) a symVal that may be an enumeration value.
type arrVal struct {
	lo    int
	elems []any
}

type procVal struct {
	proc *split.Process
	sc   *scope
}

type defVal struct {
	d  *defineDecl
	sc *scope
}

type symVal struct {
	name string
	pos  split.Pos
}

type scope struct {
	parent *scope
	names  map[string]any
}

func (s *scope) lookup(name string) (any, bool) {
	for ; s != nil; s = s.parent {
		if v, ok := s.names[name]; ok {
			return v, true
		}
	}
	return nil, false
}

func (e *elaborator) spend(pos split.Pos, k int) error {
	e.budget -= k
	if e.budget < 0 {
		return srcpos.Errorf(pos, split.ErrUnsupported, "the program is too large (more than %d variables, processes and quantifier instances)", maxElements)
	}
	return nil
}

func (e *elaborator) elabMain(m *moduleDecl) (*split.Program, error) {
	name := strings.TrimSuffix(e.file, ".smv")
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		name = name[i+1:]
	}
	if e.n > 0 {
		name = fmt.Sprintf("%s(N=%d)", name, e.n)
	}
	p := split.NewProgram(name)
	e.prog = p
	sc := &scope{names: map[string]any{}}
	if e.n > 0 {
		sc.names["N"] = split.Int(e.n)
	}
	e.main = sc
	if len(m.params) > 0 {
		return nil, srcpos.Errorf(m.pos, split.ErrType, "MODULE main takes no parameters")
	}
	for _, d := range m.defines {
		if err := e.define(sc, d); err != nil {
			return nil, err
		}
	}
	// Shared variables first, then the processes (whose arguments may name
	// any shared variable).
	var procs []*varDecl
	for _, d := range m.vars {
		if isProcessType(d.typ) {
			procs = append(procs, d)
			if _, dup := sc.names[d.name]; dup {
				return nil, srcpos.Errorf(d.pos, split.ErrType, "%s declared twice", d.name)
			}
			sc.names[d.name] = nil // reserved
			continue
		}
		v, err := e.declare(d.name, d.typ, nil, sc, d.pos)
		if err != nil {
			return nil, err
		}
		if _, dup := sc.names[d.name]; dup {
			return nil, srcpos.Errorf(d.pos, split.ErrType, "%s declared twice", d.name)
		}
		sc.names[d.name] = v
	}
	for _, d := range procs {
		v, err := e.instantiate(d.name, d.typ, sc, d.pos)
		if err != nil {
			return nil, err
		}
		sc.names[d.name] = v
	}
	if len(p.Processes()) == 0 {
		return nil, srcpos.Errorf(m.pos, split.ErrProgram, "MODULE main declares no process")
	}
	for _, a := range m.assigns {
		if a.next {
			return nil, srcpos.Errorf(a.pos, split.ErrProgram, "next(…) in MODULE main: shared variables change only by process commands")
		}
		lhs, err := e.lvalue(a.lhs, sc)
		if err != nil {
			return nil, err
		}
		init, err := e.initConstraint(lhs, a.rhs, sc)
		if err != nil {
			return nil, err
		}
		p.Init(init)
	}
	for _, n := range m.inits {
		x, err := e.boolExpr(n, sc)
		if err != nil {
			return nil, err
		}
		p.Init(x)
	}
	if len(m.justice) > 0 || len(m.compassion) > 0 || len(m.commands) > 0 {
		pos := m.pos
		switch {
		case len(m.justice) > 0:
			pos = m.justice[0].pos
		case len(m.compassion) > 0:
			pos = m.compassion[0][0].pos
		case len(m.commands) > 0:
			pos = m.commands[0].pos
		}
		return nil, srcpos.Errorf(pos, split.ErrUnsupported, "fairness and commands belong to process modules, not to MODULE main")
	}
	for _, s := range m.invarspecs {
		prop, err := e.invarSpec(s, sc)
		if err != nil {
			return nil, err
		}
		p.AddProperty(prop)
	}
	for _, s := range m.ltlspecs {
		prop, err := e.ltlSpec(s, sc)
		if err != nil {
			return nil, err
		}
		p.AddProperty(prop)
	}
	if e.n > 0 {
		p.Define("N", split.Int(e.n))
	}
	e.publish(sc, "", nil)
	return p, nil
}

func isProcessType(t *typeDecl) bool {
	for t.kind == tyArray {
		t = t.elem
	}
	return t.kind == tyProcess
}

func (e *elaborator) define(sc *scope, d *defineDecl) error {
	if _, dup := sc.names[d.name]; dup {
		return srcpos.Errorf(d.pos, split.ErrType, "%s declared twice", d.name)
	}
	sc.names[d.name] = &defVal{d: d, sc: sc}
	return nil
}

// constInt evaluates a constant integer expression.
func (e *elaborator) constInt(n *snode, sc *scope) (int, error) {
	x, err := e.exprOf(n, sc, nil)
	if err != nil {
		return 0, err
	}
	k, ok := x.ConstInt()
	if !ok {
		return 0, srcpos.Errorf(n.pos, split.ErrType, "%s is not a constant integer", x)
	}
	return k, nil
}

func (e *elaborator) bounds(lo, hi *snode, sc *scope) (int, int, error) {
	l, err := e.constInt(lo, sc)
	if err != nil {
		return 0, 0, err
	}
	h, err := e.constInt(hi, sc)
	if err != nil {
		return 0, 0, err
	}
	return l, h, nil
}

// declare creates the variables of a declaration (recursively for arrays).
func (e *elaborator) declare(name string, t *typeDecl, owner *split.Process, sc *scope, pos split.Pos) (any, error) {
	switch t.kind {
	case tyProcess:
		return nil, srcpos.Errorf(t.pos, split.ErrUnsupported, "processes can only be declared in MODULE main")
	case tyArray:
		lo, hi, err := e.bounds(t.lo, t.hi, sc)
		if err != nil {
			return nil, err
		}
		if hi < lo {
			return nil, srcpos.Errorf(t.pos, split.ErrType, "array %s: empty range %d..%d", name, lo, hi)
		}
		if err := e.spend(t.pos, hi-lo+1); err != nil {
			return nil, err
		}
		arr := &arrVal{lo: lo}
		for i := lo; i <= hi; i++ {
			el, err := e.declare(fmt.Sprintf("%s[%d]", name, i), t.elem, owner, sc, pos)
			if err != nil {
				return nil, err
			}
			arr.elems = append(arr.elems, el)
		}
		return arr, nil
	}
	if err := e.spend(pos, 1); err != nil {
		return nil, err
	}
	// The variables of owner's builders, or the shared ones.
	var vars interface {
		Bool(name string) *split.Var
		Int(name string, lo, hi int) *split.Var
		Enum(name string, values ...string) *split.Var
	} = e.prog
	full := name
	if owner != nil {
		vars = owner
		full = owner.Name() + "." + name
	}
	if e.prog.Lookup(full) != nil {
		return nil, srcpos.Errorf(pos, split.ErrType, "variable %s declared twice", full)
	}
	var v *split.Var
	switch t.kind {
	case tyBool:
		v = vars.Bool(name)
	case tyEnum:
		seen := map[string]bool{}
		for i, s := range t.values {
			if seen[s] {
				return nil, srcpos.Errorf(t.pos, split.ErrType, "enumeration value %s repeated", s)
			}
			seen[s] = true
			if e.enumIndex[s] == nil {
				e.enumIndex[s] = map[int]bool{}
			}
			e.enumIndex[s][i] = true
		}
		v = vars.Enum(name, t.values...)
	case tyRange:
		lo, hi, err := e.bounds(t.lo, t.hi, sc)
		if err != nil {
			return nil, err
		}
		if lo > hi {
			return nil, srcpos.Errorf(t.pos, split.ErrType, "variable %s: empty range %d..%d", full, lo, hi)
		}
		if hi-lo >= 1<<20 {
			return nil, srcpos.Errorf(t.pos, split.ErrUnsupported, "variable %s: range %d..%d too large", full, lo, hi)
		}
		v = vars.Int(name, lo, hi)
	}
	if err := e.prog.Err(); err != nil {
		return nil, err
	}
	return split.Ref(v).WithPos(pos), nil
}

// instantiate creates the processes of a main declaration.
func (e *elaborator) instantiate(name string, t *typeDecl, main *scope, pos split.Pos) (any, error) {
	if t.kind == tyArray {
		lo, hi, err := e.bounds(t.lo, t.hi, main)
		if err != nil {
			return nil, err
		}
		if hi < lo {
			return nil, srcpos.Errorf(t.pos, split.ErrType, "array %s: empty range %d..%d", name, lo, hi)
		}
		if t.elem.kind != tyProcess {
			return nil, srcpos.Errorf(t.elem.pos, split.ErrUnsupported, "arrays of arrays of processes are not supported")
		}
		if err := e.spend(t.pos, hi-lo+1); err != nil {
			return nil, err
		}
		arr := &arrVal{lo: lo}
		for i := lo; i <= hi; i++ {
			pv, err := e.process(fmt.Sprintf("%s[%d]", name, i), i, t.elem, main)
			if err != nil {
				return nil, err
			}
			arr.elems = append(arr.elems, pv)
		}
		return arr, nil
	}
	return e.process(name, 1, t, main)
}

func (e *elaborator) process(name string, self int, t *typeDecl, main *scope) (*procVal, error) {
	m, ok := e.mods[t.module]
	if !ok {
		return nil, srcpos.Errorf(t.pos, split.ErrType, "unknown module %s", t.module)
	}
	if m.name == "main" {
		return nil, srcpos.Errorf(t.pos, split.ErrType, "MODULE main cannot be a process")
	}
	if len(t.args) != len(m.params) {
		return nil, srcpos.Errorf(t.pos, split.ErrType, "module %s takes %d arguments, found %d", m.name, len(m.params), len(t.args))
	}
	argScope := &scope{parent: main, names: map[string]any{"self": split.Int(self)}}
	// Names of main (its constants, definitions and shared variables) are
	// visible in the module unless a parameter or local hides them.
	sc := &scope{parent: main, names: map[string]any{"self": split.Int(self)}}
	for i, a := range t.args {
		v, err := e.value(a, argScope, nil)
		if err != nil {
			return nil, err
		}
		if sym, ok := v.(symVal); ok {
			if v, err = e.resolveSym(sym, nil); err != nil {
				return nil, err
			}
		}
		if _, dup := sc.names[m.params[i]]; dup && m.params[i] != "self" && m.params[i] != "N" {
			return nil, srcpos.Errorf(m.pos, split.ErrType, "parameter %s declared twice", m.params[i])
		}
		sc.names[m.params[i]] = v
	}
	pr := e.prog.Process(name)
	pr.SetTemplate(m.name)
	pr.SetPos(t.pos)
	if e.prog.Err() != nil {
		return nil, e.prog.Err()
	}
	pv := &procVal{proc: pr, sc: sc}
	for _, d := range m.defines {
		if err := e.define(sc, d); err != nil {
			return nil, err
		}
	}
	for _, d := range m.vars {
		if _, dup := sc.names[d.name]; dup {
			return nil, srcpos.Errorf(d.pos, split.ErrType, "%s declared twice", d.name)
		}
		v, err := e.declare(d.name, d.typ, pr, sc, d.pos)
		if err != nil {
			return nil, err
		}
		sc.names[d.name] = v
	}
	var nexts []split.Update
	for _, a := range m.assigns {
		lhs, err := e.lvalue(a.lhs, sc)
		if err != nil {
			return nil, err
		}
		if !a.next {
			init, err := e.initConstraint(lhs, a.rhs, sc)
			if err != nil {
				return nil, err
			}
			pr.Init(init)
			continue
		}
		v := lhs.Var()
		rhs, err := e.exprOf(a.rhs, sc, v)
		if err != nil {
			return nil, err
		}
		nexts = append(nexts, split.Set(v, rhs.WithPos(a.rhs.pos)))
	}
	if len(nexts) > 0 {
		c := pr.Command("next", split.Expr{}, nexts...)
		c.Pos = m.assigns[0].pos
	}
	for _, n := range m.inits {
		x, err := e.boolExpr(n, sc)
		if err != nil {
			return nil, err
		}
		pr.Init(x)
	}
	for _, c := range m.commands {
		if err := e.command(pr, c, sc); err != nil {
			return nil, err
		}
	}
	for _, n := range m.justice {
		if n.kind == sIdent && n.text == "running" {
			pr.Scheduled()
			continue
		}
		x, err := e.boolExpr(n, sc)
		if err != nil {
			return nil, err
		}
		pr.Justice(x)
	}
	for _, c := range m.compassion {
		a, err := e.boolExpr(c[0], sc)
		if err != nil {
			return nil, err
		}
		b, err := e.boolExpr(c[1], sc)
		if err != nil {
			return nil, err
		}
		pr.Compassion(a, b)
	}
	if len(m.invarspecs) > 0 || len(m.ltlspecs) > 0 {
		return nil, srcpos.Errorf(m.pos, split.ErrUnsupported, "specifications belong to MODULE main (module %s has some)", m.name)
	}
	e.publish(sc, name+".", m.params)
	return pv, nil
}

// publish names, with Program.Define, what the text of a property may use
// besides variables (see ParseProperty): the definitions of scope sc, and
// the parameters params that denote expressions, each called prefix+name
// (P[1].crit for the definition crit of process P[1]). A definition that
// is not an expression (an array) is left out; publishing does not count
// towards the text's size budget.
func (e *elaborator) publish(sc *scope, prefix string, params []string) {
	defer func(budget int) { e.budget = budget }(e.budget)
	for name, d := range sc.names {
		dv, ok := d.(*defVal)
		if !ok {
			continue
		}
		if x, err := e.exprOf(&snode{kind: sIdent, text: name, pos: dv.d.pos}, sc, nil); err == nil {
			e.prog.Define(prefix+name, x)
		}
	}
	for _, name := range params {
		if x, ok := sc.names[name].(split.Expr); ok {
			e.prog.Define(prefix+name, x)
		}
	}
}

// command expands one COMMANDS entry (once per index of its binder).
func (e *elaborator) command(pr *split.Process, c *commandDecl, sc *scope) error {
	one := func(sc *scope, label string) error {
		guard, err := e.boolExpr(c.guard, sc)
		if err != nil {
			return err
		}
		var ups []split.Update
		for _, u := range c.updates {
			us, err := e.update(u, sc)
			if err != nil {
				return err
			}
			ups = append(ups, us...)
		}
		cmd := pr.Command(label, guard, ups...)
		cmd.Pos = c.pos
		return nil
	}
	label := c.label
	if label == "" {
		label = fmt.Sprintf("cmd%d", len(pr.Commands())+1)
	}
	if c.binder == nil {
		return one(sc, label)
	}
	lo, hi, err := e.bounds(c.binder.lo, c.binder.hi, sc)
	if err != nil {
		return err
	}
	if err := e.spend(c.pos, max(hi-lo+1, 0)); err != nil {
		return err
	}
	for i := lo; i <= hi; i++ {
		inner := &scope{parent: sc, names: map[string]any{c.binder.name: split.Int(i)}}
		if err := one(inner, fmt.Sprintf("%s[%d]", label, i)); err != nil {
			return err
		}
	}
	return nil
}

// update expands one assignment of a command. An assignment to an array
// element with a non-constant index assigns every element conditionally.
func (e *elaborator) update(u *updateDecl, sc *scope) ([]split.Update, error) {
	one := func(sc *scope) ([]split.Update, error) {
		if u.lhs.kind == sIndex {
			base, err := e.value(u.lhs.args[0], sc, nil)
			if err != nil {
				return nil, err
			}
			idx, err := e.exprOf(u.lhs.args[1], sc, nil)
			if err != nil {
				return nil, err
			}
			if arr, ok := base.(*arrVal); ok {
				if _, isConst := idx.ConstInt(); !isConst {
					var ups []split.Update
					for i, el := range arr.elems {
						x, ok := el.(split.Expr)
						if !ok || x.Var() == nil {
							return nil, srcpos.Errorf(u.lhs.pos, split.ErrType, "cannot assign an element of this array")
						}
						rhs, err := e.exprOf(u.rhs, sc, x.Var())
						if err != nil {
							return nil, err
						}
						ups = append(ups, split.Set(x.Var(), split.Ite(split.Eq(idx, split.Int(arr.lo+i)), rhs, x).WithPos(u.rhs.pos)))
					}
					return ups, nil
				}
			}
		}
		lhs, err := e.lvalue(u.lhs, sc)
		if err != nil {
			return nil, err
		}
		rhs, err := e.exprOf(u.rhs, sc, lhs.Var())
		if err != nil {
			return nil, err
		}
		return []split.Update{split.Set(lhs.Var(), rhs.WithPos(u.rhs.pos))}, nil
	}
	if u.binder == nil {
		return one(sc)
	}
	lo, hi, err := e.bounds(u.binder.lo, u.binder.hi, sc)
	if err != nil {
		return nil, err
	}
	if err := e.spend(u.pos, max(hi-lo+1, 0)); err != nil {
		return nil, err
	}
	var out []split.Update
	for i := lo; i <= hi; i++ {
		inner := &scope{parent: sc, names: map[string]any{u.binder.name: split.Int(i)}}
		us, err := one(inner)
		if err != nil {
			return nil, err
		}
		out = append(out, us...)
	}
	return out, nil
}

// lvalue resolves an assigned variable.
func (e *elaborator) lvalue(n *snode, sc *scope) (split.Expr, error) {
	x, err := e.exprOf(n, sc, nil)
	if err != nil {
		return split.Expr{}, err
	}
	if x.Var() == nil {
		return split.Expr{}, srcpos.Errorf(n.pos, split.ErrType, "%s is not a variable", x)
	}
	return x, nil
}

// initConstraint turns init(v) := rhs into "v ∈ rhs".
func (e *elaborator) initConstraint(lhs split.Expr, rhs *snode, sc *scope) (split.Expr, error) {
	x, err := e.exprOf(rhs, sc, lhs.Var())
	if err != nil {
		return split.Expr{}, err
	}
	return split.In(lhs.Var(), x), nil
}

func (e *elaborator) boolExpr(n *snode, sc *scope) (split.Expr, error) {
	x, err := e.exprOf(n, sc, nil)
	if err != nil {
		return split.Expr{}, err
	}
	if err := x.CheckBool("condition"); err != nil {
		return split.Expr{}, err
	}
	return x, nil
}

// exprOf elaborates n to an Expr; want is the variable the value is for
// (it resolves enumeration values), or nil.
func (e *elaborator) exprOf(n *snode, sc *scope, want *split.Var) (split.Expr, error) {
	v, err := e.value(n, sc, want)
	if err != nil {
		return split.Expr{}, err
	}
	return e.asExpr(v, n, want)
}

func (e *elaborator) asExpr(v any, n *snode, want *split.Var) (split.Expr, error) {
	switch x := v.(type) {
	case split.Expr:
		return x, nil
	case symVal:
		return e.resolveSym(x, want)
	case *arrVal:
		return split.Expr{}, srcpos.Errorf(n.pos, split.ErrType, "an array is not a value here; index it")
	case *procVal:
		return split.Expr{}, srcpos.Errorf(n.pos, split.ErrType, "process %s is not a value; name one of its variables", x.proc.Name())
	}
	return split.Expr{}, srcpos.Errorf(n.pos, split.ErrType, "not a value")
}

// resolveSym turns a name no scope binds into an enumeration value.
func (e *elaborator) resolveSym(s symVal, want *split.Var) (split.Expr, error) {
	if want != nil {
		for i, name := range want.Enum() {
			if name == s.name {
				return split.EnumConst(i, name).WithPos(s.pos), nil
			}
		}
	}
	idx, ok := e.enumIndex[s.name]
	switch {
	case !ok:
		if s.name == "N" {
			return split.Expr{}, srcpos.Errorf(s.pos, split.ErrType, "N is not set (give the parameter N)")
		}
		return split.Expr{}, srcpos.Errorf(s.pos, split.ErrType, "unknown name %s", s.name)
	case len(idx) > 1:
		return split.Expr{}, srcpos.Errorf(s.pos, split.ErrType, "enumeration value %s is ambiguous here (it has different positions in different types)", s.name)
	}
	for i := range idx {
		return split.EnumConst(i, s.name).WithPos(s.pos), nil
	}
	return split.Expr{}, nil
}

// enumVar returns the enumeration variable an expression reads directly.
func enumVar(x any) *split.Var {
	if ex, ok := x.(split.Expr); ok && ex.Var() != nil && ex.Var().Enum() != nil {
		return ex.Var()
	}
	return nil
}

// value elaborates n to what it denotes.
func (e *elaborator) value(n *snode, sc *scope, want *split.Var) (any, error) {
	switch n.kind {
	case sNum:
		return split.Int(n.num).WithPos(n.pos), nil
	case sBool:
		return split.Bool(n.num != 0).WithPos(n.pos), nil
	case sIdent:
		v, ok := sc.lookup(n.text)
		if !ok {
			if x := e.prog.Lookup(n.text); x != nil {
				return split.Ref(x).WithPos(n.pos), nil
			}
			return symVal{n.text, n.pos}, nil
		}
		if v == nil {
			return nil, srcpos.Errorf(n.pos, split.ErrType, "%s names processes: a process reads only shared variables and its own", n.text)
		}
		if d, ok := v.(*defVal); ok {
			return e.defineValue(d, n.pos)
		}
		if x, ok := v.(split.Expr); ok {
			return x.WithPos(n.pos), nil
		}
		return v, nil
	case sIndex:
		base, err := e.value(n.args[0], sc, nil)
		if err != nil {
			return nil, err
		}
		idx, err := e.exprOf(n.args[1], sc, nil)
		if err != nil {
			return nil, err
		}
		if s, ok := base.(symVal); ok {
			if k, ok := idx.ConstInt(); ok {
				if v := e.prog.Lookup(fmt.Sprintf("%s[%d]", s.name, k)); v != nil {
					return split.Ref(v).WithPos(n.pos), nil
				}
				return symVal{fmt.Sprintf("%s[%d]", s.name, k), n.pos}, nil
			}
		}
		arr, ok := base.(*arrVal)
		if !ok {
			return nil, srcpos.Errorf(n.pos, split.ErrType, "only arrays can be indexed")
		}
		if k, ok := idx.ConstInt(); ok {
			if k < arr.lo || k >= arr.lo+len(arr.elems) {
				return nil, srcpos.Errorf(n.args[1].pos, split.ErrType, "index %d outside %d..%d", k, arr.lo, arr.lo+len(arr.elems)-1)
			}
			return arr.elems[k-arr.lo], nil
		}
		// A variable index: a conditional over the elements.
		last := len(arr.elems) - 1
		x, ok := arr.elems[last].(split.Expr)
		if !ok {
			return nil, srcpos.Errorf(n.args[1].pos, split.ErrUnsupported, "arrays of processes or of arrays need constant indices")
		}
		for i := last - 1; i >= 0; i-- {
			el, ok := arr.elems[i].(split.Expr)
			if !ok {
				return nil, srcpos.Errorf(n.args[1].pos, split.ErrUnsupported, "arrays of processes or of arrays need constant indices")
			}
			x = split.Ite(split.Eq(idx, split.Int(arr.lo+i)), el, x)
		}
		return x.WithPos(n.pos), nil
	case sField:
		base, err := e.value(n.args[0], sc, nil)
		if err != nil {
			return nil, err
		}
		if s, ok := base.(symVal); ok {
			full := s.name + "." + n.text
			if v := e.prog.Lookup(full); v != nil {
				return split.Ref(v).WithPos(n.pos), nil
			}
			return symVal{full, n.pos}, nil
		}
		pv, ok := base.(*procVal)
		if !ok {
			return nil, srcpos.Errorf(n.pos, split.ErrType, "only processes have fields")
		}
		v, ok := pv.sc.names[n.text]
		if !ok {
			return nil, srcpos.Errorf(n.pos, split.ErrType, "process %s has no variable or definition %s", pv.proc.Name(), n.text)
		}
		if d, ok := v.(*defVal); ok {
			return e.defineValue(d, n.pos)
		}
		return v, nil
	case sUnary:
		a, err := e.exprOf(n.args[0], sc, nil)
		if err != nil {
			return nil, err
		}
		switch n.text {
		case "!":
			return split.Not(a).WithPos(n.pos), nil
		case "-":
			return split.Neg(a).WithPos(n.pos), nil
		}
		return nil, srcpos.Errorf(n.pos, split.ErrSyntax, "temporal operator %s outside an LTL specification", n.text)
	case sBinary:
		return e.binary(n, sc)
	case sIte:
		c, err := e.exprOf(n.args[0], sc, nil)
		if err != nil {
			return nil, err
		}
		a, err := e.exprOf(n.args[1], sc, want)
		if err != nil {
			return nil, err
		}
		b, err := e.exprOf(n.args[2], sc, want)
		if err != nil {
			return nil, err
		}
		return split.Ite(c, a, b).WithPos(n.pos), nil
	case sCase:
		var bs []split.Branch
		for i := 0; i+1 < len(n.args); i += 2 {
			c, err := e.exprOf(n.args[i], sc, nil)
			if err != nil {
				return nil, err
			}
			v, err := e.exprOf(n.args[i+1], sc, want)
			if err != nil {
				return nil, err
			}
			bs = append(bs, split.Branch{Cond: c, Value: v})
		}
		return split.Case(bs...).WithPos(n.pos), nil
	case sSet:
		var alts []split.Expr
		for _, a := range n.args {
			x, err := e.exprOf(a, sc, want)
			if err != nil {
				return nil, err
			}
			alts = append(alts, x)
		}
		if len(alts) == 1 {
			return alts[0], nil
		}
		return split.OneOf(alts...).WithPos(n.pos), nil
	case sCall:
		a, err := e.exprOf(n.args[0], sc, want)
		if err != nil {
			return nil, err
		}
		b, err := e.exprOf(n.args[1], sc, want)
		if err != nil {
			return nil, err
		}
		if n.text == "min" {
			return split.Min(a, b).WithPos(n.pos), nil
		}
		return split.Max(a, b).WithPos(n.pos), nil
	case sQuant:
		lo, hi, err := e.bounds(n.args[0], n.args[1], sc)
		if err != nil {
			return nil, err
		}
		if err := e.spend(n.pos, max(hi-lo+1, 0)); err != nil {
			return nil, err
		}
		var parts []split.Expr
		for i := lo; i <= hi; i++ {
			inner := &scope{parent: sc, names: map[string]any{n.name: split.Int(i)}}
			x, err := e.exprOf(n.args[2], inner, nil)
			if err != nil {
				return nil, err
			}
			if err := x.CheckBool(n.text); err != nil {
				return nil, err
			}
			parts = append(parts, x)
		}
		if n.text == "forall" {
			return split.And(parts...), nil
		}
		return split.Or(parts...), nil
	}
	return nil, srcpos.Errorf(n.pos, split.ErrSyntax, "unexpected expression")
}

func (e *elaborator) defineValue(d *defVal, pos split.Pos) (any, error) {
	if e.visiting == nil {
		e.visiting = map[*defineDecl]bool{}
	}
	if e.visiting[d.d] {
		return nil, srcpos.Errorf(pos, split.ErrType, "definition %s refers to itself", d.d.name)
	}
	e.visiting[d.d] = true
	defer delete(e.visiting, d.d)
	return e.value(d.d.body, d.sc, nil)
}

func (e *elaborator) binary(n *snode, sc *scope) (any, error) {
	l, err := e.value(n.args[0], sc, nil)
	if err != nil {
		return nil, err
	}
	r, err := e.value(n.args[1], sc, nil)
	if err != nil {
		return nil, err
	}
	// Enumeration values take their type from the other side.
	a, err := e.asExpr(l, n.args[0], enumVar(r))
	if err != nil {
		return nil, err
	}
	b, err := e.asExpr(r, n.args[1], enumVar(l))
	if err != nil {
		return nil, err
	}
	var x split.Expr
	switch n.text {
	case "&":
		x = split.And(a, b)
	case "|":
		x = split.Or(a, b)
	case "xor":
		x = split.Xor(a, b)
	case "->":
		x = split.Implies(a, b)
	case "<->":
		x = split.Iff(a, b)
	case "=":
		x = split.Eq(a, b)
	case "!=":
		x = split.Ne(a, b)
	case "<":
		x = split.Lt(a, b)
	case "<=":
		x = split.Le(a, b)
	case ">":
		x = split.Gt(a, b)
	case ">=":
		x = split.Ge(a, b)
	case "+":
		x = split.Add(a, b)
	case "-":
		x = split.Sub(a, b)
	case "*":
		x = split.Mul(a, b)
	case "/":
		if k, ok := b.ConstInt(); ok && k == 0 {
			return nil, srcpos.Errorf(n.pos, split.ErrType, "division by zero")
		}
		x = split.Div(a, b)
	case "mod":
		if k, ok := b.ConstInt(); ok && k == 0 {
			return nil, srcpos.Errorf(n.pos, split.ErrType, "division by zero")
		}
		x = split.Mod(a, b)
	default:
		return nil, srcpos.Errorf(n.pos, split.ErrSyntax, "temporal operator %s outside an LTL specification", n.text)
	}
	if err := x.Check(); err != nil {
		var pe *split.Error
		if errors.As(err, &pe) && !pe.Pos.IsValid() {
			pe.Pos = n.pos
		}
		return nil, err
	}
	return x.WithPos(n.pos), nil
}

// invarSpec elaborates an INVARSPEC.
func (e *elaborator) invarSpec(s *specDecl, sc *scope) (*split.Property, error) {
	x, err := e.boolExpr(s.body, sc)
	if err != nil {
		return nil, err
	}
	p := split.NewInvariant(s.name, x)
	p.Pos = s.pos
	return p, nil
}

// ltlSpec elaborates an LTLSPEC: maximal subformulas without temporal
// operators become atoms named by their text.
func (e *elaborator) ltlSpec(s *specDecl, sc *scope) (*split.Property, error) {
	atoms := map[string]split.Expr{}
	f, err := e.ltlFormula(s.body, sc, atoms)
	if err != nil {
		return nil, err
	}
	p := split.NewLTL(s.name, f, atoms)
	p.Pos = s.pos
	return p, nil
}

func hasTemporal(n *snode) bool {
	if n.kind == sUnary && (n.text == "G" || n.text == "F" || n.text == "X") {
		return true
	}
	if n.kind == sBinary && (n.text == "U" || n.text == "W" || n.text == "R" || n.text == "V") {
		return true
	}
	if n.kind == sQuant {
		return hasTemporal(n.args[2])
	}
	for _, a := range n.args {
		if hasTemporal(a) {
			return true
		}
	}
	return false
}

func (e *elaborator) ltlFormula(n *snode, sc *scope, atoms map[string]split.Expr) (ltl.Formula, error) {
	if !hasTemporal(n) {
		x, err := e.boolExpr(n, sc)
		if err != nil {
			return ltl.Formula{}, err
		}
		if b, ok := x.ConstBool(); ok {
			if b {
				return ltl.True(), nil
			}
			return ltl.False(), nil
		}
		name := x.String()
		atoms[name] = x
		return ltl.QuotedAtom(name), nil
	}
	sub := func(i int) (ltl.Formula, error) { return e.ltlFormula(n.args[i], sc, atoms) }
	switch n.kind {
	case sUnary:
		a, err := sub(0)
		if err != nil {
			return a, err
		}
		switch n.text {
		case "!":
			return ltl.Not(a), nil
		case "G":
			return ltl.Always(a), nil
		case "F":
			return ltl.Eventually(a), nil
		case "X":
			return ltl.Next(a), nil
		}
	case sBinary:
		a, err := sub(0)
		if err != nil {
			return a, err
		}
		b, err := sub(1)
		if err != nil {
			return b, err
		}
		switch n.text {
		case "&":
			return ltl.And(a, b), nil
		case "|":
			return ltl.Or(a, b), nil
		case "xor":
			return ltl.Xor(a, b), nil
		case "->":
			return ltl.Implies(a, b), nil
		case "<->":
			return ltl.Iff(a, b), nil
		case "U":
			return ltl.Until(a, b), nil
		case "W":
			return ltl.WeakUntil(a, b), nil
		case "R", "V":
			return ltl.Release(a, b), nil
		}
	case sQuant:
		lo, hi, err := e.bounds(n.args[0], n.args[1], sc)
		if err != nil {
			return ltl.Formula{}, err
		}
		if err := e.spend(n.pos, max(hi-lo+1, 0)); err != nil {
			return ltl.Formula{}, err
		}
		var parts []ltl.Formula
		for i := lo; i <= hi; i++ {
			inner := &scope{parent: sc, names: map[string]any{n.name: split.Int(i)}}
			f, err := e.ltlFormula(n.args[2], inner, atoms)
			if err != nil {
				return f, err
			}
			parts = append(parts, f)
		}
		if n.text == "forall" {
			return ltl.AndAll(parts...), nil
		}
		return ltl.OrAll(parts...), nil
	}
	return ltl.Formula{}, srcpos.Errorf(n.pos, split.ErrUnsupported, "temporal operators inside %s", describeNode(n))
}

func describeNode(n *snode) string {
	switch n.kind {
	case sIte:
		return "?:"
	case sCase:
		return "case…esac"
	case sBinary:
		return "the operands of " + n.text
	}
	return "this expression"
}
