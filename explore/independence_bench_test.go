package explore

import (
	"context"
	"testing"
	"time"
)

// BenchmarkIndependence compares DPOR with and without the refinement of
// the dependency relation (commute, independence.go) in each iteration:
// dining philosophers (channel forks, bench kernels; sync.Mutex forks and
// a WaitGroup, outcomes.Diners), n goroutines that call Done after
// Add(n), and timecases/manygo's lock hand-over with 3–6 workers (10
// iterations each: capped at 2000 executions, pruned ones included;
// 1 iteration: complete).
// One untimed exploration first compiles the entry. Metrics per
// exploration: executions (execs/op, old-execs/op),
// sleep-set-blocked executions (pruned/op, old-pruned/op), milliseconds
// (ms/op, old-ms/op) and whether the exploration completed (complete,
// old-complete: 1 or 0).
func BenchmarkIndependence(b *testing.B) {
	bench := loadBench(b)
	outcomes := load(b)
	indep := loadPatterns(b, "./testdata/indep")
	cases := []struct {
		name string
		p    *Program
		fn   string
		max  int
	}{
		{"philosophers-4", bench, benchPath + ".Philosophers4", 0},
		{"philosophers-5", bench, benchPath + ".Philosophers5", 0},
		{"diners-4", outcomes, testdataPath + "/outcomes.Diners", 0},
		{"done-4", indep, indepPath + ".Done4", 0},
		{"done-6", indep, indepPath + ".SixDone", 0},
		{"done-8", indep, indepPath + ".Done8", 0},
		{"manygo-once-3", indep, indepPath + ".ManyGoOnce3", 0},
		{"manygo-once-4", indep, indepPath + ".ManyGoOnce4", 0},
		{"manygo-3", indep, indepPath + ".ManyGo3", 2000},
		{"manygo-4", indep, indepPath + ".ManyGo4", 2000},
		{"manygo-5", indep, indepPath + ".ManyGo5", 2000},
		{"manygo-6", indep, indepPath + ".ManyGo6", 2000},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			e, err := c.p.Func(c.fn)
			if err != nil {
				b.Fatal(err)
			}
			// warm-up: the first exploration of an entry compiles it
			if _, err := c.p.Explore(context.Background(), e, Options{Strategy: DPOR, MaxExecutions: 1}); err != nil {
				b.Fatal(err)
			}
			var execs, pruned, complete [2]int
			var took [2]time.Duration
			for b.Loop() {
				for i, conservative := range []bool{false, true} {
					conservativeDependence.Store(conservative)
					t0 := time.Now()
					r, err := c.p.Explore(context.Background(), e, Options{Strategy: DPOR, MaxExecutions: c.max})
					took[i] += time.Since(t0)
					conservativeDependence.Store(false)
					if err != nil {
						b.Fatal(err)
					}
					execs[i] += r.Executions
					pruned[i] += r.Pruned
					if r.Complete {
						complete[i]++
					}
				}
			}
			n := float64(b.N)
			for i, prefix := range []string{"", "old-"} {
				b.ReportMetric(float64(execs[i])/n, prefix+"execs/op")
				b.ReportMetric(float64(pruned[i])/n, prefix+"pruned/op")
				b.ReportMetric(float64(took[i].Milliseconds())/n, prefix+"ms/op")
				b.ReportMetric(float64(complete[i])/n, prefix+"complete")
			}
		})
	}
}
