package gosplit

import (
	"context"
	"errors"
	"fmt"
	"go/ast"
	gotoken "go/token"
	"go/types"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/packages"

	"github.com/henceforth-go/henceforth/annotate"
	"github.com/henceforth-go/henceforth/internal/srcpos"
	"github.com/henceforth-go/henceforth/split"
)

// Program is a split.Program extracted from Go source, with the properties of
// the package's //ltl:spec directives and what it takes to map a trace back
// to Go positions.
type Program struct {
	// Program has processes Func[1] … Func[N], each with a local pc.
	Program *split.Program
	// N is the number of goroutines.
	N int
	// Func is the goroutine function.
	Func *types.Func
	// Fset holds the positions of the package's files.
	Fset *gotoken.FileSet
	// Properties are the properties to check, in order: "runtime" (no
	// goroutine leaves a //ltl:range or unlocks an unlocked mutex), if the
	// function can do either, then one per //ltl:spec the model can
	// express, in source order.
	Properties []*split.Property
	// Skipped says why the other //ltl:spec directives are not in
	// Properties (an atom that is a call event, a variable the goroutine
	// function does not see…); Property(name) returns the same error.
	Skipped []error
	// Harnesses are the functions of the package (tests included) that
	// start Func with a go statement and take no parameter or one
	// *testing.T: explorer entries that can confirm a counterexample.
	Harnesses []*types.Func

	c       *gcompiler
	annots  *annotate.Package
	specs   []*goSpec     // the translated //ltl:spec directives
	skip    []skippedSpec // the directives that could not be translated
	pcs     []*split.Var  // pc of each process
	envs    []gEnv
	specErr map[string]error
}

// skippedSpec is a //ltl:spec directive the model cannot express.
type skippedSpec struct {
	name string
	err  error
}

// Config says where Load finds the package.
type Config struct {
	// Dir is the directory go/packages runs in ("" is the current one).
	Dir string
}

// Load loads the package that pattern names (with its tests, through
// go/packages, in cfg.Dir) and extracts the program in which fn, a
// function of the package, runs as n goroutines (see Extract).
func Load(ctx context.Context, cfg Config, pattern, fn string, n int) (*Program, error) {
	lcfg := &packages.Config{
		Context: ctx,
		Dir:     cfg.Dir,
		Mode:    packages.NeedName | packages.NeedFiles | packages.NeedSyntax | packages.NeedTypes | packages.NeedTypesInfo | packages.NeedImports,
		Tests:   true,
	}
	pkgs, err := packages.Load(lcfg, pattern)
	if err != nil {
		return nil, fmt.Errorf("gosplit: loading %s: %w", pattern, err)
	}
	// Prefer the in-package test variant: it has the package's files and
	// its tests (harnesses).
	var pkg *packages.Package
	for _, p := range pkgs {
		if strings.HasSuffix(p.ID, ".test]") && !strings.HasSuffix(p.Name, "_test") && p.Types != nil && p.Types.Scope().Lookup(fn) != nil {
			pkg = p
		}
	}
	for _, p := range pkgs {
		if pkg == nil && p.Types != nil && p.Types.Scope().Lookup(fn) != nil {
			pkg = p
		}
	}
	for _, p := range pkgs {
		if len(p.Errors) > 0 {
			return nil, fmt.Errorf("gosplit: loading %s: %w", pattern, p.Errors[0])
		}
	}
	if pkg == nil {
		if len(pkgs) == 0 {
			return nil, fmt.Errorf("gosplit: no package matches %s", pattern)
		}
		return nil, srcpos.Errorf(split.Pos{}, split.ErrType, "no function %s in package %s", fn, pkgs[0].PkgPath)
	}
	return Extract(pkg.Fset, pkg.Syntax, pkg.Types, pkg.TypesInfo, fn, n)
}

