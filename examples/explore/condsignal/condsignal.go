// Package condsignal is a missed sync.Cond signal: the waiter decides to
// wait without holding the lock that protects the condition, so the
// signal can come between its check and its Wait, and it waits forever.
package condsignal

import "sync"

// Gate opens once; Wait blocks until it is open.
type Gate struct {
	mu   sync.Mutex
	cond *sync.Cond
	open bool
}

// NewGate returns a closed gate.
func NewGate() *Gate {
	g := &Gate{}
	g.cond = sync.NewCond(&g.mu)
	return g
}

// Open opens the gate and wakes one waiter.
func (g *Gate) Open() {
	g.mu.Lock()
	g.open = true
	g.mu.Unlock()
	g.cond.Signal()
}

// isOpen reads the flag under the lock.
func (g *Gate) isOpen() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.open
}

// Wait checks the flag, then waits: the check and the wait are not
// atomic, so an Open in between is missed.
func (g *Gate) Wait() {
	if g.isOpen() {
		return
	}
	g.mu.Lock()
	g.cond.Wait()
	g.mu.Unlock()
}

// SafeWait checks the condition in a loop while holding the lock.
func (g *Gate) SafeWait() {
	g.mu.Lock()
	for !g.open {
		g.cond.Wait()
	}
	g.mu.Unlock()
}
