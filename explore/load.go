package explore

import (
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
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
	// libraries are the packages of the libraries the explorer is built on
	// that only the explorer reaches (policy.go): loaded with types only.
	libraries map[*types.Package]bool
	// syntax keeps the files and type information of the user packages
	// (not the standard library), for reading their annotations (spec.go).
	syntax map[*types.Package]pkgSyntax
	// files maps the files of syntax to their syntax trees, for naming
	// accessed memory by source expressions (describe.go).
	files map[*token.File]*ast.File
	specs specCache
	// underTest maps an external test package (p_test) to the package it
	// tests (p, its test variant if it has one).
	underTest map[*types.Package]*types.Package
	sym       symbolicDirectives // symbolic inputs (symbolic_inputs.go)
	// machines are the idle machines kept for later explorations
	// (machinepool.go).
	machines machinePool
}

// Load loads the packages matched by cfg.Patterns with their tests, type
// checks them and builds SSA with generics instantiated. Type errors in the
// loaded packages are returned as positioned errors. (A Loader's Load
// keeps the standard packages for its later loads.)
func Load(ctx context.Context, cfg LoadConfig) (*Program, error) {
	return new(Loader).Load(ctx, cfg)
}

// loadWith is Load with the standard packages of l.
func loadWith(ctx context.Context, cfg LoadConfig, l *Loader) (*Program, error) {
	if len(cfg.Patterns) == 0 {
		cfg.Patterns = []string{"."}
	}
	// The go command's GOROOT (not this binary's: a go.mod may select
	// another toolchain, and a binary built with -trimpath has none).
	goroot := filepath.Clean(commandGOROOT(ctx, cfg.Dir, cfg.Env)) + string(filepath.Separator)
	pcfg := &packages.Config{
		Context: ctx,
		Mode: packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles |
			packages.NeedImports | packages.NeedDeps | packages.NeedTypesSizes | packages.NeedModule,
		Dir:        cfg.Dir,
		Env:        cfg.Env,
		BuildFlags: cfg.BuildFlags,
		Tests:      !cfg.NoTests,
	}
	// The go command lists the packages; l parses and type-checks them.
	parse := func(fset *token.FileSet, filename string, src []byte) (*ast.File, error) {
		f, err := parser.ParseFile(fset, filename, src, parser.ParseComments|parser.SkipObjectResolution)
		if f != nil && strings.HasPrefix(filename, goroot) && !isExternalTest(f.Name.Name) {
			rel := filepath.ToSlash(filepath.Dir(strings.TrimPrefix(filename, goroot)))
			rel = strings.TrimPrefix(rel, "src/")
			if !isInterpretedStd(rel) {
				stripBodies(f)
			}
		}
		return f, err
	}
	pkgs, err := packages.Load(pcfg, cfg.Patterns...)
	if err != nil {
		if ctx.Err() != nil {
			// (go/packages does not wrap the context's error)
			err = fmt.Errorf("%w: %v", ctx.Err(), err)
		}
		return nil, fmt.Errorf("explore: loading %s: %w", strings.Join(cfg.Patterns, " "), err)
	}
	if len(pkgs) == 0 {
		return nil, fmt.Errorf("explore: no packages match %s", strings.Join(cfg.Patterns, " "))
	}
	isStd := func(p *packages.Package) bool { return isStdPackage(cfg, goroot, p) }
	config := fmt.Sprintf("%q", []any{goroot, cfg.BuildFlags, cfg.Env})
	if err := l.typeCheck(ctx, pkgs, config, isStd, parse); err != nil {
		return nil, fmt.Errorf("explore: loading %s: %w", strings.Join(cfg.Patterns, " "), err)
	}
	// Errors in user packages (and interpreted std packages) are fatal; the
	// standard packages with stripped bodies report errors we caused.
	userDeps := userDependencies(pkgs, isStd)
	opaque := func(p *packages.Package) bool { return isOpaqueLibrary(p.PkgPath) && !userDeps[p] }
	var errs []error
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		if (isStd(p) && !isInterpretedStd(p.PkgPath)) || opaque(p) {
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
	p := &Program{Fset: pkgs[0].Fset, SSA: prog, interpreted: map[*types.Package]bool{}, libraries: map[*types.Package]bool{}, syntax: map[*types.Package]pkgSyntax{}, files: map[*token.File]*ast.File{}}
	created := map[*packages.Package]*ssa.Package{}
	testMains := testMainIDs(pkgs)
	packages.Visit(pkgs, nil, func(lp *packages.Package) {
		if lp.Types == nil || testMains[lp.ID] {
			return
		}
		lib := opaque(lp)
		interp := (!isStd(lp) && !lib) || isInterpretedStd(lp.PkgPath)
		if lib {
			p.libraries[lp.Types] = true
		}
		var files []*ast.File
		var info *types.Info
		if interp {
			files, info = lp.Syntax, lp.TypesInfo
			p.interpreted[lp.Types] = true
			if !isStd(lp) {
				p.syntax[lp.Types] = pkgSyntax{files, info}
				for _, f := range files {
					if tf := lp.Fset.File(f.FileStart); tf != nil {
						p.files[tf] = f
					}
				}
			}
		}
		created[lp] = prog.CreatePackage(lp.Types, files, info, true)
	})
	prog.Build()
	p.loadSymbolic(created)

	// Roots: prefer the test variant "p [p.test]" over the plain package.
	// An external test package "p_test [p.test]" tests the package whose
	// ID is "p [p.test]" (or "p" when p has no test files of its own).
	byID := map[string]*packages.Package{}
	packages.Visit(pkgs, nil, func(lp *packages.Package) { byID[lp.ID] = lp })
	hasVariant := map[string]bool{}
	for _, lp := range pkgs {
		if tested, main, ok := testVariant(lp.ID); ok && tested+".test" == main {
			hasVariant[lp.PkgPath] = true
		}
	}
	for _, lp := range pkgs {
		sp := created[lp]
		if sp == nil {
			continue
		}
		x, main, variant := testVariant(lp.ID)
		if !variant && hasVariant[lp.PkgPath] {
			continue
		}
		if variant && x+".test" != main {
			base := strings.TrimSuffix(main, ".test")
			under := byID[base+" ["+main+"]"]
			if under == nil {
				under = byID[base]
			}
			if under != nil && under.Types != nil {
				if p.underTest == nil {
					p.underTest = map[*types.Package]*types.Package{}
				}
				p.underTest[lp.Types] = under.Types
			}
		}
		p.Packages = append(p.Packages, sp)
	}
	return p, nil
}

// userDependencies returns the non-standard packages the user's code
// imports, directly or through other such packages, without going through
// this module's own libraries: a library the explorer is built on (say
// golang.org/x/sync/errgroup) is the user's, and interpreted, when user
// code imports it; it stays opaque when only the explorer's packages reach
// it (a test file that imports ltltest).
func userDependencies(pkgs []*packages.Package, isStd func(*packages.Package) bool) map[*packages.Package]bool {
	reached := map[*packages.Package]bool{}
	var visit func(p *packages.Package)
	visit = func(p *packages.Package) {
		for _, q := range p.Imports {
			if reached[q] || isStd(q) || isHenceforthLibrary(q.PkgPath) {
				continue
			}
			reached[q] = true
			visit(q)
		}
	}
	// The packages the patterns named are the user's even when they are
	// one of those libraries (exploring golang.org/x/sync's own tests).
	for _, p := range pkgs {
		if !isStd(p) && !isHenceforthLibrary(p.PkgPath) {
			reached[p] = true
		}
	}
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		if !isStd(p) && (!isOpaqueLibrary(p.PkgPath) || reached[p]) {
			visit(p)
		}
	})
	return reached
}

