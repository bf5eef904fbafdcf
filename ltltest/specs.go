package ltltest

import (
	"context"
	"strings"

	"github.com/henceforth-go/henceforth/annotate"
	"github.com/henceforth-go/henceforth/automaton"
	"github.com/henceforth-go/henceforth/ltl"
)

// Annotations are the //ltl: annotations of a package, as Specs loads them.
// Passed among the trailing arguments of Holds, Violated or NewMonitor, they
// let the formula argument name a spec:
//
//	specs := ltltest.Specs(t, ".")
//	ltltest.Holds(t, "neverOverdrawn", trace, specs)
type Annotations struct {
	pkgs []*annotate.Package
}

// Specs loads the annotations of the package in dir (normally ".", the
// package under test, with its test files) and fails the test with every
// problem they have, each with its position: malformed or unbound
// directives, and specs that are unsatisfiable, valid, vacuous, or props no
// spec uses — what ltlvet reports. It returns what bound cleanly.
func Specs(t TestingT, dir string, msgAndArgs ...any) *Annotations {
	t.Helper()
	ctx := context.Background()
	pkgs, err := annotate.Load(ctx, dir)
	var problems []string
	if err != nil {
		problems = append(problems, strings.Split(err.Error(), "\n")...)
	}
	for _, p := range pkgs {
		for _, e := range p.Lint(ctx, automaton.Satisfiability{}) {
			problems = append(problems, e.Error())
		}
	}
	if len(problems) > 0 {
		fail(t, "ltltest: annotations of "+dir+" have problems", strings.Join(problems, "\n"), msgAndArgs)
	}
	return &Annotations{pkgs: pkgs}
}

// Spec returns the spec with the given name, or nil. The package's own specs
// come before those of its external test package.
func (a *Annotations) Spec(name string) *annotate.Spec {
	if a == nil {
		return nil
	}
	for _, p := range a.pkgs {
		if s := p.Spec(name); s != nil {
			return s
		}
	}
	return nil
}

// Packages returns the annotated packages: the package under test (with its
// in-package tests) and its external test package, if any.
func (a *Annotations) Packages() []*annotate.Package { return a.pkgs }

// resolve turns the formula argument of an assertion into a formula: the
// spec it names when annotations are given and it is a spec's name,
// otherwise the formula it spells.
func resolve(formula string, c config) (ltl.Formula, error) {
	if s := c.specs.Spec(strings.TrimSpace(formula)); s != nil {
		return s.Formula, nil
	}
	return ltl.Parse(formula)
}
