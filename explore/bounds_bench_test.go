package explore

import (
	"context"
	"testing"
)

// BenchmarkLongExecution explores the 40000-step executions of
// testdata/bounds (one goroutine on a buffered channel; two goroutines
// handing a token over an unbuffered one) with DFS (no analysis) and DPOR
// (the analysis of the execution's races): the difference is the cost of
// DPOR's analysis of one long execution.
func BenchmarkLongExecution(b *testing.B) {
	p := loadBounds(b)
	for _, name := range []string{"TestDeadlockAfterManyChannelOps", "TestPingPong"} {
		e, err := p.Func(boundsPath + "." + name)
		if err != nil {
			b.Fatal(err)
		}
		for _, s := range []Strategy{DFS, DPOR} {
			b.Run(name[4:]+"/"+string(s), func(b *testing.B) {
				for b.Loop() {
					r, err := p.Explore(context.Background(), e, Options{Strategy: s, MaxSteps: 100000})
					if err != nil || r.Verdict() != "fail" || r.MaxSteps < 20000 {
						b.Fatalf("%v %s %d", err, r.Verdict(), r.MaxSteps)
					}
				}
			})
		}
	}
}