// Extract returns the program in which fn, a function of the type-checked
// package pkg, runs as n goroutines. files must have been parsed with
// comments and info must record Types, Defs, Uses and InitOrder (as
// go/packages provides); neither is modified.
//
// The goroutines are symmetric processes fn[1] … fn[n] (1-based, like
// the thesis's P[i]); each one runs fn's body from its start, and is
// scheduled fairly (weak fairness, as Go's scheduler: a goroutine that can
// move eventually does; a mutex is not strongly fair). A package-level
// sync.Mutex is a shared integer 0..n, the goroutine holding it (0: none;
// see mutexOp in gocompile.go). Package-level
// variables start at their constant initial values; code outside fn
// (main, init functions, tests) is not part of the model.
func Extract(fset *gotoken.FileSet, files []*ast.File, pkg *types.Package, info *types.Info, fn string, n int) (*Program, error) {
	if n < 1 {
		return nil, fmt.Errorf("gosplit: Extract: %d goroutines (want at least 1)", n)
	}
	obj, _ := pkg.Scope().Lookup(fn).(*types.Func)
	if obj == nil {
		return nil, srcpos.Errorf(split.Pos{}, split.ErrType, "no function %s in package %s", fn, pkg.Path())
	}
	annots, err := annotate.FromTypes(fset, files, pkg, info)
	if err != nil {
		return nil, fmt.Errorf("gosplit: %w", err)
	}
	var decl *ast.FuncDecl
	for _, f := range files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && info.Defs[fd.Name] == obj {
				decl = fd
			}
		}
	}
	if decl == nil {
		return nil, srcpos.Errorf(split.Pos{}, split.ErrType, "no declaration of %s in the files given", fn)
	}
	ranges := map[*types.Var]*annotate.Range{}
	for _, r := range annots.Ranges {
		ranges[r.Var] = r
	}
	inits := map[*types.Var]ast.Expr{}
	for _, in := range info.InitOrder {
		if len(in.Lhs) == 1 {
			inits[in.Lhs[0]] = in.Rhs
		}
	}
	newCompiler := func(protected map[*types.Var]bool) *gcompiler {
		return &gcompiler{
			fset: fset, pkg: pkg, info: info, fn: obj, ranges: ranges, inits: inits, protected: protected,
			shared: map[*types.Var]*gvar{}, locals: map[*types.Var]*gvar{},
			temps: map[*gvar]*gvar{}, names: map[string]int{},
			synth: map[ast.Expr]types.TypeAndValue{}, hints: map[*types.Var]*annotate.Range{},
		}
	}
	// Compile once with every shared access a step of its own, find the
	// variables that are only accessed under a common mutex, and compile
	// again with statement-level atomicity for those.
	c := newCompiler(nil)
	if err := c.compile(decl); err != nil {
		return nil, err
	}
	if protected := c.lockProtected(); len(protected) > 0 {
		c = newCompiler(protected)
		if err := c.compile(decl); err != nil {
			return nil, err
		}
	}
	g := &Program{N: n, Func: obj, Fset: fset, c: c, annots: annots}
	g.Harnesses = harnesses(files, info, obj)
	// Translate the specs before building: their atoms may read package
	// variables the function does not use, which become shared variables.
	for _, s := range annots.Specs {
		sp, err := g.translateSpec(s.Name, s.Formula, s.Atoms, c.position(s.SourcePos), s.Source)
		if err != nil {
			g.skip = append(g.skip, skippedSpec{s.Name, err})
			continue
		}
		g.specs = append(g.specs, sp)
	}
	if err := g.instantiateAll(); err != nil {
		return nil, err
	}
	return g, nil
}

// withN returns the program of the same function run by n goroutines.
func (g *Program) withN(n int) (*Program, error) {
	h := &Program{N: n, Func: g.Func, Fset: g.Fset, Harnesses: g.Harnesses, c: g.c, annots: g.annots, specs: g.specs, skip: g.skip}
	if err := h.instantiateAll(); err != nil {
		return nil, err
	}
	return h, nil
}

