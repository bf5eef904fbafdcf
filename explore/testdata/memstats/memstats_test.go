// Package memstats logs memory usage the way pool tests do.
package memstats

import (
	"runtime"
	"sync"
	"testing"
)

func TestLogsMemory(t *testing.T) {
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = make([]byte, 1<<10)
		}()
	}
	wg.Wait()
	var mem runtime.MemStats
	runtime.ReadMemStats(&mem)
	t.Logf("memory usage: %d MB", mem.TotalAlloc/(1<<20))
}