// isExternalTest reports whether a package name is that of an external test
// package (package p_test). Such a package is user code even in GOROOT:
// the standard library's external tests (sync_test, context_test…) are
// interpreted like any test, against the models of the packages they test.
func isExternalTest(name string) bool { return strings.HasSuffix(name, "_test") }

// testVariant splits the ID of a package compiled for a test, "q [p.test]",
// into q and the test main's ID p.test (the go command names the test main
// of package p "p.test"); ok is false for other IDs.
func testVariant(id string) (pkg, main string, ok bool) {
	i := strings.Index(id, " [")
	if i < 0 || !strings.HasSuffix(id, "]") {
		return "", "", false
	}
	return id[:i], id[i+2 : len(id)-1], true
}

// testMainIDs returns the IDs of the generated test main packages among
// pkgs and their dependencies: "p.test" is one when a test variant
// "q [p.test]" exists (a package may itself be called "x.test").
func testMainIDs(pkgs []*packages.Package) map[string]bool {
	ids := map[string]bool{}
	packages.Visit(pkgs, nil, func(lp *packages.Package) {
		if _, main, ok := testVariant(lp.ID); ok {
			ids[main] = true
		}
	})
	return ids
}

// isStdPackage reports whether a loaded package belongs to the standard
// library. It is decided from what the go command says about the package,
// never from the shape of its import path (a module may be called "myapp"
// or "service"): a package of a module (Module set: in module mode every
// package outside the standard library has one) is not standard; a
// package without a module (GOPATH mode, files named on the command line)
// is standard if its files are in the go command's GOROOT; a package
// without files (one that failed to load) is standard if `go list std`
// lists it. An external test package (sync_test) is never standard.
func isStdPackage(cfg LoadConfig, goroot string, p *packages.Package) bool {
	if p.Module != nil || isExternalTest(p.Name) {
		return false
	}
	files := p.GoFiles
	if len(files) == 0 {
		files = p.CompiledGoFiles
	}
	if len(files) > 0 {
		return strings.HasPrefix(files[0], goroot)
	}
	return stdPackages(cfg)[p.PkgPath]
}

