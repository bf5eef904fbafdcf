package synth

import (
	"context"
	"fmt"
	"testing"
	"time"
)

// realizeAMBA decides spec (an AMBA arbiter: realizable) in b's loop and
// returns the last result with the wall and CPU time per run.
func realizeAMBA(b *testing.B, spec *Spec, opts ...Option) (res *Result, wall, cpu time.Duration) {
	b.Helper()
	start, cpu0 := time.Now(), cpuTime()
	runs := 0
	for b.Loop() {
		var err error
		res, err = spec.Realizable(context.Background(), opts...)
		if err != nil {
			b.Fatal(err)
		}
		if !res.Realizable {
			b.Fatal("AMBA is realizable")
		}
		runs++
	}
	return res, time.Since(start) / time.Duration(runs), (cpuTime() - cpu0) / time.Duration(runs)
}

// BenchmarkAMBAStores decides AMBA n = 2…12 under three policies of the
// BDD store, in one run: "sift" (the default) collects garbage when the
// table is nearly full and reorders the variables dynamically, "collect"
// does not reorder, and "grow" does not reorder and doubles the table up
// to 2^23 nodes before collecting. It reports the CPU time (cpu-s/op: the
// machine may be shared), the peak node table, the nodes created, the
// collections and the reorderings. A policy stops after its first run
// over 120 s of CPU.
//
//	go test -run '^$' -bench AMBAStores -benchtime 1x -timeout 2h ./synth
func BenchmarkAMBAStores(b *testing.B) {
	policies := []struct {
		name string
		opts []Option
	}{
		{"collect", []Option{WithReordering(false)}},
		{"grow", []Option{WithReordering(false), WithGrowthBound(1 << 23)}},
		{"sift", nil},
	}
	stopped := map[string]bool{}
	for n := 2; n <= 12; n++ {
		for _, p := range policies {
			if stopped[p.name] {
				continue
			}
			b.Run(fmt.Sprintf("n=%d/%s", n, p.name), func(b *testing.B) {
				res, per, cpuPer := realizeAMBA(b, ambaSpec(b, n), p.opts...)
				if cpuPer > benchLimit {
					stopped[p.name] = true
				}
				st := res.g.sp.Stats()
				b.ReportMetric(per.Seconds(), "s/op")
				b.ReportMetric(cpuPer.Seconds(), "cpu-s/op")
				b.ReportMetric(float64(st.Allocated), "peak-nodes")
				b.ReportMetric(float64(st.Produced), "made-nodes")
				b.ReportMetric(float64(st.Collections), "collections")
				b.ReportMetric(float64(st.Reorderings), "reorderings")
				b.ReportMetric(float64(res.Stats.WinningNodes), "win-nodes")
			})
		}
	}
}
