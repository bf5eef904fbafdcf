package gosplit

import (
	"fmt"
	"go/ast"
	goparser "go/parser"
	gotoken "go/token"
	"go/types"
	"strconv"

	"github.com/henceforth-go/henceforth/annotate"
	"github.com/henceforth-go/henceforth/internal/srcpos"
	"github.com/henceforth-go/henceforth/ltl"
	"github.com/henceforth-go/henceforth/split"
)

// This file turns //ltl:spec directives (and spec texts given to
// Program.Property) into Properties of the extracted program.
//
// Atoms are read as follows:
//
//   - a state prop or a Go expression over package-level variables is a
//     predicate on the shared state;
//   - an //ltl:event on a statement of the goroutine function, or a state
//     prop declared inside the function (over its locals), is a
//     per-goroutine atom: "this goroutine is at the statement" (about to
//     execute it, or between the steps of a statement that accesses
//     several shared variables), or "the prop holds of this goroutine's
//     locals";
//   - in spec texts given to Property (not in //ltl:spec directives, whose
//     quoted atoms are Go), the quoted atoms "count(e) <= 1", "count(e) < 2",
//     "count(e) == 0", "count(e) <= 0" and "count(e) < 1" count the
//     goroutines for which the per-goroutine atom e holds.
//
// A spec G p with p propositional is an invariant; per-goroutine atoms make
// it "for every goroutine i, p holds with the atoms of goroutine i" (one
// conjunct per goroutine). Any other spec is an LTL property of infinite
// computations under the goroutines' fairness; per-goroutine atoms are
// those of goroutine 1, which stands for every goroutine since the
// goroutines are symmetric (same code, same initial state).

// gatom is a translated atom.
type gatom struct {
	perProc bool
	g       gexpr
	// count atoms: count(g) <= max, max 0 or 1.
	count bool
	max   int
}

// goSpec is a spec whose atoms are translated: a Property for any number
// of goroutines (Program.property).
type goSpec struct {
	name  string
	f     ltl.Formula
	atoms map[string]*gatom
	pos   split.Pos
	text  string
}

// translateSpec translates the atoms of a spec now (so that package
// variables they read become shared variables, before the Program is
// built).
func (g *Program) translateSpec(name string, f ltl.Formula, props map[string]*annotate.Prop, pos split.Pos, text string) (*goSpec, error) {
	atoms := map[string]*gatom{}
	for _, a := range f.Atoms() {
		prop := props[a]
		if prop == nil {
			return nil, srcpos.Errorf(pos, split.ErrType, "spec %s: atom %q is not bound", name, a)
		}
		ga, err := g.atomOf(prop)
		if err != nil {
			return nil, fmt.Errorf("spec %s: %w", name, err)
		}
		atoms[a] = ga
	}
	return &goSpec{name: name, f: f, atoms: atoms, pos: pos, text: text}, nil
}

// atomOf translates an annotate prop.
func (g *Program) atomOf(prop *annotate.Prop) (*gatom, error) {
	c := g.c
	at := c.position(prop.Pos)
	switch prop.Kind {
	case annotate.StatementEvent:
		if prop.Func != g.Func {
			return nil, srcpos.Errorf(at, split.ErrUnsupported, "event %s marks a statement outside the goroutine function %s", prop.Name, g.Func.Name())
		}
		var ks []int
		for k, l := range c.locs {
			if l.stmt == prop.Stmt {
				ks = append(ks, k)
			}
		}
		if len(ks) == 0 {
			return nil, srcpos.Errorf(at, split.ErrUnsupported, "event %s marks a statement that takes no step of its own", prop.Name)
		}
		return &gatom{perProc: true, g: func(env gEnv) split.Expr {
			var alts []split.Expr
			for _, k := range ks {
				alts = append(alts, split.Is(env[c.pcVar()], k))
			}
			return split.Or(alts...)
		}}, nil
	case annotate.StateProp:
		return g.goAtom(prop.Expr.AST, prop.Expr.Info)
	}
	return nil, srcpos.Errorf(at, split.ErrUnsupported, "%s event %s (only //ltl:event statements of the goroutine function, and state props)", prop.Kind, prop.Name)
}

