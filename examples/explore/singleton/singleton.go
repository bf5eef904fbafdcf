// Package singleton is the Java thesis's singleton race ported to Go: two
// goroutines lazily initialize a shared instance with an unsynchronized
// check-then-act, and both can see it nil and create it.
//
// The race is between plain memory accesses, so the explorer finds the
// failing test only with Options.Shared (every access to shared memory is
// a scheduling point).
//
// The thesis states the property as the LTL spec
// [](getSingleton() -> []!getSingleton()), spec "thesis" below. Read
// literally, with LTL's reflexive G, it is equivalent to G !getSingleton:
// it is violated by the first call, in every interleaving, race or no
// race (the thesis's own automaton has no edge allowing the call). Spec
// "atMostOnce" says what was meant — after a call, no later call — and is
// violated only in the interleavings where both goroutines pass the nil
// check. Calls of getSingleton are events, so they are scheduling points:
// the window between the nil check and the assignment is explored even
// without Options.Shared.
package singleton

import "sync"

// Instance is the lazily created value.
type Instance struct{ id int }

var (
	instance *Instance
	created  int
)

// getSingleton creates the instance; it must run at most once.
//
//ltl:prop getSingleton call getSingleton
//ltl:spec thesis G(getSingleton -> G !getSingleton)
//ltl:spec atMostOnce G(getSingleton -> N G !getSingleton)
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
