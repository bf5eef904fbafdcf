// Package panicpos holds tests whose operation panics (or throws a fatal
// error) and is followed by another statement on the next line: the
// finding must be positioned at the operation ("// at:NAME" marks its
// line), not at the next statement.
package panicpos

import (
	"sync"
	"testing"
)

var x int

func TestUnlockUnlocked(t *testing.T) {
	var mu sync.Mutex
	mu.Unlock() // at:unlock
	x++
}

func TestRUnlockUnlocked(t *testing.T) {
	var mu sync.RWMutex
	mu.RUnlock() // at:runlock
	x++
}

func TestCloseClosed(t *testing.T) {
	ch := make(chan int)
	close(ch)
	close(ch) // at:close
	x++
}

func TestNilMapWrite(t *testing.T) {
	var m map[string]int
	m["k"] = 1 // at:nilmap
	x++
}

func TestIndexOutOfRange(t *testing.T) {
	s := []int{1}
	i := 3
	s[i] = 4 // at:index
	x++
}

func TestDivideByZero(t *testing.T) {
	a, b := 1, 0
	q := a / b // at:div
	x += q
}

//go:noinline
func div(a, b int) int {
	q := a / b // at:divcallee
	x++
	return q
}

// The panic is in div; the caller's frame in the stack is at the call.
func TestDivideByZeroInCallee(t *testing.T) {
	y := div(1, 0) // at:divcaller
	x += y
}

// A deferred Unlock of an unlocked mutex: positioned at the deferred
// call (Go's traceback shows the function's closing brace, where
// deferred calls run).
func TestDeferredUnlockUnlocked(t *testing.T) {
	var mu sync.Mutex
	defer mu.Unlock() // at:deferunlock
	x++
}

// A panic with a value, then another statement.
func TestPanicValue(t *testing.T) {
	if x == 0 {
		panic("boom") // at:panic
	}
	x++
}

// The nil map write happens in a goroutine.
func TestNilMapInGoroutine(t *testing.T) {
	done := make(chan bool)
	go func() {
		var m map[int]int
		m[1] = 1 // at:gonilmap
		x++
		done <- true
	}()
	<-done
}
