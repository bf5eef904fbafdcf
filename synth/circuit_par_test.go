package synth

import (
	"context"
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCircuitParallelSame determinizes every circuit spec and AMBA n = 2…4
// (n = 4 without -short) with one, two and three workers: the circuits
// must be identical, node for node and root for root. By default small
// controllers get one worker, the others GOMAXPROCS.
func TestCircuitParallelSame(t *testing.T) {
	ctx := context.Background()
	specs := circuitSpecs(t)
	for n := 2; n <= 4; n++ {
		if n > 3 && testing.Short() {
			break
		}
		specs = append(specs, ambaForTest(t, n))
	}
	parallel := 0
	for _, spec := range specs {
		c := controllerOf(t, spec)
		// The default: one worker for small controllers.
		jobs := len(c.g.sysJ) + 1
		if c.g.sp.Stats().Produced < parallelMinProduced {
			assert.Equal(t, 1, c.workers(jobs), spec.Name)
		} else {
			assert.Equal(t, min(runtime.GOMAXPROCS(0), jobs), c.workers(jobs), spec.Name)
		}
		var want *Circuit
		for _, w := range []int{1, 2, 3} {
			c.g.parallel = w
			start := time.Now()
			circ, err := c.Circuit(ctx)
			require.NoError(t, err, "%s, %d workers", spec.Name, w)
			t.Logf("%s: %d workers: %v", spec.Name, w, time.Since(start))
			if w == 1 {
				want = circ
				continue
			}
			require.Equal(t, want, circ, "%s: %d workers", spec.Name, w)
		}
		if c.stateGoals() && len(c.g.sysJ) > 1 {
			parallel++
		}
	}
	assert.Positive(t, parallel, "no spec determinized in parallel")
}

// sysLevelsOf returns the primed levels of the system's variables, the
// output levels goalFunctions determinizes.
func sysLevelsOf(c *Controller) []int {
	var ls []int
	for _, v := range c.g.sys {
		ls = append(ls, v.Levels(true)...)
	}
	return ls
}

// settledGoroutines waits (up to a second) for the number of goroutines to
// fall to at most want, and returns the last count.
func settledGoroutines(want int) int {
	n := runtime.NumGoroutine()
	for deadline := time.Now().Add(time.Second); n > want && time.Now().Before(deadline); n = runtime.NumGoroutine() {
		time.Sleep(5 * time.Millisecond)
	}
	return n
}

// TestCircuitParallelCancel cancels AMBA n = 3's parallel determinization
// 50 ms into its goals (about half a second of work on two workers): it
// must return the context's error and leave no goroutine behind, and the
// controller must give the sequential circuit afterwards. As in the other
// interruption tests, how soon it returns is logged, not asserted (go
// test's -timeout is the backstop).
func TestCircuitParallelCancel(t *testing.T) {
	spec := ambaForTest(t, 3)
	bg := context.Background()
	res, err := spec.Realizable(bg, WithParallelism(1))
	require.NoError(t, err)
	c, err := res.Controller(bg)
	require.NoError(t, err)
	want, err := c.Circuit(bg)
	require.NoError(t, err)

	before := runtime.NumGoroutine()
	for _, w := range []int{2, 3} {
		in, err := c.detInputs(bg, true)
		require.NoError(t, err)
		ctx, cancel := context.WithCancel(bg)
		release := c.g.bind(ctx)
		var cancelled time.Time
		timer := time.AfterFunc(50*time.Millisecond, func() { cancelled = time.Now(); cancel() })
		_, _, err = c.goalFunctionsParallel(ctx, w, in, sysLevelsOf(c))
		returned := time.Now()
		release()
		timer.Stop()
		cancel()
		require.ErrorIs(t, err, context.Canceled, "%d workers", w)
		t.Logf("%d workers: returned %v after the cancellation", w, returned.Sub(cancelled))
		assert.LessOrEqual(t, settledGoroutines(before), before, "%d workers: goroutines left", w)
	}

	c.g.parallel = 2
	again, err := c.Circuit(bg)
	require.NoError(t, err)
	require.Equal(t, want, again)
}

// TestCircuitParallelMemoryBound determinizes AMBA n = 3 under memory
// bounds that realizability fits in and determinization does not, with
// two and (without -short) three workers: each worker's Space has the
// bound, and the first to reach it (the controller's Space at 4 MiB, a
// sibling's at 12 MiB on this spec) stops them all with ErrMemoryBound.
func TestCircuitParallelMemoryBound(t *testing.T) {
	spec := ambaForTest(t, 3)
	ctx := context.Background()
	before := runtime.NumGoroutine()
	workers := []int{2, 3}
	if testing.Short() {
		workers = workers[:1]
	}
	for _, bound := range []int64{4 << 20, 12 << 20} {
		for _, w := range workers {
			res, err := spec.Realizable(ctx, WithMemoryLimit(bound), WithParallelism(w))
			require.NoError(t, err)
			c, err := res.Controller(ctx)
			require.NoError(t, err)
			_, err = c.Circuit(ctx)
			assert.ErrorIs(t, err, ErrMemoryBound, "bound %d, %d workers", bound, w)
		}
	}
	assert.LessOrEqual(t, settledGoroutines(before), before, "goroutines left")
}

// TestCircuitParallelDefaultUnderBound: by default a controller under
// WithMemoryLimit determinizes on one goroutine, so the bound holds for
// the whole determinization, while without the bound the same controller
// of AMBA n = 4 is large enough for GOMAXPROCS workers.
func TestCircuitParallelDefaultUnderBound(t *testing.T) {
	c := controllerOf(t, ambaForTest(t, 4), WithMemoryLimit(1<<30))
	assert.Equal(t, 1, c.workers(4), "workers under a memory bound")
	c.g.maxBytes = 0
	assert.Equal(t, min(4, runtime.GOMAXPROCS(0)), c.workers(4), "workers without a bound")
}
