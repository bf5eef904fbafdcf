// Package singleton is the Java thesis's singleton race ported to Go: two
// goroutines lazily initialize a shared instance with an unsynchronized
// check-then-act, and both can see it nil and create it.
//
// The race is between plain memory accesses, so the explorer finds it only
// with Options.Shared (every access to shared memory is a scheduling
// point). The thesis's LTL formulation, "getSingleton is called at most
// once", will be checked by the LTL monitors when they are wired in.
package singleton

import "sync"

// Instance is the lazily created value.
type Instance struct{ id int }

var (
	instance *Instance
	created  int
)

// getSingleton creates the instance; it must run at most once.
func getSingleton() *Instance {
	created++
	return &Instance{id: created}
}

// Get returns the instance, creating it on first use. The nil check and
// the assignment are separate steps another goroutine can run between.
func Get() *Instance {
	if instance == nil {
		instance = getSingleton()
	}
	return instance
}

var once sync.Once

// SafeGet creates the instance exactly once.
func SafeGet() *Instance {
	once.Do(func() { instance = getSingleton() })
	return instance
}

// Created reports how many instances were created.
func Created() int { return created }

// Reset forgets the instance (for tests).
func Reset() {
	instance, created = nil, 0
	once = sync.Once{}
}
