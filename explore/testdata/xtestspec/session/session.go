// Package session is a dependency of xtestspec whose specs are over events
// only: a session is closed only after it is opened, and every use of the
// package ends by closing it. Paths on which none of its events happen do
// not judge its specs (closes would fail them all).
package session

var open bool

//ltl:prop opened call Open
//ltl:prop closed call Close
//ltl:spec openFirst !closed W opened
//ltl:spec closes F closed

// Open opens the session.
func Open() { open = true }

// Close closes it.
func Close() { open = false }
