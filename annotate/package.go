package annotate

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/henceforth-go/henceforth/ltl"
)

// This file is the result model: a Package of specs whose atoms are bound
// to program points, the props and events they use, and the symbolic
// inputs.

// A Package is the annotations of one type-checked Go package. It holds only
// what bound without error: a directive with a problem is left out and
// reported instead, and so is a spec that uses a prop with a problem.
type Package struct {
	// ID is the go/packages ID ("p", "p [p.test]", "p_test [p.test]") when
	// the package came from Load, and "" otherwise.
	ID string
	// Fset holds the positions of everything below, spec files included.
	Fset *token.FileSet
	// Types is the package the annotations are about.
	Types *types.Package
	// Props are the props and events declared with //ltl:prop and
	// //ltl:event, in source order (those of spec files last).
	Props []*Prop
	// Specs are the specs, in source order (those of spec files last).
	Specs []*Spec
	// Symbolic are the symbolic inputs, in source order.
	Symbolic []*Symbolic
	// Ranges are the value ranges of //ltl:range directives, in source
	// order, at most one per variable.
	Ranges []*Range

	// used holds every name a spec's formula mentions, read leniently so
	// that specs with errors count too (see Lint).
	used map[string]bool
}

// Spec returns the spec named name, or nil.
func (p *Package) Spec(name string) *Spec {
	for _, s := range p.Specs {
		if s.Name == name {
			return s
		}
	}
	return nil
}

// Prop returns the prop or event declared as name, or nil.
func (p *Package) Prop(name string) *Prop {
	for _, q := range p.Props {
		if q.Name == name {
			return q
		}
	}
	return nil
}

// A Spec is a named formula whose atoms are all bound.
type Spec struct {
	// Name is the spec's name.
	Name string
	// Pos is the position of the directive's verb ("spec" in //ltl:spec).
	Pos token.Pos
	// Source is the formula as written, and SourcePos its first byte.
	Source    string
	SourcePos token.Pos
	// Formula is the parsed formula.
	Formula ltl.Formula
	// Atoms binds every atom name of Formula (Formula.Atoms()) to what it
	// stands for: a declared prop or event, or an inline Go expression.
	Atoms map[string]*Prop
}

// Events returns the names of the atoms of s that are events, sorted.
func (s *Spec) Events() []string {
	var names []string
	for _, name := range s.Formula.Atoms() {
		if s.Atoms[name].Kind.IsEvent() {
			names = append(names, name)
		}
	}
	return names
}

// PropKind says what makes a prop true.
type PropKind uint8

const (
	// StateProp is a Go boolean expression over the program's state,
	// true at every step where it evaluates to true.
	StateProp PropKind = iota + 1
	// CallEvent is true at the step where a call of Func starts.
	CallEvent
	// ReturnEvent is true at the step where a call of Func returns.
	ReturnEvent
	// GoEvent is true at the step where a go statement starts a
	// goroutine running Func.
	GoEvent
	// StatementEvent is true at the step where Stmt starts executing.
	StatementEvent
)

// IsEvent reports whether props of kind k are events: true at a single
// step, not a property of the state. Events happen one at a time: at most
// one event is true at any step of a trace.
func (k PropKind) IsEvent() bool { return k >= CallEvent && k <= StatementEvent }

func (k PropKind) String() string {
	switch k {
	case StateProp:
		return "state"
	case CallEvent:
		return "call"
	case ReturnEvent:
		return "return"
	case GoEvent:
		return "go"
	case StatementEvent:
		return "statement"
	}
	return "invalid"
}

// A Prop is an atomic proposition bound to the program: a state predicate or
// an event.
type Prop struct {
	// Name is the name specs use.
	Name string
	// Kind says which of the fields below is set.
	Kind PropKind
	// Pos is the directive's verb for a declared prop; the atom in the
	// formula for an inline one.
	Pos token.Pos
	// Inline reports a Go identifier or quoted Go expression written in a
	// spec, rather than a prop declared with a directive.
	Inline bool

	// Expr is the boolean expression of a State prop.
	Expr *Expr
	// Func is, for Call, Return and Go events, the function named (the
	// generic origin for generic functions); for Statement events, the
	// function declaration whose body holds Stmt (nil inside a function
	// literal at package level).
	Func *types.Func
	// Stmt is the statement of a Statement event.
	Stmt ast.Stmt
}

// An Expr is a Go boolean expression from a directive, type-checked in the
// scope where the directive stands. It has no calls other than conversions
// and the builtins len, cap, min, max, real, imag and complex, and no
// channel receives, so evaluating it has no side effects (though, like any
// index expression, it may panic).
type Expr struct {
	// Src is the expression as written.
	Src string
	// AST is the parsed expression. Its positions are valid in the
	// Package's Fset: they point into the comment (or spec file) where
	// the expression is written.
	AST ast.Expr
	// Info records the types, uses and selections of AST's nodes.
	Info *types.Info
	// Scope is the innermost scope the expression was checked in: the
	// package's file scope, or a block of Func.
	Scope *types.Scope
	// Func is the function declaration whose parameters, results and
	// locals the expression may use; nil at package level.
	Func *types.Func
}

// A Symbolic is an input that exploration treats as unknown: a parameter of
// a //ltl:symbolic function, or a //ltl:symbolic package-level variable.
type Symbolic struct {
	// Var is the parameter or variable.
	Var *types.Var
	// Func is the function Var is a parameter of; nil for a variable.
	Func *types.Func
	// Pos is the position of the directive.
	Pos token.Pos
}
