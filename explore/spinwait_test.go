package explore

import "testing"

// A goroutine in a spin lock's Gosched backoff whose lock was freed is
// not stuck: the clock does not run to the next deadline (a timeout, a
// purge loop's tick) before it polls again, so it takes the lock in time
// and an idle worker is retired by the loop instead of being reported as
// a leak. A spinner that waits for the clock (a sleeper's flag, a
// deadline on time.Now) still lets it advance; a goroutine's first poll
// does not.
func TestSpinWaitAndClock(t *testing.T) {
	assertCompletePasses(t, "spinwait", "TestFreeLockBeforeTimeout", "TestIdleWorkersRetired",
		"TestSpinUntilSleeperWakes", "TestSpinUntilDeadline", "TestPollOnceBeforeTimeout")
}
