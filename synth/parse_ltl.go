package synth

import (
	"errors"
	"fmt"
	"strings"

	"github.com/henceforth-go/henceforth/ltl"
)

// Assume adds an assumption about the environment, written in the ltl
// package's syntax: a conjunction of initial conditions φ, safety conditions
// G ψ (ψ may use X once: "G(req && !grant -> X req)") and liveness
// conditions G F φ. Integer variables are compared in double-quoted atoms
// with the infix syntax of .structuredslugs ("floor = 3", "n' = n + 1").
// The formula's clauses are appended to s; a formula outside GR(1), a syntax
// error or an unknown variable is an *Error positioned in the formula (the
// position's File names it, as in "assumption 2").
func (s *Spec) Assume(formula string) error { return s.addLTL(formula, true) }

// Guarantee adds a guarantee of the system, written like Assume's formulas.
func (s *Spec) Guarantee(formula string) error { return s.addLTL(formula, false) }

// FromLTL builds a Spec from LTL assumptions and guarantees (see Assume).
func FromLTL(name string, inputs, outputs []Var, assumptions, guarantees []string) (*Spec, error) {
	s := &Spec{Name: name, Inputs: inputs, Outputs: outputs}
	for _, f := range assumptions {
		if err := s.Assume(f); err != nil {
			return nil, err
		}
	}
	for _, f := range guarantees {
		if err := s.Guarantee(f); err != nil {
			return nil, err
		}
	}
	return s, nil
}

func (s *Spec) addLTL(formula string, assumption bool) error {
	kind := "guarantee"
	if assumption {
		kind = "assumption"
	}
	n := 1
	for _, c := range s.Clauses {
		if strings.HasPrefix(c.Pos.File, kind+" ") {
			var k int
			if _, err := fmt.Sscanf(c.Pos.File, kind+" %d", &k); err == nil && k >= n {
				n = k + 1
			}
		}
	}
	origin := Pos{File: fmt.Sprintf("%s %d", kind, n), Line: 1, Col: 1}
	f, err := ltl.Parse(formula)
	if err != nil {
		var se *ltl.SyntaxError
		if errors.As(err, &se) {
			return errorf(Pos{File: origin.File, Line: 1, Col: se.Offset + 1}, ErrSyntax, "expected %s, found %s", se.Expected, foundText(se.Found))
		}
		return errorf(origin, ErrSyntax, "%v", err)
	}
	names := map[string]bool{}
	for _, v := range append(append([]Var(nil), s.Inputs...), s.Outputs...) {
		names[v.Name] = true
	}
	c := &ltlConverter{src: formula, origin: origin, names: names}
	e, err := c.convert(f)
	if err != nil {
		return err
	}
	clauses, err := classify(e, assumption, formula, origin)
	if err != nil {
		return err
	}
	for i := range clauses {
		clauses[i].Pos = origin
		if len(clauses) == 1 {
			clauses[i].Text = formula
		}
	}
	trial := s.Clone()
	trial.Clauses = append(trial.Clauses, clauses...)
	if err := trial.Check(); err != nil {
		return err
	}
	s.Clauses = trial.Clauses
	return nil
}

func foundText(s string) string {
	if s == "" {
		return "the end of the formula"
	}
	return fmt.Sprintf("%q", s)
}

// ltlConverter turns an ltl.Formula into an Expr. Formulas carry no
// positions, so subformulas get the position of the formula, and quoted
// atoms the column where their text occurs.
type ltlConverter struct {
	src    string
	origin Pos
	names  map[string]bool
	depth  int
}

func (c *ltlConverter) convert(f ltl.Formula) (*Expr, error) {
	c.depth++
	defer func() { c.depth-- }()
	if c.depth > maxDepth {
		return nil, errorf(c.origin, ErrSyntax, "formula nested more than %d deep", maxDepth)
	}
	pos := c.origin
	args := func() ([]*Expr, error) {
		var out []*Expr
		for _, o := range f.Operands() {
			e, err := c.convert(o)
			if err != nil {
				return nil, err
			}
			out = append(out, e)
		}
		return out, nil
	}
	var op ExprOp
	switch f.Op() {
	case ltl.OpTrue:
		return mk(ExprTrue, pos), nil
	case ltl.OpFalse:
		return mk(ExprFalse, pos), nil
	case ltl.OpAtom:
		if f.Quoted() || !c.names[f.Name()] && strings.ContainsAny(f.Name(), " =<>!+-'") {
			at := pos
			if i := strings.Index(c.src, `"`+f.Name()+`"`); i >= 0 {
				at.Col = i + 2
			}
			return parseInfix(f.Name(), at, c.names)
		}
		v := mk(ExprVar, pos)
		v.Name = f.Name()
		return v, nil
	case ltl.OpNot:
		op = ExprNot
	case ltl.OpAnd:
		op = ExprAnd
	case ltl.OpOr:
		op = ExprOr
	case ltl.OpXor:
		op = ExprXor
	case ltl.OpImplies:
		op = ExprImp
	case ltl.OpIff:
		op = ExprIff
	case ltl.OpNext, ltl.OpWeakNext: // the same on the infinite plays of a game
		op = ExprNext
	case ltl.OpAlways:
		op = ExprAlways
	case ltl.OpEventually:
		op = ExprEventually
	default:
		as, err := args()
		if err != nil {
			return nil, err
		}
		e := mk(ExprTemporal, pos, as...)
		e.Name = f.Op().String()
		return e, nil
	}
	as, err := args()
	if err != nil {
		return nil, err
	}
	return mk(op, pos, as...), nil
}
