// Package doubleclose closes a channel twice: two workers that fail both
// signal the failure by closing the same channel.
package doubleclose

import "sync"

// Group runs workers and records the first failure by closing failed.
type Group struct {
	failed chan struct{}
	once   sync.Once
}

// NewGroup returns a group with no failure.
func NewGroup() *Group { return &Group{failed: make(chan struct{})} }

// Fail marks the group failed. It checks whether the channel is already
// closed before closing it, but the check and the close are not atomic:
// two failing workers can both pass the check.
func (g *Group) Fail() {
	select {
	case <-g.failed:
	default:
		close(g.failed)
	}
}

// SafeFail closes the channel exactly once.
func (g *Group) SafeFail() { g.once.Do(func() { close(g.failed) }) }

// Failed is closed after the first failure.
func (g *Group) Failed() <-chan struct{} { return g.failed }
