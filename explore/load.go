package explore

import (
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"unicode"

	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/ssa"
)

// LoadConfig says which packages to load.
type LoadConfig struct {
	// Dir is the directory in which patterns are resolved ("" = current).
	Dir string
	// Patterns are go/packages patterns ("./...", an import path).
	Patterns []string
	// NoTests leaves out _test.go files (they are loaded by default).
	NoTests bool
	// BuildFlags and Env are passed to the go command.
	BuildFlags []string
	Env        []string
}

// Program is a loaded, type-checked program in SSA form, ready to explore.
// It is immutable after Load and safe for concurrent explorations.
type Program struct {
	Fset *token.FileSet
	SSA  *ssa.Program
	// Packages are the SSA packages of the packages matched by the
	// patterns; test variants replace the plain packages they extend.
	Packages []*ssa.Package

	interpreted map[*types.Package]bool
	// syntax keeps the files and type information of the user packages
	// (not the standard library), for reading their annotations (spec.go).
	syntax map[*types.Package]pkgSyntax
	specs  specCache
	sym    symbolicDirectives // symbolic inputs (symbolic_inputs.go)
}

// Load loads the packages matched by cfg.Patterns with their tests, type
// checks them and builds SSA with generics instantiated. Type errors in the
// loaded packages are returned as positioned errors.
func Load(ctx context.Context, cfg LoadConfig) (*Program, error) {
	if len(cfg.Patterns) == 0 {
		cfg.Patterns = []string{"."}
	}
	goroot := filepath.Clean(runtime.GOROOT()) + string(filepath.Separator)
	pcfg := &packages.Config{
		Context: ctx,
		Mode: packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles |
			packages.NeedImports | packages.NeedDeps | packages.NeedTypes |
			packages.NeedSyntax | packages.NeedTypesInfo | packages.NeedModule,
		Dir:        cfg.Dir,
		Env:        cfg.Env,
		BuildFlags: cfg.BuildFlags,
		Tests:      !cfg.NoTests,
		ParseFile: func(fset *token.FileSet, filename string, src []byte) (*ast.File, error) {
			f, err := parser.ParseFile(fset, filename, src, parser.ParseComments|parser.SkipObjectResolution)
			if f != nil && strings.HasPrefix(filename, goroot) {
				rel := filepath.ToSlash(filepath.Dir(strings.TrimPrefix(filename, goroot)))
				rel = strings.TrimPrefix(rel, "src/")
				if !isInterpretedStd(rel) {
					stripBodies(f)
				}
			}
			return f, err
		},
	}
	pkgs, err := packages.Load(pcfg, cfg.Patterns...)
	if err != nil {
		return nil, fmt.Errorf("explore: loading %s: %w", strings.Join(cfg.Patterns, " "), err)
	}
	if len(pkgs) == 0 {
		return nil, fmt.Errorf("explore: no packages match %s", strings.Join(cfg.Patterns, " "))
	}
	// Errors in user packages (and interpreted std packages) are fatal; the
	// standard packages with stripped bodies report errors we caused.
	isStd := func(p *packages.Package) bool {
		files := p.GoFiles
		if len(files) == 0 {
			files = p.CompiledGoFiles
		}
		if len(files) == 0 {
			return isStdPath(p.PkgPath)
		}
		return strings.HasPrefix(files[0], goroot)
	}
	var errs []error
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		if (isStd(p) && !isInterpretedStd(p.PkgPath)) || isOpaqueLibrary(p.PkgPath) {
			return
		}
		for _, e := range p.Errors {
			errs = append(errs, fmt.Errorf("%s", e))
		}
	})
	if len(errs) > 0 {
		return nil, fmt.Errorf("explore: %w", errors.Join(errs...))
	}

	// BareInits: each package's init initializes only that package; the
	// explorer runs them in dependency order itself, so that a package
	// whose initialization is unsupported does not stop the others.
	prog := ssa.NewProgram(pkgs[0].Fset, ssa.InstantiateGenerics|ssa.BareInits)
	p := &Program{Fset: pkgs[0].Fset, SSA: prog, interpreted: map[*types.Package]bool{}, syntax: map[*types.Package]pkgSyntax{}}
	created := map[*packages.Package]*ssa.Package{}
	packages.Visit(pkgs, nil, func(lp *packages.Package) {
		if lp.Types == nil || strings.HasSuffix(lp.ID, ".test") {
			return
		}
		interp := (!isStd(lp) && !isOpaqueLibrary(lp.PkgPath)) || isInterpretedStd(lp.PkgPath)
		var files []*ast.File
		var info *types.Info
		if interp {
			files, info = lp.Syntax, lp.TypesInfo
			p.interpreted[lp.Types] = true
			if !isStd(lp) {
				p.syntax[lp.Types] = pkgSyntax{files, info}
			}
		}
		created[lp] = prog.CreatePackage(lp.Types, files, info, true)
	})
	prog.Build()
	p.loadSymbolic(created)

	// Roots: prefer the test variant "p [p.test]" over the plain package.
	hasVariant := map[string]bool{}
	for _, lp := range pkgs {
		if strings.Contains(lp.ID, " [") && !strings.HasSuffix(lp.PkgPath, "_test") {
			hasVariant[lp.PkgPath] = true
		}
	}
	for _, lp := range pkgs {
		sp := created[lp]
		if sp == nil {
			continue
		}
		if !strings.Contains(lp.ID, " [") && hasVariant[lp.PkgPath] {
			continue
		}
		p.Packages = append(p.Packages, sp)
	}
	return p, nil
}

