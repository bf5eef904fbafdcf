package wgaddwait

import (
	"sync"
	"testing"
	"time"
)

func TestAddConcurrentWithWaitSleep(t *testing.T) {
	var wg sync.WaitGroup
	release := make(chan struct{})
	go func() {
		wg.Add(1)
		go func() {
			<-release
			wg.Done()
		}()
	}()
	time.Sleep(time.Millisecond)
	go close(release)
	wg.Wait()
}

// The fixed version: Add happens before the goroutine that calls Done is
// started and before Wait.
func TestAddConcurrentWithWaitSleepFixed(t *testing.T) {
	var wg sync.WaitGroup
	release := make(chan struct{})
	wg.Add(1)
	go func() {
		go func() {
			<-release
			wg.Done()
		}()
	}()
	go close(release)
	wg.Wait()
}