// goAtom translates a Go boolean expression type-checked with info.
func (g *Program) goAtom(e ast.Expr, info *types.Info) (*gatom, error) {
	c := g.c
	saved := c.info
	c.info = info
	defer func() { c.info = saved }()
	ge, err := c.expr(e, nil)
	if err != nil {
		return nil, err
	}
	per := false
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if v, ok := info.Uses[id].(*types.Var); ok && c.locals[v] != nil {
				per = true
			}
		}
		return true
	})
	return &gatom{perProc: per, g: ge}, nil
}

// pcVar is the variable that stands for pc in environments.
func (c *gcompiler) pcVar() *gvar {
	if c.pc == nil {
		c.pc = &gvar{name: "pc"}
	}
	return c.pc
}

// property builds the Property of a translated spec.
func (g *Program) property(sp *goSpec) (*split.Property, error) {
	name, f, atoms, pos, text := sp.name, sp.f, sp.atoms, sp.pos, sp.text
	if f.Op() == ltl.OpAlways && propositional(f.Left()) {
		p := f.Left()
		per := false
		for _, a := range p.Atoms() {
			per = per || atoms[a].perProc
		}
		var e split.Expr
		if per {
			var conj []split.Expr
			for i := range g.envs {
				ei, err := g.instantiate(p, atoms, i)
				if err != nil {
					return nil, err
				}
				conj = append(conj, ei)
			}
			e = split.And(conj...)
		} else {
			var err error
			if e, err = g.instantiate(p, atoms, 0); err != nil {
				return nil, err
			}
		}
		prop := split.NewInvariant(name, e)
		prop.Text, prop.Pos = text, pos
		return prop, nil
	}
	m := map[string]split.Expr{}
	for a, ga := range atoms {
		if ga.count {
			return nil, srcpos.Errorf(pos, split.ErrUnsupported, "spec %s: count atom %q outside an invariant G p", name, a)
		}
		m[a] = ga.g(g.envs[0])
	}
	prop := split.NewLTL(name, f, m)
	prop.Text, prop.Pos = text, pos
	return prop, nil
}

// propositional reports whether f has no temporal operator.
func propositional(f ltl.Formula) bool {
	if !f.Op().IsBoolean() {
		return false
	}
	for _, o := range f.Operands() {
		if !propositional(o) {
			return false
		}
	}
	return true
}

// instantiate translates the propositional formula f with the atoms of
// goroutine i (0-based).
func (g *Program) instantiate(f ltl.Formula, atoms map[string]*gatom, i int) (split.Expr, error) {
	var args []split.Expr
	for _, o := range f.Operands() {
		e, err := g.instantiate(o, atoms, i)
		if err != nil {
			return split.Expr{}, err
		}
		args = append(args, e)
	}
	switch f.Op() {
	case ltl.OpTrue:
		return split.True(), nil
	case ltl.OpFalse:
		return split.False(), nil
	case ltl.OpAtom:
		a := atoms[f.Name()]
		if a.count {
			return g.countAtMost(a), nil
		}
		return a.g(g.envs[i]), nil
	case ltl.OpNot:
		return split.Not(args[0]), nil
	case ltl.OpAnd:
		return split.And(args...), nil
	case ltl.OpOr:
		return split.Or(args...), nil
	case ltl.OpImplies:
		return split.Implies(args[0], args[1]), nil
	case ltl.OpIff:
		return split.Iff(args[0], args[1]), nil
	case ltl.OpXor:
		return split.Xor(args[0], args[1]), nil
	}
	return split.Expr{}, fmt.Errorf("gosplit: operator %s in a state formula", f.Op())
}

// countAtMost expands "at most max goroutines satisfy a" into conjuncts
// over one or two goroutines each, so that each conjunct is checked
// against the processes it reads only.
func (g *Program) countAtMost(a *gatom) split.Expr {
	var conj []split.Expr
	for i := range g.envs {
		if a.max == 0 {
			conj = append(conj, split.Not(a.g(g.envs[i])))
			continue
		}
		for j := i + 1; j < len(g.envs); j++ {
			conj = append(conj, split.Not(split.And(a.g(g.envs[i]), a.g(g.envs[j]))))
		}
	}
	return split.And(conj...)
}

