package synth

import (
	"context"
	"fmt"
	"testing"
	"time"
)

// slugsSeconds are the reference times of Slugs (C++ on CUDD) for AMBA n =
// 2…5, realizability only, as measured with the Slugs distribution on this
// machine (BENCHMARKS.part.md).
var slugsSeconds = map[int]float64{2: 0.34, 3: 3.9, 4: 15.0, 5: 57.9}

// benchLimit stops the AMBA series after the first run longer than this.
const benchLimit = 120 * time.Second

func ambaSpec(b *testing.B, n int) *Spec {
	b.Helper()
	return ambaForTest(b, n)
}

// BenchmarkAMBARealizability decides AMBA n = 2, 3, … until one run takes
// more than 120 s, reporting the time per n (s/op), the peak BDD node table
// (peak-nodes), the process CPU time per n (cpu-s/op: the machine may be
// shared), the winning region's size (win-nodes), the work of one run
// whatever the machine's load (nodes-made: BDD nodes made; sift-visits:
// the nodes the sifting passes' swaps read) and the Slugs
// reference (slugs-s) with our speed-up over it (x-slugs, > 1 is faster).
// Baselines in the same run: no reuse of the innermost fixpoint, and the
// monolithic transition relation (n = 2, 3).
//
//	go test -run '^$' -bench AMBARealizability -benchtime 1x ./synth
func BenchmarkAMBARealizability(b *testing.B) {
	var last time.Duration
	for n := 2; n <= 12 && last <= benchLimit; n++ {
		variants := []struct {
			name string
			opts []Option
		}{{"", nil}}
		if n <= 3 {
			variants = append(variants,
				struct {
					name string
					opts []Option
				}{"no-reuse", []Option{WithoutFixpointReuse()}},
				struct {
					name string
					opts []Option
				}{"monolithic", []Option{WithPartitionedTransitions(0)}})
		}
		for _, v := range variants {
			name := fmt.Sprintf("n=%d", n)
			if v.name != "" {
				name += "/" + v.name
			}
			b.Run(name, func(b *testing.B) {
				res, per, cpuPer := realizeAMBA(b, ambaSpec(b, n), v.opts...)
				if v.name == "" {
					last = per
				}
				b.ReportMetric(per.Seconds(), "s/op")
				b.ReportMetric(cpuPer.Seconds(), "cpu-s/op")
				b.ReportMetric(float64(res.Stats.PeakNodes), "peak-nodes")
				b.ReportMetric(float64(res.Stats.WinningNodes), "win-nodes")
				st := res.g.sp.Stats()
				b.ReportMetric(float64(st.Produced), "nodes-made")
				b.ReportMetric(float64(st.SiftVisits), "sift-visits")
				if ref, ok := slugsSeconds[n]; ok {
					b.ReportMetric(ref, "slugs-s")
					b.ReportMetric(ref/per.Seconds(), "x-slugs")
				}
				b.ReportMetric(float64(res.Stats.InnerSteps), "inner-steps")
			})
		}
	}
}

// BenchmarkAMBAStrategy extracts the symbolic controller as the relations
// ρ1, ρ2, ρ3 of the thesis (what the explicit machine needs) for AMBA
// n = 2, 3, … (stopping like BenchmarkAMBARealizability),
// reporting the extraction time and the strategy's BDD size
// (strategy-nodes).
//
//	go test -run '^$' -bench AMBAStrategy -benchtime 1x ./synth
func BenchmarkAMBAStrategy(b *testing.B) {
	ctx := context.Background()
	var last time.Duration
	for n := 2; n <= 12 && last <= benchLimit; n++ {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			spec := ambaSpec(b, n)
			var total time.Duration
			var c *Controller
			runs := 0
			for b.Loop() {
				b.StopTimer()
				solveStart := time.Now()
				res, err := spec.Realizable(ctx)
				if err != nil {
					b.Fatal(err)
				}
				last = time.Since(solveStart)
				b.StartTimer()
				start := time.Now()
				c, err = res.Controller(ctx)
				if err != nil {
					b.Fatal(err)
				}
				if err := c.relations(ctx); err != nil { // built lazily otherwise
					b.Fatal(err)
				}
				total += time.Since(start)
				runs++
			}
			last += total / time.Duration(runs)
			b.ReportMetric((total / time.Duration(runs)).Seconds(), "extract-s")
			b.ReportMetric(float64(c.Nodes()), "strategy-nodes")
		})
	}
}

// BenchmarkLift decides and extracts the thesis's lift controller for n
// floors, with the explicit (minimized) machine's size.
//
//	go test -run '^$' -bench Lift -benchtime 1x ./synth
func BenchmarkLift(b *testing.B) {
	ctx := context.Background()
	for n := 2; n <= 6; n++ {
		b.Run(fmt.Sprintf("floors=%d", n), func(b *testing.B) {
			spec := liftSpec(b, n)
			var states, minStates int
			for b.Loop() {
				res, err := spec.Realizable(ctx)
				if err != nil || !res.Realizable {
					b.Fatal(err, res)
				}
				c, err := res.Controller(ctx)
				if err != nil {
					b.Fatal(err)
				}
				m, err := c.Mealy(ctx, 0)
				if err != nil {
					b.Fatal(err)
				}
				states, minStates = len(m.States), len(m.Minimize().States)
			}
			b.ReportMetric(float64(states), "states")
			b.ReportMetric(float64(minStates), "min-states")
		})
	}
}
