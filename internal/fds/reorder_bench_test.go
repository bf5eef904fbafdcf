package fds

import (
	"context"
	"fmt"
	"testing"
)

// pairsFunction declares x1…xn then y1…yn (or interleaved) and returns
// x1∧y1 ∨ … ∨ xn∧yn: 2^(n+1)−2 nodes in the separated order, 2n
// interleaved.
func pairsFunction(b *testing.B, n int, interleaved bool) (*Space, BDD) {
	s := NewSpace()
	xs, ys := make([]*Var, n), make([]*Var, n)
	declare := func(name string) *Var {
		v, err := s.Bool(name)
		if err != nil {
			b.Fatal(err)
		}
		return v
	}
	for i := range n {
		xs[i] = declare(fmt.Sprintf("x%d", i))
		if interleaved {
			ys[i] = declare(fmt.Sprintf("y%d", i))
		}
	}
	if !interleaved {
		for i := range n {
			ys[i] = declare(fmt.Sprintf("y%d", i))
		}
	}
	f := s.False()
	for i := range n {
		f = f.Or(xs[i].Eq(1, false).And(ys[i].Eq(1, false)))
	}
	return s, f
}

// BenchmarkSift sifts x1∧y1 ∨ … ∨ xn∧yn built in the separated order, and
// reports the nodes before and after, the adjacent-level swaps and their
// rate; the baseline builds the same function in the interleaved order.
//
//	go test -run '^$' -bench Sift ./internal/fds
func BenchmarkSift(b *testing.B) {
	for _, n := range []int{8, 12, 16} {
		b.Run(fmt.Sprintf("n=%d/sift", n), func(b *testing.B) {
			var st ReorderStats
			var before, after int
			for b.Loop() {
				b.StopTimer()
				s, f := pairsFunction(b, n, false)
				before = f.Size()
				b.StartTimer()
				st = s.Reorder(context.Background())
				b.StopTimer()
				after = f.Size()
				b.StartTimer()
			}
			b.ReportMetric(float64(before), "nodes-before")
			b.ReportMetric(float64(after), "nodes-after")
			b.ReportMetric(float64(st.Swaps), "swaps")
			b.ReportMetric(float64(st.Swaps)*float64(b.N)/b.Elapsed().Seconds(), "swaps/s")
		})
		b.Run(fmt.Sprintf("n=%d/build-interleaved", n), func(b *testing.B) {
			var size int
			for b.Loop() {
				_, f := pairsFunction(b, n, true)
				size = f.Size()
			}
			b.ReportMetric(float64(size), "nodes-after")
		})
	}
}
