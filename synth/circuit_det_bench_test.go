package synth

import (
	"context"
	"flag"
	"fmt"
	"testing"
	"time"
)

// detParallel is WithParallelism's n for BenchmarkAMBADeterminize (0: the
// default, runtime.GOMAXPROCS(0)).
var detParallel = flag.Int("det-parallel", 0, "goroutines determinizing in BenchmarkAMBADeterminize (0: GOMAXPROCS)")

// BenchmarkAMBADeterminize measures, per AMBA n, the realizability check
// and the determinization of its controller into a Circuit (without the
// model check, which BenchmarkAMBACircuit adds), in CPU seconds
// (solve-cpu-s, determinize-cpu-s) and their ratio (det-ratio), in wall
// seconds (solve-s, determinize-s) and their ratio (det-wall-ratio, the
// goal being ≤ 2), the circuit's decision nodes, and the BDD nodes
// determinization created (det-nodes-made: a measure of its work that does
// not depend on the machine's load), in every Space it worked in, copies
// included; det-sibling-nodes-made counts those made outside the
// controller's Space (determinization's own and its workers').
// det-collections and node-table are the controller's Space's alone: its
// collections during determinization (none when determinization works in
// a Space of its own, detInputs) and its table's size.
// -det-parallel sets WithParallelism.
// Run one n per process so that a slow n does not hold up the others:
//
//	go test -run '^$' -bench 'AMBADeterminize/n=5$' -benchtime 1x ./synth -args -det-parallel 1
func BenchmarkAMBADeterminize(b *testing.B) {
	ctx := context.Background()
	for n := 2; n <= 12; n++ {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			spec := ambaSpec(b, n)
			for b.Loop() {
				t0, c0 := time.Now(), cpuTime()
				res, err := spec.Realizable(ctx, WithParallelism(*detParallel))
				if err != nil || !res.Realizable {
					b.Fatal(err)
				}
				t1, c1 := time.Now(), cpuTime()
				c, err := res.Controller(ctx)
				if err != nil {
					b.Fatal(err)
				}
				st0 := c.g.sp.Stats()
				p0 := st0.Produced
				circ, err := c.Circuit(ctx)
				if err != nil {
					b.Fatal(err)
				}
				t2, c2 := time.Now(), cpuTime()
				st := c.g.sp.Stats()
				b.ReportMetric(float64(st.Produced-p0+c.siblingMade), "det-nodes-made")
				b.ReportMetric(float64(c.siblingMade), "det-sibling-nodes-made")
				b.ReportMetric(float64(st.Collections-st0.Collections), "det-collections")
				b.ReportMetric(float64(st.Allocated), "node-table")
				b.ReportMetric((c1 - c0).Seconds(), "solve-cpu-s")
				b.ReportMetric((c2 - c1).Seconds(), "determinize-cpu-s")
				b.ReportMetric((c2-c1).Seconds()/(c1-c0).Seconds(), "det-ratio")
				b.ReportMetric(t1.Sub(t0).Seconds(), "solve-s")
				b.ReportMetric(t2.Sub(t1).Seconds(), "determinize-s")
				b.ReportMetric(t2.Sub(t1).Seconds()/t1.Sub(t0).Seconds(), "det-wall-ratio")
				b.ReportMetric(float64(circ.NumNodes()), "circuit-nodes")
			}
		})
	}
}
