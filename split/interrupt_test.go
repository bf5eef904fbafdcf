package split

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The checks below take minutes (and gigabytes) to complete; before the BDD
// kernel could be interrupted, one image outlived a 30 s deadline by up to
// 9 minutes. With a deadline of a second they must return at all (go test's
// -timeout is the backstop) and report the deadline, never a verdict. How
// soon they return is not asserted (it depends on the machine's load), only
// logged.

const interruptDeadline = time.Second

func TestCheckStopsAtDeadlineInsideImages(t *testing.T) {
	p, mutex, _ := bakery(7)
	ctx, cancel := context.WithTimeout(context.Background(), interruptDeadline)
	defer cancel()
	start := time.Now()
	res, err := Check(ctx, p, mutex, Options{})
	t.Logf("BAKERY-7 mutex: returned after %v: %v %s", time.Since(start), res.Verdict, res.Reason)
	require.NoError(t, err)
	assert.Equal(t, Unknown, res.Verdict)
	assert.Contains(t, res.Reason, "deadline exceeded")
}

func TestComputeInvariantStopsAtDeadline(t *testing.T) {
	for _, workers := range []int{1, 2} { // sequential; parallel stores
		p, _ := german(8)
		ctx, cancel := context.WithTimeout(context.Background(), interruptDeadline)
		start := time.Now()
		inv, err := ComputeInvariant(ctx, p, InvariantOptions{Workers: workers})
		cancel()
		t.Logf("GERMAN-8 invariant, %d workers: returned after %v: %v", workers, time.Since(start), err)
		require.ErrorIs(t, err, context.DeadlineExceeded)
		assert.Nil(t, inv)
	}
}

// TestInvariantOutlivesContext: the Invariant ComputeInvariant returns is
// detached from its context, so queries after the context's (deferred)
// cancellation still compute.
func TestInvariantOutlivesContext(t *testing.T) {
	p := muxSem(3, true, false)
	ctx, cancel := context.WithCancel(context.Background())
	inv, err := ComputeInvariant(ctx, p, InvariantOptions{})
	require.NoError(t, err)
	cancel()
	n := inv.States(0, 1<<20)
	assert.Positive(t, n)
	ok, err := inv.Implies(0, True())
	require.NoError(t, err)
	assert.True(t, ok)
	inv2, err := ComputeInvariant(context.Background(), p, InvariantOptions{})
	require.NoError(t, err)
	assert.True(t, inv.Equal(inv2))
}

func TestCheckMonolithicStopsAtDeadline(t *testing.T) {
	p, mutex, _ := bakery(7)
	ctx, cancel := context.WithTimeout(context.Background(), interruptDeadline)
	defer cancel()
	start := time.Now()
	res, _, err := CheckMonolithic(ctx, p, mutex, 0)
	t.Logf("BAKERY-7 monolithic: returned after %v: %v %s", time.Since(start), res.Verdict, res.Reason)
	require.NoError(t, err)
	assert.Equal(t, Unknown, res.Verdict)
	assert.Contains(t, res.Reason, "deadline exceeded")
}
