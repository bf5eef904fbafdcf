package explore

import (
	"context"
	"fmt"
	"go/types"
	"sort"
	"sync"
	"testing"
	"time"

	"golang.org/x/tools/go/ssa/interp"

	"github.com/henceforth-go/henceforth/explore/testdata/bench"
)

const benchPath = testdataPath + "/bench"

var benchProgram struct {
	once sync.Once
	p    *Program
	err  error
}

// loadBench loads the benchmark kernels, the commands x/tools' interpreter
// runs, and the package runtime (whose types that interpreter needs).
func loadBench(b testing.TB) *Program {
	benchProgram.once.Do(func() {
		benchProgram.p, benchProgram.err = Load(context.Background(), LoadConfig{Patterns: []string{
			"./testdata/bench", "./testdata/bench/cmd/sieve", "./testdata/bench/cmd/sort", "./testdata/bench/cmd/maps",
			"./testdata/writers", "runtime",
		}})
	})
	if benchProgram.err != nil {
		b.Fatal(benchProgram.err)
	}
	return benchProgram.p
}

// BenchmarkInterpreter compares the interpreter with
// golang.org/x/tools/go/ssa/interp and with native Go on the same
// CPU-bound kernels, in one run. Metrics: ns per kernel run for each, and
// the ratios explore/xinterp (< 1: faster) and explore/native.
func BenchmarkInterpreter(b *testing.B) {
	p := loadBench(b)
	kernels := []struct {
		name   string
		native func()
	}{
		{"sieve", bench.Sieve},
		{"sort", bench.Sort},
		{"maps", bench.Maps},
	}
	sizes := types.SizesFor("gc", "amd64")
	for _, k := range kernels {
		b.Run(k.name, func(b *testing.B) {
			e, err := p.Func(benchPath + "." + capitalize(k.name))
			if err != nil {
				b.Fatal(err)
			}
			var mainPkg = p.SSA.ImportedPackage(benchPath + "/cmd/" + k.name)
			if mainPkg == nil {
				b.Fatal("no main package for " + k.name)
			}
			var tExplore, tX, tNative time.Duration
			for b.Loop() {
				t0 := time.Now()
				r, err := p.Explore(context.Background(), e, Options{Strategy: DFS, MaxExecutions: 1, MaxLoop: 1 << 40})
				if err != nil || len(r.Findings) > 0 {
					b.Fatalf("explore: %v %v", err, r.Findings)
				}
				t1 := time.Now()
				if code := interp.Interpret(mainPkg, 0, sizes, k.name, nil); code != 0 {
					b.Fatalf("x/tools interp exit code %d", code)
				}
				t2 := time.Now()
				k.native()
				t3 := time.Now()
				tExplore += t1.Sub(t0)
				tX += t2.Sub(t1)
				tNative += t3.Sub(t2)
			}
			n := float64(b.N)
			b.ReportMetric(float64(tExplore.Nanoseconds())/n, "explore-ns/run")
			b.ReportMetric(float64(tX.Nanoseconds())/n, "xinterp-ns/run")
			b.ReportMetric(float64(tNative.Nanoseconds())/n, "native-ns/run")
			b.ReportMetric(float64(tExplore)/float64(tX), "explore/xinterp")
			b.ReportMetric(float64(tExplore)/float64(tNative), "explore/native")
		})
	}
}

func capitalize(s string) string { return string(s[0]-'a'+'A') + s[1:] }

