// Package nestedcalls holds programs whose interpreted code is called by
// modelled library functions (fmt calling String, errors.Is calling Is,
// sort.Slice calling less) and reaches scheduling points there, and
// sequential kernels that measure the cost of such calls.
package nestedcalls

import (
	"errors"
	"fmt"
	"io"
	"sort"
)

// point is a Stringer without synchronization.
type point struct{ x, y int }

func (p point) String() string { return fmt.Sprintf("(%d,%d)", p.x, p.y) }

// FormatPlain formats integers and strings (no method is called).
func FormatPlain() {
	n := 0
	for i := range 300 {
		n += len(fmt.Sprintf("%d-%s-%x", i, "k", i))
		n += len(fmt.Sprint(i, i+1))
	}
	Sink = n
}

// FormatStringer formats values whose String method fmt calls.
func FormatStringer() {
	n := 0
	for i := range 300 {
		n += len(fmt.Sprintf("%v %s", point{i, i}, point{1, i}))
	}
	Sink = n
}

// SortSlice sorts with a less function (called by sort.Slice).
func SortSlice() {
	n := 0
	for k := range 20 {
		xs := make([]int, 40)
		for i := range xs {
			xs[i] = (i*7919 + k) % 101
		}
		sort.Slice(xs, func(i, j int) bool { return xs[i] < xs[j] })
		n += xs[0]
	}
	Sink = n
}

// codeErr is an error whose Is method errors.Is calls.
type codeErr struct{ code int }

func (e codeErr) Error() string        { return fmt.Sprint("code ", e.code) }
func (e codeErr) Is(target error) bool { return target == io.EOF && e.code == 0 }

// ErrorsIs walks wrapped errors with errors.Is.
func ErrorsIs() {
	n := 0
	for i := range 300 {
		err := fmt.Errorf("op %d: %w", i, codeErr{i % 2})
		if errors.Is(err, io.EOF) {
			n++
		}
	}
	Sink = n
}

// Sink keeps the kernels' results.
var Sink int
