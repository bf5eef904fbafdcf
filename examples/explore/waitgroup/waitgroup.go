// Package waitgroup is a WaitGroup misuse: Add is called inside the
// goroutines, so Wait can return before they have started and the caller
// reads incomplete results.
package waitgroup

import "sync"

// worker registers itself with the group, then does its job. (go vet
// reports wg.Add called directly inside a go statement's function; the
// registration in a helper is the same bug and goes unnoticed.)
func worker(wg *sync.WaitGroup, job func()) {
	wg.Add(1)
	defer wg.Done()
	job()
}

// Squares computes the squares of xs concurrently. The workers register
// with the WaitGroup themselves: Wait may see a zero counter before any of
// them ran.
func Squares(xs []int) []int {
	out := make([]int, len(xs))
	var wg sync.WaitGroup
	for i, x := range xs {
		go worker(&wg, func() { out[i] = x * x })
	}
	wg.Wait()
	return out
}

// SafeSquares adds to the WaitGroup before starting each goroutine.
func SafeSquares(xs []int) []int {
	out := make([]int, len(xs))
	var wg sync.WaitGroup
	for i, x := range xs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i] = x * x
		}()
	}
	wg.Wait()
	return out
}