// BenchmarkReduction counts executions of plain DFS and of DPOR, and the
// happens-before classes, on dining philosophers (N = 3…6, ordered forks)
// and on k writers to independent and to one shared variable (writes are
// events with Options.Shared). DFS is capped at 20000 executions
// ("dfs-capped" = 1 when the cap was hit).
func BenchmarkReduction(b *testing.B) {
	p := loadBench(b)
	type kernel struct {
		name, fn string
		shared   bool
	}
	var ks []kernel
	for n := 3; n <= 6; n++ {
		ks = append(ks, kernel{fmt.Sprintf("philosophers-%d", n), fmt.Sprintf("%s.Philosophers%d", benchPath, n), false})
	}
	for k := 2; k <= 4; k++ {
		ks = append(ks, kernel{fmt.Sprintf("independent-%d", k), fmt.Sprintf("%s/writers.Independent%d", testdataPath, k), true})
		ks = append(ks, kernel{fmt.Sprintf("shared-%d", k), fmt.Sprintf("%s/writers.Shared%d", testdataPath, k), true})
	}
	for _, k := range ks {
		b.Run(k.name, func(b *testing.B) {
			e, err := p.Func(k.fn)
			if err != nil {
				b.Fatal(err)
			}
			var dfs, dpor *Report
			for b.Loop() {
				dfs, err = p.Explore(context.Background(), e, Options{Strategy: DFS, Shared: k.shared, MaxExecutions: 20000, CountClasses: true})
				if err != nil {
					b.Fatal(err)
				}
				dpor, err = p.Explore(context.Background(), e, Options{Strategy: DPOR, Shared: k.shared, CountClasses: true})
				if err != nil {
					b.Fatal(err)
				}
			}
			capped := 0.0
			if !dfs.Complete {
				capped = 1
			}
			b.ReportMetric(float64(dfs.Executions), "dfs-execs")
			b.ReportMetric(capped, "dfs-capped")
			b.ReportMetric(float64(dpor.Executions), "dpor-execs")
			b.ReportMetric(float64(dpor.Classes), "classes")
			b.ReportMetric(float64(dpor.Pruned), "dpor-pruned")
			if !dpor.Complete {
				b.Fatalf("DPOR incomplete: %s", dpor.Bound)
			}
			for _, f := range dpor.Findings {
				// the shared writers race on purpose
				if f.Kind != KindRace {
					b.Fatalf("DPOR: %s", f)
				}
			}
		})
	}
}

// BenchmarkExecutionRate measures executions per second of a small
// channel program (random strategy, fixed seed), with 1 and 2 workers.
func BenchmarkExecutionRate(b *testing.B) {
	p := loadBench(b)
	e, err := p.Func(benchPath + ".PingPong")
	if err != nil {
		b.Fatal(err)
	}
	for _, workers := range []int{1, 2} {
		b.Run(fmt.Sprintf("workers-%d", workers), func(b *testing.B) {
			const per = 2000
			start := time.Now()
			total := 0
			for b.Loop() {
				r, err := p.Explore(context.Background(), e, Options{Strategy: Random, Seed: 1, MaxExecutions: per, Workers: workers})
				if err != nil || len(r.Findings) > 0 {
					b.Fatalf("%v %v", err, r.Findings)
				}
				total += r.Executions
			}
			b.ReportMetric(float64(total)/time.Since(start).Seconds(), "executions/s")
		})
	}
}

// BenchmarkInterpreterOnly runs a kernel under the explorer alone (for
// profiling the interpreter).
func BenchmarkInterpreterOnly(b *testing.B) {
	p := loadBench(b)
	for _, k := range []string{"Sieve", "Sort", "Maps"} {
		b.Run(k, func(b *testing.B) {
			e, err := p.Func(benchPath + "." + k)
			if err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				r, err := p.Explore(context.Background(), e, Options{Strategy: DFS, MaxExecutions: 1, MaxLoop: 1 << 40})
				if err != nil || len(r.Findings) > 0 {
					b.Fatalf("explore: %v %v", err, r.Findings)
				}
			}
		})
	}
}

