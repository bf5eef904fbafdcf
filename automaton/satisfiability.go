package automaton

import (
	"context"

	"github.com/henceforth-go/henceforth/ltl"
)

// Satisfiability decides LTLf satisfiability by translation: f is
// satisfiable if its minimal DFA (FromFormula) is not empty. It is the
// checker annotate's Lint is meant to run with (it implements
// annotate.Checker). The DFA reads past subformulas as free atoms, so for
// formulas with past operators it may answer true where the answer is
// false, which Lint tolerates. A translation that fails (too large,
// unsupported, canceled) is an error: an unknown answer.
type Satisfiability struct {
	// MaxStates bounds each translation; 0 means DefaultMaxStates.
	MaxStates int
}

// Satisfiable reports whether some finite trace, the empty one included,
// satisfies f at position 0 (over-approximated for past operators, as
// above).
func (c Satisfiability) Satisfiable(ctx context.Context, f ltl.Formula) (bool, error) {
	d, err := FromFormula(ctx, f, Options{MaxStates: c.MaxStates})
	if err != nil {
		return false, err
	}
	return !d.IsEmpty(), nil
}
