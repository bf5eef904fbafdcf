// Package dep is a dependency of xtestspec with specs of its own: a level
// that must be reset before it is read, and must never be negative.
package dep

import "sync"

var (
	mu    sync.Mutex
	level int
)

//ltl:prop read call Level
//ltl:spec resetFirst !read W reset

//ltl:prop negative level < 0
//ltl:spec neverNegative G !negative

// Reset sets the level to n.
func Reset(n int) {
	mu.Lock()
	//ltl:event reset
	level = n
	mu.Unlock()
}

// Level returns the level.
func Level() int {
	mu.Lock()
	defer mu.Unlock()
	return level
}

// Take lowers the level by n, unchecked.
func Take(n int) {
	mu.Lock()
	level -= n
	mu.Unlock()
}
