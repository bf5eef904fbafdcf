package manygo

import (
	"sync"
	"testing"
	"time"
)

// Two workers can deadlock (one holds outer, waits for inner; the other
// holds inner, waits for the read lock). 50 workers make the schedules
// too many to enumerate: only a strategy that samples them finds it.
func TestLockHandOverAmongManyWorkers(t *testing.T) {
	var outer sync.RWMutex
	var inner sync.Mutex
	var wg sync.WaitGroup
	for i := 0; i < 50; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 10; j++ {
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
