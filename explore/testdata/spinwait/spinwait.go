// Package spinwait has goroutines that wait in a spin lock's Gosched
// backoff (as ants' pool does) while timers are set: a free lock must be
// taken before the clock runs to the next deadline.
package spinwait

import (
	"runtime"
	"sync/atomic"
	"time"
)

// SpinLock is a compare-and-swap lock whose Lock yields with
// runtime.Gosched, 1, 2, 4… up to 16 times, between two attempts.
type SpinLock uint32

// Lock takes the lock, spinning until it is free.
func (l *SpinLock) Lock() {
	backoff := 1
	for !atomic.CompareAndSwapUint32((*uint32)(l), 0, 1) {
		for i := 0; i < backoff; i++ {
			runtime.Gosched()
		}
		if backoff < 16 {
			backoff <<= 1
		}
	}
}

// Unlock frees the lock.
func (l *SpinLock) Unlock() { atomic.StoreUint32((*uint32)(l), 0) }

// Pool runs each task on a worker of its own. A worker that finished its
// task waits, idle, on its channel; the purge loop closes the channels of
// the workers idle at each tick, and they exit.
type Pool struct {
	lock SpinLock
	idle []chan func()
}

// NewPool starts the pool's purge loop, which ticks every interval
// forever.
func NewPool(interval time.Duration) *Pool {
	p := &Pool{}
	go p.purge(interval)
	return p
}

func (p *Pool) purge(interval time.Duration) {
	ticker := time.NewTicker(interval)
	for range ticker.C {
		p.lock.Lock()
		idle := p.idle
		p.idle = nil
		p.lock.Unlock()
		for _, w := range idle {
			close(w)
		}
	}
}

// Submit runs f on a new worker.
func (p *Pool) Submit(f func()) {
	w := make(chan func(), 1)
	go func() {
		for f := range w {
			f()
			p.lock.Lock()
			p.idle = append(p.idle, w)
			p.lock.Unlock()
		}
	}()
	w <- f
}

// Spinner waits for an atomic flag with a Gosched loop.
func Spinner(flag *atomic.Bool, done chan<- struct{}) {
	for !flag.Load() {
		runtime.Gosched()
	}
	close(done)
}
