package split

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMuxSemMutexProvedByRefinement(t *testing.T) {
	sizes := []int{2, 3, 5, 8}
	if testing.Short() {
		sizes = []int{3, 8} // N = 4 and (long) 64 are in TestThesisVerdicts
	}
	for _, n := range sizes {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			p := muxSem(n, false, false)
			res, err := Check(context.Background(), p, mutex(p, 2), Options{})
			require.NoError(t, err)
			t.Log(res.Reason)
			for _, e := range res.Exposed {
				t.Log("exposed ", e)
			}
			assert.Equal(t, Proved, res.Verdict, res.Reason)
		})
	}
}

func TestMuxSemLastMutexProvedWithoutRefinement(t *testing.T) {
	p := muxSem(6, true, false)
	res, err := Check(context.Background(), p, mutex(p, 2), Options{})
	require.NoError(t, err)
	assert.Equal(t, Proved, res.Verdict)
	assert.Equal(t, 0, res.Refinements)
	assert.Equal(t, "the split invariant implies all 15 conjuncts", res.Reason)
}

// brokenMux lets a process skip from its request to the release of the
// semaphore it does not hold.
func brokenMux(n int) *Program {
	p := muxSem(n, false, false)
	for _, pr := range p.Processes() {
		loc := pr.Locals()[0]
		pr.Command("sneak", Is(loc, 1), Set(loc, Int(3)))
	}
	return p
}

func TestBrokenMuxCounterexample(t *testing.T) {
	// P[3] sneaks to release x while P[1] is critical: then P[2] enters.
	p := brokenMux(3)
	res, err := Check(context.Background(), p, mutex(p, 2), Options{})
	require.NoError(t, err)
	require.Equal(t, Violated, res.Verdict, res.Reason)
	tr := res.Counterexample
	require.NotNil(t, tr)
	t.Log(tr)
	require.NoError(t, p.Replay(tr))
	last := tr.Len() - 1
	crit := 0
	for _, pr := range p.Processes() {
		if v, _ := tr.Value(last, pr.Locals()[0].Name()); v == 2 {
			crit++
		}
	}
	assert.Equal(t, 2, crit, "two processes critical at the end")
}