// stripBodies removes function bodies from a parsed standard-library file
// whose package is not interpreted: only its declarations are needed.
func stripBodies(f *ast.File) {
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok {
			fd.Body = nil
		}
	}
}

// isInterpreted reports whether the package's function bodies are run.
func (p *Program) isInterpreted(pkg *types.Package) bool { return p.interpreted[pkg] }

// Entry is a function the explorer runs: a test function func(*testing.T)
// or a function without parameters and results.
type Entry struct {
	// Name is the package-qualified SSA name, e.g. "example.com/p.TestX"
	// or "example.com/p.TestX$1".
	Name string
	Fn   *ssa.Function
	// TakesT reports whether the function's only parameter is *testing.T.
	TakesT bool
	// Symbolic are the parameters of a //ltl:symbolic entry: each starts
	// as a fresh symbolic input named after it.
	Symbolic []*types.Var

	prog *Program // for the symbolic variables of its package (EmitTest)
}

func (e *Entry) String() string { return e.Name }

func newEntry(fn *ssa.Function) (*Entry, error) {
	e := &Entry{Name: fn.Pkg.Pkg.Path() + "." + fn.Name(), Fn: fn}
	if len(fn.FreeVars) > 0 {
		var names []string
		for _, fv := range fn.FreeVars {
			names = append(names, fv.Name())
		}
		return nil, fmt.Errorf("%s: %s captures variables of the enclosing function (%s); the explored body must not refer to outside variables",
			fn.Prog.Fset.Position(fn.Pos()), e.Name, strings.Join(names, ", "))
	}
	sig := fn.Signature
	switch {
	case sig.Params().Len() == 0 && sig.Results().Len() == 0 && sig.Recv() == nil:
	case sig.Params().Len() == 1 && sig.Results().Len() == 0 && sig.Recv() == nil && isTestingT(sig.Params().At(0).Type()):
		e.TakesT = true
	default:
		return nil, fmt.Errorf("%s: %s has signature %s; an entry takes no parameters or a single *testing.T",
			fn.Prog.Fset.Position(fn.Pos()), e.Name, sig)
	}
	return e, nil
}