// BenchmarkDPORParallel compares DPOR with 1 and 2 workers in each
// iteration, on dining philosophers (N = 5, 6; and 4 with Options.Shared)
// and 3 and 4 writers to one shared variable. Metrics, averaged over the iterations (the parallel
// figures depend on timing): executions, happens-before classes and
// sleep-set-pruned executions of each, executions (complete + pruned) per
// second of each, and the speedup (time of 1 worker / time of 2). Two
// workers must report as many findings as one.
func BenchmarkDPORParallel(b *testing.B) {
	p := loadBench(b)
	type kernel struct {
		name, fn string
		shared   bool
	}
	ks := []kernel{
		{"philosophers-5", benchPath + ".Philosophers5", false},
		{"philosophers-6", benchPath + ".Philosophers6", false},
		// (6 philosophers with Shared exceed the default MaxExecutions
		// since DPOR reaches all their classes)
		{"philosophers-4-shared", benchPath + ".Philosophers4", true},
		{"shared-3", testdataPath + "/writers.Shared3", true},
		{"shared-4", testdataPath + "/writers.Shared4", true},
	}
	for _, k := range ks {
		b.Run(k.name, func(b *testing.B) {
			e, err := p.Func(k.fn)
			if err != nil {
				b.Fatal(err)
			}
			var execs, pruned, classes [2]int
			var took [2]time.Duration
			for b.Loop() {
				var r [2]*Report
				for i, w := range []int{1, 2} {
					t0 := time.Now()
					r[i], err = p.Explore(context.Background(), e, Options{Strategy: DPOR, Shared: k.shared, CountClasses: true, Workers: w})
					took[i] += time.Since(t0)
					if err != nil {
						b.Fatal(err)
					}
					if !r[i].Complete {
						b.Fatalf("workers %d: incomplete: %s", w, r[i].Bound)
					}
					execs[i] += r[i].Executions
					pruned[i] += r[i].Pruned
					classes[i] += r[i].Classes
				}
				if len(r[0].Findings) != len(r[1].Findings) {
					b.Fatalf("1 worker: %d classes, %d findings; 2 workers: %d classes, %d findings",
						r[0].Classes, len(r[0].Findings), r[1].Classes, len(r[1].Findings))
				}
			}
			n := float64(b.N)
			for i, w := range []int{1, 2} {
				b.ReportMetric(float64(classes[i])/n, fmt.Sprintf("w%d-classes", w))
				b.ReportMetric(float64(execs[i])/n, fmt.Sprintf("w%d-execs", w))
				b.ReportMetric(float64(pruned[i])/n, fmt.Sprintf("w%d-pruned", w))
				b.ReportMetric(float64(execs[i]+pruned[i])/took[i].Seconds(), fmt.Sprintf("w%d-execs/s", w))
			}
			b.ReportMetric(float64(took[0])/float64(took[1]), "speedup")
		})
	}
}

// BenchmarkRaceOverhead measures what default-on race detection costs:
// each iteration explores the same entry with detection off
// (Options.NoRaces) and on, on the CPU-bound kernels (every load and
// store checked, the worst case), a channel ping-pong (random strategy,
// 2000 executions) and dining philosophers (DPOR, N = 5). Metrics: ns
// per exploration of each, the ratio of the totals on/off, and the median
// of the per-iteration ratios (robust to load from other processes,
// since both runs of an iteration see about the same load). The target
// is < 1.5.
func BenchmarkRaceOverhead(b *testing.B) {
	p := loadBench(b)
	cases := []struct {
		name, fn string
		opts     Options
	}{
		{"sieve", "Sieve", Options{Strategy: DFS, MaxExecutions: 1, MaxLoop: 1 << 40}},
		{"sort", "Sort", Options{Strategy: DFS, MaxExecutions: 1, MaxLoop: 1 << 40}},
		{"maps", "Maps", Options{Strategy: DFS, MaxExecutions: 1, MaxLoop: 1 << 40}},
		{"pingpong", "PingPong", Options{Strategy: Random, Seed: 1, MaxExecutions: 2000}},
		{"philosophers-5", "Philosophers5", Options{Strategy: DPOR}},
	}
	for _, k := range cases {
		b.Run(k.name, func(b *testing.B) {
			e, err := p.Func(benchPath + "." + k.fn)
			if err != nil {
				b.Fatal(err)
			}
			var tOff, tOn time.Duration
			var ratios []float64
			for b.Loop() {
				var it [2]time.Duration
				for _, off := range []bool{true, false} {
					o := k.opts
					o.NoRaces = off
					t0 := time.Now()
					r, err := p.Explore(context.Background(), e, o)
					if err != nil || len(r.Findings) > 0 {
						b.Fatalf("races off=%v: %v %v", off, err, r.Findings)
					}
					d := time.Since(t0)
					if off {
						tOff += d
						it[0] = d
					} else {
						tOn += d
						it[1] = d
					}
				}
				ratios = append(ratios, float64(it[1])/float64(it[0]))
			}
			sort.Float64s(ratios)
			n := float64(b.N)
			b.ReportMetric(float64(tOff.Nanoseconds())/n, "off-ns/op")
			b.ReportMetric(float64(tOn.Nanoseconds())/n, "on-ns/op")
			b.ReportMetric(float64(tOn)/float64(tOff), "on/off")
			b.ReportMetric(ratios[len(ratios)/2], "median-on/off")
		})
	}
}
