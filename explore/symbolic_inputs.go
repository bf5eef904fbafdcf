package explore

import (
	"fmt"
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/ssa"

	"github.com/henceforth-go/henceforth/annotate"
)

// Where symbolic inputs come from: //ltl:symbolic directives (parsed by
// package annotate) on functions (their parameters) and package
// variables, and calls of ltltest.Symbolic.

// ltltestPath is the import path of package ltltest.
const ltltestPath = "github.com/henceforth-go/henceforth/ltltest"

// symbolicDirectives is what Load found about symbolic inputs.
type symbolicDirectives struct {
	// params lists the symbolic parameters of //ltl:symbolic functions.
	params map[*types.Func][]*types.Var
	// vars lists the //ltl:symbolic package variables per package.
	vars map[*types.Package][]*types.Var
	// callsSymbolic holds the user packages that call ltltest.Symbolic.
	callsSymbolic map[*types.Package]bool
}

// loadSymbolic collects the symbolic inputs of the user packages (the
// interpreted packages outside the standard library, as Load classified
// them from the go command's facts).
func (p *Program) loadSymbolic(created map[*packages.Package]*ssa.Package) {
	d := &p.sym
	for lp := range created {
		if lp.Types == nil || lp.PkgPath == ltltestPath {
			continue
		}
		if _, user := p.syntax[lp.Types]; !user {
			continue // the standard library and the explorer's own libraries
		}
		for _, obj := range lp.TypesInfo.Uses {
			if fn, ok := obj.(*types.Func); ok && fn.Name() == "Symbolic" && fn.Pkg() != nil && fn.Pkg().Path() == ltltestPath {
				if d.callsSymbolic == nil {
					d.callsSymbolic = map[*types.Package]bool{}
				}
				d.callsSymbolic[lp.Types] = true
				break
			}
		}
		if !hasSymbolicDirective(lp.Syntax) {
			continue
		}
		// Problems with other directives are annotate's to report; the
		// symbolic inputs that bound are kept.
		ap, _ := annotate.FromTypes(lp.Fset, lp.Syntax, lp.Types, lp.TypesInfo)
		for _, s := range ap.Symbolic {
			if s.Func != nil {
				if d.params == nil {
					d.params = map[*types.Func][]*types.Var{}
				}
				d.params[s.Func] = append(d.params[s.Func], s.Var)
				continue
			}
			if d.vars == nil {
				d.vars = map[*types.Package][]*types.Var{}
			}
			d.vars[lp.Types] = append(d.vars[lp.Types], s.Var)
		}
	}
}

func hasSymbolicDirective(files []*ast.File) bool {
	for _, f := range files {
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				if strings.HasPrefix(c.Text, "//ltl:symbolic") {
					return true
				}
			}
		}
	}
	return false
}

// symbolicExploration decides whether an exploration of e compiles code
// for symbolic values.
func (p *Program) symbolicExploration(e *Entry, opts *Options) bool {
	if opts.Inputs != nil {
		return false // a concrete run with given inputs
	}
	return len(e.Symbolic) > 0 || len(p.symbolicVars(e.Fn.Pkg)) > 0 || p.reachesSymbolic(e.Fn.Pkg.Pkg, map[*types.Package]bool{})
}

// reachesSymbolic reports whether pkg or a package it imports
// (transitively) calls ltltest.Symbolic.
func (p *Program) reachesSymbolic(pkg *types.Package, seen map[*types.Package]bool) bool {
	if len(p.sym.callsSymbolic) == 0 || seen[pkg] {
		return false
	}
	seen[pkg] = true
	if p.sym.callsSymbolic[pkg] {
		return true
	}
	for _, imp := range pkg.Imports() {
		if p.reachesSymbolic(imp, seen) {
			return true
		}
	}
	return false
}

// symbolicVars returns the //ltl:symbolic variables of pkg.
func (p *Program) symbolicVars(pkg *ssa.Package) []*ssa.Global {
	if pkg == nil {
		return nil
	}
	var gs []*ssa.Global
	for _, v := range p.sym.vars[pkg.Pkg] {
		if g, ok := pkg.Members[v.Name()].(*ssa.Global); ok {
			gs = append(gs, g)
		}
	}
	return gs
}

// entry builds the Entry of fn: a test or a function without parameters
// (newEntry), or a //ltl:symbolic function all of whose parameters are
// symbolic booleans or integers (results are ignored).
func (p *Program) entry(fn *ssa.Function) (*Entry, error) {
	obj, _ := fn.Object().(*types.Func)
	params := p.sym.params[obj]
	sig := fn.Signature
	if obj == nil || len(params) == 0 || sig.Params().Len() == 0 || sig.Recv() != nil || len(fn.FreeVars) > 0 {
		e, err := newEntry(fn)
		if e != nil {
			e.prog = p
		}
		return e, err
	}
	e := &Entry{Name: fn.Pkg.Pkg.Path() + "." + fn.Name(), Fn: fn, prog: p}
	for i := range sig.Params().Len() {
		v := sig.Params().At(i)
		found := false
		for _, s := range params {
			found = found || s == v
		}
		if _, ok := typesSymbolic(v.Type()); !ok || !found {
			return nil, fmt.Errorf("%s: %s: parameter %s (%s) of a //ltl:symbolic entry must be a symbolic boolean or integer",
				fn.Prog.Fset.Position(v.Pos()), e.Name, v.Name(), v.Type())
		}
		e.Symbolic = append(e.Symbolic, v)
	}
	return e, nil
}

// typesSymbolic reports whether t can be a symbolic input (a boolean or
// integer type).
func typesSymbolic(t types.Type) (types.Type, bool) {
	b, ok := t.Underlying().(*types.Basic)
	return t, ok && b.Info()&(types.IsBoolean|types.IsInteger) != 0 && b.Kind() != types.UntypedBool && b.Kind() != types.UntypedInt && b.Kind() != types.UntypedRune
}

// entryInputs appends the inputs for the entry's symbolic parameters to
// the entry's arguments.
func (x *execution) entryInputs(g *goroutine, args []Value) ([]Value, ctrl) {
	for _, v := range x.entry.Symbolic {
		in, cc := x.newInput(g, x.entry.Fn.Pos(), v.Name(), v.Type())
		if cc != ctrlNext {
			return nil, cc
		}
		args = append(args, in)
	}
	return args, ctrlNext
}

// symbolicGlobals makes the //ltl:symbolic variables of the entry's
// package inputs named after the variables.
func (x *execution) symbolicGlobals(g *goroutine) ctrl {
	for _, sg := range x.m.prog.symbolicVars(x.entry.Fn.Pkg) {
		t := sg.Type().(*types.Pointer).Elem()
		in, cc := x.newInput(g, sg.Pos(), sg.Name(), t)
		if cc != ctrlNext {
			return cc
		}
		x.m.global(sg).cells[0] = in
	}
	return ctrlNext
}

// symbolicIntrinsics implements ltltest.Symbolic: a fresh input (or,
// with Options.Inputs, the given value) of the instantiation's type.
func symbolicModel() model {
	return model{funcs: map[string]intrinsicFactory{
		ltltestPath + ".Symbolic": func(m *machine, fn *ssa.Function) intrinsic {
			rt := fn.Signature.Results().At(0).Type()
			return func(c *icall) ctrl {
				name := c.args[1].Str()
				if name == "" {
					return c.g.unsupported(c.pos, "ltltest.Symbolic: empty input name")
				}
				v, cc := c.x().newInput(c.g, c.pos, name, rt)
				if cc != ctrlNext {
					return cc
				}
				return c.ret(v)
			}
		},
	}}
}
