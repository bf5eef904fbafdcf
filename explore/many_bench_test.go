package explore

import (
	"context"
	"testing"
	"time"
)

// BenchmarkManyGoroutines measures the cost of one execution of a test
// with many goroutines under DPOR and under the random strategy, in the
// same run: DPOR's analysis of an execution (vector clocks, races,
// backtrack points) must stay linear in its events, so its cost per
// execution stays close to random's. Metrics: CPU ms (process CPU time,
// steadier than wall time on a loaded machine) per execution for each
// strategy and their ratio dpor/random.
func BenchmarkManyGoroutines(b *testing.B) {
	p := loadPatterns(b, "./testdata/many")
	for _, name := range []string{"Counter100", "FanIn100", "Counter1000", "FanIn1000"} {
		b.Run(name, func(b *testing.B) {
			e, err := p.Func(testdataPath + "/many." + name)
			if err != nil {
				b.Fatal(err)
			}
			const executions = 3
			var tDPOR, tRandom time.Duration
			for b.Loop() {
				for _, s := range []Strategy{DPOR, Random} {
					t0 := processCPU()
					r, err := p.Explore(context.Background(), e, Options{Strategy: s, MaxExecutions: executions, Seed: 1})
					if err != nil || len(r.Findings) > 0 {
						b.Fatalf("%s: %v %v", s, err, r.Findings)
					}
					if r.Executions != executions {
						b.Fatalf("%s: %d executions, want %d", s, r.Executions, executions)
					}
					d := processCPU() - t0
					if s == DPOR {
						tDPOR += d
					} else {
						tRandom += d
					}
				}
			}
			n := float64(b.N * executions)
			b.ReportMetric(float64(tDPOR)/1e6/n, "dpor-cpu-ms/exec")
			b.ReportMetric(float64(tRandom)/1e6/n, "random-cpu-ms/exec")
			b.ReportMetric(float64(tDPOR)/float64(tRandom), "dpor/random")
		})
	}
}