func isTestingT(t types.Type) bool {
	p, ok := t.(*types.Pointer)
	if !ok {
		return false
	}
	n, ok := p.Elem().(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "testing" && n.Obj().Name() == "T"
}

// Tests returns the Test functions of the loaded packages whose names
// match run (all if run is nil), sorted by package and position.
func (p *Program) Tests(run *regexp.Regexp) []*Entry {
	var out []*Entry
	for _, pkg := range p.Packages {
		var fns []*ssa.Function
		for _, m := range pkg.Members {
			fn, ok := m.(*ssa.Function)
			if !ok || !isTestName(fn.Name()) || !strings.HasSuffix(p.Fset.Position(fn.Pos()).Filename, "_test.go") {
				continue
			}
			if run != nil && !run.MatchString(fn.Name()) {
				continue
			}
			fns = append(fns, fn)
		}
		sort.Slice(fns, func(i, j int) bool { return fns[i].Pos() < fns[j].Pos() })
		for _, fn := range fns {
			if e, err := p.entry(fn); err == nil && e.TakesT {
				out = append(out, e)
			}
		}
	}
	return out
}

func isTestName(name string) bool {
	if !strings.HasPrefix(name, "Test") {
		return false
	}
	if len(name) == 4 {
		return true
	}
	r := []rune(name[4:])[0]
	return !unicode.IsLower(r)
}

// Func finds the function to explore by name. Accepted forms:
//
//	"TestX", "helper"               a package-level function of a loaded package
//	"TestX$1", "TestX.func1"        a closure (SSA or runtime naming)
//	"example.com/p.TestX.func1"     as runtime.FuncForPC(pc).Name() prints it
//	"(*T).M" is not accepted: entries take no receiver.
func (p *Program) Func(name string) (*Entry, error) {
	pkgPath, local := splitFuncName(name)
	var cands []*ssa.Function
	for _, pkg := range p.Packages {
		if pkgPath != "" && pkg.Pkg.Path() != pkgPath {
			continue
		}
		if fn := lookupLocal(pkg, local); fn != nil {
			cands = append(cands, fn)
		}
	}
	if len(cands) == 0 {
		return nil, fmt.Errorf("explore: no function %q in the loaded packages", name)
	}
	if len(cands) > 1 {
		return nil, fmt.Errorf("explore: function name %q is ambiguous: found in %s and %s", name, cands[0].Pkg.Pkg.Path(), cands[1].Pkg.Pkg.Path())
	}
	return p.entry(cands[0])
}

// splitFuncName splits "a/b/c.F.func1" into ("a/b/c", "F.func1"). A name
// without a dot before its first identifier has no package.
func splitFuncName(name string) (pkgPath, local string) {
	slash := strings.LastIndex(name, "/")
	dot := strings.Index(name[slash+1:], ".")
	if slash < 0 {
		// "p.F" with a one-element path is ambiguous with "F.func1";
		// treat it as a path only if the first element is not a
		// top-level function name (resolved by the caller's lookup).
		if dot < 0 {
			return "", name
		}
		first := name[:dot]
		if strings.HasPrefix(first, "Test") || (first != "" && unicode.IsUpper(rune(first[0]))) {
			return "", name
		}
		return first, name[dot+1:]
	}
	if dot < 0 {
		return "", name
	}
	return name[:slash+1+dot], name[slash+1+dot+1:]
}

// lookupLocal resolves "F", "F$1$2" or "F.func1.2" in pkg.
func lookupLocal(pkg *ssa.Package, local string) *ssa.Function {
	parts := strings.Split(strings.ReplaceAll(local, "$", "."), ".")
	fn, _ := pkg.Members[parts[0]].(*ssa.Function)
	if fn == nil {
		return nil
	}
	for _, part := range parts[1:] {
		part = strings.TrimPrefix(part, "func")
		var n int
		if _, err := fmt.Sscanf(part, "%d", &n); err != nil || n < 1 || n > len(fn.AnonFuncs) {
			return nil
		}
		fn = fn.AnonFuncs[n-1]
	}
	return fn
}