// instantiateAll builds the Program for g.N goroutines and its Properties.
func (g *Program) instantiateAll() error {
	g.specErr = map[string]error{}
	for _, s := range g.skip {
		g.specErr[s.name] = s.err
		g.Skipped = append(g.Skipped, s.err)
	}
	g.build()
	if err := g.Program.Validate(); err != nil {
		return fmt.Errorf("gosplit: extracted program: %w", err)
	}
	if rt := g.runtimeProperty(); rt != nil {
		g.Properties = append(g.Properties, rt)
	}
	for _, sp := range g.specs {
		prop, err := g.property(sp)
		if err != nil {
			g.specErr[sp.name] = err
			g.Skipped = append(g.Skipped, err)
			continue
		}
		g.Properties = append(g.Properties, prop)
	}
	return nil
}

// build instantiates the compiled function N times.
func (g *Program) build() {
	c := g.c
	p := split.NewProgram(c.pkg.Name() + "." + g.Func.Name())
	sharedVars := map[*gvar]*split.Var{}
	for _, v := range c.sharedL {
		var sv *split.Var
		switch {
		case v.mutex, v.owner:
			sv = p.Int(v.name, 0, g.N) // the owner (see mutexOp, chanOp)
		case v.isBool:
			sv = p.Bool(v.name)
		default:
			sv = p.Int(v.name, v.lo, v.hi)
		}
		sharedVars[v] = sv
		p.Init(split.Is(sv, v.init))
	}
	names := make([]string, len(c.locs))
	for k, l := range c.locs {
		names[k] = l.name
	}
	for i := 1; i <= g.N; i++ {
		pr := p.Process(fmt.Sprintf("%s[%d]", g.Func.Name(), i))
		pr.SetTemplate(g.Func.Name())
		env := gEnv{}
		for v, sv := range sharedVars {
			env[v] = sv
		}
		pc := pr.Enum("pc", names...)
		env[c.pcVar()] = pc
		pr.Init(split.Is(pc, 0))
		for _, v := range c.localL {
			var lv *split.Var
			if v.isBool {
				lv = pr.Bool(v.name)
			} else {
				lv = pr.Int(v.name, v.lo, v.hi)
			}
			env[v] = lv
			pr.Init(split.Is(lv, v.init))
		}
		for k, l := range c.locs {
			for _, cmd := range l.cmds {
				guard := split.Is(pc, k)
				if cmd.guard != nil {
					guard = split.And(guard, cmd.guard(env))
				}
				ups := []split.Update{split.Set(pc, split.Int(cmd.next))}
				for _, s := range cmd.sets {
					ups = append(ups, split.Set(env[s.v], s.e(env)))
				}
				if mu := env[cmd.mu]; mu != nil {
					switch cmd.op {
					case opLock:
						guard = split.And(guard, split.Is(mu, 0))
						ups = append(ups, split.Set(mu, split.Int(i)))
					case opUnlock:
						guard = split.And(guard, split.Not(split.Is(mu, 0)))
						ups = append(ups, split.Set(mu, split.Int(0)))
					case opBadUnlock:
						guard = split.And(guard, split.Is(mu, 0))
					}
				}
				if ch := cmd.ch; ch != nil {
					full, owner := env[ch.ch.full], env[ch.ch.owner]
					switch cmd.chop {
					case opSend:
						guard = split.And(guard, split.Is(full, 0))
						ups = append(ups, split.Set(full, split.Bool(true)), split.Set(owner, split.Int(i)))
					case opSendWait:
						guard = split.And(guard, split.Not(split.And(split.Is(full, 1), split.Is(owner, i))))
					case opRecv:
						guard = split.And(guard, split.Is(full, 1))
						ups = append(ups, split.Set(full, split.Bool(false)), split.Set(owner, split.Int(0)))
					}
				}
				cm := pr.Command(l.name+": "+cmd.name, guard, ups...)
				cm.Pos = c.position(l.pos)
			}
		}
		pr.Scheduled()
		g.pcs = append(g.pcs, pc)
		g.envs = append(g.envs, env)
	}
	g.Program = p
}

