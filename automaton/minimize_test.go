package automaton

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/henceforth-go/henceforth/ltl"
)

// bruteMinimalSize is the textbook table-filling algorithm on an explicit
// table: the number of classes of indistinguishable states among those
// reachable from state 0.
func bruteMinimalSize(table [][]int32, accept []bool) int {
	n := len(table)
	reach := make([]bool, n)
	reach[0] = true
	for stack := []int32{0}; len(stack) > 0; {
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, t := range table[s] {
			if !reach[t] {
				reach[t] = true
				stack = append(stack, t)
			}
		}
	}
	dist := make([][]bool, n)
	for i := range dist {
		dist[i] = make([]bool, n)
		for j := range dist[i] {
			dist[i][j] = accept[i] != accept[j]
		}
	}
	for changed := true; changed; {
		changed = false
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				if dist[i][j] {
					continue
				}
				for l := range table[i] {
					if dist[table[i][l]][table[j][l]] {
						dist[i][j], changed = true, true
						break
					}
				}
			}
		}
	}
	classes := 0
	for i := 0; i < n; i++ {
		if !reach[i] {
			continue
		}
		first := true
		for j := 0; j < i; j++ {
			if reach[j] && !dist[i][j] {
				first = false
				break
			}
		}
		if first {
			classes++
		}
	}
	return classes
}

// TestMinimizeMatchesBruteForce minimizes small random DFAs (1–9 states,
// 1–3 atoms, random level orders) and compares the number of states with
// the table-filling algorithm, and the language with the input's on every
// word up to length 5 (3 with three atoms).
func TestMinimizeMatchesBruteForce(t *testing.T) {
	const seed = 99
	rng := rand.New(rand.NewPCG(seed, 0))
	t.Logf("seed %d", seed)
	names := []string{"a", "b", "c"}
	iterations := 3000
	if testing.Short() {
		iterations = 1000
	}
	for iter := range iterations {
		k := 1 + rng.IntN(3)
		n := 1 + rng.IntN(9)
		like := &DFA{atoms: names[:k], order: rng.Perm(k)}
		table := make([][]int32, n)
		accept := make([]bool, n)
		for s := range table {
			table[s] = make([]int32, 1<<k)
			for l := range table[s] {
				table[s][l] = int32(rng.IntN(n))
			}
			accept[s] = rng.IntN(2) == 0
		}
		raw := tableDFA(like, table, accept)
		m := minimize(raw)
		require.Equal(t, bruteMinimalSize(table, accept), m.NumStates(), "seed %d iteration %d: %v %v", seed, iter, table, accept)
		m.finish(true)
		// Same language on all words up to length 5 (3 with three atoms):
		// walk both automata in lockstep.
		var words func(s, ms int32, depth int) bool
		words = func(s, ms int32, depth int) bool {
			if accept[s] != m.accept[ms] {
				return false
			}
			if depth == 0 {
				return true
			}
			for l := range table[s] {
				if !words(table[s][l], m.next(ms, letterOf(l)), depth-1) {
					return false
				}
			}
			return true
		}
		depth := 5
		if k == 3 {
			depth = 3
		}
		require.True(t, words(0, m.initial, depth), "seed %d iteration %d: languages differ", seed, iter)
	}
}

// TestTranslationIsMinimal checks FromFormula's output against the
// table-filling algorithm on its own explicit table, for random formulas.
func TestTranslationIsMinimal(t *testing.T) {
	const seed = 3
	t.Logf("seed %d", seed)
	for _, f := range randomFormulas(seed, 500, ltl.PureFuture, ltl.Mixed) {
		for _, exact := range []bool{false, true} {
			d, err := FromFormula(t.Context(), f, Options{ExactPast: exact})
			require.NoError(t, err)
			if len(d.atoms) > 6 {
				continue
			}
			table := make([][]int32, d.NumStates())
			for s := range table {
				table[s] = make([]int32, 1<<len(d.atoms))
				for l := range table[s] {
					table[s][l] = d.next(int32(s), letterOf(l))
				}
			}
			assert.Equal(t, bruteMinimalSize(table, d.accept), d.NumStates(), "seed %d: %s", seed, f)
		}
	}
}

// TestUnminimizedAgrees checks that Options.Unminimized gives a DFA with at
// least as many states, the same language and the same verdicts after
// every prefix as the minimal one.
func TestUnminimizedAgrees(t *testing.T) {
	const seed = 17
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 1))
	for _, f := range randomFormulas(seed, 300, ltl.PureFuture, ltl.Mixed) {
		d, err := FromFormula(context.Background(), f, Options{})
		require.NoError(t, err)
		u, err := FromFormula(t.Context(), f, Options{Unminimized: true})
		require.NoError(t, err)
		assert.GreaterOrEqual(t, u.NumStates(), d.NumStates())
		for range 10 {
			trace := ltl.RandomTrace(rng, []string{"p", "q", "r"}, 6)
			dm, um := d.Monitor(), u.Monitor()
			for _, ev := range trace {
				require.Equal(t, dm.StepAtoms(ev...), um.StepAtoms(ev...), "seed %d: %s on %v", seed, f, trace)
			}
			assert.Equal(t, dm.Verdict(), um.Run(trace), "seed %d: %s on %v", seed, f, trace)
		}
	}
}
