package explore

import (
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/scanner"
	"go/token"
	"go/types"
	"os"
	"runtime"
	"strings"
	"sync"

	"golang.org/x/tools/go/packages"
)

// A Loader loads programs like Load, and keeps the standard-library
// packages it type-checks for its later loads: a process that loads many
// programs (a test suite, a long-lived tool) parses and type-checks each
// standard package once per Loader instead of once per Load.
//
// A kept package is reused by a later load with the same GOROOT, build
// flags and environment that lists the same files for it; it is shared,
// read-only, by the Programs of those loads, which also share the
// Loader's token.FileSet (Program.Fset). Standard packages compiled for a
// test of the standard library ("fmt [sync.test]") are never kept. The
// Loader's memory grows with the distinct standard packages it has loaded.
//
// The zero Loader is ready to use; a Loader is safe for concurrent use.
type Loader struct {
	mu   sync.Mutex
	fset *token.FileSet
	std  map[string]*checkedPackage // by stdKey
}

// Load loads the packages matched by cfg.Patterns as the function Load
// does, reusing the standard packages of l's earlier loads.
func (l *Loader) Load(ctx context.Context, cfg LoadConfig) (*Program, error) {
	return loadWith(ctx, cfg, l)
}

// fileSet returns the Loader's file set, creating it on first use.
func (l *Loader) fileSet() *token.FileSet {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.fset == nil {
		l.fset = token.NewFileSet()
	}
	return l.fset
}

// checkedPackage is the outcome of parsing and type-checking one package.
// Its fields are set before done is closed and never change afterwards.
type checkedPackage struct {
	done     chan struct{}
	types    *types.Package
	syntax   []*ast.File
	info     *types.Info
	errors   []packages.Error
	illTyped bool
}

// typeCheck parses and type-checks pkgs and their dependencies, as
// go/packages does in its NeedSyntax|NeedTypes|NeedTypesInfo modes,
// setting each package's Fset, Syntax, Types, TypesInfo and IllTyped
// fields and appending its parse and type errors to its Errors. Packages
// are checked in parallel once their imports are. Packages std reports as
// standard are taken from, or added to, l's kept packages; config
// distinguishes the loads whose standard packages may differ.
func (l *Loader) typeCheck(ctx context.Context, pkgs []*packages.Package, config string, std func(*packages.Package) bool, parse func(*token.FileSet, string, []byte) (*ast.File, error)) error {
	fset := l.fileSet()
	keep := keptPackages(pkgs, std)
	done := map[*packages.Package]chan struct{}{}
	packages.Visit(pkgs, nil, func(p *packages.Package) { done[p] = make(chan struct{}) })
	// Type-checking is CPU-bound: at most GOMAXPROCS packages at a time.
	tokens := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for p, ch := range done {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer close(ch)
			for _, imp := range p.Imports {
				<-done[imp]
			}
			if !keep[p] && ctx.Err() != nil {
				p.Fset = fset
				return
			}
			tokens <- struct{}{}
			defer func() { <-tokens }()
			var c *checkedPackage
			if keep[p] {
				c = l.kept(config+"\x00"+p.ID+"\x00"+strings.Join(p.CompiledGoFiles, "\x00"), func() *checkedPackage {
					return checkPackage(fset, p, parse)
				})
			} else {
				c = checkPackage(fset, p, parse)
			}
			p.Fset, p.Types, p.Syntax, p.TypesInfo = fset, c.types, c.syntax, c.info
			p.Errors = append(p.Errors, c.errors...)
			p.IllTyped = c.illTyped
		}()
	}
	wg.Wait()
	return ctx.Err()
}

// keptPackages returns the packages of the graph of pkgs whose checked
// form may be kept and reused: standard packages, not compiled for a
// test, without errors from the go command, that import only such
// packages.
func keptPackages(pkgs []*packages.Package, std func(*packages.Package) bool) map[*packages.Package]bool {
	keep := map[*packages.Package]bool{}
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		ok := std(p) && !strings.Contains(p.ID, " [") && len(p.Errors) == 0
		for _, imp := range p.Imports {
			ok = ok && keep[imp]
		}
		keep[p] = ok
	})
	return keep
}

