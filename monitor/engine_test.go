package monitor

import (
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/henceforth-go/henceforth/ltl"
)

// TestEngineNames: the CLI's -engine flag values.
func TestEngineNames(t *testing.T) {
	for _, e := range []Engine{EngineAuto, EngineDP, EngineNaive, EngineAutomaton} {
		got, ok := ParseEngine(e.String())
		assert.True(t, ok)
		assert.Equal(t, e, got)
	}
	assert.Equal(t, []string{"auto", "dp", "naive", "automaton"},
		[]string{EngineAuto.String(), EngineDP.String(), EngineNaive.String(), EngineAutomaton.String()})
	_, ok := ParseEngine("dfa")
	assert.False(t, ok)
	assert.Equal(t, "invalid", Engine(7).String())
}

// decodeFormula reads a formula from data in prefix order: each byte picks
// a leaf (true, false, p, q, r) or an operator, whose operands follow;
// depth bounds the nesting. It returns the bytes left over.
func decodeFormula(data []byte, depth int) (ltl.Formula, []byte) {
	leaves := []ltl.Formula{ltl.True(), ltl.False(), ltl.Atom("p"), ltl.Atom("q"), ltl.Atom("r")}
	if len(data) == 0 {
		return ltl.Atom("p"), data
	}
	ops := ltl.AllOps()
	b := int(data[0])
	data = data[1:]
	choice := b % (len(leaves) + len(ops))
	if depth <= 1 || choice < len(leaves) {
		return leaves[b%len(leaves)], data
	}
	op := ops[choice-len(leaves)]
	l, data := decodeFormula(data, depth-1)
	if op.Arity() == 1 {
		return ltl.Unary(op, l), data
	}
	r, data := decodeFormula(data, depth-1)
	return ltl.Binary(op, l, r), data
}

// FuzzDPEngines compares the DP engines (past, future, Explain) with
// the reference evaluator on fuzzer-chosen formulas and traces: the first
// byte's low bit picks the semantics, then a formula (decodeFormula), then
// one byte per event (bits 0–2: p, q, r).
func FuzzDPEngines(f *testing.F) {
	f.Add([]byte{0, 30, 2, 3, 1, 2, 4, 0})                // a past formula on a short trace
	f.Add([]byte{1, 17, 2, 3, 5, 1, 0, 2})                // RosuHavelund
	f.Add([]byte{0, 11, 12, 8, 3, 0})                     // nested future
	f.Add([]byte{1, 26, 13, 2, 29, 3, 4, 1, 7, 7, 0, 2})  // past over future
	f.Add([]byte{0, 14, 3})                               // the empty trace
	f.Add([]byte{1, 9, 20, 2, 4, 1, 2, 3, 4, 5, 6, 7, 0}) // longer trace
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		sem := semantics[data[0]&1]
		formula, rest := decodeFormula(data[1:], 6)
		if len(rest) > 16 {
			rest = rest[:16]
		}
		s := make(ltl.Sets, len(rest))
		for i, b := range rest {
			s[i] = []string{}
			for j, a := range []string{"p", "q", "r"} {
				if b>>uint(j)&1 == 1 {
					s[i] = append(s[i], a)
				}
			}
		}
		ctx := fmt.Sprintf("%s on %s under %s", formula, showSets(s), sem)
		want := ltl.EvalAll(formula, s, sem)

		m, err := NewFuture(formula, sem)
		require.NoError(t, err, ctx)
		ls := lettersOf(s, m.Atoms())
		require.Equal(t, want, m.EvalAll(ls), ctx)
		require.Equal(t, want, withoutTables(m).EvalAll(ls), "interpreted: "+ctx)
		require.Equal(t, ltl.Eval(formula, s, sem), m.Eval(ls), ctx)

		if c := formula.Classify(); c == ltl.Propositional || c == ltl.PurePast {
			for _, build := range []func(ltl.Semantics, ...ltl.Formula) (*Past, error){NewPast, NewPastInterpreted} {
				p, err := build(sem, formula)
				require.NoError(t, err, ctx)
				require.Equal(t, want, stepAll(p, lettersOf(s, p.Atoms()), 0), "past: "+ctx)
			}
		}

		if formula.IsPastSafety() {
			// G(φ) with φ past, as automaton.Check runs it: φ's past-time
			// DP holds at every position.
			p, err := NewPast(sem, formula.Left())
			require.NoError(t, err, ctx)
			holds := !slices.Contains(stepAll(p, lettersOf(s, p.Atoms()), 0), false)
			require.Equal(t, ltl.Eval(formula, s, sem), holds, "G(past): "+ctx)
		}

		rs, err := Explain(formula, traceOf(s), 0, sem)
		require.NoError(t, err, ctx)
		require.Equal(t, ltl.Eval(formula, s, sem), rs[0].Holds, ctx)
	})
}
