// Package explorebodies holds bodies for ltltest.Explore's tests that load
// only this package (fast), instead of the whole ltltest test package.
package explorebodies

import (
	"fmt"
	"os"
	"sync"

	"github.com/henceforth-go/henceforth/examples/explore/philosophers"
)

// Deadlock: three philosophers each taking the left fork first.
func Deadlock() { philosophers.Dine(3, false) }

// Fixed: the same with a global lock order.
func Fixed() { philosophers.Dine(3, true) }

// Unsupported calls a function the explorer does not model.
func Unsupported() { _ = os.Getpid() }

// Capturing returns a closure that captures n: it cannot be explored.
// (Not inlined: the closure of an inlined call is named after the caller,
// which the explorer cannot resolve.)
//
//go:noinline
func Capturing(n int) func() {
	return func() { philosophers.Dine(n, false) }
}

type guarded struct {
	mu *sync.Mutex
	n  *int
}

func (g guarded) String() string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return fmt.Sprint(*g.n)
}

// NestedLock passes; the Lock in guarded.String, inside fmt.Sprintf, is a
// scheduling point like any other (Sprintf may see 0 or 1).
func NestedLock() {
	var mu sync.Mutex
	n := 0
	done := make(chan bool)
	go func() {
		mu.Lock()
		n++
		mu.Unlock()
		done <- true
	}()
	_ = fmt.Sprintf("%v", guarded{&mu, &n})
	<-done
}

// GrowingRange passes; its range over a map adds entries, which the
// exploration warns about (Go may also skip them).
func GrowingRange() {
	m := map[int]bool{1: true}
	for k := range m {
		if k < 3 {
			m[k+1] = true
		}
	}
}