// Property returns the property named by spec: the name of a //ltl:spec
// directive of the package, or a formula whose atoms are props and events
// of the package, package-level boolean variables, or quoted atoms — a Go
// boolean expression over package-level variables the goroutine function
// uses, or a count atom such as "count(crit) <= 1" (see the top of this
// file).
func (g *Program) Property(spec string) (*split.Property, error) {
	if g.annots.Spec(spec) != nil {
		if err := g.specErr[spec]; err != nil {
			return nil, err
		}
		for _, p := range g.Properties {
			if p.Name == spec {
				return p, nil
			}
		}
	}
	if spec == "runtime" {
		for _, p := range g.Properties {
			if p.Name == "runtime" {
				return p, nil
			}
		}
	}
	f, err := ltl.Parse(spec)
	if err != nil {
		return nil, fmt.Errorf("gosplit: spec %q: %w", spec, err)
	}
	atoms := map[string]*gatom{}
	for _, a := range f.Atoms() {
		ga, err := g.textAtom(a)
		if err != nil {
			return nil, fmt.Errorf("gosplit: spec %q: atom %q: %w", spec, a, err)
		}
		atoms[a] = ga
	}
	return g.property(&goSpec{name: spec, f: f, atoms: atoms, text: spec})
}

// textAtom translates an atom of a spec text.
func (g *Program) textAtom(a string) (*gatom, error) {
	if prop := g.annots.Prop(a); prop != nil {
		return g.atomOf(prop)
	}
	e, err := goparser.ParseExpr(a)
	if err != nil {
		return nil, fmt.Errorf("%w: not a prop, an event or a Go expression: %v", split.ErrSyntax, err)
	}
	if ga, ok, err := g.countAtom(e); ok {
		return ga, err
	}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Uses: map[*ast.Ident]types.Object{}}
	if err := types.CheckExpr(g.Fset, g.c.pkg, gotoken.NoPos, e, info); err != nil {
		return nil, fmt.Errorf("%w: %v", split.ErrType, err)
	}
	if b, ok := info.Types[e].Type.Underlying().(*types.Basic); !ok || b.Info()&types.IsBoolean == 0 {
		return nil, fmt.Errorf("%w: %s is not boolean", split.ErrType, a)
	}
	g.c.frozen = true // the program exists: no new shared variables
	defer func() { g.c.frozen = false }()
	return g.goAtom(e, info)
}

// countAtom recognises count(NAME) OP K.
func (g *Program) countAtom(e ast.Expr) (*gatom, bool, error) {
	be, ok := e.(*ast.BinaryExpr)
	if !ok {
		return nil, false, nil
	}
	call, ok := be.X.(*ast.CallExpr)
	if !ok {
		return nil, false, nil
	}
	if fn, ok := call.Fun.(*ast.Ident); !ok || fn.Name != "count" {
		return nil, false, nil
	}
	if len(call.Args) != 1 {
		return nil, true, fmt.Errorf("%w: count takes one prop or event", split.ErrSyntax)
	}
	id, ok := call.Args[0].(*ast.Ident)
	if !ok || g.annots.Prop(id.Name) == nil {
		return nil, true, fmt.Errorf("%w: count(%s): want the name of an event or prop", split.ErrType, types.ExprString(call.Args[0]))
	}
	lit, ok := be.Y.(*ast.BasicLit)
	if !ok || lit.Kind != gotoken.INT {
		return nil, true, fmt.Errorf("%w: count(%s) must be compared with an integer literal", split.ErrSyntax, id.Name)
	}
	k, err := strconv.Atoi(lit.Value)
	if err != nil {
		return nil, true, fmt.Errorf("%w: %s", split.ErrSyntax, lit.Value)
	}
	max := -1
	switch be.Op {
	case gotoken.LEQ:
		max = k
	case gotoken.LSS:
		max = k - 1
	case gotoken.EQL:
		if k == 0 {
			max = 0
		}
	}
	if max != 0 && max != 1 {
		return nil, true, fmt.Errorf("%w: count(%s) %s %s: only \"at most 0\" and \"at most 1\" (<= 1, < 2, == 0, <= 0, < 1)", split.ErrUnsupported, id.Name, be.Op, lit.Value)
	}
	inner, err := g.atomOf(g.annots.Prop(id.Name))
	if err != nil {
		return nil, true, err
	}
	if !inner.perProc {
		return nil, true, fmt.Errorf("%w: count(%s): %s is not a per-goroutine event or prop", split.ErrType, id.Name, id.Name)
	}
	return &gatom{count: true, max: max, g: inner.g}, true, nil
}
