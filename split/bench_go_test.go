package split

import (
	"context"
	"fmt"
	"testing"
)

// BenchmarkGoMutex times the Go mutex example (mutexSrc, the same code as
// examples/split/mutex) for N goroutines: GoProgram.Check of "mutex"
// (extraction excluded; the 2-goroutine falsification included) and
// monolithic BDD checking of the extracted program, against the thesis's
// MUX-SEM (testdata/muxsem.smv, mutual exclusion as N² pairs) checked the
// same two ways, in the same run.
//
//	go test -run '^$' -bench GoMutex -benchtime 1x -timeout 0 ./split/
func BenchmarkGoMutex(b *testing.B) {
	for _, n := range []int{8, 16, 32, 64, 128} {
		g, err := goSource(b, mutexSrc, "worker", n)
		if err != nil {
			b.Fatal(err)
		}
		gprop, err := g.Property("mutex")
		if err != nil {
			b.Fatal(err)
		}
		smv, err := ParseFile("testdata/muxsem.smv", n)
		if err != nil {
			b.Fatal(err)
		}
		sprop := smv.Properties()[0]
		l := limiter{}
		b.Run(fmt.Sprintf("N=%d/go-split", n), func(b *testing.B) {
			l.run(b, "go-split", func(ctx context.Context) (bool, error) {
				res, err := g.Check(ctx, "mutex", Options{MaxNodes: benchMaxNodes})
				if err != nil {
					return false, err
				}
				if res.Verdict != Proved {
					b.Fatalf("go-split: %s: %s", res.Verdict, res.Reason)
				}
				b.ReportMetric(float64(res.Refinements), "refinements")
				b.ReportMetric(float64(res.Invariant.PeakNodes), "peak-nodes")
				return true, nil
			})
		})
		b.Run(fmt.Sprintf("N=%d/go-mono", n), func(b *testing.B) { benchMonolithic(b, l, "go-mono", g.Program, gprop, Proved) })
		b.Run(fmt.Sprintf("N=%d/smv-split", n), func(b *testing.B) { benchCheck(b, l, "smv-split", smv, sprop, Options{}, Proved) })
		b.Run(fmt.Sprintf("N=%d/smv-mono", n), func(b *testing.B) { benchMonolithic(b, l, "smv-mono", smv, sprop, Proved) })
	}
}

// BenchmarkGoRacy times the racy example (racySrc, as examples/split/racy)
// for N goroutines: GoProgram.Check, which finds the violation with 2
// goroutines and lifts it, against Check on the N-goroutine program
// directly (refinement until the abstract counterexample is concrete).
//
//	go test -run '^$' -bench GoRacy -benchtime 1x -timeout 0 ./split/
func BenchmarkGoRacy(b *testing.B) {
	for _, n := range []int{3, 4, 16, 64} {
		g, err := goSource(b, racySrc, "worker", n)
		if err != nil {
			b.Fatal(err)
		}
		prop, err := g.Property("mutex")
		if err != nil {
			b.Fatal(err)
		}
		l := limiter{}
		b.Run(fmt.Sprintf("N=%d/go-check", n), func(b *testing.B) {
			l.run(b, "go-check", func(ctx context.Context) (bool, error) {
				res, err := g.Check(ctx, "mutex", Options{MaxNodes: benchMaxNodes})
				if err != nil {
					return false, err
				}
				if res.Verdict != Violated {
					b.Fatalf("go-check: %s: %s", res.Verdict, res.Reason)
				}
				return true, nil
			})
		})
		if n <= 4 {
			b.Run(fmt.Sprintf("N=%d/split-N", n), func(b *testing.B) { benchCheck(b, l, "split-N", g.Program, prop, Options{}, Violated) })
		}
	}
}
