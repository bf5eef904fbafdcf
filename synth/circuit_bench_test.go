package synth

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"testing"
	"time"
)

// ambaCheck makes BenchmarkAMBACircuit model-check each circuit
// (-amba-check=false leaves the check out, to time synthesis alone at
// large n, where the check costs several times the rest).
var ambaCheck = flag.Bool("amba-check", true, "model-check each circuit in BenchmarkAMBACircuit")

// BenchmarkAMBACircuit synthesizes a checked symbolic controller for AMBA
// n = 2, 3, … until one n takes more than 120 s in all: realizability
// (solve-s), extraction (extract-s: Result.Controller, which records the
// fixpoint's iterates), determinization into a
// circuit (determinize-s), the model check of the circuit's AIG (check-s),
// and the sizes: decision nodes, and-gates, bytes of Go and of binary AIGER,
// and the process's peak resident memory so far (rss-MB: the n's own peak
// when one n runs per process). -amba-check=false leaves the check out.
// cpu-ratio is the CPU time of extraction and determinization over that of
// realizability (the goal being ≤ 2); total-s and total-cpu-s are the
// pipeline's (realizability, extraction, determinization and check). The
// machine is shared, so the CPU times (…-cpu-s) are the figures to compare
// for work; wall times (…-s) are noisy, but they are what parallel
// determinization (WithParallelism) shortens.
// With a Slugs binary (-slugs PATH or SLUGS=PATH), the same run measures
// `slugs --symbolicStrategy` on the same file (slugs-cpu-s, its peak memory
// slugs-rss-MB — on Linux the larger of Slugs' peak and ours, since a child
// started by vfork inherits its parent's high-water mark —, and x-slugs: its CPU time over ours for realizability,
// extraction and determinization, > 1 when we are faster). A Slugs run is
// stopped after -slugs-factor (default 3) times our CPU time for those
// phases, or after -slugs-limit (default 20m) of wall time: slugs-capped is
// then 1, and slugs-cpu-s and x-slugs are lower bounds.
//
//	go test -run '^$' -bench AMBACircuit -benchtime 1x -timeout 4h ./synth -args -slugs /path/to/slugs
//
//	go test -run '^$' -bench AMBACircuit -benchtime 1x -timeout 4h ./synth
//
//	go test -run '^$' -bench 'AMBACircuit/n=9$' -benchtime 1x ./synth -args -amba-check=false
func BenchmarkAMBACircuit(b *testing.B) {
	ctx := context.Background()
	var last time.Duration
	for n := 2; n <= 12 && last <= benchLimit; n++ {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			spec := ambaSpec(b, n)
			for b.Loop() {
				t0, c0 := time.Now(), cpuTime()
				res, err := spec.Realizable(ctx)
				if err != nil || !res.Realizable {
					b.Fatal(err)
				}
				t1, c1 := time.Now(), cpuTime()
				c, err := res.Controller(ctx)
				if err != nil {
					b.Fatal(err)
				}
				t2, c2 := time.Now(), cpuTime()
				circ, err := c.Circuit(ctx)
				if err != nil {
					b.Fatal(err)
				}
				t3, c3 := time.Now(), cpuTime()
				if *ambaCheck {
					if err := circ.Check(ctx, spec); err != nil {
						b.Fatal(err)
					}
				}
				t4, c4 := time.Now(), cpuTime()
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
				solve, extract, det, check := t1.Sub(t0), t2.Sub(t1), t3.Sub(t2), t4.Sub(t3)
				last = c4 - c0
				b.ReportMetric(solve.Seconds(), "solve-s")
				b.ReportMetric(extract.Seconds(), "extract-s")
				b.ReportMetric(det.Seconds(), "determinize-s")
				b.ReportMetric((c1 - c0).Seconds(), "solve-cpu-s")
				b.ReportMetric((c2 - c1).Seconds(), "extract-cpu-s")
				b.ReportMetric((c3 - c2).Seconds(), "determinize-cpu-s")
				if *ambaCheck {
					b.ReportMetric(check.Seconds(), "check-s")
					b.ReportMetric((c4 - c3).Seconds(), "check-cpu-s")
				}
				b.ReportMetric((c3-c1).Seconds()/(c1-c0).Seconds(), "cpu-ratio")
				b.ReportMetric(t4.Sub(t0).Seconds(), "total-s")
				b.ReportMetric((c4 - c0).Seconds(), "total-cpu-s")
				b.ReportMetric(float64(circ.NumNodes()), "circuit-nodes")
				b.ReportMetric(float64(a.NumAnds()), "ands")
				b.ReportMetric(float64(goSrc.Len()), "go-bytes")
				b.ReportMetric(float64(aig.Len()), "aig-bytes")
				b.ReportMetric(float64(selfMaxRSS())/(1<<20), "rss-MB")
				cpuLimit := time.Duration(*slugsFactor * float64(c3-c0))
				if sl, ok := runSlugs(b, ambaPath(n), *slugsLimit, cpuLimit); ok {
					b.ReportMetric(sl.cpu.Seconds(), "slugs-cpu-s")
					b.ReportMetric(float64(sl.maxRSS)/(1<<20), "slugs-rss-MB")
					b.ReportMetric(sl.cpu.Seconds()/(c3-c0).Seconds(), "x-slugs")
					if sl.capped {
						b.ReportMetric(1, "slugs-capped")
					}
				}
			}
		})
	}
}
