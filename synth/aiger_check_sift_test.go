package synth

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/henceforth-go/henceforth/internal/fds"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCheckAIGSiftPassesAgree checks the stored AMBA n = 3 and 4
// controllers (above siftGatesFrom, so the check sifts) and mutants of
// them with the default sifting (two passes on these circuits, whose
// first pass gains more than a tenth: checkMethod.siftAgain), with one
// (checkMethod.siftPasses), with two from aigOrder's ranking without
// muxOrder, and with the spec's sections conjoined before the circuit's
// functions are built (gatesFirst off): a pass, like the initial order
// and the order of the phases, only permutes the variables or changes
// what is live while they move, so the verdicts must be the same, and the
// stored circuits must pass.
// The seed is fixed and printed on failure.
func TestCheckAIGSiftPassesAgree(t *testing.T) {
	ctx := context.Background()
	const seed = 20261128
	mutants := map[int]int{3: 6, 4: 0}
	if testing.Short() {
		mutants = map[int]int{3: 2}
	}
	once := defaultCheck()
	once.siftPasses = 0
	noMux := defaultCheck()
	noMux.muxOrder = false
	specFirst := defaultCheck()
	specFirst.gatesFirst = false
	for _, n := range []int{3, 4} {
		if _, ok := mutants[n]; !ok {
			continue
		}
		spec, stored := ambaForTest(t, n), ambaCircuit(t, n)
		require.GreaterOrEqual(t, len(stored.Ands), siftGatesFrom, "amba%d must be sifted", n)
		rng := rand.New(rand.NewPCG(seed, uint64(n)))
		for m := -1; m < mutants[n]; m++ {
			a, what := stored, "as stored"
			if m >= 0 {
				a, what = mutateAIG(stored, rng)
			}
			want := checkAIG(ctx, spec, a, once)
			got := checkAIG(ctx, spec, a, defaultCheck())
			ranked := checkAIG(ctx, spec, a, noMux)
			spec1st := checkAIG(ctx, spec, a, specFirst)
			for _, err := range []error{want, got, ranked, spec1st} {
				if err != nil && !errors.Is(err, ErrRefuted) {
					t.Fatalf("amba%d mutant %d (seed %d, %s): %v", n, m, seed, what, err)
				}
			}
			t.Logf("amba%d mutant %d (%s): %v", n, m, what, got)
			require.Equal(t, want == nil, got == nil, "amba%d mutant %d (seed %d, %s): one pass %v, the default (two passes) %v", n, m, seed, what, want, got)
			require.Equal(t, ranked == nil, got == nil, "amba%d mutant %d (seed %d, %s): without muxOrder %v, with (default) %v", n, m, seed, what, ranked, got)
			require.Equal(t, spec1st == nil, got == nil, "amba%d mutant %d (seed %d, %s): the spec's sections first %v, the circuit's functions first (default) %v", n, m, seed, what, spec1st, got)
			if m < 0 {
				require.NoError(t, got, "amba%d as stored", n)
			}
		}
	}
}

// TestCheckAIGBuildsGatesBeforeSpec: by default the check builds the
// circuit's functions before it conjoins the spec's sections
// (checkMethod.gatesFirst), so that the sifting while the sections are
// conjoined weighs them; without gatesFirst the sections come first. The
// order is read from the phases the check reports, and both orders must
// pass the stored arbiter circuit.
func TestCheckAIGBuildsGatesBeforeSpec(t *testing.T) {
	spec, a := arbiterCircuit(t)
	phases := func(m checkMethod) []string {
		var names []string
		m.phase = func(name string) { names = append(names, name) }
		require.NoError(t, checkAIG(context.Background(), spec, a, m))
		return names
	}
	specFirst := defaultCheck()
	specFirst.gatesFirst = false
	for _, c := range []struct {
		m           checkMethod
		first, then string
	}{{defaultCheck(), "gates", "spec"}, {specFirst, "spec", "gates"}} {
		names := phases(c.m)
		i, j := slices.Index(names, c.first), slices.Index(names, c.then)
		require.True(t, i >= 0 && j >= 0, "phases %v", names)
		assert.Less(t, i, j, "gatesFirst %v: phases %v", c.m.gatesFirst, names)
	}
}

// TestCheckAIGSiftsAgainAfterAGain: siftGates runs a further pass only
// when the last removed at least a tenth of the live nodes
// (checkMethod.siftAgain), and every pass without the rule; read from the
// passes the check reports on the stored AMBA n = 3 and 4 circuits, with
// up to three passes, which must pass either way.
func TestCheckAIGSiftsAgainAfterAGain(t *testing.T) {
	m := defaultCheck()
	// AMBA n = 12's first pass, which its second did not improve, and
	// n = 10's.
	assert.False(t, m.siftAgain(fds.ReorderStats{Before: 96443, After: 93370}), "a 3 %% gain")
	assert.True(t, m.siftAgain(fds.ReorderStats{Before: 68357, After: 52126}), "a 24 %% gain")
	assert.True(t, m.siftAgain(fds.ReorderStats{Before: 1000, After: 900}), "a 10 %% gain")
	always := defaultCheck()
	always.siftAgainGain = 0
	assert.True(t, always.siftAgain(fds.ReorderStats{Before: 1000, After: 1000}))

	gained := func(st fds.ReorderStats) bool { return float64(st.After) <= 0.9*float64(st.Before) }
	for _, n := range []int{3, 4} {
		spec, a := ambaForTest(t, n), ambaCircuit(t, n)
		passes := func(m checkMethod) []fds.ReorderStats {
			var got []fds.ReorderStats
			m.siftPasses = 2
			m.siftPass = func(st fds.ReorderStats) { got = append(got, st) }
			require.NoError(t, checkAIG(context.Background(), spec, a, m), "amba%d", n)
			return got
		}
		got := passes(defaultCheck())
		t.Logf("amba%d: passes %+v", n, got)
		require.NotEmpty(t, got, "amba%d is sifted", n)
		for i, st := range got[:len(got)-1] {
			assert.True(t, gained(st), "amba%d: pass %d of %+v gained under 10 %% and was followed", n, i, got)
		}
		assert.True(t, len(got) == 3 || !gained(got[len(got)-1]), "amba%d: the last pass of %+v gained 10 %% and was not followed", n, got)
		assert.Len(t, got, 2, "amba%d: the second pass gains under 10 %%", n)
		assert.Len(t, passes(always), 3, "amba%d: without the rule every pass runs", n)
	}
}
