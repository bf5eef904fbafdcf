package annotate

import (
	"context"

	"github.com/henceforth-go/henceforth/automaton"
	"github.com/henceforth-go/henceforth/ltl"
)

// DFAChecker is the Checker Lint is meant to run with: f is satisfiable if
// its minimal DFA (automaton.FromFormula) is not empty. The DFA reads past
// subformulas as free atoms, so for formulas with past operators it may
// answer true where the answer is false, which Lint tolerates. A translation that fails (too large,
// unsupported, canceled) is an unknown answer.
type DFAChecker struct {
	// MaxStates bounds each translation; 0 means the automaton package's
	// default.
	MaxStates int
}

// Satisfiable implements Checker.
func (c DFAChecker) Satisfiable(ctx context.Context, f ltl.Formula) (bool, error) {
	d, err := automaton.FromFormula(ctx, f, automaton.Options{MaxStates: c.MaxStates})
	if err != nil {
		return false, err
	}
	return !d.IsEmpty(), nil
}
