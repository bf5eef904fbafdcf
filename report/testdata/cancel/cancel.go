// Package cancel is a context cancelled while a goroutine waits for it in
// a select: the cancel closes the context's Done channel, which wakes the
// select. The scenario then panics, so that every execution is a finding
// with its interleaving.
package cancel

import "context"

// Scenario cancels a context another goroutine selects on (once that
// goroutine has its Done channel), waits for that goroutine, and panics.
func Scenario() {
	ctx, cancel := context.WithCancel(context.Background())
	ready, done, never := make(chan struct{}), make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		d := ctx.Done()
		ready <- struct{}{}
		select {
		case <-d:
		case <-never:
		}
	}()
	<-ready
	cancel()
	<-done
	panic("cancelled")
}
