// Package xtestspec has //ltl:spec annotations checked when its external
// test package (xtestspec_test) is explored, and calls into dependencies
// with specs of their own (dep, session), checked where their code runs
// (specpkgs_test.go).
package xtestspec

import (
	"sync"

	"github.com/henceforth-go/henceforth/explore/testdata/xtestspec/dep"
	"github.com/henceforth-go/henceforth/explore/testdata/xtestspec/session"
)

// Store holds one value.
type Store struct {
	mu sync.Mutex
	v  int
}

//ltl:prop put call (*Store).Put
//ltl:prop get call (*Store).Get
//ltl:spec putFirst !get W put

// Put stores v.
func (s *Store) Put(v int) {
	s.mu.Lock()
	s.v = v
	s.mu.Unlock()
}

// Get returns the stored value.
func (s *Store) Get() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.v
}

// Spend takes n from dep's level if it allows it: the check and the
// update are two critical sections.
func Spend(n int) {
	if dep.Level() >= n {
		dep.Take(n)
	}
}

// Visit opens a session and forgets to close it.
func Visit() {
	session.Open()
}

// VisitAndClose opens and closes a session.
func VisitAndClose() {
	session.Open()
	session.Close()
}
