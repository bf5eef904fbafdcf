package split

import (
	"fmt"

	"github.com/henceforth-go/henceforth/ltl"
)

// PropertyKind says how a Property is checked.
type PropertyKind uint8

const (
	// KindInvariant: a state predicate that must hold in every reachable
	// state (INVARSPEC).
	KindInvariant PropertyKind = iota
	// KindLTL: a linear-time property of every fair infinite computation
	// (LTLSPEC).
	KindLTL
)

func (k PropertyKind) String() string {
	if k == KindInvariant {
		return "invariant"
	}
	return "LTL"
}

// Property is what Check decides. An invariant is the conjunction of
// Conjuncts (each checked on its own, over the processes it reads: a
// "forall i, j" property becomes one conjunct per pair). An LTL property is
// a formula whose atoms name state predicates in Atoms.
type Property struct {
	Name string
	Kind PropertyKind
	// Conjuncts of an invariant.
	Conjuncts []Expr
	// Formula and Atoms of an LTL property.
	Formula ltl.Formula
	Atoms   map[string]Expr
	// Text is the property as written, for reports.
	Text string
	Pos  Pos
}

// NewInvariant returns the invariant property "always e" (e is split at
// its top-level conjunctions).
func NewInvariant(name string, e Expr) *Property {
	return &Property{Name: name, Kind: KindInvariant, Conjuncts: conjuncts(e), Text: e.String()}
}

// NewLTL returns an LTL property; every atom of f must be a key of atoms.
func NewLTL(name string, f ltl.Formula, atoms map[string]Expr) *Property {
	return &Property{Name: name, Kind: KindLTL, Formula: f, Atoms: atoms, Text: f.String()}
}

// conjuncts splits e at top-level conjunctions.
func conjuncts(e Expr) []Expr {
	if e.n != nil && e.n.op == eAnd {
		var out []Expr
		for _, a := range e.n.args {
			out = append(out, conjuncts(Expr{a})...)
		}
		return out
	}
	return []Expr{e}
}

func (p *Property) String() string {
	if p.Name != "" {
		return fmt.Sprintf("%s %s: %s", p.Kind, p.Name, p.Text)
	}
	return fmt.Sprintf("%s %s", p.Kind, p.Text)
}

// Validate checks the property: an invariant has conjuncts, each Boolean;
// every atom of an LTL formula is defined by a Boolean expression. Every
// check validates its property first.
func (p *Property) Validate() error {
	switch p.Kind {
	case KindInvariant:
		if len(p.Conjuncts) == 0 {
			return errorf(p.Pos, ErrProgram, "empty invariant")
		}
		for _, c := range p.Conjuncts {
			if err := c.CheckBool("invariant"); err != nil {
				return err
			}
		}
	case KindLTL:
		if p.Formula.IsZero() {
			return errorf(p.Pos, ErrProgram, "LTL property without a formula")
		}
		for _, a := range p.Formula.Atoms() {
			e, ok := p.Atoms[a]
			if !ok {
				return errorf(p.Pos, ErrType, "atom %q of %s is not defined", a, p.Formula)
			}
			if err := e.CheckBool("atom " + a); err != nil {
				return err
			}
		}
	default:
		return errorf(p.Pos, ErrProgram, "unknown property kind %d", p.Kind)
	}
	return nil
}

// readsLocal returns the local variables e reads.
func readsLocal(e Expr) []*Var {
	var out []*Var
	seen := map[*Var]bool{}
	e.vars(func(v *Var) {
		if v.owner != nil && !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	})
	return out
}
