package ltltest

import (
	"context"
	"fmt"
	"strings"

	"github.com/henceforth-go/henceforth/explore"
	"github.com/henceforth-go/henceforth/split"
	"github.com/henceforth-go/henceforth/split/gosplit"
)

// SplitN checks spec compositionally for the Go function pkgFunc run as n
// goroutines (gosplit.Load, gosplit.Program.Check): pkgFunc is a package
// pattern and a function name joined by a dot ("./mutex.worker",
// "example.com/p.worker", or ".worker" for the package of the test
// itself; a relative pattern is resolved in the test's directory, the
// package directory `go test` runs in); spec is the name of a //ltl:spec
// of the package or a formula (see gosplit.Program.Property, e.g.
// `G "count(crit) <= 1"`). The runtime property (every //ltl:range kept,
// no unlock of an unlocked mutex) is checked too. It passes only if every
// check is proved; a counterexample fails the test with the interleaving
// in Go terms (goroutine i at file:line) and, when the package has a
// harness (a function that starts the goroutine function with go) and
// spec names a //ltl:spec, with the explorer's confirmation on the real
// code; unknown (refinement or node limit, the test's context ending)
// fails with "unknown". Unless WithSplitOptions sets MaxNodes, each BDD
// store is limited to DefaultSplitNNodes nodes, so a check that blows up
// ends with "unknown" rather than exhausting memory.
func SplitN(t TestingT, pkgFunc string, n int, spec string, args ...any) bool {
	t.Helper()
	cfg, msg := parseArgs(args)
	headline := fmt.Sprintf("SplitN(%s, %d, %q)", pkgFunc, n, spec)
	pattern, fn, ok := splitPkgFunc(pkgFunc)
	if !ok {
		fail(t, headline+": bad function", "want PACKAGE.FUNC, as in ./mutex.worker (or .worker for the test's own package)", msg)
		return false
	}
	ctx := context.Background()
	if c, ok := t.(interface{ Context() context.Context }); ok && c.Context() != nil {
		ctx = c.Context()
	}
	opts := cfg.split
	if opts.MaxNodes == 0 {
		opts.MaxNodes = DefaultSplitNNodes
	}
	g, err := gosplit.Load(ctx, gosplit.Config{}, pattern, fn, n)
	if err != nil {
		fail(t, headline+": cannot extract a program", err.Error(), msg)
		return false
	}
	names := []string{spec}
	if spec != "runtime" {
		if _, err := g.Property("runtime"); err == nil {
			names = append(names, "runtime")
		}
	}
	for _, name := range names {
		res, err := g.Check(ctx, name, opts)
		if err != nil {
			fail(t, headline+": cannot check "+name, err.Error(), msg)
			return false
		}
		switch res.Verdict {
		case split.Proved:
			continue
		case split.Unknown:
			fail(t, headline+": unknown", fmt.Sprintf("property %s: no verdict, which is not a pass: %s", res.Property, res.Reason), msg)
			return false
		}
		details := fmt.Sprintf("property %s is violated by %d goroutines (%s):\n%s", res.Property, n, res.Reason, g.FormatSteps(res.Counterexample))
		details += confirm(ctx, g, pattern, name)
		fail(t, headline+": violated", details, msg)
		return false
	}
	return true
}

// DefaultSplitNNodes bounds each BDD store of SplitN unless the options
// set MaxNodes (2^23 nodes: a few hundred MB).
const DefaultSplitNNodes = 1 << 23

// splitPkgFunc splits PACKAGE.FUNC at the last dot; an empty package
// (".worker") is the current directory's.
func splitPkgFunc(pkgFunc string) (pattern, fn string, ok bool) {
	dot := strings.LastIndex(pkgFunc, ".")
	if dot < 0 || dot < strings.LastIndex(pkgFunc, "/") || dot == len(pkgFunc)-1 {
		return "", "", false
	}
	pattern, fn = pkgFunc[:dot], pkgFunc[dot+1:]
	if pattern == "" {
		pattern = "."
	}
	return pattern, fn, true
}

// RequireSplitN is SplitN followed by t.FailNow on failure.
func RequireSplitN(t TestingT, pkgFunc string, n int, spec string, args ...any) {
	t.Helper()
	if !SplitN(t, pkgFunc, n, spec, args...) {
		t.FailNow()
	}
}

// confirm runs the explorer on the package's first harness, checking the
// spec on the real code, and describes what it found.
func confirm(ctx context.Context, g *gosplit.Program, pattern, spec string) string {
	r, err := confirmSplit(ctx, g, pattern, spec)
	switch {
	case err != nil:
		return "\nnot confirmed by the explorer: " + err.Error()
	case r == nil:
		return "\nnot confirmed by the explorer: it found no violation (" + "bounded exploration)"
	}
	return "\nconfirmed by the explorer on the real code:\n" + r.String()
}

// confirmSplit explores the first harness of g (a function of the package
// that starts the goroutine function with go; see gosplit.Program) with
// DPOR and every shared access a scheduling point (at most 20000
// executions), checking spec (a //ltl:spec of the package), and returns
// the first violation of spec found, or nil if the bounded exploration
// found none.
func confirmSplit(ctx context.Context, g *gosplit.Program, pattern, spec string) (*explore.Finding, error) {
	if len(g.Harnesses) == 0 {
		return nil, fmt.Errorf("the package has no harness (a function without parameters, or a test, that starts %s with go)", g.Func.Name())
	}
	p, err := loader.Load(ctx, explore.LoadConfig{Patterns: []string{pattern}})
	if err != nil {
		return nil, err
	}
	h := g.Harnesses[0]
	e, err := p.Func(h.Pkg().Path() + "." + h.Name())
	if err != nil {
		return nil, err
	}
	// Not StopAtFirst: the first finding of a racy harness is usually a
	// data race, which ends the search before a spec violation is reached.
	rep, err := p.Explore(ctx, e, explore.Options{Strategy: explore.DPOR, Specs: []string{spec}, Shared: true, MaxExecutions: 20000})
	if err != nil {
		return nil, err
	}
	for _, f := range rep.Findings {
		if f.Kind == explore.KindLTL {
			return f, nil
		}
	}
	return nil, nil
}
