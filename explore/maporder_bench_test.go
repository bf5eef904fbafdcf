package explore

import (
	"context"
	"testing"
)

// BenchmarkMapOrders measures what exploring map iteration orders costs:
// executions of DFS and DPOR (default options: MapOffsets) and the
// happens-before classes (with local choices), on the map-order kernels:
// k workers each summing their own 3-entry map, then adding the sum
// under a mutex (Workers2/3), the same with 1-entry maps (no choice:
// OneEntryWorkers), a map ranged by one goroutine while two others send
// (SharedRange), and the bug that needs an order and a schedule
// (FirstWins). DFS is capped at 20000 executions.
func BenchmarkMapOrders(b *testing.B) {
	p, err := Load(context.Background(), LoadConfig{Patterns: []string{"./testdata/maporder"}})
	if err != nil {
		b.Fatal(err)
	}
	for _, name := range []string{"OneEntryWorkers", "Workers2", "Workers3", "SharedRange", "FirstWins", "Sorted"} {
		b.Run(name, func(b *testing.B) {
			e, err := p.Func(testdataPath + "/maporder." + name)
			if err != nil {
				b.Fatal(err)
			}
			var dfs, dpor *Report
			for b.Loop() {
				dfs, err = p.Explore(context.Background(), e, Options{Strategy: DFS, MaxExecutions: 20000, CountClasses: true})
				if err != nil {
					b.Fatal(err)
				}
				dpor, err = p.Explore(context.Background(), e, Options{Strategy: DPOR, CountClasses: true})
				if err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(dfs.Executions), "dfs-execs")
			b.ReportMetric(float64(dpor.Executions), "dpor-execs")
			b.ReportMetric(float64(dpor.Classes), "classes")
			b.ReportMetric(float64(dpor.Pruned), "dpor-pruned")
		})
	}
}

// BenchmarkSymbolicSplit measures the cost of covering the values a
// symbolic input takes where the interpreter needs a concrete one
// (testdata/symsplit): a size split into its 9 values (MakeSize), a map
// lookup forking over 3 keys and "none" (MapLookup), a lookup table
// index split into 4 values (Index), and an index that can take 256
// values (IndexWide: 17 values enumerated, then fixed: unknown). Metrics:
// executions and the verdict (1 pass, 2 fail, 3 unknown).
func BenchmarkSymbolicSplit(b *testing.B) {
	p, err := Load(context.Background(), LoadConfig{Patterns: []string{"./testdata/symsplit"}})
	if err != nil {
		b.Fatal(err)
	}
	verdicts := map[string]float64{"pass": 1, "fail": 2, "unknown": 3}
	for _, name := range []string{"MakeSize", "MapLookup", "Index", "IndexWide"} {
		b.Run(name, func(b *testing.B) {
			e, err := p.Func(testdataPath + "/symsplit." + name)
			if err != nil {
				b.Fatal(err)
			}
			var r *Report
			for b.Loop() {
				if r, err = p.Explore(context.Background(), e, Options{}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(r.Executions), "execs")
			b.ReportMetric(verdicts[r.Verdict()], "verdict")
		})
	}
}
