package explorebodies

import (
	"sync"
	"time"
)

// GrowForever allocates without end, with a scheduling point per round.
func GrowForever() {
	var keep [][]byte
	c := make(chan int, 1)
	for {
		keep = append(keep, make([]byte, 1024))
		c <- len(keep)
		<-c
	}
}

// LongRun makes 2000 scheduling steps, then returns.
func LongRun() {
	c := make(chan int, 1)
	for i := 0; i < 1000; i++ {
		c <- i
		<-c
	}
}

// LockHandOver runs eight goroutines that take turns three times at a
// hand-over of two locks that can deadlock: DPOR's first executions miss
// it, PCT's samples find it.
func LockHandOver() {
	var outer sync.RWMutex
	var inner sync.Mutex
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 3; j++ {
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
