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
