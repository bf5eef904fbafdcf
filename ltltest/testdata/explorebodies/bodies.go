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

// NestedLock passes; the Lock in guarded.String runs inside fmt.Sprintf
// without a scheduling choice, which the exploration warns about.
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
