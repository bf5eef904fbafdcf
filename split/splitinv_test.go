package split

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMuxSemInvariantTooWeak(t *testing.T) {
	// §4.2.3.3: the strongest split invariant of MUX-SEM for 2 processes is
	// (true, true).
	p := muxSem(2, false, false)
	inv, err := ComputeInvariant(context.Background(), p, InvariantOptions{})
	require.NoError(t, err)
	for k := range 2 {
		ok, err := inv.Equivalent(k, True())
		require.NoError(t, err)
		assert.True(t, ok, "θ_%d should be true", k)
	}
}

func TestMuxSemLastInvariant(t *testing.T) {
	// Fig 4.2: with last, θ_i says P[i] holds the semaphore exactly when
	// x = 0 and last = i.
	const n = 4
	p := muxSem(n, true, false)
	inv, err := ComputeInvariant(context.Background(), p, InvariantOptions{})
	require.NoError(t, err)
	x, last := p.Lookup("x"), p.Lookup("last")
	for k, pr := range p.Processes() {
		loc := pr.Locals()[0]
		holds := Or(Is(loc, 2), Is(loc, 3))
		fig42 := Iff(holds, And(Not(Ref(x)), Is(last, k+1)))
		ok, err := inv.Implies(k, fig42)
		require.NoError(t, err)
		assert.True(t, ok, "θ_%d should imply %s", k, fig42)
		// The strongest one also knows that some process set last when x
		// is taken.
		want := And(fig42, Implies(Not(Ref(x)), Ne(Ref(last), Int(0))))
		ok, err = inv.Equivalent(k, want)
		require.NoError(t, err)
		assert.True(t, ok, "θ_%d ≡ %s", k, want)
		assert.Equal(t, 18, inv.States(k, 1000))
	}
}

func TestParallelEqualsSequential(t *testing.T) {
	for _, tc := range []struct {
		name string
		p    *Program
	}{
		{"mux-sem-5", muxSem(5, false, false)},
		{"mux-sem-last-7", muxSem(7, true, false)},
		{"szymanski-4", func() *Program { p, _ := szymanski(4); return p }()},
		{"peterson-3", func() *Program { p, _ := peterson(3); return p }()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			seq, err := ComputeInvariant(context.Background(), tc.p, InvariantOptions{Workers: 1})
			require.NoError(t, err)
			for _, sched := range []Schedule{Chaotic, Rounds} {
				workers := []int{2, 3, 7}
				if testing.Short() {
					// One worker count per schedule; the long run
					// tries every combination.
					workers = []int{map[Schedule]int{Chaotic: 2, Rounds: 3}[sched]}
				}
				for _, w := range workers {
					par, err := ComputeInvariant(context.Background(), tc.p, InvariantOptions{Workers: w, Schedule: sched})
					require.NoError(t, err)
					assert.True(t, seq.Equal(par), "%s workers=%d", sched, w)
					assert.Equal(t, min(w, len(tc.p.Processes())), par.Stats.Workers)
					if sched == Rounds {
						// The same schedule as the sequential algorithm.
						assert.Equal(t, seq.Stats.Images, par.Stats.Images, "%s workers=%d", sched, w)
					}
				}
			}
			// Staged: the same least fixpoint, sequential and Rounds (whose
			// image counts may differ from the sequential ones: a worker
			// sees the growth of another group's summary as one relation,
			// which is empty when it repeats moves already known, e.g.
			// the stutters of processes that do not move yet).
			staged, err := ComputeInvariant(context.Background(), tc.p, InvariantOptions{Staged: true})
			require.NoError(t, err)
			assert.True(t, seq.Equal(staged), "staged")
			for _, w := range []int{2, 3} {
				par, err := ComputeInvariant(context.Background(), tc.p, InvariantOptions{Workers: w, Schedule: Rounds, Staged: true})
				require.NoError(t, err)
				assert.True(t, seq.Equal(par), "staged rounds workers=%d", w)
			}
		})
	}
}
