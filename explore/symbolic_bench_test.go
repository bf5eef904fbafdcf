package explore

import (
	"context"
	"fmt"
	"testing"
	"time"
)

// BenchmarkSymbolicPaths explores a function with k independent symbolic
// branches (2^k feasible paths) and, as the baseline in the same run,
// executes the same function concretely (Options.Inputs) as many times:
// the cost of symbolic paths against concrete replay in the explorer.
func BenchmarkSymbolicPaths(b *testing.B) {
	p := load(b)
	for _, k := range []int{8, 10} {
		e, err := p.Func(fmt.Sprintf("%s/symhard.Branches%d", testdataPath, k))
		if err != nil {
			b.Fatal(err)
		}
		paths := 1 << k
		b.Run(fmt.Sprintf("k=%d/symbolic", k), func(b *testing.B) {
			start, total := time.Now(), 0
			for b.Loop() {
				r, err := p.Explore(context.Background(), e, Options{Strategy: DFS})
				if err != nil || r.Executions != paths || !r.Complete {
					b.Fatalf("%v: %d executions, want %d (bound %q)", err, r.Executions, paths, r.Bound)
				}
				total += r.Executions
			}
			b.ReportMetric(float64(total)/time.Since(start).Seconds(), "paths/s")
		})
		b.Run(fmt.Sprintf("k=%d/concrete", k), func(b *testing.B) {
			// One machine runs every path with its inputs, as a
			// symbolic exploration's worker does.
			in := map[string]any{}
			opts := Options{Strategy: DFS, Inputs: in}
			m := newMachine(p, &opts)
			start, total := time.Now(), 0
			for b.Loop() {
				for i := range paths {
					for j := range k {
						in[fmt.Sprintf("x%d", j)] = (i >> j & 1) * 100
					}
					x := p.runOne(m, e, &opts, &dfsChooser{bound: -1}, i+1, 0)
					if len(x.findings) > 0 {
						b.Fatal(x.findings[0])
					}
					x.release()
					total++
				}
			}
			b.ReportMetric(float64(total)/time.Since(start).Seconds(), "paths/s")
		})
	}
}

// BenchmarkSymbolicGuard: a complete exploration of guard.Set, whose two
// paths come from deciding the LTL state predicate level > 100 on the
// path condition (a guard fork), against the baseline guard.SetClamped
// in the same run: two paths from an if on the same condition, and the
// predicate decided without a fork on each. Only the guard package is
// loaded (the shared test program's package initialization would
// dominate).
func BenchmarkSymbolicGuard(b *testing.B) {
	p, err := Load(context.Background(), LoadConfig{Patterns: []string{symExamples + "/guard"}})
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct{ name, entry string }{
		{"if-fork", "guard.SetClamped"},
		{"guard-fork", "guard.Set"},
	} {
		e, err := p.Func(symExamples + "/" + c.entry)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				r, err := p.Explore(context.Background(), e, Options{Strategy: DFS})
				if err != nil || r.Executions != 2 || !r.Complete {
					b.Fatalf("%v: %d executions (bound %q)", err, r.Executions, r.Bound)
				}
			}
		})
	}
}
