// Package rally is Go's ping-pong over an unbuffered channel: players
// return the ball they receive, and the ball counts the hits of the rally.
package rally

import "sync"

var mu sync.Mutex

var served bool

// ball carries the number of hits of the current rally. The range is a
// promise the check verifies: no player ever sends a value outside 0..3.
//
//ltl:range ball 0..3
var ball = make(chan int)

// player serves if it is the first player to start, then returns every
// ball it receives; after the third hit it starts a new rally.
func player() {
	mu.Lock()
	serve := !served
	served = true
	mu.Unlock()
	if serve {
		ball <- 0
	}
	for {
		hits := <-ball // hits has ball's range
		if hits < 3 {
			ball <- hits + 1
		} else {
			ball <- 0
		}
	}
}
