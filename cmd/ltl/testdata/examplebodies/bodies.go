// Package examplebodies holds the buggy scenarios of the examples
// (examples/explore) as bodies that ltltest.Explore, Never and Find can
// take: the examples' own scenarios live in their test files, which
// another package cannot reference. Each body makes the example's calls,
// so its failure is the example's. (The package does not import ltltest:
// the explorer would load all of it with the bodies.)
package examplebodies

import (
	"sync"
	"testing"

	"github.com/henceforth-go/henceforth/examples/explore/abba"
	"github.com/henceforth-go/henceforth/examples/explore/condsignal"
	"github.com/henceforth-go/henceforth/examples/explore/counter"
	"github.com/henceforth-go/henceforth/examples/explore/ctxcancel"
	"github.com/henceforth-go/henceforth/examples/explore/dekker"
	"github.com/henceforth-go/henceforth/examples/explore/doubleclose"
	"github.com/henceforth-go/henceforth/examples/explore/philosophers"
	"github.com/henceforth-go/henceforth/examples/explore/singleton"
	"github.com/henceforth-go/henceforth/examples/explore/timeoutleak"
	"github.com/henceforth-go/henceforth/examples/explore/waitgroup"
)

// together runs f and g in goroutines of their own and waits for both.
func together(f, g func()) {
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); f() }()
	go func() { defer wg.Done(); g() }()
	wg.Wait()
}

// Abba: two transfers in opposite directions take the two locks in
// opposite orders.
func Abba() {
	a, b := &abba.Account{ID: 1, Balance: 100}, &abba.Account{ID: 2, Balance: 100}
	together(func() { abba.Transfer(a, b, 10) }, func() { abba.Transfer(b, a, 20) })
}

// CondSignal: the gate opens between Wait's check and its cond.Wait.
func CondSignal() {
	g := condsignal.NewGate()
	go g.Open()
	g.Wait()
}

// Counter loses an update (explore it WithShared).
func Counter(t *testing.T) {
	if got := counter.Count(2); got != 2 {
		t.Errorf("count = %d, want 2", got)
	}
}

// CtxCancel leaks the producer after the consumer stops early.
func CtxCancel() { ctxcancel.Consume(ctxcancel.Produce, 3, 2) }

// Dekker is the two processes of Dekker's algorithm.
func Dekker() { dekker.Run() }

// DoubleClose: both workers fail and close the group's channel.
func DoubleClose() {
	g := doubleclose.NewGroup()
	together(g.Fail, g.Fail)
}

// Philosophers: three philosophers each take the left fork first.
func Philosophers() { philosophers.Dine(3, false) }

// Singleton creates two instances when both goroutines pass the nil
// check before either assigns (explore it WithShared); it also violates
// the package's //ltl:spec annotations.
func Singleton(t *testing.T) {
	singleton.Reset()
	get := func() { singleton.Get() }
	together(get, get)
	if n := singleton.Created(); n != 1 {
		t.Errorf("getSingleton called %d times, want 1", n)
	}
}

// TimeoutLeak leaks the worker goroutine after the timeout.
func TimeoutLeak() { timeoutleak.Fetch() }

// WaitGroup reads the squares before the workers have written them.
func WaitGroup(t *testing.T) {
	if got := waitgroup.Squares([]int{1, 2, 3}); got[2] != 9 {
		t.Errorf("squares[2] = %d, want 9", got[2])
	}
}
