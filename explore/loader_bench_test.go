package explore

import (
	"context"
	"testing"
)

// BenchmarkLoad loads a small test package (testdata/racecases/lazyshare,
// which imports testing, sync and fmt) per iteration: with Load (the
// standard library type-checked each time) and with a Loader that has
// loaded it once before the timer starts. cpu-ms/load is this process's
// CPU time per load (not the go command's: it lists the packages in a
// child process), steadier than ns/op on a shared machine.
func BenchmarkLoad(b *testing.B) {
	cfg := LoadConfig{Patterns: []string{raceCase}}
	for _, bc := range []struct {
		name string
		load func() (*Program, error)
	}{
		{"Load", func() (*Program, error) { return Load(context.Background(), cfg) }},
		{"Loader", func() func() (*Program, error) {
			var l Loader
			return func() (*Program, error) { return l.Load(context.Background(), cfg) }
		}()},
	} {
		b.Run(bc.name, func(b *testing.B) {
			if _, err := bc.load(); err != nil {
				b.Fatal(err)
			}
			cpu := processCPU()
			b.ResetTimer()
			for range b.N {
				if _, err := bc.load(); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			b.ReportMetric(float64((processCPU()-cpu).Microseconds())/1000/float64(b.N), "cpu-ms/load")
		})
	}
}
