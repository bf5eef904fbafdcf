// Package initleak starts a background goroutine at package initialization
// that never ends, as a pool's purge loop or a package's worker does.
package initleak

import "sync"

var requests = make(chan func())

func init() {
	go func() {
		for f := range requests {
			f()
		}
	}()
}

// Do runs f on the package's worker and waits for it.
func Do(f func()) {
	var wg sync.WaitGroup
	wg.Add(1)
	requests <- func() { f(); wg.Done() }
	wg.Wait()
}
