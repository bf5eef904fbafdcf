// Package errgroup sums in parallel with golang.org/x/sync/errgroup, a
// library the explorer itself is built on: the user's calls of it are
// interpreted like any other code.
package errgroup

import (
	"sync"

	"golang.org/x/sync/errgroup"
)

// Sum adds xs on one goroutine each, without a lock: a data race.
func Sum(xs []int) int {
	var g errgroup.Group
	total := 0
	for _, x := range xs {
		g.Go(func() error {
			total += x
			return nil
		})
	}
	_ = g.Wait()
	return total
}

// SumLocked adds xs on one goroutine each under a lock.
func SumLocked(xs []int) int {
	var g errgroup.Group
	var mu sync.Mutex
	total := 0
	for _, x := range xs {
		g.Go(func() error {
			mu.Lock()
			defer mu.Unlock()
			total += x
			return nil
		})
	}
	_ = g.Wait()
	return total
}