// runtimeProperty is the invariant that no goroutine reaches an error
// location, or nil if there is none.
func (g *Program) runtimeProperty() *split.Property {
	var errs []int
	for k, l := range g.c.locs {
		if l.err != "" {
			errs = append(errs, k)
		}
	}
	if len(errs) == 0 {
		return nil
	}
	var conj []split.Expr
	for _, pc := range g.pcs {
		for _, k := range errs {
			conj = append(conj, split.Not(split.Is(pc, k)))
		}
	}
	prop := split.NewInvariant("runtime", split.And(conj...))
	prop.Text = "no goroutine leaves a //ltl:range or unlocks an unlocked mutex"
	return prop
}

// harnesses returns the functions that start fn with a go statement (go
// fn(), or go func() { … fn() … }()) and take no parameters or one
// *testing.T.
func harnesses(files []*ast.File, info *types.Info, fn *types.Func) []*types.Func {
	var out []*types.Func
	for _, f := range files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil || fd.Recv != nil {
				continue
			}
			hobj, _ := info.Defs[fd.Name].(*types.Func)
			if hobj == nil || hobj == fn {
				continue
			}
			params := hobj.Type().(*types.Signature).Params()
			if params.Len() > 1 || params.Len() == 1 && types.TypeString(params.At(0).Type(), nil) != "*testing.T" {
				continue
			}
			found := false
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				gs, ok := n.(*ast.GoStmt)
				if !ok || found {
					return !found
				}
				ast.Inspect(gs.Call, func(m ast.Node) bool {
					if id, ok := m.(*ast.Ident); ok && info.Uses[id] == fn {
						found = true
					}
					return !found
				})
				return false
			})
			if found {
				out = append(out, hobj)
			}
		}
	}
	return out
}

// Step is one step of a counterexample in Go terms.
type Step struct {
	// Goroutine is the goroutine that moved, 1-based (process fn[i]).
	Goroutine int
	// Pos is the position of the statement it executed.
	Pos gotoken.Position
	// Op says what it did: the statement, or "load x" for a read of a
	// shared variable before a statement that accesses several.
	Op string
	// Error is set when the step ends in a runtime error (a value outside
	// its //ltl:range, an unlock of an unlocked mutex).
	Error string
}

func (s Step) String() string {
	p := s.Pos
	p.Filename = filepath.Base(p.Filename)
	str := fmt.Sprintf("goroutine %d at %s: %s", s.Goroutine, p, s.Op)
	if s.Error != "" {
		str += " → " + s.Error
	}
	return str
}

// Steps maps a trace of g.Program to Go positions: for every move, the
// goroutine and the statement of the location it moved from. Skips (a
// goroutine that has returned or is blocked) are left out.
func (g *Program) Steps(t *split.Trace) ([]Step, error) {
	if t == nil {
		return nil, errors.New("gosplit: Steps: nil trace")
	}
	var out []Step
	for j, st := range t.Steps {
		i := -1
		for k, pr := range g.Program.Processes() {
			if pr.Name() == st.Process {
				i = k
			}
		}
		if i < 0 || j+1 >= len(t.States) {
			return nil, fmt.Errorf("gosplit: Steps: step %d: unknown process %q", j, st.Process)
		}
		from, to := t.States[j][g.pcs[i].Index()], t.States[j+1][g.pcs[i].Index()]
		if from < 0 || from >= len(g.c.locs) || to < 0 || to >= len(g.c.locs) {
			return nil, fmt.Errorf("gosplit: Steps: step %d: pc out of range", j)
		}
		if st.Command == "skip" || st.Command == "" {
			continue
		}
		l := g.c.locs[from]
		out = append(out, Step{Goroutine: i + 1, Pos: g.Fset.Position(l.pos), Op: l.what, Error: g.c.locs[to].err})
	}
	return out, nil
}

// FormatSteps prints a counterexample as one line per step, in Go terms.
func (g *Program) FormatSteps(t *split.Trace) string {
	steps, err := g.Steps(t)
	if err != nil {
		return err.Error()
	}
	var b strings.Builder
	for k, s := range steps {
		fmt.Fprintf(&b, "%3d  %s\n", k+1, s)
	}
	return b.String()
}
