package explore

import (
	"context"
	"testing"
)

// BenchmarkSpecOverhead: exhaustive DFS of the singleton scenario with its
// corrected spec checked, against the same exploration without specs
// (the baseline). Calls of getSingleton are scheduling points only with
// the spec, so the two explore different numbers of executions: compare
// executions/s.
func BenchmarkSpecOverhead(b *testing.B) {
	p := loadSpecs(b)
	e, err := p.Func(examplesPath + "/singleton.Scenario")
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		opts Options
	}{
		{"nospecs", Options{Strategy: DFS, NoSpecs: true}},
		{"spec", Options{Strategy: DFS, Specs: []string{"atMostOnce"}}},
	} {
		b.Run(c.name, func(b *testing.B) {
			execs := 0
			for b.Loop() {
				r, err := p.Explore(context.Background(), e, c.opts)
				if err != nil {
					b.Fatal(err)
				}
				execs += r.Executions
			}
			b.ReportMetric(float64(execs)/b.Elapsed().Seconds(), "executions/s")
		})
	}
}

// BenchmarkFindDekker: the complete search proving Dekker's mutual
// exclusion (no witness), in search nodes (executions) per second; the
// baseline is a search that stops at once (a 0-step witness).
func BenchmarkFindDekker(b *testing.B) {
	p := loadSpecs(b)
	e, err := p.Func(dekkerRun)
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct{ name, formula string }{
		{"baseline", "true"},
		{"mutex", "F(at(P0, m8) && at(P1, n8))"},
	} {
		b.Run(c.name, func(b *testing.B) {
			nodes, states := 0, 0
			for b.Loop() {
				r, err := p.Find(context.Background(), e, c.formula, FindOptions{})
				if err != nil {
					b.Fatal(err)
				}
				nodes += r.Nodes
				states = r.States
			}
			b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
			b.ReportMetric(float64(states), "states")
		})
	}
}

// BenchmarkSpecStateDPOR: exhaustive exploration of programs with
// state-predicate specs, DFS against DPOR (which treats the writes the
// predicates read as conflicting events: one execution per class of the
// observed trace). Reported per exploration: executions, and whether the
// expected specs were violated (violations: the number of specs with a
// finding, the same for both).
func BenchmarkSpecStateDPOR(b *testing.B) {
	p := loadSpecs(b)
	for _, c := range []struct {
		name, entry string
		specs       []string
	}{
		{"withdrawals", testdataPath + "/multispec.TestTwoWithdrawals", nil},
		{"pulses", testdataPath + "/specpaths.Pulses", []string{"neverBoth"}},
		{"overdraw", specsPath + ".Overdraw", []string{"neverOverdrawn"}},
		{"workers", specsPath + ".Workers", []string{"eventuallyDone"}},
	} {
		e, err := p.Func(c.entry)
		if err != nil {
			b.Fatal(err)
		}
		for _, s := range []Strategy{DFS, DPOR} {
			b.Run(c.name+"/"+string(s), func(b *testing.B) {
				var r *Report
				cpu := processCPU()
				for b.Loop() {
					r, err = p.Explore(context.Background(), e, Options{Strategy: s, Specs: c.specs})
					if err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(processCPU()-cpu)/float64(b.N)/1e6, "cpu-ms/op")
				b.ReportMetric(float64(r.Executions), "executions")
				n := 0
				for _, f := range r.Findings {
					if f.Kind == KindLTL {
						n++
					}
				}
				b.ReportMetric(float64(n), "violations")
			})
		}
	}
}

// BenchmarkSpecWatchedWrites: the cost of observing predicates at every
// write. churn (200000 stores into a slice and a heap struct, none of
// them read by a predicate) with the state-predicate spec neverBoth
// against the same without specs: unwatched stores run the same code.
// toggles: 1000 watched writes in one goroutine (each a scheduling point
// followed by an evaluation), against no specs; with DPOR (the default)
// and DFS. cpu-ms/op is the process's CPU time per exploration (steadier
// than wall time on a loaded machine).
func BenchmarkSpecWatchedWrites(b *testing.B) {
	p := loadSpecs(b)
	for _, c := range []struct{ name, entry string }{
		{"churn", testdataPath + "/specpaths.Churn"},
		{"toggles", testdataPath + "/specpaths.Toggles"},
	} {
		e, err := p.Func(c.entry)
		if err != nil {
			b.Fatal(err)
		}
		for _, o := range []struct {
			name string
			opts Options
		}{
			{"nospecs", Options{NoSpecs: true}},
			{"spec", Options{Specs: []string{"neverBoth"}}},
			{"spec-dfs", Options{Strategy: DFS, Specs: []string{"neverBoth"}}},
		} {
			b.Run(c.name+"/"+o.name, func(b *testing.B) {
				var r *Report
				cpu := processCPU()
				for b.Loop() {
					r, err = p.Explore(context.Background(), e, o.opts)
					if err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(processCPU()-cpu)/float64(b.N)/1e6, "cpu-ms/op")
				if r.Verdict() != "pass" {
					b.Fatalf("%s: %v", c.entry, r.Findings)
				}
				b.ReportMetric(float64(r.MaxSteps), "steps")
			})
		}
	}
}
