package automaton

// This file builds the minimal DFA of a formula compositionally where the
// formula is a Boolean combination: the minimal DFAs of the operands of
// its top Boolean connectives are built separately and combined by
// product (product.go), each intermediate product minimized before it is
// used, smallest factors first. A negated combination is the complement
// of the combination's DFA. The operands themselves, whose roots are
// temporal operators or atoms, are translated by the symbolic tableau
// (translate.go), which handles nested temporal operators well, while a
// product of minimal DFAs stays near the size of its result where a
// tableau over the whole conjunction carries every operand's obligations
// in every state.
//
// All operands are translated with the layout (alphabet and level order)
// of the whole prepared formula, so their diagrams can be combined level
// by level.

import (
	"context"
	"slices"

	"github.com/henceforth-go/henceforth/ltl"
)

// connective returns how a binary Boolean connective combines the
// acceptance of its operands, or false for other operators.
func connective(op ltl.Op) (boolOp, bool) {
	switch op {
	case ltl.OpAnd:
		return func(a, b bool) bool { return a && b }, true
	case ltl.OpOr:
		return func(a, b bool) bool { return a || b }, true
	case ltl.OpImplies:
		return func(a, b bool) bool { return !a || b }, true
	case ltl.OpIff:
		return func(a, b bool) bool { return a == b }, true
	case ltl.OpXor:
		return func(a, b bool) bool { return a != b }, true
	}
	return nil, false
}

// isCombination reports whether f is a Boolean combination that the
// compositional construction splits: a binary Boolean connective, or the
// negation of one.
func isCombination(f ltl.Formula) bool {
	if f.Op() == ltl.OpNot {
		f = f.Left()
	}
	_, ok := connective(f.Op())
	return ok
}

// composable reports whether FromFormula builds p's DFA compositionally:
// p's formula is a Boolean combination, or an until whose right operand
// is temporal and left operand propositional (until.go), and its past, if
// any, is read from fresh atoms.
func composable(p *prepared) bool {
	return !p.exactPast && (isCombination(p.f) || isUntilOfTemporal(p.f))
}

// composer builds the DFAs of the parts of one prepared formula.
type composer struct {
	ctx context.Context
	p   *prepared
	lim limits
}

// composeMinimal returns the minimal DFA of p's formula, built
// compositionally; the states are numbered breadth-first.
func composeMinimal(ctx context.Context, p *prepared, lim limits) (*DFA, error) {
	c := &composer{ctx: ctx, p: p, lim: lim}
	d, err := c.build(p.f, p.orig)
	if err != nil {
		return nil, err
	}
	// Every DFA build returns is numbered breadth-first already.
	d.formula = p.orig
	return d, nil
}

// build returns a minimal DFA of f, a subformula of the prepared formula
// at the Boolean top of it; orig is the same subformula in the formula as
// given (they differ where a pure-past subformula became a fresh atom).
func (c *composer) build(f, orig ltl.Formula) (*DFA, error) {
	if f.Op() == orig.Op() && isUntilOfTemporal(f) {
		return c.until(f, orig)
	}
	if f.Op() != orig.Op() || !isCombination(f) {
		return c.operand(f, orig)
	}
	if f.Op() == ltl.OpNot {
		d, err := c.build(f.Left(), orig.Left())
		if err != nil {
			return nil, err
		}
		return complement(d), nil
	}
	op, _ := connective(f.Op())
	if f.Op() != ltl.OpAnd && f.Op() != ltl.OpOr {
		x, err := c.build(f.Left(), orig.Left())
		if err != nil {
			return nil, err
		}
		y, err := c.build(f.Right(), orig.Right())
		if err != nil {
			return nil, err
		}
		return c.combine(x, y, op)
	}
	// An associative connective: flatten the chain and combine its
	// operands smallest first, so that large intermediate products are
	// built last.
	chain := f.Op()
	var parts []*DFA
	var flatten func(f, orig ltl.Formula) error
	flatten = func(f, orig ltl.Formula) error {
		if f.Op() == chain && orig.Op() == chain {
			if err := flatten(f.Left(), orig.Left()); err != nil {
				return err
			}
			return flatten(f.Right(), orig.Right())
		}
		d, err := c.build(f, orig)
		if err != nil {
			return err
		}
		parts = append(parts, d)
		return nil
	}
	if err := flatten(f, orig); err != nil {
		return nil, err
	}
	for len(parts) > 1 {
		slices.SortStableFunc(parts, func(a, b *DFA) int { return len(a.roots) - len(b.roots) })
		d, err := c.combine(parts[0], parts[1], op)
		if err != nil {
			return nil, err
		}
		parts = append(parts[2:], d)
	}
	return parts[0], nil
}

// combine returns the minimal DFA of the product of x and y under op.
func (c *composer) combine(x, y *DFA, op boolOp) (*DFA, error) {
	d, err := product(c.ctx, x, y, op, c.lim)
	if err != nil {
		return nil, err
	}
	return minimizeProduct(d), nil
}

// operand returns the minimal DFA of f, translated by the symbolic
// tableau with the layout of the whole formula.
func (c *composer) operand(f, orig ltl.Formula) (*DFA, error) {
	q := *c.p
	q.f = f
	q.emptyHolds = ltl.Eval(orig, ltl.Sets{}, ltl.LTLf)
	raw, err := subsetConstruction(c.ctx, &q, c.lim)
	if err != nil {
		return nil, err
	}
	return minimize(raw), nil
}

// until returns the minimal DFA of f = g U h or g W h with g propositional:
// from the minimal DFA of h (until.go) when that is small enough for its
// inclusion relation, by the tableau otherwise.
func (c *composer) until(f, orig ltl.Formula) (*DFA, error) {
	h, err := c.build(f.Right(), orig.Right())
	if err != nil {
		return nil, err
	}
	if len(h.roots) > maxUntilOperandStates {
		return c.operand(f, orig)
	}
	guard, err := c.operand(f.Left(), orig.Left())
	if err != nil {
		return nil, err
	}
	d, err := untilDFA(c.ctx, guard, h, f.Op() == ltl.OpWeakUntil, c.lim)
	if err != nil {
		return nil, err
	}
	return minimize(d), nil
}
