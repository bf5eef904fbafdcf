package synth

import (
	"bytes"
	"context"
	"fmt"
	"testing"
	"time"
)

// BenchmarkAMBACircuit synthesizes a checked symbolic controller for AMBA
// n = 2, 3, … until one n takes more than 120 s in all: realizability
// (solve-s), the symbolic strategy (extract-s), its determinization into a
// circuit (determinize-s), the model check of the circuit's AIG (check-s),
// and the sizes: decision nodes, and-gates, bytes of Go and of binary AIGER.
// ratio is (extract-s + determinize-s) / solve-s, the goal being ≤ 2.
//
//	go test -run '^$' -bench AMBACircuit -benchtime 1x -timeout 4h ./synth
func BenchmarkAMBACircuit(b *testing.B) {
	ctx := context.Background()
	var last time.Duration
	for n := 2; n <= 12 && last <= benchLimit; n++ {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			spec := ambaSpec(b, n)
			for b.Loop() {
				t0 := time.Now()
				res, err := spec.Realizable(ctx)
				if err != nil || !res.Realizable {
					b.Fatal(err)
				}
				t1 := time.Now()
				c, err := res.Controller(ctx)
				if err != nil {
					b.Fatal(err)
				}
				t2 := time.Now()
				circ, err := c.Circuit(ctx)
				if err != nil {
					b.Fatal(err)
				}
				t3 := time.Now()
				if err := circ.Check(ctx, spec); err != nil {
					b.Fatal(err)
				}
				t4 := time.Now()
				a, err := circ.AIG()
				if err != nil {
					b.Fatal(err)
				}
				var goSrc, aig bytes.Buffer
				if err := circ.WriteGo(&goSrc, "controller", "Controller"); err != nil {
					b.Fatal(err)
				}
				if err := a.WriteAIG(&aig); err != nil {
					b.Fatal(err)
				}
				last = t4.Sub(t0)
				solve, extract, det, check := t1.Sub(t0), t2.Sub(t1), t3.Sub(t2), t4.Sub(t3)
				b.ReportMetric(solve.Seconds(), "solve-s")
				b.ReportMetric(extract.Seconds(), "extract-s")
				b.ReportMetric(det.Seconds(), "determinize-s")
				b.ReportMetric(check.Seconds(), "check-s")
				b.ReportMetric((extract+det).Seconds()/solve.Seconds(), "ratio")
				b.ReportMetric(float64(c.Nodes()), "strategy-nodes")
				b.ReportMetric(float64(circ.NumNodes()), "circuit-nodes")
				b.ReportMetric(float64(a.NumAnds()), "ands")
				b.ReportMetric(float64(goSrc.Len()), "go-bytes")
				b.ReportMetric(float64(aig.Len()), "aig-bytes")
			}
		})
	}
}
