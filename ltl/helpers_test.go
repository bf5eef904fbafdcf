package ltl_test

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/henceforth-go/henceforth/internal/vectors"
	"github.com/henceforth-go/henceforth/ltl"
)

// checkPositionVectors checks a file of {"formula", "states", "values"}
// lines: the value of the formula at each position of the trace, in the
// notation of states and bools.
func checkPositionVectors(t *testing.T, path string, count int, sem ltl.Semantics) {
	vs, err := vectors.Read[struct{ Formula, States, Values string }](path)
	require.NoError(t, err)
	require.Len(t, vs, count)
	for _, v := range vs {
		f, tr := ltl.MustParse(v.Formula), vectors.ParseStates(v.States)
		got := ltl.EvalAll(f, tr, sem)
		assert.Equal(t, vectors.ParseBools(v.Values), got, "%s on %s", v.Formula, v.States)
		assert.Equal(t, got[0], ltl.Eval(f, tr, sem), "%s on %s: the verdict is the value at position 0", v.Formula, v.States)
	}
}

// forRandomFormulas calls check on n random formulas drawn by cfg, under
// each semantics, with the seeded generator it also gives check for traces.
func forRandomFormulas(t *testing.T, seed uint64, n int, cfg ltl.RandomConfig,
	check func(f ltl.Formula, sem ltl.Semantics, rng *rand.Rand)) {
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, seed))
	if testing.Short() {
		n /= 5
	}
	for _, sem := range semantics {
		for range n {
			check(ltl.Random(rng, cfg), sem, rng)
		}
	}
}

// allTraces returns every trace over atoms whose length is in
// minLen…maxLen, shortest first.
func allTraces(atoms []string, minLen, maxLen int) []ltl.Sets {
	var out []ltl.Sets
	states := make([][]string, 1<<len(atoms))
	for m := range states {
		states[m] = []string{}
		for i, a := range atoms {
			if m&(1<<i) != 0 {
				states[m] = append(states[m], a)
			}
		}
	}
	var gen func(prefix ltl.Sets, n int)
	gen = func(prefix ltl.Sets, n int) {
		if len(prefix) == n {
			out = append(out, append(ltl.Sets{}, prefix...))
			return
		}
		for _, st := range states {
			gen(append(prefix, st), n)
		}
	}
	for n := minLen; n <= maxLen; n++ {
		gen(nil, n)
	}
	return out
}

// difference returns the first position of t at which f and g have
// different values under sem, or -1. Position 0 of the empty trace is
// compared too (the verdict), and under RosuHavelund so is the virtual end
// position n, read through X at n-1.
func difference(f, g ltl.Formula, t ltl.Sets, sem ltl.Semantics) int {
	// One evaluation of f ^ g (and X(f ^ g) for the virtual end) finds
	// whether they differ; only then look for where.
	h := ltl.Xor(f, g)
	if sem == ltl.RosuHavelund {
		h = ltl.Or(h, ltl.Next(h))
	}
	if t.Len() == 0 {
		if ltl.Eval(h, t, sem) {
			return 0
		}
		return -1
	}
	differ := false
	for _, v := range ltl.EvalAll(h, t, sem) {
		differ = differ || v
	}
	if !differ {
		return -1
	}
	vf, vg := ltl.EvalAll(f, t, sem), ltl.EvalAll(g, t, sem)
	for i := range vf {
		if vf[i] != vg[i] {
			return i
		}
	}
	return t.Len() // the virtual end position
}

// firstDifference returns the first trace of ts, and the position in it, at
// which f and g differ under sem; ok is false if there is none.
func firstDifference(f, g ltl.Formula, ts []ltl.Sets, sem ltl.Semantics) (t ltl.Sets, pos int, ok bool) {
	for _, t := range ts {
		if i := difference(f, g, t, sem); i >= 0 {
			return t, i, true
		}
	}
	return nil, 0, false
}

// treeSize is the number of nodes of f's syntax tree, shared subformulas
// counted at every occurrence.
func treeSize(f ltl.Formula) int {
	size := map[ltl.Formula]int{}
	for _, g := range f.Subformulas() {
		n := 1
		for _, c := range g.Operands() {
			n += size[c]
		}
		size[g] = n
	}
	return size[f]
}

// everyOperator returns every operator applied to operands: each unary
// operator to each operand, each binary one to each pair.
func everyOperator(operands []ltl.Formula) []ltl.Formula {
	var out []ltl.Formula
	for _, op := range ltl.AllOps() {
		for _, l := range operands {
			if op.Arity() == 1 {
				out = append(out, ltl.Unary(op, l))
				continue
			}
			for _, r := range operands {
				out = append(out, ltl.Binary(op, l, r))
			}
		}
	}
	return out
}
