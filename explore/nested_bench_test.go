package explore

import (
	"context"
	"testing"
)

// BenchmarkNestedCalls runs sequential kernels that call modelled library
// functions which may call interpreted code: fmt without and with String
// methods, sort.Slice with a less function, errors.Is through fmt.Errorf
// wrapping (one execution per iteration). Metric cpu-ns/op: the process's
// CPU time per iteration (steadier than ns/op on a loaded machine).
func BenchmarkNestedCalls(b *testing.B) {
	p := loadPatterns(b, nestedPatterns...)
	for _, k := range []string{"FormatPlain", "FormatStringer", "SortSlice", "ErrorsIs"} {
		b.Run(k, func(b *testing.B) {
			e, err := p.Func(testdataPath + "/nestedcalls." + k)
			if err != nil {
				b.Fatal(err)
			}
			cpu := processCPU()
			for b.Loop() {
				r, err := p.Explore(context.Background(), e, Options{Strategy: DFS, MaxExecutions: 1, MaxLoop: 1 << 40})
				if err != nil || len(r.Findings) > 0 || len(r.Warnings) > 0 {
					b.Fatalf("explore: %v %v %q", err, r.Findings, r.Warnings)
				}
			}
			b.ReportMetric(float64(processCPU()-cpu)/float64(b.N), "cpu-ns/op")
		})
	}
}
