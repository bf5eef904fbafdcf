package split

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCheckUnknownWhenCancelled(t *testing.T) {
	p := muxSem(4, false, false)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := Check(ctx, p, mutex(p, 2), Options{})
	require.NoError(t, err)
	assert.Equal(t, Unknown, res.Verdict)
	assert.Contains(t, res.Reason, "context canceled")
}

func TestCheckUnknownAtRefinementLimit(t *testing.T) {
	p := muxSem(4, false, false)
	res, err := Check(context.Background(), p, mutex(p, 2), Options{MaxRefinements: 1})
	require.NoError(t, err)
	assert.Equal(t, Unknown, res.Verdict)
	assert.Equal(t, 1, res.Refinements)
	assert.Contains(t, res.Reason, "refinement limit (1) reached; the next predicate would be x2 ≡ loc ∈ {0, 1}")
	res, err = Check(context.Background(), p, mutex(p, 2), Options{MaxRefinements: -1})
	require.NoError(t, err)
	assert.Equal(t, Unknown, res.Verdict)
	assert.Equal(t, 0, res.Refinements)
}

func TestCheckUnknownAtNodeLimit(t *testing.T) {
	p, prop := peterson(3)
	res, err := Check(context.Background(), p, prop, Options{MaxNodes: 200})
	require.NoError(t, err)
	assert.Equal(t, Unknown, res.Verdict)
	assert.Contains(t, res.Reason, "BDD node limit reached")
}

func TestProgramErrors(t *testing.T) {
	p := NewProgram("bad")
	x := p.Bool("x")
	a := p.Process("A")
	b := p.Process("B")
	la := a.Int("v", 0, 3)
	b.Int("v", 0, 3)
	b.Command("steal", True(), Set(la, Int(1)))
	_, err := Check(context.Background(), p, NewInvariant("i", Ref(x)), Options{})
	require.Error(t, err)
	assert.True(t, errors.Is(err, ErrProgram))
	assert.Equal(t, "malformed program: command steal of B assigns A.v, a local variable of another process", err.Error())

	q := NewProgram("dup")
	q.Bool("x")
	q.Int("x", 0, 2)
	q.Process("P")
	assert.EqualError(t, q.Err(), "type error: variable x declared twice")
	_, err = ComputeInvariant(context.Background(), q, InvariantOptions{})
	assert.True(t, errors.Is(err, ErrType))

	r := NewProgram("types")
	y := r.Int("y", 0, 3)
	pr := r.Process("P")
	pr.Command("c", Ref(y), Set(y, Int(0)))
	_, err = ComputeInvariant(context.Background(), r, InvariantOptions{})
	assert.EqualError(t, err, "type error: guard of c: y is integer, want boolean")
}

func TestReplayRejectsBadTraces(t *testing.T) {
	p := brokenMux(3)
	res, err := Check(context.Background(), p, mutex(p, 2), Options{})
	require.NoError(t, err)
	require.Equal(t, Violated, res.Verdict)
	good := res.Counterexample
	require.NoError(t, p.Replay(good))

	clone := func() *Trace {
		c := *good
		c.States = make([][]int, len(good.States))
		for i, s := range good.States {
			c.States[i] = append([]int(nil), s...)
		}
		c.Steps = append([]Step(nil), good.Steps...)
		return &c
	}
	x := p.Lookup("x")
	bad := clone()
	bad.States[0][x.index] = 0
	assert.ErrorContains(t, p.Replay(bad), "state 0 violates the shared initial condition")

	bad = clone()
	bad.Steps[0].Process = "P[3]"
	if good.Steps[0].Process == "P[3]" {
		bad.Steps[0].Process = "P[2]"
	}
	assert.ErrorContains(t, p.Replay(bad), "step 1")

	bad = clone()
	bad.Steps[0].Command = "release"
	assert.ErrorContains(t, p.Replay(bad), "step 1: "+good.Steps[0].Process+" performs "+good.Steps[0].Command+", not release")

	bad = clone()
	bad.States[1][x.index] = 5
	assert.ErrorContains(t, p.Replay(bad), "x = 5 is outside 0..1")
}

// TestCheckStaged: staged invariants (Options.Staged) give the verdicts
// and refinements of the default fixpoint, sequential and parallel.
func TestCheckStaged(t *testing.T) {
	p, prop := peterson(3)
	want, err := Check(context.Background(), p, prop, Options{})
	require.NoError(t, err)
	require.Equal(t, Proved, want.Verdict)
	for _, w := range []int{1, 2} {
		res, err := Check(context.Background(), p, prop, Options{Staged: true, Workers: w})
		require.NoError(t, err)
		assert.Equal(t, Proved, res.Verdict, "workers=%d", w)
		assert.Equal(t, want.Refinements, res.Refinements, "workers=%d", w)
	}
	q := muxSem(4, false, false)
	res, err := Check(context.Background(), q, starvation(q, 0, 1, 2), Options{Staged: true})
	require.NoError(t, err)
	assert.Equal(t, Violated, res.Verdict)
}