// stdList is the import paths `go list std` prints, computed once per
// process (only needed for packages that failed to load).
var stdList struct {
	once sync.Once
	m    map[string]bool
}

func stdPackages(cfg LoadConfig) map[string]bool {
	stdList.once.Do(func() {
		cmd := exec.Command("go", "list", "-e", "-f", "{{.ImportPath}}", "std")
		cmd.Dir, cmd.Env = cfg.Dir, cfg.Env
		out, _ := cmd.Output()
		stdList.m = map[string]bool{}
		for _, path := range strings.Fields(string(out)) {
			stdList.m[path] = true
		}
	})
	return stdList.m
}

// gorootCache holds commandGOROOT's answers by directory and environment.
var gorootCache sync.Map

// commandGOROOT returns the GOROOT of the go command that loads packages
// in dir with env (nil: this process's environment), as `go env GOROOT`
// prints it; this binary's GOROOT if the command fails. Cached.
func commandGOROOT(ctx context.Context, dir string, env []string) string {
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	key := dir + "\x00" + strings.Join(env, "\x00")
	if root, ok := gorootCache.Load(key); ok {
		return root.(string)
	}
	cmd := exec.CommandContext(ctx, "go", "env", "GOROOT")
	cmd.Dir, cmd.Env = dir, env
	out, err := cmd.Output()
	root := strings.TrimSpace(string(out))
	if err != nil || root == "" {
		return runtime.GOROOT()
	}
	gorootCache.Store(key, root)
	return root
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
	// Path is the subtest the entry explores (Program.Subtests): the
	// names of the subtests below the test function, one per level, as
	// testing makes them (rewritten and unique; an element may contain
	// '/'). Only the t.Run calls on the path run their function. Empty:
	// the whole test. Name then ends with "/" and the path.
	Path []string
	// Note says why the subtests of the entry are explored together with
	// it rather than one by one (empty if they are not, or it has none).
	// Explore reports it as a warning.
	Note string

	// run filters the subtests below Path as go test -run does (nil:
	// all run); discover makes the t.Run calls of the level below Path
	// record their names and run nothing (Program.Subtests).
	run      *RunPattern
	discover bool

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
//	                                (with the last path element's dots
//	                                escaped: "x%2etest.TestX")
//	"(*T).M" is not accepted: entries take no receiver.
//
// A qualified name is matched against the import paths of the loaded
// packages (the longest that prefixes it), never split by its shape:
// "x.test.TestX" names TestX of package "x.test", "myapp.TestX" TestX of
// package "myapp".
func (p *Program) Func(name string) (*Entry, error) {
	name = unescapeSymbol(name)
	var cands []*ssa.Function
	best := -1 // length of the longest package path that matched
	for _, pkg := range p.Packages {
		path := pkg.Pkg.Path()
		local, ok := strings.CutPrefix(name, path+".")
		if !ok || len(path) < best {
			continue
		}
		fn := lookupLocal(pkg, local)
		if fn == nil {
			continue
		}
		if len(path) > best {
			cands, best = cands[:0], len(path)
		}
		cands = append(cands, fn)
	}
	if len(cands) == 0 {
		for _, pkg := range p.Packages {
			if fn := lookupLocal(pkg, name); fn != nil {
				cands = append(cands, fn)
			}
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

// unescapeSymbol undoes the linker's escaping of import paths in symbol
// names (what runtime.FuncForPC reports): "%xx" is the byte 0xxx (dots of
// the last path element, '%', '"', control and non-ASCII bytes).
func unescapeSymbol(name string) string {
	if !strings.Contains(name, "%") {
		return name
	}
	var b strings.Builder
	for i := 0; i < len(name); i++ {
		if name[i] == '%' && i+2 < len(name) {
			if v, err := strconv.ParseUint(name[i+1:i+3], 16, 8); err == nil {
				b.WriteByte(byte(v))
				i += 2
				continue
			}
		}
		b.WriteByte(name[i])
	}
	return b.String()
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
