package symbolic

import (
	"fmt"
	"go/token"
	"runtime"
	"testing"
	"time"
)

// These benchmarks simulate the explorer on a function with k symbolic
// branches, each of which both ways is feasible whatever came before,
// so there are 2^k feasible paths:
//
//	independent: if x_i*3 > 7+i { … }            (branch i reads only x_i)
//	linked:      if x_0+…+x_i > i { … }          (every branch shares inputs with the earlier ones)
//
// The symbolic modes enumerate the paths depth-first (Branch, then Push,
// Assume, recurse, Pop per feasible side) with a new Session per
// exploration; "replay" is the concrete baseline: it evaluates the same
// k conditions on concrete inputs (the models of the symbolic run), one
// run per path, as an explorer replaying the paths would.

type benchProgram struct {
	name string
	// cond returns branch i's condition over the inputs xs.
	cond func(xs []Value, i int) Value
}

var benchPrograms = []benchProgram{
	{"independent", func(xs []Value, i int) Value {
		lhs := mustValue(BinOp(token.MUL, xs[i], MakeInt(Int64, 3)))
		return mustValue(BinOp(token.GTR, lhs, MakeInt(Int64, int64(7+i))))
	}},
	{"linked", func(xs []Value, i int) Value {
		sum := xs[0]
		for _, x := range xs[1 : i+1] {
			sum = mustValue(BinOp(token.ADD, sum, x))
		}
		return mustValue(BinOp(token.GTR, sum, MakeInt(Int64, int64(i))))
	}},
}

type benchMode struct {
	name string
	cfg  Config
	maxK map[string]int // largest k worth running per program (slow modes)
}

var benchModes = []benchMode{
	{"incremental+cache", Config{}, map[string]int{"independent": 16, "linked": 12}},
	{"incremental+cache-noguess", Config{DisableGuessing: true}, map[string]int{"independent": 16, "linked": 8}},
	{"incremental+cache-noguess-noslice", Config{DisableGuessing: true, DisableSlicing: true}, map[string]int{"independent": 10, "linked": 8}},
	{"incremental-nocache", Config{DisableCache: true}, map[string]int{"independent": 10, "linked": 8}},
	{"fresh+cache-noguess", Config{DisableIncremental: true, DisableGuessing: true}, map[string]int{"independent": 16, "linked": 8}},
	{"fresh-nocache", Config{DisableIncremental: true, DisableCache: true}, map[string]int{"independent": 10, "linked": 8}},
}

func benchInputs(k int) []Value {
	xs := make([]Value, k)
	for i := range xs {
		xs[i] = Input(fmt.Sprintf("x%d", i), Int64)
	}
	return xs
}

// exploreAll enumerates every feasible path of p with s; at each leaf
// it calls leaf (if not nil). It returns the number of paths.
func exploreAll(tb testing.TB, s *Session, p benchProgram, xs []Value, leaf func()) int {
	paths := 0
	var walk func(d int)
	walk = func(d int) {
		if d == len(xs) {
			paths++
			if leaf != nil {
				leaf()
			}
			return
		}
		c := p.cond(xs, d)
		onTrue, onFalse, err := s.Branch(bg, c)
		if err != nil {
			tb.Fatal(err)
		}
		for _, side := range []struct {
			r Result
			c Value
		}{{onTrue, c}, {onFalse, Not(c)}} {
			switch side.r.Status {
			case Unsat:
				continue
			case Unknown:
				tb.Fatalf("unknown at depth %d: %s", d, side.r.Reason)
			}
			s.Push()
			if err := s.Assume(side.c); err != nil {
				tb.Fatal(err)
			}
			walk(d + 1)
			s.Pop()
		}
	}
	walk(0)
	return paths
}

func BenchmarkPaths(b *testing.B) {
	for _, p := range benchPrograms {
		for _, k := range []int{8, 10, 12, 14, 16} {
			if p.name == "linked" && k > 12 {
				continue
			}
			xs := benchInputs(k)
			for _, mode := range benchModes {
				if k > mode.maxK[p.name] {
					continue
				}
				b.Run(fmt.Sprintf("%s/k=%d/%s", p.name, k, mode.name), func(b *testing.B) {
					settle()
					var total Stats
					var exploring, exploringCPU, creating time.Duration
					paths, sessions := 0, 0
					for b.Loop() {
						start := time.Now()
						s, err := NewSession(mode.cfg)
						if err != nil {
							b.Fatal(err)
						}
						created, cpu := time.Now(), cpuTime()
						n := exploreAll(b, s, p, xs, nil)
						exploring += time.Since(created)
						exploringCPU += cpuTime() - cpu
						creating += created.Sub(start)
						if n != 1<<k {
							b.Fatalf("explored %d paths, want %d", n, 1<<k)
						}
						paths += n
						sessions++
						st := s.Stats()
						total.SolverCalls += st.SolverCalls
						total.SolverTime += st.SolverTime
						total.Queries += st.Queries
					}
					// paths/s counts exploration only: a worker creates its
					// Session (a Z3 context) once, reported as session-ms.
					b.ReportMetric(float64(paths)/exploring.Seconds(), "paths/s")
					reportCPU(b, paths, exploringCPU)
					b.ReportMetric(creating.Seconds()*1000/float64(sessions), "session-ms")
					b.ReportMetric(float64(total.SolverCalls)/float64(paths), "solver-calls/path")
					b.ReportMetric(float64(total.SolverTime.Microseconds())/float64(paths), "solver-µs/path")
					b.ReportMetric(float64(total.Queries)/float64(paths), "queries/path")
				})
			}
			b.Run(fmt.Sprintf("%s/k=%d/replay", p.name, k), func(b *testing.B) {
				runs := witnesses(b, p, xs)
				settle()
				paths, taken := 0, 0
				start, cpu := time.Now(), cpuTime()
				for b.Loop() {
					for _, in := range runs {
						for i := range k {
							if t, _ := p.cond(in, i).Bool(); t {
								taken++
							}
						}
						paths++
					}
				}
				if taken != paths*k/2 {
					b.Fatalf("replay took %d true branches in %d paths, want half of %d", taken, paths, paths*k)
				}
				b.ReportMetric(float64(paths)/time.Since(start).Seconds(), "paths/s")
				reportCPU(b, paths, cpuTime()-cpu)
			})
		}
	}
}

// settle collects garbage and runs pending finalizers (go-z3 frees Z3
// contexts and terms in finalizers), so that the next measurement does
// not pay for the previous one.
func settle() {
	runtime.GC()
	runtime.GC()
}

// reportCPU reports paths per CPU second, the figure to compare on a
// loaded machine (wall-clock rates there depend on the other load).
func reportCPU(b *testing.B, paths int, cpu time.Duration) {
	if cpu > 0 {
		b.ReportMetric(float64(paths)/cpu.Seconds(), "paths/cpu-s")
	}
}

// witnesses explores p symbolically once and returns, for every path,
// the concrete inputs of its model.
func witnesses(tb testing.TB, p benchProgram, xs []Value) [][]Value {
	s, err := NewSession(Config{})
	if err != nil {
		tb.Fatal(err)
	}
	var runs [][]Value
	exploreAll(tb, s, p, xs, func() {
		m, err := s.Model(bg)
		if err != nil {
			tb.Fatal(err)
		}
		in := make([]Value, len(xs))
		for i, x := range xs {
			in[i] = m.Eval(x)
		}
		runs = append(runs, in)
	})
	return runs
}
