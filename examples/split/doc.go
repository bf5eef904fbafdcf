// Package split holds examples of compositional verification of Go code
// (packages split and split/gosplit of henceforth, through
// ltltest.SplitN): a function started as N goroutines is extracted into a
// program of N processes and its //ltl:spec properties are proved for N
// far beyond what exploring schedules can reach.
//
//   - mutex: goroutines that take a sync.Mutex around a critical section;
//     mutual exclusion is proved for 64 goroutines.
//   - racy: the same critical section guarded by check-then-act on a
//     shared flag; the check finds the interleaving that lets two
//     goroutines in (with 2 of the N goroutines), and the explorer
//     confirms the violation on the real code by exploring Demo.
//   - rally: ping-pong over an unbuffered channel whose ball counts the
//     hits of a rally; the ball stays in its //ltl:range for 32 players.
package split
