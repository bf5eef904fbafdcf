package explore

import (
	"context"
	"testing"
	"time"
)

// sessionStep is one request of a benchmarked session.
type sessionStep struct {
	formula string
	o       StepOptions
	pop     bool // pop the step after it (D2, D6, D7 of the paper)
	clear   bool // clear the stack before it (D4)
}

// dekkerSession is the paper's Dekker session D1–D9.
func dekkerSession(search SearchMode) []sessionStep {
	o := StepOptions{Search: search, MaxNodes: 20000}
	every := o
	every.Size = EveryEnd
	return []sessionStep{
		{formula: "F(at(P0, m2) && at(P1, n1))", o: o},
		{formula: "G at(P1, n1)", o: every, pop: true},
		{formula: "G at(P1, n1) && F at(P0, m8)", o: o},
		{formula: "F(at(P0, m2) && at(P1, n2))", o: o, clear: true},
		{formula: "G at(P1, n2) && F at(P0, m8)", o: o},
		{formula: "G at(P1, n2)", o: every, pop: true},
		{formula: "F at(P0, m8)", o: o, pop: true},
		{formula: "!at(P0, m8) U at(P1, n8)", o: o},
		{formula: "!at(P1, n8) U at(P0, m8)", o: o},
	}
}

// BenchmarkSession runs temporal debugging sessions: the paper's Dekker
// session (D1–D9) and a deadlock step on five dining philosophers (whose
// states have no fingerprint, so nothing is matched), each with BFS and
// with the memoryless iterative deepening. Metrics per step: executions
// (nodes/step), states visited (states/step), the most states held at
// once (stored/step, the memory of the search), and time: wall
// (ms/step) and the process's CPU time (cpu-ms/step), which a loaded
// machine disturbs less.
func BenchmarkSession(b *testing.B) {
	p := loadSpecs(b)
	cases := []struct {
		name, entry string
		steps       []sessionStep
	}{
		{"dekker/bfs", dekkerRun, dekkerSession(BFS)},
		{"dekker/iddfs", dekkerRun, dekkerSession(IterativeDeepening)},
		{"philosophers-5/bfs", sessionPath + ".Philosophers5", []sessionStep{{formula: "F deadlock", o: StepOptions{Search: BFS}}}},
		{"philosophers-5/iddfs", sessionPath + ".Philosophers5", []sessionStep{{formula: "F deadlock", o: StepOptions{Search: IterativeDeepening}}}},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			e, err := p.Func(c.entry)
			if err != nil {
				b.Fatal(err)
			}
			var nodes, states, stored, steps int
			var elapsed, cpu time.Duration
			for b.Loop() {
				// Dekker never ends: the execution that records a
				// step's replay token runs to the steps bound, which
				// would dominate the figures; 300 steps keep them
				// about the search.
				s := p.NewSession(e, Options{MaxSteps: 300})
				for i, st := range c.steps {
					if st.clear {
						s.Clear()
					}
					start, cpu0 := time.Now(), processCPU()
					r, err := s.Push(context.Background(), st.formula, st.o)
					if err != nil {
						b.Fatal(err)
					}
					for st.o.Size == EveryEnd && r.Verdict == Found {
						nodes += r.Nodes
						r, err = s.Backtrack(context.Background())
						if err != nil {
							b.Fatal(err)
						}
					}
					elapsed += time.Since(start)
					cpu += processCPU() - cpu0
					nodes += r.Nodes
					states += r.States
					stored += r.Stored
					steps++
					if b.N == 1 || steps <= len(c.steps) {
						b.Logf("%s step %d %s: %s (%d nodes, %d states, %d stored, bound %q)", c.name, i+1, st.formula, r.Verdict, r.Nodes, r.States, r.Stored, r.Bound)
					}
					if st.pop && len(s.Steps()) > 0 && st.o.Size != EveryEnd {
						_ = s.Pop()
					}
				}
				s.Clear() // release the steps' suspended searches
			}
			b.ReportMetric(float64(nodes)/float64(steps), "nodes/step")
			b.ReportMetric(float64(states)/float64(steps), "states/step")
			b.ReportMetric(float64(stored)/float64(steps), "stored/step")
			b.ReportMetric(float64(elapsed.Milliseconds())/float64(steps), "ms/step")
			b.ReportMetric(float64(cpu.Milliseconds())/float64(steps), "cpu-ms/step")
		})
	}
}