// kept returns the package kept under key, calling check to make it when
// there is none; concurrent callers with one key wait for one check.
func (l *Loader) kept(key string, check func() *checkedPackage) *checkedPackage {
	l.mu.Lock()
	if l.std == nil {
		l.std = map[string]*checkedPackage{}
	}
	c, ok := l.std[key]
	if !ok {
		c = &checkedPackage{done: make(chan struct{})}
		l.std[key] = c
	}
	l.mu.Unlock()
	if ok {
		<-c.done
		return c
	}
	checked := check()
	c.types, c.syntax, c.info, c.errors, c.illTyped = checked.types, checked.syntax, checked.info, checked.errors, checked.illTyped
	close(c.done)
	return c
}

// checkPackage parses p's compiled Go files and type-checks them against
// the types of p's imports, which are already checked.
func checkPackage(fset *token.FileSet, p *packages.Package, parse func(*token.FileSet, string, []byte) (*ast.File, error)) *checkedPackage {
	c := &checkedPackage{}
	if p.PkgPath == "unsafe" {
		c.types, c.syntax, c.info = types.Unsafe, []*ast.File{}, newTypesInfo()
		return c
	}
	appendError := func(err error) {
		var list scanner.ErrorList
		var terr types.Error
		var perr *os.PathError
		switch {
		case errors.As(err, &list):
			for _, e := range list {
				c.errors = append(c.errors, packages.Error{Pos: e.Pos.String(), Msg: e.Msg, Kind: packages.ParseError})
			}
		case errors.As(err, &terr):
			c.errors = append(c.errors, packages.Error{Pos: terr.Fset.Position(terr.Pos).String(), Msg: terr.Msg, Kind: packages.TypeError})
		case errors.As(err, &perr):
			c.errors = append(c.errors, packages.Error{Pos: perr.Path + ":1", Msg: perr.Err.Error(), Kind: packages.ParseError})
		default:
			c.errors = append(c.errors, packages.Error{Pos: "-", Msg: err.Error(), Kind: packages.UnknownError})
		}
	}
	for _, name := range p.CompiledGoFiles {
		src, err := os.ReadFile(name)
		if err != nil {
			appendError(err)
			continue
		}
		f, err := parse(fset, name, src)
		if err != nil {
			appendError(err)
		}
		if f != nil {
			c.syntax = append(c.syntax, f)
		}
	}
	c.types = types.NewPackage(p.PkgPath, p.Name)
	c.info = newTypesInfo()
	tc := &types.Config{
		Importer: importerFunc(func(path string) (*types.Package, error) {
			if path == "unsafe" {
				return types.Unsafe, nil
			}
			imp := p.Imports[path]
			if imp == nil || imp.Types == nil {
				return nil, fmt.Errorf("no metadata for %s", path)
			}
			return imp.Types, nil
		}),
		Error: appendError,
		Sizes: p.TypesSizes,
	}
	if p.Module != nil && p.Module.GoVersion != "" {
		tc.GoVersion = "go" + p.Module.GoVersion
	}
	n := len(c.errors)
	if err := types.NewChecker(tc, fset, c.types, c.info).Files(c.syntax); err != nil && len(c.errors) == n {
		appendError(err)
	}
	c.illTyped = len(p.Errors) > 0 || len(c.errors) > 0
	for _, imp := range p.Imports {
		c.illTyped = c.illTyped || imp.IllTyped
	}
	return c
}

// newTypesInfo returns a types.Info that records everything go/packages
// records.
func newTypesInfo() *types.Info {
	return &types.Info{
		Types:        map[ast.Expr]types.TypeAndValue{},
		Defs:         map[*ast.Ident]types.Object{},
		Uses:         map[*ast.Ident]types.Object{},
		Implicits:    map[ast.Node]types.Object{},
		Instances:    map[*ast.Ident]types.Instance{},
		Scopes:       map[ast.Node]*types.Scope{},
		Selections:   map[*ast.SelectorExpr]*types.Selection{},
		FileVersions: map[*ast.File]string{},
	}
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }
