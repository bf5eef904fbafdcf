package automaton

import (
	"context"
	"flag"
	"fmt"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/henceforth-go/henceforth/ltl"
	"github.com/henceforth-go/henceforth/monitor"
)

// A family is a scalable formula: formula(n) for n = 1, 2, …
type family struct {
	name    string
	formula func(n int) string
}

func conj(n int, each func(i int) string) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = "(" + each(i) + ")"
	}
	return strings.Join(parts, " & ")
}

// dwyer are the LTL formulas of the specification patterns of Dwyer,
// Avrunin and Corbett (absence, existence, universality, precedence,
// response; each with the scopes global, before R, after Q, between Q and
// R, after Q until R), with P, Q, R, S placeholders.
var dwyer = []struct{ pattern, scope, f string }{
	{"absence", "global", "G(!P)"},
	{"absence", "before", "F R -> (!P U R)"},
	{"absence", "after", "G(Q -> G(!P))"},
	{"absence", "between", "G((Q & !R & F R) -> (!P U R))"},
	{"absence", "until", "G((Q & !R) -> (!P W R))"},
	{"existence", "global", "F(P)"},
	{"existence", "before", "!R W (P & !R)"},
	{"existence", "after", "G(!Q) | F(Q & F P)"},
	{"existence", "between", "G((Q & !R) -> (!R W (P & !R)))"},
	{"existence", "until", "G((Q & !R) -> (!R U (P & !R)))"},
	{"universality", "global", "G(P)"},
	{"universality", "before", "F R -> (P U R)"},
	{"universality", "after", "G(Q -> G(P))"},
	{"universality", "between", "G((Q & !R & F R) -> (P U R))"},
	{"universality", "until", "G((Q & !R) -> (P W R))"},
	{"precedence", "global", "!P W S"},
	{"precedence", "before", "F R -> (!P U (S | R))"},
	{"precedence", "after", "G(!Q) | F(Q & (!P W S))"},
	{"precedence", "between", "G((Q & !R & F R) -> (!P U (S | R)))"},
	{"precedence", "until", "G((Q & !R) -> (!P W (S | R)))"},
	{"response", "global", "G(P -> F S)"},
	{"response", "before", "F R -> ((P -> (!R U (S & !R))) U R)"},
	{"response", "after", "G(Q -> G(P -> F S))"},
	{"response", "between", "G((Q & !R & F R) -> ((P -> (!R U (S & !R))) U R))"},
	{"response", "until", "G((Q & !R) -> ((P -> (!R U (S & !R))) W R))"},
}

// families are the scalable benchmarks: formula families indexed by a size
// n. The Dwyer patterns scale as conjunctions of n copies over fresh atoms
// p_i, q_i, r_i, s_i.
func families() []family {
	fs := []family{
		{"conj_F", func(n int) string { return conj(n, func(i int) string { return fmt.Sprintf("F p%d", i) }) }},
		{"resp", func(n int) string {
			return conj(n, func(i int) string { return fmt.Sprintf("G(p%d -> F q%d)", i, i) })
		}},
		// An n-bit counter that starts at 0, counts up by one at every
		// step (carry c_i into bit b_i; N: the last step has no successor
		// to constrain) and must reach all ones: the minimal DFA counts
		// to 2^n.
		{"counter", func(n int) string {
			var parts []string
			for i := range n {
				parts = append(parts, fmt.Sprintf("!b%d", i))
				parts = append(parts, fmt.Sprintf("G((b%d ^ c%d) <-> N b%d)", i, i, i))
				if i == 0 {
					parts = append(parts, "G(c0)")
				} else {
					parts = append(parts, fmt.Sprintf("G(c%d <-> (b%d & c%d))", i, i-1, i-1))
				}
			}
			all := make([]string, n)
			for i := range all {
				all[i] = fmt.Sprintf("b%d", i)
			}
			parts = append(parts, "F("+strings.Join(all, " & ")+")")
			return strings.Join(parts, " & ")
		}},
		{"until_chain", func(n int) string {
			ps := make([]string, n)
			for i := range ps {
				ps[i] = fmt.Sprintf("p%d", i)
			}
			return strings.Join(ps, " U ")
		}},
		{"nested_X", func(n int) string {
			return "F(p & " + strings.Repeat("X(", n) + "q" + strings.Repeat(")", n) + ")"
		}},
	}
	for _, d := range dwyer {
		fs = append(fs, family{"dwyer_" + d.pattern + "_" + d.scope, func(n int) string {
			return conj(n, func(i int) string {
				r := strings.NewReplacer("P", fmt.Sprintf("p%d", i), "Q", fmt.Sprintf("q%d", i),
					"R", fmt.Sprintf("r%d", i), "S", fmt.Sprintf("s%d", i))
				return r.Replace(d.f)
			})
		}})
	}
	return fs
}

// monaCache remembers MONA's result per formula, so that the benchmark
// framework's repeated calls run MONA once.
var monaCache sync.Map // string → monaOutcome

type monaOutcome struct {
	res monaResult
	err error
}

// Limits of the families benchmark: a family grows until our build takes
// more CPU time than -families.limit; MONA runs while it stays under
// -families.mona (wall time).
var (
	buildLimit = flag.Duration("families.limit", 10*time.Second, "BenchmarkFamilies: stop a family after a build takes this much CPU time")
	monaLimit  = flag.Duration("families.mona", 60*time.Second, "BenchmarkFamilies: stop MONA after this long (wall time)")
)

