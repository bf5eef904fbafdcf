package synth

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// jtlvExamSeconds is the thesis's time for ExamService with all six
// aspects in JTLV (§3.2.8): composition 0.1 s, realizability 0.5 s,
// strategy extraction and Java code generation about 3 s.
const jtlvExamSeconds = 3.5

// BenchmarkAspectLTLExam runs the whole AspectLTL pipeline on ExamService
// with the six realizable aspects: parse the seven files, weave, decide
// realizability, extract the strategy, enumerate it (one explicit machine
// serves both the trace and the generated program), trace it both ways,
// minimize it and generate Go. It reports each phase's process CPU time
// (…-cpu-ms/op: the machine is shared, and CPU time depends much less on its
// load than wall time), the total CPU time (cpu-ms/op), and the speed-up
// over JTLV's 3.5 s in CPU time (x-jtlv-cpu) and in wall time (x-jtlv),
// > 1 being faster.
//
//	go test -run '^$' -bench AspectLTLExam -benchtime 5x ./synth
func BenchmarkAspectLTLExam(b *testing.B) {
	ctx := context.Background()
	var paths []string
	for _, f := range []string{"examservice", "tuition", "availabilitynotwait", "failureslogging", "allowquitting", "examprotection", "examcounter"} {
		paths = append(paths, filepath.Join("testdata", "aspectltl", f+".altl"))
	}
	var phases [5]time.Duration // CPU time per phase
	var states, minStates int
	b.ResetTimer()
	for range b.N {
		t0 := cpuTime()
		spec, err := ParseAspectLTLFiles(paths...)
		if err != nil {
			b.Fatal(err)
		}
		w, err := spec.Weave()
		if err != nil {
			b.Fatal(err)
		}
		t1 := cpuTime()
		res, err := w.Spec.Realizable(ctx)
		if err != nil || !res.Realizable {
			b.Fatal("not realizable", err)
		}
		t2 := cpuTime()
		c, err := res.Controller(ctx)
		if err != nil {
			b.Fatal(err)
		}
		m, err := c.Mealy(ctx, 0)
		if err != nil {
			b.Fatal(err)
		}
		t3 := cpuTime()
		if _, err := w.trace(ctx, res, m); err != nil {
			b.Fatal(err)
		}
		t4 := cpuTime()
		min := m.Minimize()
		var src bytes.Buffer
		if err := w.WriteGo(&src, min, "examctl", "ExamController"); err != nil {
			b.Fatal(err)
		}
		t5 := cpuTime()
		for i, d := range []time.Duration{t1 - t0, t2 - t1, t3 - t2, t4 - t3, t5 - t4} {
			phases[i] += d
		}
		states, minStates = len(m.States), len(min.States)
	}
	b.StopTimer()
	n := float64(b.N)
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 / n }
	total := phases[0] + phases[1] + phases[2] + phases[3] + phases[4]
	b.ReportMetric(ms(phases[0]), "weave-cpu-ms/op")
	b.ReportMetric(ms(phases[1]), "realize-cpu-ms/op")
	b.ReportMetric(ms(phases[2]), "strategy-cpu-ms/op")
	b.ReportMetric(ms(phases[3]), "trace-cpu-ms/op")
	b.ReportMetric(ms(phases[4]), "go-cpu-ms/op")
	b.ReportMetric(ms(total), "cpu-ms/op")
	b.ReportMetric(jtlvExamSeconds/(total.Seconds()/n), "x-jtlv-cpu")
	b.ReportMetric(jtlvExamSeconds/(b.Elapsed().Seconds()/n), "x-jtlv")
	b.ReportMetric(float64(states), "states")
	b.ReportMetric(float64(minStates), "min-states")
}

// busAspects returns a base with a shared bus and k independent
// request/grant aspects: each grants only while the bus is taken and
// answers every request eventually (a response pattern, so one helper
// variable each).
func busAspects(k int) string {
	var b strings.Builder
	b.WriteString("MODULE Bus\nVAR busy : boolean;\nINIT !busy;\n")
	for i := range k {
		fmt.Fprintf(&b, `ASPECT Client%[1]d
VARENV new req%[1]d : boolean;
VAR    ext busy : boolean;
       new grant%[1]d : boolean;
LTLSPEC !grant%[1]d & [] (next(grant%[1]d) -> next(busy)) & [] (req%[1]d -> <> grant%[1]d);
`, i)
	}
	return b.String()
}

// BenchmarkAspectLTLWeaveScaling weaves k = 1, 2, 4, …, 64 generated
// request/grant aspects into a bus base: parse and Weave (the Spec), then
// compose the game's BDDs — declare the variables and compile every
// clause, θs = (θ_B ∨ ⋁θ_A) ∧ ⋀Ls_i and the conjuncts of ρs — the part
// the thesis says is linear in the number of aspects. It reports the time
// per aspect of each (weave-us/aspect, compose-us/aspect), flat when the
// cost is linear, and the BDD nodes of all compiled clauses. The
// monolithic conjunction of ρs is not part of it (the solver conjoins the
// clusters of a partitioned ρs); its size depends on the variable order.
//
//	go test -run '^$' -bench AspectLTLWeaveScaling ./synth
func BenchmarkAspectLTLWeaveScaling(b *testing.B) {
	for k := 1; k <= 64; k *= 2 {
		src := busAspects(k)
		b.Run(fmt.Sprintf("k=%d", k), func(b *testing.B) {
			var weave, compose time.Duration
			var nodes int
			for range b.N {
				t0 := time.Now()
				spec, err := ParseAspectLTL("bus.altl", strings.NewReader(src))
				if err != nil {
					b.Fatal(err)
				}
				w, err := spec.Weave()
				if err != nil {
					b.Fatal(err)
				}
				t1 := time.Now()
				g, err := w.Spec.compileGame(newOptions(nil))
				if err != nil {
					b.Fatal(err)
				}
				compose += time.Since(t1)
				weave += t1.Sub(t0)
				nodes = 0
				for _, c := range g.clause {
					nodes += c.Size()
				}
			}
			per := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1000 / float64(b.N) / float64(k) }
			b.ReportMetric(per(weave), "weave-us/aspect")
			b.ReportMetric(per(compose), "compose-us/aspect")
			b.ReportMetric(float64(nodes), "clause-nodes")
		})
	}
}
