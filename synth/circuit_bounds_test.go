package synth

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBoundsEveryPhase: a done context stops determinization, checking and
// enumeration with its error; a memory bound stops realizability and
// checking with ErrMemoryBound; -max-states stops an enumeration with
// ErrTooLarge.
func TestBoundsEveryPhase(t *testing.T) {
	spec := liftSpec(t, 3)
	res, err := spec.Realizable(context.Background())
	require.NoError(t, err)
	c, err := res.Controller(context.Background())
	require.NoError(t, err)
	circ, err := c.Circuit(context.Background())
	require.NoError(t, err)

	done, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = spec.Realizable(done)
	assert.ErrorIs(t, err, context.Canceled, "realizability")
	_, err = c.Circuit(done)
	assert.ErrorIs(t, err, context.Canceled, "determinization")
	assert.ErrorIs(t, circ.Check(done, spec), context.Canceled, "check")
	_, err = c.Mealy(done, 0)
	assert.ErrorIs(t, err, context.Canceled, "enumeration")
	// The space is usable again after the interruption.
	again, err := c.Circuit(context.Background())
	require.NoError(t, err)
	assert.Equal(t, circ.Nodes, again.Nodes)

	_, err = c.Mealy(context.Background(), 5)
	assert.ErrorIs(t, err, ErrTooLarge, "max states")

	amba := ambaForTest(t, 3)
	_, err = amba.Realizable(context.Background(), WithMemoryLimit(32<<10))
	assert.ErrorIs(t, err, ErrMemoryBound, "realizability")
	assert.ErrorIs(t, circ.Check(context.Background(), spec, WithMemoryLimit(4<<10)), ErrMemoryBound, "check")
}

// TestCircuitStopsAtDeadline interrupts the determinization and the check
// of AMBA n = 3 (a fraction of a second each, in a Space of its own for
// determinization) within a short deadline; the interrupted controller
// then gives the circuit an uninterrupted one gives.
func TestCircuitStopsAtDeadline(t *testing.T) {
	if testing.Short() {
		t.Skip("AMBA n = 3")
	}
	spec := ambaForTest(t, 3)
	want, err := controllerOf(t, spec).Circuit(context.Background())
	require.NoError(t, err)
	res, err := spec.Realizable(context.Background())
	require.NoError(t, err)
	c, err := res.Controller(context.Background())
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	_, err = c.Circuit(ctx)
	require.ErrorIs(t, err, context.DeadlineExceeded)
	circ, err := c.Circuit(context.Background())
	require.NoError(t, err)
	require.Equal(t, want, circ, "after an interruption")
	ctx, cancel = context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	require.ErrorIs(t, circ.Check(ctx, spec), context.DeadlineExceeded)
}