const maxCountedStates = 1 << 16

// processCPU returns the CPU time (user and system) the process has used
// so far: on a loaded machine it measures the work of a construction where
// wall time measures the load.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkFamilies measures the construction of the minimal DFA (ns/op,
// and cpu-s: the process's CPU seconds per construction) and its size on
// the scalable families, n growing until a build takes more than 10 s of
// CPU time (or the formula has more than 64 atoms), and runs MONA on the
// same formula in the same run (metrics mona-s, mona-cpu-s, mona-states;
// mona-expected is the count MONA must report if our DFA is minimal — see
// monaExpected; speedup is MONA's wall time over ours, cpu-speedup its CPU
// time over ours). MONA is skipped when it is not installed, and for
// larger n once it took more than half its limit. The flags
// -families.limit and -families.mona change the two limits.
func BenchmarkFamilies(b *testing.B) {
	_, err := exec.LookPath("mona")
	haveMONA := err == nil
	if !haveMONA {
		b.Log("mona is not installed (Debian package mona): no MONA comparison")
	}
	dir := b.TempDir()
	for _, fam := range families() {
		b.Run(fam.name, func(b *testing.B) {
			monaGaveUp := !haveMONA
			for n := 1; ; n++ {
				f := ltl.MustParse(fam.formula(n))
				if len(f.Atoms()) > maxAtoms {
					return
				}
				var perOp time.Duration // CPU time per construction
				b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
					var d *DFA
					cpu0 := processCPU()
					for b.Loop() {
						var err error
						if d, err = FromFormula(context.Background(), f, Options{}); err != nil {
							b.Fatal(err)
						}
					}
					wall := b.Elapsed() / time.Duration(b.N)
					perOp = (processCPU() - cpu0) / time.Duration(b.N)
					b.ReportMetric(perOp.Seconds(), "cpu-s")
					b.ReportMetric(float64(d.NumStates()), "states")
					if d.NumStates() <= maxCountedStates {
						// Counting transitions visits every state's
						// diagram: slow for the largest automata.
						b.ReportMetric(float64(d.Stats().Transitions), "transitions")
					}
					if monaGaveUp {
						return
					}
					key := f.String()
					v, ok := monaCache.Load(key)
					if !ok {
						res, err := runMONA(b.Context(), dir, f, *monaLimit)
						v = monaOutcome{res, err}
						monaCache.Store(key, v)
					}
					out := v.(monaOutcome)
					if out.err != nil {
						b.Logf("MONA: %v", out.err)
						monaGaveUp = true
						return
					}
					b.ReportMetric(out.res.elapsed.Seconds(), "mona-s")
					b.ReportMetric(out.res.cpu.Seconds(), "mona-cpu-s")
					b.ReportMetric(float64(out.res.states), "mona-states")
					b.ReportMetric(float64(monaExpected(d, out.res.acceptsEmpty)), "mona-expected")
					b.ReportMetric(out.res.elapsed.Seconds()/wall.Seconds(), "speedup")
					b.ReportMetric(out.res.cpu.Seconds()/perOp.Seconds(), "cpu-speedup")
					if out.res.elapsed > *monaLimit/2 {
						monaGaveUp = true
					}
				})
				if perOp > *buildLimit {
					return
				}
			}
		})
	}
}

// sinkVerdict keeps the baseline's result alive.
var sinkVerdict monitor.Verdict

// BenchmarkMonitorStep measures events per second of the online monitor:
// the flat table (few atoms), the decision-diagram walk (14 atoms), a mixed
// formula (past monitor plus DFA) and, as the baseline, hand-written Go for
// G(req -> F ack).
func BenchmarkMonitorStep(b *testing.B) {
	letters := make([]monitor.Letter, 1024)
	x := uint64(1)
	for i := range letters {
		x = x*6364136223846793005 + 1442695040888963407
		letters[i] = monitor.Letter(x >> 20)
	}
	var wide []string
	for i := range 7 {
		wide = append(wide, fmt.Sprintf("G(p%d -> F q%d)", i, i))
	}
	cases := []struct{ name, f string }{
		{"table", "G(req -> F ack)"},
		{"walk", strings.Join(wide, " & ")},
		{"mixed", "G(ack -> O req) & G(req -> F ack)"},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			d, err := FromFormula(context.Background(), ltl.MustParse(c.f), Options{})
			if err != nil {
				b.Fatal(err)
			}
			m := d.Monitor()
			i := 0
			for b.Loop() {
				m.Step(letters[i&1023])
				i++
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "events/s")
		})
	}
	b.Run("handwritten", func(b *testing.B) {
		// G(req -> F ack), bits: req = 1, ack = 0.
		pending := false
		var v monitor.Verdict
		i := 0
		for b.Loop() {
			l := letters[i&1023]
			i++
			req, ack := l&2 != 0, l&1 != 0
			pending = (pending || req) && !ack
			if pending {
				v = monitor.CurrentlyFalse
			} else {
				v = monitor.CurrentlyTrue
			}
		}
		sinkVerdict = v
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "events/s")
	})
}
