// Package bounds holds the tests of the exploration's bounds: long
// executions (steps), programs whose memory grows (memory), and programs
// whose schedules are too many to enumerate (the auto strategy's sampling).
package bounds

import (
	"sync"
	"testing"
	"time"
)

// ChannelOps is the number of sends (and of receives) of
// TestDeadlockAfterManyChannelOps: 2×ChannelOps scheduling steps.
const ChannelOps = 20000

// TestDeadlockAfterManyChannelOps makes 40000 scheduling steps on one
// goroutine, then blocks forever.
func TestDeadlockAfterManyChannelOps(t *testing.T) {
	c := make(chan int, 1)
	for i := 0; i < ChannelOps; i++ {
		c <- i
		<-c
	}
	<-make(chan int) // blocks forever
}

// TestPingPong hands a token between two goroutines 20000 times over an
// unbuffered channel (40000 rendezvous steps), then deadlocks.
func TestPingPong(t *testing.T) {
	ping, pong := make(chan int), make(chan int)
	go func() {
		for v := range ping {
			pong <- v + 1
		}
	}()
	for i := 0; i < ChannelOps/2; i++ {
		ping <- i
		<-pong
	}
	<-make(chan int)
}

// TestGrowingSlice allocates without end, with a scheduling point per
// round (a channel operation).
func TestGrowingSlice(t *testing.T) {
	var keep [][]byte
	c := make(chan int, 1)
	for {
		keep = append(keep, make([]byte, 1<<10))
		c <- len(keep)
		<-c
	}
}

// TestGrowingMap grows a map in a loop without any scheduling point.
func TestGrowingMap(t *testing.T) {
	m := map[int][]int{}
	for i := 0; ; i++ {
		m[i] = make([]int, 16)
	}
}

// TestSpawnForever starts goroutines that never end, without end, with a
// scheduling point per round.
func TestSpawnForever(t *testing.T) {
	var mu sync.Mutex
	mu.Lock()
	c := make(chan int, 1)
	for {
		go func() {
			mu.Lock()
		}()
		c <- 1
		<-c
	}
}

// lockHandOver runs workers goroutines that each take turns rounds times
// at a hand-over of two locks that can deadlock (one holds outer and waits
// for inner; another holds inner and waits for the read lock of outer,
// which a pending writer blocks): as timecases/manygo, smaller.
func lockHandOver(workers, rounds int) {
	var outer sync.RWMutex
	var inner sync.Mutex
	var wg sync.WaitGroup
	for i := 0; i < workers; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < rounds; j++ {
				outer.Lock()
				inner.Lock()
				outer.Unlock()
				outer.RLock()
				inner.Unlock()
				outer.RUnlock()
				time.Sleep(time.Microsecond)
			}
		}()
	}
	wg.Wait()
}

// TestLockHandOverEightWorkers: too many schedules for DPOR's first
// executions to reach the deadlock; PCT samples it.
func TestLockHandOverEightWorkers(t *testing.T) { lockHandOver(8, 3) }

// TestLockHandOverOneWorker has no deadlock: DPOR completes.
func TestLockHandOverOneWorker(t *testing.T) { lockHandOver(1, 2) }

// TestManyIndependentWorkers has no bug but too many schedules for a few
// executions: neither DPOR's first executions nor PCT's samples prove
// anything.
func TestManyIndependentWorkers(t *testing.T) {
	var wg sync.WaitGroup
	c := make(chan int, 8)
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c <- i
			<-c
		}()
	}
	wg.Wait()
}

// TestDeadlockAfterMillionSteps makes almost DefaultMaxSteps (1000000)
// scheduling steps on one goroutine, then blocks forever: the memory a
// long execution keeps (a trace entry and a DPOR event per step).
func TestDeadlockAfterMillionSteps(t *testing.T) {
	c := make(chan int, 1)
	for i := 0; i < 499990; i++ {
		c <- i
		<-c
	}
	<-make(chan int)
}
