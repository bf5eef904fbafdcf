package synth

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// The BDD operations of a game stop when its context is done, so a
// computation that takes minutes returns soon after its deadline with the
// deadline's error, never an answer. Only that it returns (go test's
// -timeout is the backstop) and what it reports are asserted; the time is
// logged.

func ambaForTest(t testing.TB, n int) *Spec {
	t.Helper()
	p := filepath.Join(ambaDir, fmt.Sprintf("amba%d.slugsin", n))
	if _, err := os.Stat(p); err != nil {
		t.Skipf("no %s", p)
	}
	spec, err := ParseFile(p)
	require.NoError(t, err)
	return spec
}

func TestRealizableStopsAtDeadline(t *testing.T) {
	spec := ambaForTest(t, 9) // about 150 s to decide
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	start := time.Now()
	res, err := spec.Realizable(ctx)
	t.Logf("AMBA 9: returned after %v: %v", time.Since(start), err)
	require.ErrorIs(t, err, context.DeadlineExceeded)
	require.Nil(t, res)
}

func TestControllerStopsAtDeadline(t *testing.T) {
	spec := ambaForTest(t, 4) // realizable in about 1 s; its explicit machine is astronomically large
	res, err := spec.Realizable(context.Background())
	require.NoError(t, err)
	require.True(t, res.Realizable)
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	c, err := res.Controller(ctx)
	require.NoError(t, err) // it only records the fixpoint's iterates
	start := time.Now()
	m, err := c.Mealy(ctx, 1<<30)
	t.Logf("AMBA 4 explicit controller: returned after %v: %v", time.Since(start), err)
	require.ErrorIs(t, err, context.DeadlineExceeded)
	require.Nil(t, m)
}

// TestControllerAfterInterruption: a controller whose first use is
// interrupted (here before it starts) keeps nothing computed under the
// interruption, so its next uses, with a live context, are right: the
// explicit machine realizes the spec and the circuit passes the check.
func TestControllerAfterInterruption(t *testing.T) {
	spec := liftSpec(t, 3)
	res, err := spec.Realizable(context.Background())
	require.NoError(t, err)
	c, err := res.Controller(context.Background())
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = c.Mealy(ctx, 0)
	require.ErrorIs(t, err, context.Canceled)
	_, err = c.Circuit(ctx)
	require.ErrorIs(t, err, context.Canceled)

	ctx = context.Background()
	m, err := c.Mealy(ctx, 0)
	require.NoError(t, err)
	require.NoError(t, m.Verify(ctx, spec))
	circ, err := c.Circuit(ctx)
	require.NoError(t, err)
	require.NoError(t, circ.Check(ctx, spec))
}
